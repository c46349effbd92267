/** Icons of the composer's attachment and queue controls. */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @typedef {{size?: number}} P */
export const IconPaperclip = (/** @type {P} */ p) =>
  html`
    <${Icon} ...${p}
      d="M20.5 11.5l-8.4 8.4a5 5 0 01-7-7l8.4-8.4a3.3 3.3 0 014.7 4.7l-8.4 8.4a1.7 1.7 0 01-2.4-2.4l7.7-7.7" />
  `;
export const IconFile = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${[
    "M14 3H7a2 2 0 00-2 2v14a2 2 0 002 2h10a2 2 0 002-2V8z",
    "M14 3v5h5",
  ]} />`;
export const IconClock = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M12 21a9 9 0 100-18 9 9 0 000 18z", "M12 7v5l3 2"]} />`;
