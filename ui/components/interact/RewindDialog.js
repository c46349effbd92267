/**
 * The "Rewind code to before this turn" dialog: the server's preview —
 * files to restore, files to delete, conflicts (red, with the reason), changes that
 * cannot be rewound, the note about shell commands — and Confirm, which is disabled
 * (with the reason said) while anything blocks the all-or-nothing rewind or the task
 * runs. Then the result with counts, or the server's error.
 *
 * @typedef {import("../../../protocol/index.ts").RewindPlan} RewindPlan
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { planState, rewindNoteMessage, rewindReasonMessage } from "../../state/interact_model.js";
import { closeRewind, confirmRewind, rewindState } from "../../state/rewind.js";
import { isRunning } from "../../state/run_actions.js";
import { currentId } from "../../state/tasks.js";
import { Dialog } from "./Dialog.js";
import { rewindResultText } from "../timeline/RewindBand.js";

/**
 * A reason by its code in the reader's language; the server's English text for a
 * reason the UI does not know.
 * @param {{reason?: string, code?: string, params?: Record<string, number>}} it
 */
export const rewindReasonText = (it) => {
  const m = rewindReasonMessage(it);
  return m ? t(/** @type {any} */ (m.key), m.params) : it.reason ?? "";
};

/**
 * @param {{testid: string, title: string, tone?: string,
 *   items: {path: string, reason?: string, code?: string, params?: Record<string, number>}[]}} props
 */
function Section({ testid, title, tone = "", items }) {
  if (!items.length) return null;
  return html`
    <section class=${`rw-section ${tone}`} data-testid=${testid}>
      <h3 class="rw-head">${title}</h3>
      <ul class="rw-list">
        ${items.map((it) =>
          html`
            <li class="rw-item">
              <span class="rw-path" data-testid="rewind-path">${it.path}</span>
              ${(it.reason || it.code) &&
                html`<span class="rw-reason" data-testid="rewind-reason" data-code=${it.code}>${
                  rewindReasonText(it)
                }</span>`}
            </li>
          `
        )}
      </ul>
    </section>
  `;
}

/** @param {{plan: RewindPlan}} props */
function PlanView({ plan }) {
  const paths = (/** @type {string[]} */ l) => l.map((path) => ({ path }));
  return html`
    <${Section}
      testid="rewind-conflicts"
      tone="rw-bad"
      title=${tn("rewind.conflicts", plan.conflicts.length)}
      items=${plan.conflicts}
    />
    <${Section}
      testid="rewind-unrewindable"
      tone="rw-bad"
      title=${tn("rewind.unrewindable", plan.unrewindable.length)}
      items=${plan.unrewindable}
    />
    <${Section}
      testid="rewind-restore"
      title=${tn("rewind.restore", plan.restore.length)}
      items=${paths(plan.restore)}
    />
    <${Section}
      testid="rewind-remove"
      title=${tn("rewind.remove", plan.remove.length)}
      items=${paths(plan.remove)}
    />
  `;
}

export function RewindDialog() {
  const s = rewindState.value;
  if (!s || s.taskId !== currentId.value) return null;
  const running = isRunning.value;
  const plan = s.plan;
  const state = plan ? planState(plan) : null;
  const showPlan = plan && (s.phase === "preview" || s.phase === "applying");
  const canConfirm = s.phase === "preview" && state === "ready" && !running;

  const note = plan ? rewindNoteMessage(plan) : null;
  const why = state === "blocked"
    ? plan?.conflicts.length ? t("rewind.blockedConflicts") : t("rewind.blockedUnrewindable")
    : running && s.phase === "preview" && state === "ready"
    ? t("rewind.running")
    : "";

  const footer = s.phase === "done" || s.phase === "failed" || state === "empty"
    ? html`
      <button type="button" class="ap-btn" data-testid="rewind-close" onClick=${closeRewind}>
        ${t("dialog.close")}
      </button>
    `
    : html`
      <button type="button" class="ap-btn" data-testid="rewind-cancel" onClick=${closeRewind}>
        ${t("approval.cancel")}
      </button>
      <button
        type="button"
        class="ap-btn ap-allow"
        data-testid="rewind-confirm"
        disabled=${!canConfirm}
        aria-describedby=${why ? "rewind-why" : undefined}
        onClick=${confirmRewind}
      >
        ${s.phase === "applying" ? t("rewind.applying") : t("rewind.confirm")}
      </button>
    `;

  return html`
    <${Dialog}
      title=${t("rewind.title")}
      testid="rewind-dialog"
      onClose=${closeRewind}
      footer=${footer}
    >
      <div class="rw" data-phase=${s.phase} data-state=${state ?? ""}>
        ${s.phase === "loading" &&
          html`<p class="rw-status"><span class="spinner" aria-hidden="true"></span>${
            t("rewind.loading")
          }</p>`}
        ${s.error &&
          html`<p class="rw-error" role="alert" data-testid="rewind-error">${s.error}</p>`}
        ${s.phase === "done" && s.result &&
          html`<p class="rw-done" role="status" data-testid="rewind-done">${
            rewindResultText(s.result.restore.length, s.result.remove.length)
          }</p>`}
        ${showPlan && state === "empty" &&
          html`<p class="rw-empty" data-testid="rewind-empty">${t("rewind.nothing")}</p>`}
        ${showPlan && state !== "empty" && html`<${PlanView} plan=${plan} />`}
        ${why && html`<p class="rw-why" id="rewind-why" data-testid="rewind-why">${why}</p>`}
        ${showPlan && state !== "empty" &&
          html`
            <p class="rw-note" data-testid="rewind-note">
              ${note && html`<span>${t(/** @type {any} */ (note.key), note.params)}</span>`}
              <span>${t("rewind.keepsChat")}</span>
            </p>
          `}
      </div>
      <//>
  `;
}
