/**
 * Pending approvals of every task, visible and answerable from every
 * client: the list comes from `approvals.list` after each (re)connection and from the
 * `approvals` topic (the server pushes the full list after every change; every client
 * is subscribed to it). Live approvals are answered with Allow / Always allow / Reject;
 * those left from before a restart (`live: false`) are offered for recovery.
 *
 * @typedef {import("../../protocol/index.ts").PendingApproval} PendingApproval
 */
import { computed, signal } from "@preact/signals";
import { APPROVALS_TOPIC } from "../../protocol/index.ts";
import { errorCode, onSync, onTopic, request } from "./connection.js";
import { notifyError } from "./ui.js";
import { groupByTask, liveIndex, normalise } from "./approval_model.js";
import { upsertTask } from "./tasks.js";

export { callKey, policyList, taskRuleList } from "./approval_model.js";

/** Every pending approval known, oldest first. */
export const approvals = signal(/** @type {PendingApproval[]} */ ([]));
/** Ids of approvals whose answer is on its way (their buttons are disabled). */
export const deciding = signal(/** @type {Set<string>} */ (new Set()));

/** Live approvals by `${taskId}:${callId}`, for the tool cards. */
export const liveByCall = computed(() => liveIndex(approvals.value));

/** Live approvals grouped by task (in order of the oldest), for the banner. */
export const waitingTasks = computed(() => groupByTask(approvals.value));

/** Approvals from before a restart, waiting for Continue / Allow / Reject / Ignore. */
export const recoverable = computed(() => approvals.value.filter((a) => !a.live));

/** Ids of tasks with any pending approval (live or recoverable), for the sidebar dot. */
export const approvalTaskIds = computed(() => new Set(approvals.value.map((a) => a.taskId)));

/** Counts pushed lists so a slower `approvals.list` answer never overwrites a newer one. */
let pushes = 0;

onTopic(APPROVALS_TOPIC, (data) => {
  if (data?.kind !== "list") return;
  pushes++;
  approvals.value = normalise(data.approvals);
});

/** Fetches the list (after each connection, since events may have been missed). */
export async function loadApprovals() {
  const mark = pushes;
  try {
    const r = await request("approvals.list");
    if (pushes === mark) approvals.value = normalise(r.approvals);
  } catch (e) {
    const code = errorCode(e);
    if (code !== "disconnected" && code !== "store_unavailable") {
      notifyError("approval.error.list", e);
    }
  }
}

// After a replayed resume the `approvals` events missed meanwhile were delivered;
// otherwise (first connection, new server process, unknown gap) fetch the list.
onSync((replayed) => {
  if (!replayed) loadApprovals();
}, () => ["approvals"]);

/**
 * @param {string} id
 * @param {() => Promise<unknown>} fn
 * @param {string} errorKey
 */
async function busy(id, fn, errorKey) {
  if (deciding.value.has(id)) return;
  deciding.value = new Set([...deciding.value, id]);
  try {
    await fn();
  } catch (e) {
    // Answered elsewhere meanwhile (another client, a mode change): the list says so.
    if (errorCode(e) === "not_found") loadApprovals();
    else notifyError(errorKey, e);
  } finally {
    const next = new Set(deciding.value);
    next.delete(id);
    deciding.value = next;
  }
}

/**
 * Answers a live approval (for a plan: allow = approve, reject = refuse with feedback).
 * @param {string} id
 * @param {"allow"|"always"|"reject"} decision
 * @param {string} [feedback] only with "reject"
 * @param {string} [rule] only with "always": allow what this rule covers, not the whole tool
 */
export function decide(id, decision, feedback, rule) {
  const text = feedback?.trim().slice(0, 4000);
  return busy(
    id,
    () =>
      request("approval.decide", {
        id,
        decision,
        ...(text ? { feedback: text } : {}),
        ...(rule ? { rule } : {}),
      }),
    "approval.error.decide",
  );
}

/**
 * Answers an ask_user_question item: per question the chosen labels or free text.
 * @param {string} id
 * @param {{question: string, answers: string[]}[]} answers
 */
export function answerQuestions(id, answers) {
  return busy(
    id,
    () => request("approval.decide", { id, decision: "allow", answers }),
    "approval.error.decide",
  );
}

/**
 * The banner's Allow all / Reject all over every live approval.
 * @param {"allow"|"reject"} decision
 */
export function decideAll(decision) {
  return busy("*", () => request("approvals.decideAll", { decision }), "approval.error.decide");
}

/**
 * Settles an approval left from before a restart.
 * @param {string} id
 * @param {"continue"|"allow"|"reject"|"ignore"} action
 */
export function recover(id, action) {
  return busy(id, () => request("approval.recover", { id, action }), "approval.error.recover");
}

/**
 * Removes one of a task's rules by pattern ("Always allow npm test *" undone).
 * @param {string} taskId
 * @param {string} rule
 */
export function removeRule(taskId, rule) {
  return busy(
    `rule:${taskId}:${rule}`,
    async () => {
      const r = await request("task.removeRule", { id: taskId, rule });
      if (r?.task) upsertTask(r.task);
    },
    "policies.error",
  );
}

/**
 * Removes a task's rule for one tool ("Always allow" undone): the tool goes back to
 * what the approval mode says.
 * @param {string} taskId
 * @param {string} tool
 */
export function removePolicy(taskId, tool) {
  return busy(
    `policy:${taskId}:${tool}`,
    async () => {
      const r = await request("task.setToolPolicy", { id: taskId, tool, policy: null });
      if (r?.task) upsertTask(r.task);
    },
    "policies.error",
  );
}
