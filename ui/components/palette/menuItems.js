/**
 * Items of the header's task menus (desktop ⋯, the phone's Workbench sheet) that open
 * the palette's views: the command palette itself, the questions list, the trajectory.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { openOverlay } from "../../state/palette.js";
import { MenuItem } from "../MenuItem.js";

const ITEMS = /** @type {const} */ ([
  ["palette", "palette.open"],
  ["questions", "palette.questions"],
  ["trajectory", "palette.trajectory"],
]);

/** @param {() => void} close closes the menu */
export function paletteMenuItems(close) {
  return ITEMS.map(([which, label]) =>
    html`
      <${MenuItem}
        role="menuitem"
        checked=${false}
        testid=${`menu-${which}`}
        title=${t(label)}
        onSelect=${() => {
          close();
          openOverlay(which);
        }}
      />
    `
  );
}
