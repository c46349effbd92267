/**
 * Stroke icons of the tool cards and approvals (24×24 viewBox, `currentColor`).
 * Decorative: the element around each icon carries the accessible name.
 */
import { html } from "../../html.js";
import { Icon } from "../Icons.js";

/** @param {{d: string[], size?: number}} props */
const ToolIcon = ({ d, size = 14 }) => html`<${Icon} d=${d} size=${size} />`;

/** @typedef {{size?: number}} P */
export const IconFile = (/** @type {P} */ p) =>
  html`<${ToolIcon} ...${p} d=${["M6 3h8l4 4v14H6z", "M14 3v4h4"]} />`;
export const IconFolder = (/** @type {P} */ p) =>
  html`<${ToolIcon} ...${p} d=${["M3 6h6l2 2h10v11H3z"]} />`;
/** An MCP server's resource: a document with a plug. */
export const IconResource = (/** @type {P} */ p) =>
  html`<${ToolIcon} ...${p} d=${[
    "M6 3h8l4 4v6",
    "M14 3v4h4",
    "M6 3v18h6",
    "M16 15v3",
    "M20 15v3",
    "M14.5 18h7v1.5a3.5 3.5 0 01-7 0z",
  ]} />`;
export const IconSearch = (/** @type {P} */ p) =>
  html`<${ToolIcon} ...${p} d=${["M11 18a7 7 0 100-14 7 7 0 000 14z", "M16 16l4.5 4.5"]} />`;
export const IconWeb = (/** @type {P} */ p) =>
  html`
    <${ToolIcon}
      ...${p}
      d=${[
        "M12 21a9 9 0 100-18 9 9 0 000 18z",
        "M3 12h18",
        "M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z",
      ]}
    />
  `;
export const IconHand = (/** @type {P} */ p) =>
  html`
    <${ToolIcon}
      ...${p}
      d=${[
        "M8 13V5.5a1.5 1.5 0 013 0V11",
        "M11 10V4.5a1.5 1.5 0 013 0V11",
        "M14 10.5V6a1.5 1.5 0 013 0v7c0 4-2.5 7-6.5 7-2.7 0-4.2-1.3-5.5-3.5l-2-3.4a1.5 1.5 0 012.6-1.5L8 15",
      ]}
    />
  `;
