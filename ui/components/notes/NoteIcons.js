/** Icons of the Notes page and its entries (a page with lines). */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @typedef {{size?: number}} P */
export const IconNote = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M6 3h9l4 4v14H6z", "M14 3v5h5", "M9 13h7", "M9 17h5"]} />`;
