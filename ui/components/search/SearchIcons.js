/** Icons of search, find and the context viewer (same style as ../Icons.js). */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @typedef {{size?: number}} P */
export const IconSearch = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M11 4a7 7 0 100 14 7 7 0 000-14z", "M20 20l-4-4"]} />`;
export const IconUp = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M6 15l6-6 6 6" />`;
export const IconDown = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M6 9l6 6 6-6" />`;
/** Find in the page: lines of text and a magnifier. */
export const IconFind = (/** @type {P} */ p) =>
  html`
    <${Icon}
      ...${p}
      d=${[
        "M4 6h12",
        "M4 10h7",
        "M4 14h5",
        "M16 11a3.5 3.5 0 100 7 3.5 3.5 0 000-7z",
        "M21 21l-2.5-2.5",
      ]}
    />
  `;
