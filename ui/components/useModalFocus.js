/**
 * Focus and Escape for a modal dialog: `ref` (its first control) takes focus when it
 * opens, Escape closes it before any other handler sees the key, and focus returns to
 * where it was when it closes. A layout effect, so the focus moves in the render that
 * shows the dialog: with a plain effect (after the next frame) keys typed right after the
 * shortcut that opened it went to the page behind (the palette's ↑ was lost that way).
 */
import { useLayoutEffect } from "preact/hooks";

/**
 * @param {{current: HTMLElement|null}} ref
 * @param {() => void} onClose
 */
export function useModalFocus(ref, onClose) {
  useLayoutEffect(() => {
    const back = /** @type {HTMLElement|null} */ (document.activeElement);
    ref.current?.focus();
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape") {
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }
    };
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      if (back?.isConnected) back.focus();
    };
  }, []);
}
