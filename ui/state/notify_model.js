/**
 * Pure parts of the in-page notifications: the title badge count and the words of a
 * notification. Kept apart from `notify.js` (which touches the DOM) so tests import it.
 *
 * @typedef {import("../../protocol/index.ts").TaskSummary} TaskSummary
 * @typedef {import("../../protocol/index.ts").NotifyEvent} NotifyEvent
 */
import { taskState } from "../../protocol/index.ts";

/**
 * Tasks that want the user: waiting for an answer (live or from before a restart), or
 * with news not yet seen (unread). Each task counts once.
 * @param {Iterable<TaskSummary>} tasks
 * @param {Set<string>} withApproval ids of tasks holding a pending approval
 */
export function badgeCount(tasks, withApproval) {
  let n = 0;
  for (const t of tasks) {
    if (taskState(t, withApproval.has(t.id)) === "waiting" || t.unread) n++;
  }
  return n;
}

/**
 * The page title with the badge in front, e.g. "(2) Fix the build · ReinAgent".
 * @param {string} title
 * @param {number} n
 */
export const badgedTitle = (title, n) => n > 0 ? `(${n > 99 ? "99+" : n}) ${title}` : title;

/**
 * The i18n keys of a notification's title and body.
 * @param {NotifyEvent} e
 * @returns {{title: "notify.waiting.approval"|"notify.waiting.question"|"notify.finished"|"notify.failed"|"notify.branch.merged"|"notify.branch.kept"|"notify.branch.discarded"}}
 */
export function notifyKeys(e) {
  if (e.kind === "branch") return { title: `notify.branch.${e.branch?.action ?? "kept"}` };
  if (e.kind === "waiting") {
    return {
      title: e.reason === "question" ? "notify.waiting.question" : "notify.waiting.approval",
    };
  }
  return { title: e.kind === "failed" ? "notify.failed" : "notify.finished" };
}
