/**
 * Pure logic of the phone task home: each task's display status, the
 * local-time groups (Today, Yesterday, Earlier this week, Older), relative times,
 * and the home's sections — pinned tasks first, then one group per workspace
 * (each project, then "Tasks" for tasks without a listed project), each split into
 * time groups. Time is always passed in (`now`), so tests are deterministic.
 *
 * @example
 * const home = buildHome(tasks, projects, { now: Date.now(), weekStart: 1 });
 * home.pinned;                        // pinned tasks, most recent first
 * home.groups[0].sections[0].key;     // "today"
 *
 * @typedef {import("../../protocol/index.ts").TaskSummary} TaskSummary
 * @typedef {import("../../protocol/index.ts").Project} Project
 * @typedef {import("../../protocol/index.ts").TaskState} DisplayStatus
 * @typedef {"today" | "yesterday" | "week" | "older"} TimeGroup
 * @typedef {{key: TimeGroup, tasks: TaskSummary[]}} TimeSection
 * @typedef {{
 *   key: string,
 *   projectPath: string | null,
 *   name: string | null,
 *   count: number,
 *   sections: TimeSection[],
 * }} WorkspaceGroup
 * @typedef {{pinned: TaskSummary[], groups: WorkspaceGroup[], total: number}} HomeModel
 */

import { taskState } from "../../protocol/index.ts";

/** Time groups in display order. */
export const TIME_GROUPS = /** @type {const} */ (["today", "yesterday", "week", "older"]);

/** Key of the workspace group of tasks without a (listed) project. */
export const LOOSE_KEY = "__tasks__";

const DAY_MS = 86_400_000;

/**
 * What the home shows for a task: the server's task state (`taskState`, shared with the
 * sidebar and the CLI) — a live run, an approval waiting (live or kept from before a
 * restart), a queued message, or how the last run ended; `new` (no badge) when it
 * never ran.
 * @param {TaskSummary} task
 * @param {boolean} [hasApproval] the task holds a pending approval
 * @returns {DisplayStatus}
 */
export function displayStatus(task, hasApproval = false) {
  return taskState(task, hasApproval);
}

/**
 * Local midnight that starts the day of `ts`.
 * @param {number} ts
 */
export function startOfDay(ts) {
  const d = new Date(ts);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * Local midnight that starts the week of `ts`.
 * @param {number} ts
 * @param {number} weekStart first day of the week: 0 = Sunday, 1 = Monday
 */
export function startOfWeek(ts, weekStart) {
  const d = new Date(startOfDay(ts));
  const back = (d.getDay() - weekStart + 7) % 7;
  d.setDate(d.getDate() - back); // calendar days, so a DST change cannot shift it
  return d.getTime();
}

/**
 * The time group of a moment relative to `now`, in local time: today (also any
 * moment in the future, e.g. another device's clock running ahead), yesterday,
 * earlier this week (after the week's first midnight, before yesterday), older.
 * @param {number} ts
 * @param {number} now
 * @param {number} [weekStart] 0 = Sunday, 1 = Monday (default)
 * @returns {TimeGroup}
 */
export function timeGroupOf(ts, now, weekStart = 1) {
  const today = startOfDay(now);
  if (ts >= today) return "today";
  const y = new Date(today);
  y.setDate(y.getDate() - 1);
  const yesterday = y.getTime();
  if (ts >= yesterday) return "yesterday";
  if (ts >= startOfWeek(now, weekStart)) return "week";
  return "older";
}

/**
 * A compact relative time: `now` (under a minute), minutes, hours, days (under a
 * week), else a calendar date (`date`, with `sameYear` telling whether the year can
 * be left out).
 * @param {number} ts
 * @param {number} now
 * @returns {{unit: "now" | "min" | "hour" | "day" | "date", n: number, sameYear: boolean}}
 */
export function relativeTime(ts, now) {
  const diff = Math.max(0, now - ts);
  const sameYear = new Date(ts).getFullYear() === new Date(now).getFullYear();
  if (diff < 60_000) return { unit: "now", n: 0, sameYear };
  if (diff < 3_600_000) return { unit: "min", n: Math.floor(diff / 60_000), sameYear };
  if (diff < DAY_MS) return { unit: "hour", n: Math.floor(diff / 3_600_000), sameYear };
  if (diff < 7 * DAY_MS) return { unit: "day", n: Math.floor(diff / DAY_MS), sameYear };
  return { unit: "date", n: 0, sameYear };
}

/**
 * Most recently updated first (ties by id, so the order is stable).
 * @param {TaskSummary} a
 * @param {TaskSummary} b
 */
export function byRecent(a, b) {
  return b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Splits tasks (already in display order) into non-empty time sections.
 * @param {TaskSummary[]} tasks
 * @param {number} now
 * @param {number} weekStart
 * @returns {TimeSection[]}
 */
export function timeSections(tasks, now, weekStart) {
  /** @type {Map<TimeGroup, TaskSummary[]>} */
  const by = new Map(TIME_GROUPS.map((k) => [k, []]));
  for (const task of tasks) by.get(timeGroupOf(task.updatedAt, now, weekStart))?.push(task);
  return TIME_GROUPS.filter((k) => by.get(k)?.length).map((k) => ({
    key: k,
    tasks: by.get(k) ?? [],
  }));
}

/**
 * The whole home: pinned tasks first (across workspaces, most recent first), then
 * one group per workspace holding the other tasks by time. Workspace groups follow
 * the sidebar's order — projects in their order, and "Tasks" (no project, or a
 * project no longer listed) before or after them as `looseFirst` says; groups with
 * no unpinned task are left out.
 * @param {TaskSummary[]} tasks
 * @param {Project[]} projects
 * @param {{now: number, weekStart?: number, looseFirst?: boolean}} opts
 * @returns {HomeModel}
 */
export function buildHome(tasks, projects, { now, weekStart = 1, looseFirst = false }) {
  const sorted = [...tasks].sort(byRecent);
  const pinned = sorted.filter((x) => x.pinned);
  /** @type {Map<string, TaskSummary[]>} */
  const byPath = new Map(projects.map((p) => [p.path, []]));
  /** @type {TaskSummary[]} */
  const loose = [];
  for (const task of sorted) {
    if (task.pinned) continue;
    const list = task.projectPath ? byPath.get(task.projectPath) : undefined;
    (list ?? loose).push(task);
  }
  /** @type {WorkspaceGroup[]} */
  const projectGroups = projects
    .filter((p) => (byPath.get(p.path) ?? []).length > 0)
    .map((p) => {
      const list = byPath.get(p.path) ?? [];
      return {
        key: `project:${p.id}`,
        projectPath: p.path,
        name: p.name,
        count: list.length,
        sections: timeSections(list, now, weekStart),
      };
    });
  /** @type {WorkspaceGroup[]} */
  const looseGroup = loose.length
    ? [{
      key: LOOSE_KEY,
      projectPath: null,
      name: null,
      count: loose.length,
      sections: timeSections(loose, now, weekStart),
    }]
    : [];
  return {
    pinned,
    groups: looseFirst ? [...looseGroup, ...projectGroups] : [...projectGroups, ...looseGroup],
    total: tasks.length,
  };
}

/**
 * Name of the workspace a task belongs to (for the pinned rows), or null for "Tasks".
 * @param {TaskSummary} task
 * @param {Project[]} projects
 */
export function workspaceName(task, projects) {
  if (!task.projectPath) return null;
  return projects.find((p) => p.path === task.projectPath)?.name ?? null;
}

/**
 * Counts for the home's summary line: tasks waiting for you, with a queued message,
 * running, whose last run failed; unread tasks.
 * @param {TaskSummary[]} tasks
 * @param {Set<string>} [approvalIds] tasks holding a pending approval
 */
export function statusCounts(tasks, approvalIds = new Set()) {
  const counts = { running: 0, waiting: 0, queued: 0, failed: 0, unread: 0 };
  for (const task of tasks) {
    const s = displayStatus(task, approvalIds.has(task.id));
    if (s === "running" || s === "waiting" || s === "queued" || s === "failed") counts[s]++;
    if (task.unread) counts.unread++;
  }
  return counts;
}
