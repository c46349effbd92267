/** Icons of the timeline's history actions (copy, edit, retry, branch, files). */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @typedef {{size?: number}} P */
export const IconCopy = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M9 9h10v10H9z", "M5 15V5h10"]} />`;
export const IconEdit = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M4 20h4L19 9l-4-4L4 16v4z", "M13.5 6.5l4 4"]} />`;
export const IconRetry = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M4 12a8 8 0 1 0 2.3-5.7", "M4 4v4h4"]} />`;
export const IconBranch = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M6 4v16", "M18 8a2 2 0 1 0 0-.01", "M18 10c0 5-12 3-12 8"]} />`;
export const IconFile = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M6 3h8l4 4v14H6z", "M14 3v4h4"]} />`;
export const IconCheck = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M5 12l5 5 9-10" />`;
