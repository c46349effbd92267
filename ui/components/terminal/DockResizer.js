/**
 * The desktop dock's top edge: drag (or arrow keys when focused) to change the
 * terminal's height, remembered on this device.
 */
import { signal } from "@preact/signals";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";

const KEY = "reinagent.terminalHeight";
const MIN = 120;
const STEP = 32;

const clamp = (/** @type {number} */ h) =>
  Math.round(
    Math.max(MIN, Math.min(h, (typeof innerHeight === "number" ? innerHeight : 800) - 160)),
  );

function load() {
  try {
    const n = Number(localStorage.getItem(KEY));
    return Number.isFinite(n) && n >= MIN ? n : 300;
  } catch {
    return 300;
  }
}

export const dockHeight = signal(load());

function save(/** @type {number} */ h) {
  dockHeight.value = clamp(h);
  try {
    localStorage.setItem(KEY, String(dockHeight.value));
  } catch { /* storage disabled: the height lasts for this page */ }
}

export function DockResizer() {
  /** @param {PointerEvent} e */
  const start = (e) => {
    if (e.button !== 0) return;
    const handle = /** @type {HTMLElement} */ (e.currentTarget);
    handle.setPointerCapture(e.pointerId);
    const y0 = e.clientY, h0 = dockHeight.value;
    const move = (/** @type {PointerEvent} */ m) => dockHeight.value = clamp(h0 + (y0 - m.clientY));
    const up = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
      save(dockHeight.value);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
  };
  return html`
    <div
      class="term-resize"
      role="separator"
      tabindex="0"
      aria-orientation="horizontal"
      aria-label=${t("terminal.resize")}
      aria-valuenow=${dockHeight.value}
      onPointerDown=${start}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === "ArrowUp") save(dockHeight.value + STEP);
        else if (e.key === "ArrowDown") save(dockHeight.value - STEP);
      }}
    ></div>
  `;
}
