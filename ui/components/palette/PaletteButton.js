/** Opens the command palette from the sidebar (the way in on phones, no keyboard needed). */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { openOverlay } from "../../state/palette.js";
import { setDrawer } from "../../state/ui.js";
import { Icon } from "../Icons.js";

const IconCommand = () =>
  html`<${Icon} size=${18} d=${[
    "M9 6a3 3 0 1 0-3 3h12a3 3 0 1 0-3-3v12a3 3 0 1 0 3-3H6a3 3 0 1 0 3 3z",
  ]} />`;

export function PaletteButton() {
  return html`
    <button
      type="button"
      class="icon-btn sidebar-search"
      data-testid="open-palette"
      aria-label=${t("palette.open")}
      title=${t("palette.open")}
      onClick=${() => {
        setDrawer(false);
        openOverlay("palette");
      }}
    >
      <${IconCommand} />
    </button>
  `;
}
