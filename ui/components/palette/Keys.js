/** A shortcut's keys as <kbd> labels (⌘ ⇧ P on macOS, Ctrl Shift P elsewhere). */
import { html } from "../../html.js";
import { chordLabels } from "../../state/palette_model.js";
import { isMac } from "../../state/palette.js";

/** @param {{keys: string|undefined}} props */
export function Keys({ keys }) {
  if (!keys) return null;
  return html`
    <span class="pal-keys">
      ${chordLabels(keys, isMac).map((k) => html`<kbd>${k}</kbd>`)}
    </span>
  `;
}
