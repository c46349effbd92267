/** Icons of the sidebar's project tree and folder browser (see ../Icons.js). */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @typedef {{size?: number}} P */
export const IconGrip = (/** @type {P} */ p) =>
  html`
    <${Icon}
      ...${p}
      d=${[
        "M9 6h.01M9 12h.01M9 18h.01M15 6h.01M15 12h.01M15 18h.01",
      ]}
    />
  `;
export const IconChevronRight = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M9 6l6 6-6 6" />`;
export const IconFolder = (/** @type {P} */ p) =>
  html`
    <${Icon} ...${p}
      d="M3 7a2 2 0 012-2h4l2 2h8a2 2 0 012 2v8a2 2 0 01-2 2H5a2 2 0 01-2-2z" />
  `;
export const IconFolderPlus = (/** @type {P} */ p) =>
  html`
    <${Icon}
      ...${p}
      d=${[
        "M3 7a2 2 0 012-2h4l2 2h8a2 2 0 012 2v8a2 2 0 01-2 2H5a2 2 0 01-2-2z",
        "M12 10v6M9 13h6",
      ]}
    />
  `;
export const IconSearch = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M11 4a7 7 0 100 14 7 7 0 000-14z", "M20 20l-4-4"]} />`;
export const IconUp = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M12 19V5", "M6 11l6-6 6 6"]} />`;
export const IconHome = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M4 11l8-7 8 7", "M6 9.5V20h12V9.5"]} />`;
export const IconChat = (/** @type {P} */ p) =>
  html`
    <${Icon}
      ...${p}
      d=${["M4 5h16v11H8l-4 4z", "M12 8v5M9.5 10.5h5"]}
    />
  `;

/** A branch glyph (git). */
export const IconBranch = () =>
  html`
    <svg class="icon" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor"
      stroke-width="1.8" stroke-linecap="round" aria-hidden="true">
      <circle cx="6" cy="5" r="2" />
      <circle
        cx="6" cy="19" r="2" />
      <circle cx="18" cy="8" r="2" />
      <path d="M6 7v10M18 10c0 5-12 3-12 7" />
    </svg>
  `;
