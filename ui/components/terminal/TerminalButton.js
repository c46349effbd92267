/** The header's button that opens (or hides) the terminal dock. */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { closeTerminalDock, openTerminalDock, termDockOpen } from "../../state/terminal.js";
import { Icon } from "../Icons.js";

export const IconTerminal = (/** @type {{size?: number}} */ p) =>
  html`<${Icon} ...${p} d=${["M4 5h16v14H4z", "M7.5 9.5l3 2.5-3 2.5", "M12.5 15h4"]} />`;

/**
 * @param {{desktopOnly?: boolean}} props `desktopOnly`: in the header of a task, where a phone
 *   has no room (its Workbench menu has the terminal instead).
 */
export function TerminalButton({ desktopOnly = false }) {
  const open = termDockOpen.value;
  return html`
    <button
      type="button"
      class=${`icon-btn${open ? " on" : ""}${desktopOnly ? " desktop-only" : ""}`}
      data-testid="open-terminal"
      aria-label=${t("terminal.open")}
      aria-expanded=${open ? "true" : "false"}
      aria-controls="terminal-dock"
      title=${t("terminal.open")}
      onClick=${() => open ? closeTerminalDock() : openTerminalDock()}
    >
      <${IconTerminal} />
    </button>
  `;
}
