/** An input that renames in place: Enter or leaving saves, Esc cancels (IME-safe). */
import { useEffect, useRef } from "preact/hooks";
import { html } from "../html.js";

/**
 * @param {{
 *   value: string,
 *   label: string,
 *   maxLength: number,
 *   testid: string,
 *   onSave: (value: string) => unknown,
 *   onDone: () => void,
 * }} props `onSave` runs only for a non-blank changed value; `onDone` always, once.
 */
export function InlineRename({ value, label, maxLength, testid, onSave, onDone }) {
  const ref = useRef(/** @type {HTMLInputElement|null} */ (null));
  const finished = useRef(false);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const finish = async (/** @type {boolean} */ save) => {
    if (finished.current) return;
    finished.current = true;
    const next = ref.current?.value ?? "";
    if (save && next.trim() && next.trim() !== value) await onSave(next);
    onDone();
  };
  return html`
    <input
      ref=${ref}
      class="task-rename"
      data-testid=${testid}
      aria-label=${label}
      maxlength=${maxLength}
      value=${value}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.isComposing || e.keyCode === 229) return;
        if (e.key === "Enter") {
          e.preventDefault();
          finish(true);
        } else if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          finish(false);
        }
      }}
      onBlur=${() => finish(true)}
    />
  `;
}
