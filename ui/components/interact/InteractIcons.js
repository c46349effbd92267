/**
 * Stroke icons of the interactive parts: rewind, the message menu, questions, todos
 * (24×24 viewBox, `currentColor`). Decorative: the control around each icon carries
 * the accessible name.
 */
import { html } from "../../html.js";
import { Icon as BaseIcon } from "../Icons.js";

/** @param {{d: string | string[], size?: number}} props */
const Icon = ({ d, size = 16 }) => html`<${BaseIcon} d=${d} size=${size} />`;

/** @typedef {{size?: number}} P */
export const IconRewind = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M4 5v5h5", "M4.6 14.5A8 8 0 105.6 7.1L4 10"]} />`;
export const IconMore = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M5 12h.01", "M12 12h.01", "M19 12h.01"]} />`;
export const IconList = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${[
    "M9 6h11",
    "M9 12h11",
    "M9 18h11",
    "M4 6l1 1 2-2",
    "M4 12h2",
    "M4 18h2",
  ]} />`;
export const IconCircle = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M12 20a8 8 0 100-16 8 8 0 000 16z"]} />`;
export const IconDone = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M12 20a8 8 0 100-16 8 8 0 000 16z", "M8.5 12.2l2.4 2.3 4.6-4.8"]} />`;
export const IconDoing = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M12 20a8 8 0 100-16 8 8 0 000 16z", "M12 8v4l2.5 1.5"]} />`;
