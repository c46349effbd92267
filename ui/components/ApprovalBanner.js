/**
 * The banner at the top of the main area for approvals of OTHER tasks or of several
 * tasks: with ≥ 2 tasks waiting, "N tasks waiting" with Allow all / Reject
 * all (each confirmed inline) and a row per task that opens it; with one other task
 * waiting, its title and what it asks, and Open. The task shown now answers in its
 * tool card, so it alone needs no banner. Plans and questions need their own answer:
 * Allow all / Reject all count only tool calls (and are absent without any).
 */
import { useState } from "preact/hooks";
import { html } from "../html.js";
import { t, tn } from "../i18n/index.js";
import { decideAll, deciding, waitingTasks } from "../state/approvals.js";
import { currentId, openTask, tasksById } from "../state/tasks.js";
import { IconHand } from "./tools/ToolIcons.js";

const ROWS = 3;

/** @param {{kind: string}} a */
const isToolCall = (a) => a.kind === "read" || a.kind === "write" || a.kind === "exec";

/** @param {string} id */
function open(id) {
  openTask(id);
}

export function ApprovalBanner() {
  const [confirm, setConfirm] = useState(/** @type {"allow"|"reject"|null} */ (null));
  const groups = [...waitingTasks.value.entries()];
  const here = currentId.value;
  if (groups.length === 0 || (groups.length === 1 && groups[0][0] === here)) return null;
  const calls = groups.reduce((n, [, list]) => n + list.filter(isToolCall).length, 0);
  const busy = deciding.value.has("*");
  const title = (/** @type {string} */ id, /** @type {string} */ fallback) =>
    tasksById.value.get(id)?.title || fallback || t("task.untitled");

  if (groups.length === 1) {
    const [id, list] = groups[0];
    return html`
      <div class="banner approval-banner" role="status" data-testid="approval-banner">
        <span class="approval-banner-icon"><${IconHand} size=${16} /></span>
        <p>
          <strong>${t("approvals.oneWaiting", { title: title(id, list[0].taskTitle) })}</strong>
          <span class="approval-banner-sub">${list[0].summary}</span>
        </p>
        <button type="button" class="ap-btn" data-testid="approval-banner-open" onClick=${() =>
          open(id)}>
          ${t("approvals.open")}
        </button>
      </div>
    `;
  }
  return html`
    <div class="banner approval-banner" role="status" data-testid="approval-banner">
      <span class="approval-banner-icon"><${IconHand} size=${16} /></span>
      <p><strong data-testid="approval-banner-count">${t("approvals.tasksWaiting", {
        n: groups.length,
      })}</strong></p>
      <div class="approval-banner-actions">
        ${calls === 0 ? null : confirm
          ? html`
            <span class="approval-confirm-text">${tn(
              confirm === "allow" ? "approvals.confirmAllow" : "approvals.confirmReject",
              calls,
            )}</span>
            <button
              type="button"
              class=${`ap-btn ${confirm === "allow" ? "ap-allow" : "ap-reject"}`}
              data-testid="approvals-confirm"
              disabled=${busy}
              onClick=${async () => {
                await decideAll(confirm);
                setConfirm(null);
              }}
            >
              ${t("approvals.confirm")}
            </button>
            <button type="button" class="ap-btn" onClick=${() => setConfirm(null)}>
              ${t("approval.cancel")}
            </button>
          `
          : html`
            <button
              type="button"
              class="ap-btn ap-allow"
              data-testid="approvals-allow-all"
              onClick=${() => setConfirm("allow")}
            >
              ${t("approvals.allowAll")}
            </button>
            <button
              type="button"
              class="ap-btn ap-reject-outline"
              data-testid="approvals-reject-all"
              onClick=${() => setConfirm("reject")}
            >
              ${t("approvals.rejectAll")}
            </button>
          `}
      </div>
      <ul class="approval-banner-list" role="list">
        ${groups.slice(0, ROWS).map(([id, list]) =>
          html`
            <li key=${id}>
              <button
                type="button"
                class="approval-banner-task"
                data-testid="approval-banner-task"
                aria-current=${id === here ? "page" : undefined}
                onClick=${() => open(id)}
              >
                <span class="dot dot-warn" aria-hidden="true"></span>
                <span class="approval-banner-title">${title(id, list[0].taskTitle)}</span>
                <span class="approval-banner-sub">${list[0].summary}${list.length > 1
                  ? ` · ${t("approvals.more", { n: list.length - 1 })}`
                  : ""}</span>
              </button>
            </li>
          `
        )}
        ${groups.length > ROWS &&
          html`<li class="approval-banner-sub">${
            t("approvals.more", { n: groups.length - ROWS })
          }</li>`}
      </ul>
    </div>
  `;
}
