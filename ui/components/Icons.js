/**
 * Small stroke icons (24×24 viewBox, `currentColor`, so they follow the theme).
 * Decorative: the button around each icon carries the accessible name.
 */
import { html } from "../html.js";

/**
 * The one SVG icon component; other icon sets only pick their paths and sizes.
 * @param {{d: string | string[], size?: number, fill?: boolean}} props
 */
export function Icon({ d, size = 18, fill = false }) {
  const paths = Array.isArray(d) ? d : [d];
  return html`
    <svg
      class="icon"
      width=${size}
      height=${size}
      viewBox="0 0 24 24"
      fill=${fill ? "currentColor" : "none"}
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      ${paths.map((p) => html`<path d=${p} />`)}
    </svg>
  `;
}

/** @typedef {{size?: number}} P */
export const IconPlus = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M12 5v14M5 12h14" />`;
export const IconMenu = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d="M4 7h16M4 12h16M4 17h16" />`;
export const IconClose = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M6 6l12 12M18 6L6 18" />`;
export const IconSend = (/** @type {P} */ p) => html`<${Icon} ...${p} d="M12 19V5M6 11l6-6 6 6" />`;
export const IconPencil = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M4 20h4L19 9l-4-4L4 16v4z", "M13.5 6.5l4 4"]} />`;
export const IconTrash = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M4 7h16", "M9 7V4h6v3", "M6 7l1 13h10l1-13"]} />`;
export const IconPin = (/** @type {P} */ p) =>
  html`
    <${Icon}
      ...${p}
      d=${["M9 4h6l-1 5 4 4H6l4-4-1-5z", "M12 13v7"]}
    />
  `;
export const IconGlobe = (/** @type {P} */ p) =>
  html`
    <${Icon}
      ...${p}
      d=${[
        "M12 3a9 9 0 100 18 9 9 0 000-18z",
        "M3 12h18",
        "M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z",
      ]}
    />
  `;
export const IconSun = (/** @type {P} */ p) =>
  html`
    <${Icon}
      ...${p}
      d=${[
        "M12 8a4 4 0 100 8 4 4 0 000-8z",
        "M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4",
      ]}
    />
  `;
export const IconMoon = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d="M20 14.5A8 8 0 019.5 4 8 8 0 1020 14.5z" />`;
export const IconMonitor = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M3 5h18v11H3z", "M8 20h8M12 16v4"]} />`;
export const IconSpark = (/** @type {P} */ p) =>
  html`
    <${Icon}
      ...${p}
      d="M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8L12 3z"
    />
  `;
export const IconBug = (/** @type {P} */ p) =>
  html`
    <${Icon}
      ...${p}
      d=${[
        "M8 9a4 4 0 018 0v5a4 4 0 01-8 0V9z",
        "M12 9v9M4 13h4M16 13h4M5 7l3 2M19 7l-3 2M5 19l3-2M19 19l-3-2",
      ]}
    />
  `;
export const IconCalendar = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M4 6h16v14H4z", "M4 10h16M8 3v4M16 3v4"]} />`;
export const IconCode = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M8 8l-4 4 4 4", "M16 8l4 4-4 4", "M13.5 5l-3 14"]} />`;
