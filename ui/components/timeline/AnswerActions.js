/**
 * The row under a final answer: Copy, Retry and Branch (each of the two
 * asks for an inline confirmation first), and the answer's time. Retry and Branch
 * are unavailable while the task runs or the connection is down; a refusal from the
 * server is shown in the row.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { connState } from "../../state/connection.js";
import { branchAt, retryReply } from "../../state/history.js";
import { lang } from "../../state/prefs.js";
import { isRunning } from "../../state/run_actions.js";
import { CopyButton } from "./CopyButton.js";
import { IconBranch, IconRetry } from "./HistoryIcons.js";

/** @param {number} ms @param {string} locale */
function timeOf(ms, locale) {
  const d = new Date(ms);
  const sameDay = new Date().toDateString() === d.toDateString();
  const short = new Intl.DateTimeFormat(locale, {
    ...(sameDay ? {} : { month: "short", day: "numeric" }),
    hour: "2-digit",
    minute: "2-digit",
  }).format(d);
  const full = new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "medium" }).format(
    d,
  );
  return { short, full, iso: d.toISOString() };
}

/** @param {{entryId: string, text: () => string, at: number}} props */
export function AnswerActions({ entryId, text, at }) {
  const [ask, setAsk] = useState(/** @type {""|"retry"|"branch"} */ (""));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const okRef = useRef(/** @type {HTMLButtonElement|null} */ (null));
  useEffect(() => {
    if (ask) okRef.current?.focus();
  }, [ask]);
  const running = isRunning.value;
  const off = running || busy || connState.value !== "open";
  const time = timeOf(at, lang.value);
  const confirm = async () => {
    if (off || !ask) return;
    setBusy(true);
    setError("");
    try {
      if (ask === "retry") await retryReply(entryId);
      else await branchAt(entryId);
      setAsk("");
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  if (ask) {
    return html`
      <div
        class="answer-actions answer-confirm"
        role="group"
        data-testid=${`${ask}-confirm`}
        onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            setAsk("");
          }
        }}
      >
        <span class="answer-confirm-text">
          ${ask === "retry" ? t("history.retryConfirm") : t("history.branchConfirm")}
        </span>
        <button type="button" class="btn btn-small" data-testid="confirm-cancel" onClick=${() =>
          setAsk("")}>
          ${t("history.cancel")}
        </button>
        <button
          type="button"
          class="btn btn-small btn-accent"
          data-testid="confirm-ok"
          disabled=${off}
          ref=${okRef}
          onClick=${confirm}
        >
          ${ask === "retry" ? t("history.retry") : t("history.branch")}
        </button>
        ${error && html`<p class="hist-error" role="alert" data-testid="answer-error">${error}</p>`}
      </div>
    `;
  }
  const why = running ? t("history.disabledRunning") : "";
  return html`
    <div class="answer-actions" role="group" aria-label=${t(
      "history.answerActions",
    )} data-testid="answer-actions">
      <${CopyButton} text=${text} testid="copy-answer" />
      <button
        type="button"
        class="icon-btn hist-act"
        data-testid="retry-answer"
        aria-label=${t("history.retry")}
        title=${why || t("history.retry")}
        disabled=${off}
        onClick=${() => setAsk("retry")}
      >
        <${IconRetry} size=${15} />
      </button>
      <button
        type="button"
        class="icon-btn hist-act"
        data-testid="branch-answer"
        aria-label=${t("history.branch")}
        title=${why || t("history.branch")}
        disabled=${off}
        onClick=${() => setAsk("branch")}
      >
        <${IconBranch} size=${15} />
      </button>
      <time class="answer-time" data-testid="answer-time" datetime=${time.iso} title=${time.full}>
        ${time.short}
      </time>
      ${error && html`<p class="hist-error" role="alert" data-testid="answer-error">${error}</p>`}
    </div>
  `;
}
