/**
 * Pure logic of the pending-approvals list (no signals, no socket): validation and
 * order of a pushed list, and the groupings the cards and banners need.
 *
 * @typedef {import("../../protocol/index.ts").PendingApproval} PendingApproval
 */

/**
 * Key of a call within a task (call ids alone may repeat across tasks and turns).
 * @param {string} taskId
 * @param {string} callId
 */
export function callKey(taskId, callId) {
  return `${taskId}:${callId}`;
}

/**
 * Keeps only well-formed entries, oldest first (a bad one must not break the views).
 * @param {unknown} list
 * @returns {PendingApproval[]}
 */
export function normalise(list) {
  if (!Array.isArray(list)) return [];
  return list
    .filter((a) =>
      a && typeof a.id === "string" && typeof a.taskId === "string" && a.call &&
      typeof a.call.id === "string" && typeof a.call.name === "string"
    )
    .map((a) => ({
      ...a,
      live: a.live !== false,
      summary: String(a.summary ?? ""),
      call: { ...a.call, args: a.call.args && typeof a.call.args === "object" ? a.call.args : {} },
    }))
    .sort((a, b) => (Number(a.createdAt) || 0) - (Number(b.createdAt) || 0));
}

/**
 * Live approvals by {@link callKey}.
 * @param {PendingApproval[]} list
 */
export function liveIndex(list) {
  /** @type {Map<string, PendingApproval>} */
  const m = new Map();
  // A sub-agent's approval shows on the parent's `agent` call that started it.
  for (const a of list) {
    if (a.live) m.set(callKey(a.taskId, a.subagent?.callId ?? a.call.id), a);
  }
  return m;
}

/**
 * Live approvals grouped by task, tasks in order of their oldest approval.
 * @param {PendingApproval[]} list ordered oldest first
 */
export function groupByTask(list) {
  /** @type {Map<string, PendingApproval[]>} */
  const m = new Map();
  for (const a of list) {
    if (!a.live) continue;
    const group = m.get(a.taskId);
    if (group) group.push(a);
    else m.set(a.taskId, [a]);
  }
  return m;
}

const POLICIES = ["allow", "ask", "deny"];

/**
 * A task's per-tool policies ("Always allow" and friends) as a list sorted by tool
 * name; malformed entries are left out.
 * @param {unknown} settings the task's settings
 * @returns {{tool: string, policy: "allow"|"ask"|"deny"}[]}
 */
export function policyList(settings) {
  const p = /** @type {any} */ (settings)?.toolPolicies;
  if (!p || typeof p !== "object" || Array.isArray(p)) return [];
  return Object.entries(p)
    .filter(([tool, policy]) => tool && POLICIES.includes(/** @type {string} */ (policy)))
    .map(([tool, policy]) => ({ tool, policy: /** @type {"allow"|"ask"|"deny"} */ (policy) }))
    .sort((a, b) => a.tool.localeCompare(b.tool));
}

/**
 * The task's rules by pattern (`exec_command(npm test *)` allow), in their order.
 * @param {unknown} settings
 * @returns {{rule: string, policy: "allow"|"ask"|"deny"}[]}
 */
export function taskRuleList(settings) {
  const r = /** @type {any} */ (settings)?.rules;
  if (!Array.isArray(r)) return [];
  return r.filter((x) => typeof x?.rule === "string" && POLICIES.includes(x.policy))
    .map((x) => ({ rule: x.rule, policy: x.policy }));
}
