/**
 * Small controls of the Settings view: icons, a switch, an inline two-step confirm
 * and a token-count formatter. Stroke icons use `currentColor` so they follow the theme.
 */
import { useDismiss } from "../useDismiss.js";
import { useRef } from "preact/hooks";
import { html } from "../../html.js";
import { Icon } from "../Icons.js";
import { t } from "../../i18n/index.js";

/** @typedef {{size?: number}} P */
export const IconGear = (/** @type {P} */ p) =>
  html`
    <${Icon} ...${p} d=${[
      "M12 9a3 3 0 100 6 3 3 0 000-6z",
      "M19.4 15a1.7 1.7 0 00.3 1.8l.1.1a2 2 0 11-2.8 2.8l-.1-.1a1.7 1.7 0 00-1.8-.3 1.7 1.7 0 00-1 1.5V21a2 2 0 11-4 0v-.1a1.7 1.7 0 00-1.1-1.5 1.7 1.7 0 00-1.8.3l-.1.1a2 2 0 11-2.8-2.8l.1-.1a1.7 1.7 0 00.3-1.8 1.7 1.7 0 00-1.5-1H3a2 2 0 110-4h.1a1.7 1.7 0 001.5-1.1 1.7 1.7 0 00-.3-1.8l-.1-.1a2 2 0 112.8-2.8l.1.1a1.7 1.7 0 001.8.3H9a1.7 1.7 0 001-1.5V3a2 2 0 114 0v.1a1.7 1.7 0 001 1.5 1.7 1.7 0 001.8-.3l.1-.1a2 2 0 112.8 2.8l-.1.1a1.7 1.7 0 00-.3 1.8V9a1.7 1.7 0 001.5 1H21a2 2 0 110 4h-.1a1.7 1.7 0 00-1.5 1z",
    ]} />
  `;
export const IconBack = (/** @type {P} */ p) => html`<${Icon} ...${p} d=${["M15 5l-7 7 7 7"]} />`;
export const IconChevron = (/** @type {P} */ p) => html`<${Icon} ...${p} d=${["M9 5l7 7-7 7"]} />`;
export const IconEye = (/** @type {P} */ p) =>
  html`
    <${Icon} ...${p} d=${[
      "M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z",
      "M12 9a3 3 0 100 6 3 3 0 000-6z",
    ]} />
  `;
export const IconEyeOff = (/** @type {P} */ p) =>
  html`
    <${Icon} ...${p} d=${[
      "M3 3l18 18",
      "M10.6 6.1A9.9 9.9 0 0112 6c6.4 0 10 6 10 6a17 17 0 01-3.2 3.9",
      "M6.6 6.6C3.8 8.3 2 12 2 12s3.6 6 10 6c1.5 0 2.9-.3 4.1-.9",
      "M9.9 9.9a3 3 0 004.2 4.2",
    ]} />
  `;
export const IconRefresh = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${[
    "M20 11a8 8 0 00-14.8-4M4 4v4h4",
    "M4 13a8 8 0 0014.8 4M20 20v-4h-4",
  ]} />`;
export const IconPlug = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M9 3v5M15 3v5", "M6 8h12v3a6 6 0 01-12 0V8z", "M12 17v4"]} />`;
export const IconStar = (/** @type {P} */ p) =>
  html`
    <${Icon} ...${p} d=${[
      "M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9L12 3.5z",
    ]} />
  `;
export const IconEdit = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M4 20h4L19 9l-4-4L4 16v4z", "M13.5 6.5l4 4"]} />`;
export const IconTrash = (/** @type {P} */ p) =>
  html`<${Icon} ...${p} d=${["M4 7h16", "M9 7V4h6v3", "M6 7l1 13h10l1-13"]} />`;
export const IconPlus = (/** @type {P} */ p) => html`<${Icon} ...${p} d=${["M12 5v14M5 12h14"]} />`;

/**
 * An on/off switch (a real checkbox with role="switch").
 * @param {{checked: boolean, label: string, onChange: (v: boolean) => void, testid?: string, disabled?: boolean}} props
 */
export function Switch({ checked, label, onChange, testid, disabled }) {
  return html`
    <label class="switch" title=${label}>
      <input
        type="checkbox"
        role="switch"
        checked=${checked}
        disabled=${disabled}
        aria-label=${label}
        data-testid=${testid}
        onChange=${(/** @type {Event} */ e) =>
          onChange(/** @type {HTMLInputElement} */ (e.currentTarget).checked)}
      />
      <span class="switch-track" aria-hidden="true"><span class="switch-thumb"></span></span>
    </label>
  `;
}

/**
 * Inline two-step confirmation: Esc or a press outside cancels.
 * @param {{text: string, confirmLabel: string, onConfirm: () => void, onCancel: () => void, testid: string}} props
 */
export function InlineConfirm({ text, confirmLabel, onConfirm, onCancel, testid }) {
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  const cancelRef = useRef(/** @type {HTMLButtonElement|null} */ (null));
  useDismiss(true, ref, onCancel, cancelRef);
  return html`
    <div class="inline-confirm" ref=${ref} role="group" aria-label=${text}>
      <span class="confirm-text">${text}</span>
      <button type="button" class="btn btn-small btn-danger" data-testid=${testid}
        onClick=${onConfirm}>${confirmLabel}</button>
      <button type="button" class="btn btn-small" ref=${cancelRef} onClick=${onCancel}>
        ${t("task.cancel")}
      </button>
    </div>
  `;
}

/**
 * Compact token count: decimal unless only the binary reading is exact.
 * 128000 → "128K", 131072 → "128K", 200000 → "200K", 1048576 → "1M", 1500000 → "1.5M".
 * @param {number} n
 */
export function compactTokens(n) {
  /** @param {number} dec @param {number} bin @param {string} unit */
  const scaled = (dec, bin, unit) => {
    const base = n % dec !== 0 && n % bin === 0 ? bin : dec;
    return `${+(n / base).toFixed(1)}${unit}`;
  };
  if (n >= 1_000_000) return scaled(1_000_000, 1_048_576, "M");
  if (n >= 1000) return scaled(1000, 1024, "K");
  return String(n);
}
