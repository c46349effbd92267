/**
 * The optional "why / what instead" field of a refusal (an Approval card's Reject, a
 * plan's Reject with feedback): focused when shown; Enter sends (Shift+Enter adds a
 * line, IME-safe), Esc goes back.
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";

/**
 * @param {{testid: string, label: string, send: string, cancel: string, hint: string,
 *   busy: boolean, onSend: (text: string) => void, onCancel: () => void}} props
 *   `testid` prefixes the field (`-feedback`) and the send button (`-reject-send`).
 */
export function FeedbackForm({ testid, label, send, cancel, hint, busy, onSend, onCancel }) {
  const [text, setText] = useState("");
  const input = useRef(/** @type {HTMLTextAreaElement|null} */ (null));
  // In the render that shows it (see useModalFocus.js): keys typed at once land here.
  useLayoutEffect(() => input.current?.focus(), []);
  return html`
    <form
      class="approval-reject"
      onSubmit=${(/** @type {Event} */ e) => {
        e.preventDefault();
        onSend(text);
      }}
    >
      <textarea
        ref=${input}
        class="approval-feedback"
        data-testid=${`${testid}-feedback`}
        rows="2"
        maxlength="4000"
        aria-label=${label}
        placeholder=${label}
        value=${text}
        onInput=${(/** @type {Event} */ e) =>
          setText(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value)}
        onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
          if (e.isComposing || e.keyCode === 229) return;
          if (e.key === "Escape") {
            e.preventDefault();
            onCancel();
          } else if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            onSend(text);
          }
        }}
      ></textarea>
      <div class="approval-actions">
        <button
          type="submit"
          class="ap-btn ap-reject"
          data-testid=${`${testid}-reject-send`}
          disabled=${busy}
        >
          ${send}
        </button>
        <button type="button" class="ap-btn" onClick=${onCancel}>${cancel}</button>
        <span class="approval-hint">${hint}</span>
      </div>
    </form>
  `;
}
