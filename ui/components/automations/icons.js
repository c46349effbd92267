/** The sidebar's Automations icon (a clock); stroke = currentColor. */
import { html } from "../../html.js";

/** @param {{d: string[], size?: number}} props */
function Icon({ d, size = 18 }) {
  return html`
    <svg class="icon" width=${size} height=${size} viewBox="0 0 24 24" fill="none"
      stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"
      aria-hidden="true" focusable="false">
      ${d.map((p) => html`<path d=${p} />`)}
    </svg>
  `;
}

/** @typedef {{size?: number}} P */
export const IconClock = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M12 3a9 9 0 100 18 9 9 0 000-18z", "M12 7v5l3 2"]} />`;
