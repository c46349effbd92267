/** Closing an inline state (confirm, menu) on Escape or a press outside it. */
import { useLayoutEffect, useRef } from "preact/hooks";

/**
 * While `active`, calls `onDismiss` on Escape or a pointer press outside `ref`, and
 * focuses `focusRef` (e.g. the Cancel button). A layout effect: the listeners must be
 * in place before the next key press (an Esc right after opening was lost under load
 * with a plain effect).
 * @param {boolean} active
 * @param {{current: Element|null}} ref
 * @param {() => void} onDismiss
 * @param {{current: HTMLElement|null}} [focusRef]
 */
export function useDismiss(active, ref, onDismiss, focusRef) {
  const latest = useRef(onDismiss);
  latest.current = onDismiss;
  useLayoutEffect(() => {
    if (!active) return;
    focusRef?.current?.focus();
    const onDown = (/** @type {Event} */ e) => {
      if (!ref.current?.contains(/** @type {Node} */ (e.target))) latest.current();
    };
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape") latest.current();
    };
    document.addEventListener("pointerdown", onDown, true);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onDown, true);
      document.removeEventListener("keydown", onKey);
    };
  }, [active]);
}
