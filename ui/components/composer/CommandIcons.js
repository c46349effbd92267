/** Icons of slash commands, mentions and the goal chip. */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @typedef {{size?: number}} P */
export const IconSlash = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M15 4L9 20" />`;
export const IconTarget = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${[
    "M12 21a9 9 0 100-18 9 9 0 000 18z",
    "M12 16a4 4 0 100-8 4 4 0 000 8z",
    "M12 12.01V12",
  ]} />`;
export const IconPause = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M9 6v12M15 6v12" />`;
export const IconPlay = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M8 5.5v13l10-6.5z" />`;
export const IconAt = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${[
    "M12 16a4 4 0 100-8 4 4 0 000 8z",
    "M16 8v5a3 3 0 006 0v-1a10 10 0 10-3.9 7.9",
  ]} />`;
