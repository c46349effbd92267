/**
 * A drag handle that re-orders its item among its siblings: drag with mouse, pen or
 * touch (pointer events, the item follows the pointer past the others' middles), or
 * Alt+↑/↓ (also plain ↑/↓) on the focused handle. The item is the handle's closest
 * `[data-reorder-item]`; its siblings with that attribute are the list.
 */
import { signal } from "@preact/signals";
import { useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { IconGrip } from "./icons.js";

/** The last keyboard move, for a polite live region (screen readers). */
export const reorderStatus = signal("");

/**
 * @param {{label: string, name: string, index: number, count: number, testid: string,
 *   onMove: (to: number) => void, onDrop: () => void}} props
 */
export function ReorderHandle({ label, name, index, count, testid, onMove, onDrop }) {
  const drag = useRef(
    /** @type {{id: number, y: number, active: boolean, item: HTMLElement} | null} */ (null),
  );
  const indexRef = useRef(index);
  indexRef.current = index;

  const onPointerDown = (/** @type {PointerEvent} */ e) => {
    if (e.button !== 0) return;
    const el = /** @type {HTMLElement} */ (e.currentTarget);
    const item = /** @type {HTMLElement|null} */ (el.closest("[data-reorder-item]"));
    if (!item) return;
    e.preventDefault();
    el.setPointerCapture(e.pointerId);
    drag.current = { id: e.pointerId, y: e.clientY, active: false, item };
  };
  const onPointerMove = (/** @type {PointerEvent} */ e) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    if (!d.active) {
      if (Math.abs(e.clientY - d.y) < 4) return;
      d.active = true;
      d.item.dataset.dragging = "true";
    }
    const siblings = [...(d.item.parentElement?.children ?? [])].filter((x) =>
      x !== d.item && x instanceof HTMLElement && x.dataset.reorderItem !== undefined
    );
    let to = 0;
    for (const s of siblings) {
      const r = s.getBoundingClientRect();
      if (e.clientY > r.top + r.height / 2) to++;
    }
    if (to !== indexRef.current) onMove(to);
  };
  const end = (/** @type {PointerEvent} */ e) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    drag.current = null;
    delete d.item.dataset.dragging;
    if (d.active) onDrop();
  };
  const onKeyDown = (/** @type {KeyboardEvent} */ e) => {
    if (e.ctrlKey || e.metaKey || e.shiftKey) return;
    const step = e.key === "ArrowUp" ? -1 : e.key === "ArrowDown" ? 1 : 0;
    if (!step) return;
    e.preventDefault();
    const to = index + step;
    if (to < 0 || to >= count) return;
    const el = /** @type {HTMLElement} */ (e.currentTarget);
    onMove(to);
    onDrop();
    reorderStatus.value = t("projects.movedTo", { name, n: to + 1, total: count });
    // Moving a focused node in the DOM blurs it: keep the keyboard where it was.
    requestAnimationFrame(() => el.isConnected && el.focus({ preventScroll: true }));
  };
  return html`
    <button
      type="button"
      class="reorder-handle"
      data-testid=${testid}
      aria-label=${label}
      aria-roledescription=${t("projects.dragHandle")}
      onPointerDown=${onPointerDown}
      onPointerMove=${onPointerMove}
      onPointerUp=${end}
      onPointerCancel=${end}
      onKeyDown=${onKeyDown}
      onClick=${(/** @type {MouseEvent} */ e) => e.preventDefault()}
    >
      <${IconGrip} size=${14} />
    </button>
  `;
}
