/**
 * The message box at the bottom: multiline, grows with its text, Enter sends,
 * Shift+Enter adds a line, Enter while an IME is composing is left to the IME.
 * ↑ on the first line / ↓ on the last line walk the workspace's earlier prompts.
 * Files can be attached with the paperclip, dropped, or pasted (images, in the native
 * window through it: state/native_paste.js; text of 15 000 characters or more becomes
 * a `.txt` attachment). While the task runs, a
 * message sent waits in the steering queue shown above the box. The text and the
 * attachments are autosaved as the view's draft. Below the text: attach, the task's
 * model, effort and approval selectors, ✨ (the model rewrites the draft; Undo puts it
 * back), and Send / Stop. Typing `/` at the start opens
 * the command menu, `@` the file picker (SuggestMenu); the task's goal shows above.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { LIMITS } from "../../protocol/index.ts";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { connState } from "../state/connection.js";
import { addFiles, attachments, classifyPaste } from "../state/attachments.js";
import { attachClipboardImage, nativeClipboardImage, pasteIsEmpty } from "../state/native_paste.js";
import { sendBlock, sendComposer, viewWorkspace } from "../state/composer_send.js";
import { isBrowsing, navigate, refreshPrompts, stopBrowsing } from "../state/prompt_history.js";
import { historyKey } from "./composer/keys.js";
import { initQueue } from "../state/queue.js";
import { isRunning, stopping, stopRun } from "../state/run_actions.js";
import { currentId, currentTask } from "../state/tasks.js";
import { composerFocus, composerText, markDraftDirty, startDrafts } from "../state/ui.js";
import { ComposerTools } from "./ComposerTools.js";
import { AttachButton } from "./composer/AttachButton.js";
import { AttachmentChips } from "./composer/AttachmentChips.js";
import { IconClose, IconSend } from "./Icons.js";
import { IconStop } from "./RunIcons.js";
import { activeIndex, caret, menuKey, openMenu } from "../state/suggest.js";
import { clearAsk, commandNotice, helpOpen } from "../state/commands.js";
import { SuggestMenu } from "./composer/SuggestMenu.js";
import { MentionChips } from "./composer/MentionChips.js";
import { EnhanceButton } from "./composer/EnhanceButton.js";
import { enhanceError } from "../state/enhance.js";
import { lazy } from "./lazy.js";
import { queue } from "../state/queue.js";
import { currentTodos } from "../state/todos.js";
import { capsuleShown } from "../state/interact_model.js";

// What shows above the text box only at times (the plan's progress, queued messages, the
// goal) and the dialogs of `/help` and `/clear`: chunks of their own, fetched when shown.
const TodoCapsule = lazy(() => import("./interact/TodoCapsule.js"), "TodoCapsule");
const QueueChips = lazy(() => import("./composer/QueueChips.js"), "QueueChips");
const GoalChip = lazy(() => import("./composer/GoalChip.js"), "GoalChip");
const CommandDialogs = lazy(() => import("./composer/CommandDialogs.js"), "CommandDialogs");

const MAX_HEIGHT_VH = 0.4;

/**
 * Whether a keydown should send: plain Enter, not while an IME composes.
 * @param {KeyboardEvent} e
 */
export function isSendKey(e) {
  return e.key === "Enter" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey &&
    !e.isComposing && e.keyCode !== 229;
}

let started = false;

export function Composer() {
  const ref = useRef(/** @type {HTMLTextAreaElement|null} */ (null));
  const [dragging, setDragging] = useState(false);
  const text = composerText.value;
  const online = connState.value === "open";
  const tooLong = text.length > LIMITS.messageChars;
  const running = isRunning.value;
  const block = sendBlock.value;
  const canSend = block === "";

  useEffect(() => {
    if (started) return;
    started = true;
    startDrafts(currentId.value ?? "");
    initQueue();
  }, []);

  const placeholder = currentId.value === null
    ? t("composer.placeholder")
    : running
    ? t("composer.placeholderQueue")
    : t("composer.placeholderReply");

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      el.style.height = "auto";
      // Empty, the field is as tall as its placeholder needs: a narrow one (a phone) wraps
      // it, and a one-line field cut it off mid-sentence.
      let need = el.scrollHeight;
      if (el.value === "" && el.placeholder) {
        el.value = el.placeholder;
        need = el.scrollHeight;
        el.value = "";
      }
      el.style.height = `${Math.min(need, Math.round(innerHeight * MAX_HEIGHT_VH))}px`;
    };
    fit();
    if (text !== "" || typeof ResizeObserver === "undefined") return;
    // The width changes without a window resize (the right panel opens): fit again.
    let width = el.clientWidth;
    const ro = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      fit();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [text, placeholder]);

  useEffect(() => {
    const el = ref.current;
    if (!el || composerFocus.value === 0) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [composerFocus.value]);

  // A new view: its own history walk.
  useEffect(() => stopBrowsing(), [currentId.value]);

  /** Puts the caret at `at` after a menu changed the text. */
  const placeCaret = (/** @type {number} */ at) => {
    const el = ref.current;
    if (!el) return;
    el.value = composerText.value;
    el.focus();
    el.setSelectionRange(at, at);
    markDraftDirty();
  };
  const noteCaret = (/** @type {Event} */ e) => {
    caret.value = /** @type {HTMLTextAreaElement} */ (e.currentTarget).selectionStart;
  };

  const onKeyDown = (/** @type {KeyboardEvent} */ e) => {
    // An open `/` menu or `@` picker takes ↑↓ Enter/Tab Esc first.
    const used = menuKey(e);
    if (used !== false) {
      e.preventDefault();
      if (typeof used === "number") placeCaret(used);
      return;
    }
    if (isSendKey(e)) {
      e.preventDefault();
      sendComposer();
      return;
    }
    const el = /** @type {HTMLTextAreaElement} */ (e.currentTarget);
    const dir = historyKey(e, el);
    if (dir === 0 || (dir === 1 && !isBrowsing())) return;
    const next = navigate(viewWorkspace.value, dir, el.value);
    if (next === null) return;
    e.preventDefault();
    composerText.value = next;
    el.value = next;
    el.setSelectionRange(next.length, next.length);
  };

  const onPaste = (/** @type {ClipboardEvent} */ e) => {
    const got = classifyPaste(e.clipboardData);
    if (!got) {
      // The native window's paste event has no image: it hands over the clipboard's.
      // WebKit's own go at an image paste (nothing for a text box) takes seconds on a
      // large one and holds the page meanwhile: not wanted.
      if (nativeClipboardImage() && pasteIsEmpty(e.clipboardData)) {
        e.preventDefault();
        void attachClipboardImage().then((added) => added && markDraftDirty());
      }
      return;
    }
    e.preventDefault();
    addFiles(got.files);
    markDraftDirty();
  };

  const hasFiles = (/** @type {DragEvent} */ e) =>
    [...(e.dataTransfer?.types ?? [])].includes("Files");

  return html`
    <form
      class=${`composer${dragging ? " composer-drop" : ""}`}
      data-testid="composer"
      onSubmit=${(/** @type {Event} */ e) => {
        e.preventDefault();
        sendComposer();
      }}
      onDragOver=${(/** @type {DragEvent} */ e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        if (!dragging) setDragging(true);
      }}
      onDragLeave=${(/** @type {DragEvent} */ e) => {
        const to = /** @type {Node|null} */ (e.relatedTarget);
        if (!to || !(/** @type {HTMLElement} */ (e.currentTarget)).contains(to)) setDragging(false);
      }}
      onDrop=${(/** @type {DragEvent} */ e) => {
        setDragging(false);
        if (!hasFiles(e)) return;
        e.preventDefault();
        addFiles([...(e.dataTransfer?.files ?? [])]);
        markDraftDirty();
      }}
    >
      ${currentId.value !== null && currentTodos.value &&
        capsuleShown(currentTodos.value, running) &&
        html`<${TodoCapsule} />`}
      ${currentId.value !== null && queue.value.length > 0 && html`<${QueueChips} />`}
      ${currentId.value !== null && currentTask.value?.settings.goal && html`<${GoalChip} />`}
      <div class="composer-card">
        <${SuggestMenu} onPicked=${placeCaret} />
        <${AttachmentChips} />
        <${MentionChips} />
        <textarea
          ref=${ref}
          class="composer-input"
          data-testid="composer-input"
          rows="1"
          aria-label=${t("composer.label")}
          placeholder=${placeholder}
          value=${text}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded=${openMenu.value ? "true" : "false"}
          aria-controls=${openMenu.value ? "composer-suggest" : undefined}
          aria-activedescendant=${openMenu.value?.items.length
            ? `suggest-${Math.min(activeIndex.value, openMenu.value.items.length - 1)}`
            : undefined}
          onInput=${(/** @type {Event} */ e) => {
            composerText.value = /** @type {HTMLTextAreaElement} */ (e.currentTarget).value;
            noteCaret(e);
            commandNotice.value = null;
            stopBrowsing();
            markDraftDirty();
          }}
          onKeyUp=${noteCaret}
          onClick=${noteCaret}
          onFocus=${(/** @type {Event} */ e) => {
            noteCaret(e);
            refreshPrompts(viewWorkspace.value);
          }}
          onKeyDown=${onKeyDown}
          onPaste=${onPaste}
        ></textarea>
        <div
          class="composer-bar"
          data-crowded=${running && (text.trim() !== "" || attachments.value.length > 0)
            ? "true"
            : "false"}
        >
          <${AttachButton} />
          <${EnhanceButton} />
          <${ComposerTools} />
          <span class="composer-hint" data-testid="composer-hint"><span>${running
            ? t("composer.queueHint")
            : t("composer.hint")}</span></span>
          ${(!running || text.trim() || attachments.value.length > 0) &&
            html`
              <button
                key="send"
                type="submit"
                class=${`send-btn${running ? " send-queue" : ""}`}
                data-testid="send"
                aria-label=${running ? t("composer.queue") : t("composer.send")}
                title=${running ? t("composer.queue") : t("composer.send")}
                disabled=${!canSend}
              >
                <${IconSend} size=${18} />
              </button>
            `}
          ${running &&
            html`
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
            `}
        </div>
      </div>
      ${commandNotice.value &&
        html`
          <p class="composer-note cmd-notice" role="status" data-testid="command-notice">
            <span>${t(
              /** @type {any} */ (commandNotice.value.key),
              commandNotice.value.params,
            )}</span>
            <button
              type="button"
              class="icon-btn cmd-notice-x"
              aria-label=${t("cmd.notice.dismiss")}
              title=${t("cmd.notice.dismiss")}
              onClick=${() => (commandNotice.value = null)}
            >
              <${IconClose} size=${14} />
            </button>
          </p>
        `}
      ${(helpOpen.value || clearAsk.value) && html`<${CommandDialogs} />`}
      ${enhanceError.value &&
        html`
          <p class="composer-note composer-note-error" role="alert" data-testid="enhance-error">
            <span>${t("enhance.failed", { message: enhanceError.value })}</span>
            <button
              type="button"
              class="icon-btn cmd-notice-x"
              aria-label=${t("cmd.notice.dismiss")}
              title=${t("cmd.notice.dismiss")}
              onClick=${() => (enhanceError.value = null)}
            >
              <${IconClose} size=${14} />
            </button>
          </p>
        `}
      ${connState.value === "reconnecting" &&
        html`<p class="composer-note" role="status" data-testid="composer-offline">
          ${t("composer.offline")}
        </p>`}
      ${block === "failed" &&
        html`<p class="composer-note composer-note-error" role="alert">
          ${t("attach.removeFailed")}
        </p>`}
      ${tooLong &&
        html`<p class="composer-note composer-note-error" role="alert">
          ${t("composer.tooLong", { count: text.length, max: LIMITS.messageChars })}
        </p>`}
    </form>
  `;
}
