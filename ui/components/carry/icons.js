/** Icons of the export/import and backup controls. */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @typedef {{size?: number}} P */
export const IconMore = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M6 12h.01", "M12 12h.01", "M18 12h.01"]} />`;
export const IconDownload = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M12 4v11", "M7 10l5 5 5-5", "M5 20h14"]} />`;
export const IconUpload = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M12 20V9", "M7 14l5-5 5 5", "M5 4h14"]} />`;
