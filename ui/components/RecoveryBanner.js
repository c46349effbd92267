/**
 * Approvals left from before a restart (`live: false`): one banner each
 * with the task's title, what the call would do, and Continue (the call counts as
 * interrupted) / Allow & continue / Reject / Ignore (just dismiss).
 */
import { html } from "../html.js";
import { t, tn } from "../i18n/index.js";
import { deciding, recover, recoverable } from "../state/approvals.js";
import { openTask, tasksById } from "../state/tasks.js";
import { IconAlert } from "./RunIcons.js";

const MAX = 3;

/** @type {[action: "continue"|"allow"|"reject"|"ignore", key: string, cls: string][]} */
const ACTIONS = [
  ["continue", "recovery.continue", "ap-btn"],
  ["allow", "recovery.allow", "ap-btn ap-allow"],
  ["reject", "recovery.reject", "ap-btn ap-reject-outline"],
  ["ignore", "recovery.ignore", "ap-btn ap-quiet"],
];

export function RecoveryBanner() {
  const list = recoverable.value;
  if (list.length === 0) return null;
  return html`
    ${list.slice(0, MAX).map((a) => {
      const title = tasksById.value.get(a.taskId)?.title || a.taskTitle || t("task.untitled");
      const busy = deciding.value.has(a.id);
      return html`
        <div
          key=${a.id}
          class="banner recovery-banner"
          role="alert"
          data-testid="recovery-banner"
          data-approval-id=${a.id}
        >
          <span class="approval-banner-icon"><${IconAlert} size=${16} /></span>
          <p>
            <strong>${t("recovery.title")}</strong>${" "}
            <button
              type="button"
              class="link-btn"
              data-testid="recovery-task"
              onClick=${() => openTask(a.taskId)}
            >${title}</button>
            <span class="approval-banner-sub" data-testid="recovery-summary">${a.summary}</span>
          </p>
          <div class="approval-banner-actions">
            ${ACTIONS.map(([action, key, cls]) =>
              html`
                <button
                  type="button"
                  class=${cls}
                  data-testid=${`recover-${action}`}
                  title=${action === "continue" ? t("recovery.continueTitle") : undefined}
                  disabled=${busy}
                  onClick=${() => recover(a.id, action)}
                >
                  ${t(/** @type {any} */ (key))}
                </button>
              `
            )}
          </div>
        </div>
      `;
    })}
    ${list.length > MAX &&
      html`<p class="recovery-more">${tn("recovery.more", list.length - MAX)}</p>`}
  `;
}
