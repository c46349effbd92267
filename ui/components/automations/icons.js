/** The sidebar's Automations icon (a clock); stroke = currentColor. */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @typedef {{size?: number}} P */
export const IconClock = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M12 3a9 9 0 100 18 9 9 0 000-18z", "M12 7v5l3 2"]} />`;
