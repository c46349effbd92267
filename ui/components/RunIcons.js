/**
 * Stroke icons of the run UI (24×24 viewBox, `currentColor`). Decorative: the control
 * around each icon carries the accessible name.
 */
import { html } from "../html.js";
import { Icon } from "./Icons.js";

/** @param {{d: string | string[], size?: number, fill?: boolean}} props */
const RunIcon = ({ d, size = 16, fill = false }) =>
  html`<${Icon} d=${d} size=${size} fill=${fill} />`;

/** @typedef {{size?: number}} P */
export const IconChevron = (/** @type {P} */ p) => html`<${RunIcon} ...${p} d="M9 6l6 6-6 6" />`;
export const IconChevronDown = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} d="M6 9l6 6 6-6" />`;
export const IconCheck = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} d="M5 12.5l4.5 4.5L19 7" />`;
export const IconStop = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} fill=${true} d="M7 7h10v10H7z" />`;
export const IconX = (/** @type {P} */ p) => html`<${RunIcon} ...${p} d="M7 7l10 10M17 7L7 17" />`;
export const IconTool = (/** @type {P} */ p) =>
  html`
    <${RunIcon}
      ...${p}
      d="M14.5 6.5a4 4 0 00-5.3 5.3L4 17l3 3 5.2-5.2a4 4 0 005.3-5.3l-2.6 2.6-2.4-.6-.6-2.4 2.6-2.6z"
    />
  `;
export const IconBrain = (/** @type {P} */ p) =>
  html`
    <${RunIcon}
      ...${p}
      d=${[
        "M9 18h6M10 21h4",
        "M12 3a6 6 0 00-3.6 10.8c.7.6 1.1 1.3 1.1 2.2h5c0-.9.4-1.6 1.1-2.2A6 6 0 0012 3z",
      ]}
    />
  `;
export const IconAlert = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} d=${["M12 4l9 16H3L12 4z", "M12 10v4M12 17.5v.5"]} />`;
export const IconRetry = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} d=${["M20 11a8 8 0 10-2.3 5.7", "M20 5v6h-6"]} />`;
export const IconCopy = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} d=${["M9 9h11v11H9z", "M5 15H4V4h11v1"]} />`;
export const IconEye = (/** @type {P} */ p) =>
  html`
    <${RunIcon}
      ...${p}
      d=${["M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z", "M12 9a3 3 0 100 6 3 3 0 000-6z"]}
    />
  `;
export const IconGauge = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} d=${["M4 16a8 8 0 1116 0", "M12 16l4-5"]} />`;
export const IconCube = (/** @type {P} */ p) =>
  html`
    <${RunIcon}
      ...${p}
      d=${["M12 3l8 4.5v9L12 21l-8-4.5v-9L12 3z", "M4 7.5l8 4.5 8-4.5M12 12v9"]}
    />
  `;
/** Approval modes: plan (map), ask (hand), edit (pencil), full (bolt). */
export const IconPlan = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} d=${["M9 4L3 6v14l6-2 6 2 6-2V4l-6 2-6-2z", "M9 4v14M15 6v14"]} />`;
export const IconAsk = (/** @type {P} */ p) =>
  html`
    <${RunIcon}
      ...${p}
      d=${[
        "M12 21a9 9 0 100-18 9 9 0 000 18z",
        "M9.5 9.5a2.5 2.5 0 114 2c-.9.6-1.5 1.1-1.5 2.5",
        "M12 17v.5",
      ]}
    />
  `;
export const IconEdit = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} d=${["M4 20h4L19 9l-4-4L4 16v4z", "M13.5 6.5l4 4"]} />`;
export const IconBolt = (/** @type {P} */ p) =>
  html`<${RunIcon} ...${p} d="M13 3L5 14h6l-1 7 8-11h-6l1-7z" />`;
