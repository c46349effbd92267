/**
 * The message box at the bottom: multiline, grows with its text, Enter sends,
 * Shift+Enter adds a line, Enter while an IME is composing is left to the IME.
 * The text stays while the connection is down. Below the text: the task's model,
 * effort and approval selectors, and Send — or Stop while the task runs (sending
 * while it runs is not possible yet). Above it, the task's todo progress capsule.
 */
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { LIMITS } from "../../server/protocol.ts";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { connState } from "../state/connection.js";
import { sending, sendMessage } from "../state/actions.js";
import { isRunning, stopping, stopRun } from "../state/run_actions.js";
import { currentId } from "../state/tasks.js";
import { composerFocus, composerText } from "../state/ui.js";
import { ComposerTools } from "./ComposerTools.js";
import { TodoCapsule } from "./interact/TodoCapsule.js";
import { IconSend } from "./Icons.js";
import { IconStop } from "./RunIcons.js";

const MAX_HEIGHT_VH = 0.4;

/**
 * Whether a keydown should send: plain Enter, not while an IME composes.
 * @param {KeyboardEvent} e
 */
export function isSendKey(e) {
  return e.key === "Enter" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey &&
    !e.isComposing && e.keyCode !== 229;
}

export function Composer() {
  const ref = useRef(/** @type {HTMLTextAreaElement|null} */ (null));
  const text = composerText.value;
  const online = connState.value === "open";
  const tooLong = text.length > LIMITS.messageChars;
  const running = isRunning.value;
  const canSend = online && !sending.value && !running && !tooLong && text.trim().length > 0;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, Math.round(innerHeight * MAX_HEIGHT_VH))}px`;
  }, [text]);

  useEffect(() => {
    const el = ref.current;
    if (!el || composerFocus.value === 0) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [composerFocus.value]);

  const onKeyDown = (/** @type {KeyboardEvent} */ e) => {
    if (!isSendKey(e)) return;
    e.preventDefault();
    if (canSend) sendMessage();
  };

  return html`
    <form
      class="composer"
      data-testid="composer"
      onSubmit=${(/** @type {Event} */ e) => {
        e.preventDefault();
        if (canSend) sendMessage();
      }}
    >
      ${currentId.value !== null && html`<${TodoCapsule} />`}
      <div class="composer-card">
        <textarea
          ref=${ref}
          class="composer-input"
          data-testid="composer-input"
          rows="1"
          aria-label=${t("composer.label")}
          placeholder=${currentId.value === null
            ? t("composer.placeholder")
            : t("composer.placeholderReply")}
          value=${text}
          onInput=${(/** @type {Event} */ e) =>
            composerText.value = /** @type {HTMLTextAreaElement} */ (e.currentTarget).value}
          onKeyDown=${onKeyDown}
        ></textarea>
        <div class="composer-bar">
          <${ComposerTools} />
          <span class="composer-hint">${t("composer.hint")}</span>
          ${running
            ? html`
              <button
                key="stop"
                type="button"
                class="send-btn stop-btn"
                data-testid="stop"
                aria-label=${stopping.value ? t("composer.stopping") : t("composer.stop")}
                title=${stopping.value ? t("composer.stopping") : t("composer.stop")}
                disabled=${stopping.value || !online}
                onClick=${stopRun}
              >
                <${IconStop} size=${14} />
              </button>
            `
            : html`
              <button
                key="send"
                type="submit"
                class="send-btn"
                data-testid="send"
                aria-label=${t("composer.send")}
                title=${t("composer.send")}
                disabled=${!canSend}
              >
                <${IconSend} size=${18} />
              </button>
            `}
        </div>
      </div>
      ${connState.value === "reconnecting" &&
        html`<p class="composer-note" role="status" data-testid="composer-offline">
          ${t("composer.offline")}
        </p>`}
      ${running && text.trim() &&
        html`<p class="composer-note" role="status" data-testid="composer-busy">
          ${t("composer.busy")}
        </p>`}
      ${tooLong &&
        html`<p class="composer-note composer-note-error" role="alert">
          ${t("composer.tooLong", { count: text.length, max: LIMITS.messageChars })}
        </p>`}
    </form>
  `;
}
