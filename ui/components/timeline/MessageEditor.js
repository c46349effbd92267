/**
 * Inline editor of a user message (edit & resend): the text in a textarea;
 * Resend (or Ctrl/Cmd+Enter) cuts the timeline after this message and runs again;
 * Esc or Cancel leaves it unchanged. The server's refusal (e.g. `busy`) is shown here.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { connState } from "../../state/connection.js";
import { editingId, editResend } from "../../state/history.js";
import { isRunning } from "../../state/run_actions.js";

/** @param {{entryId: string, initial: string}} props */
export function MessageEditor({ entryId, initial }) {
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const ref = useRef(/** @type {HTMLTextAreaElement|null} */ (null));
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const running = isRunning.value;
  const off = busy || running || connState.value !== "open" || !text.trim();
  const cancel = () => {
    editingId.value = null;
  };
  const submit = async () => {
    if (off) return;
    setBusy(true);
    setError("");
    try {
      await editResend(entryId, text);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };
  return html`
    <div class="msg-editor" data-testid="msg-editor">
      <textarea
        ref=${ref}
        class="msg-editor-input"
        data-testid="msg-editor-input"
        aria-label=${t("history.editLabel")}
        value=${text}
        rows=${Math.min(12, Math.max(2, text.split("\n").length))}
        onInput=${(/** @type {Event & {currentTarget: HTMLTextAreaElement}} */ e) =>
          setText(e.currentTarget.value)}
        onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            cancel();
          } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            submit();
          }
        }}
      ></textarea>
      <p class="msg-editor-hint">${running
        ? t("history.disabledRunning")
        : t("history.editHint")}</p>
      ${error &&
        html`<p class="hist-error" role="alert" data-testid="msg-editor-error">${error}</p>`}
      <div class="msg-editor-foot">
        <button type="button" class="btn btn-small" data-testid="msg-editor-cancel" onClick=${cancel}>
          ${t("history.cancel")}
        </button>
        <button
          type="button"
          class="btn btn-small btn-accent"
          data-testid="msg-editor-send"
          disabled=${off}
          onClick=${submit}
        >
          ${t("history.resend")}
        </button>
      </div>
    </div>
  `;
}
