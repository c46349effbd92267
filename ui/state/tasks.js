/**
 * Tasks and the timeline of the task shown now, kept in sync with the server through
 * snapshots (`tasks.list`, `task.subscribe`) plus pushed events. Events that arrive
 * while a snapshot is being fetched are held back and applied after it when newer.
 *
 * @typedef {import("../../protocol/index.ts").TaskSummary} TaskSummary
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/index.ts").TasksEvent} TasksEvent
 * @typedef {import("../../protocol/index.ts").TaskEvent} TaskEvent
 */
import { batch, computed, signal } from "@preact/signals";
import { TASKS_TOPIC, taskTopic } from "../../protocol/index.ts";
import { configure, connState, errorCode, noteSeq, onTopic, request } from "./connection.js";
import { applyTimelineEvent, entries, resetTimeline } from "./timeline.js";
import { composerFocus, composerText, drawerOpen, notifyError, swapDraft } from "./ui.js";

export { entries, entriesTotal, runState, upsertEntry } from "./timeline.js";

/** Every task known, by id. */
export const tasksById = signal(/** @type {Map<string, TaskSummary>} */ (new Map()));
/** False until the first `tasks.list` answered. */
export const tasksLoaded = signal(false);
/** Id of the task shown; null = the new-task draft (empty state). */
export const currentId = signal(/** @type {string|null} */ (null));
/** The topic of the task shown now (null while none is), for `onTopic`. */
export const shownTaskTopic = () => currentId.value ? taskTopic(currentId.value) : null;
/**
 * Phone start view while no task is open: true = the task home (the list), false = the
 * new-task draft. Desktop always shows the draft and ignores it.
 */
export const homeShown = signal(true);
/** "idle" (draft) | "loading" | "ready" | "error" */
export const timelineStatus = signal(/** @type {"idle"|"loading"|"ready"|"error"} */ ("idle"));

/**
 * Sidebar order: pinned first, then most recently updated.
 * @param {TaskSummary} a
 * @param {TaskSummary} b
 */
export function compareTasks(a, b) {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  return b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export const sortedTasks = computed(() => [...tasksById.value.values()].sort(compareTasks));
export const currentTask = computed(() =>
  currentId.value ? tasksById.value.get(currentId.value) ?? null : null
);

/**
 * An event held while a snapshot is fetched.
 * @template D
 * @typedef {{data: D, seq: number}} HeldEvent
 */
/** @type {HeldEvent<TasksEvent>[] | null} tasks events held while `tasks.list` runs */
let tasksHeld = null;
let tasksSeq = 0;
/** @type {{id: string, events: HeldEvent<TaskEvent>[]} | null} task events held while subscribing */
let taskHeld = null;
let taskSeq = 0;
/** Id of the task whose snapshot `entries` holds (null while none is loaded). */
let snapshotOf = /** @type {string|null} */ (null);
let openGen = 0;
const markingRead = new Set();

const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

// ---------- applying server data ----------

/** @param {TaskSummary} task */
export function upsertTask(task) {
  const m = new Map(tasksById.value);
  m.set(task.id, task);
  tasksById.value = m;
  if (task.id === currentId.value && task.unread && timelineStatus.value === "ready") {
    markRead(task.id);
  }
}

/** @param {string} id */
export function removeTask(id) {
  if (!tasksById.value.has(id)) return;
  const m = new Map(tasksById.value);
  m.delete(id);
  tasksById.value = m;
}

/** @param {TasksEvent} data */
function applyTasksEvent(data) {
  if (data?.kind === "upsert" && data.task) upsertTask(data.task);
  else if (data?.kind === "delete" && typeof data.id === "string") {
    removeTask(data.id);
    if (data.id === currentId.value) leaveToDraft();
  }
}

/**
 * @param {string} id
 * @param {TaskEvent} data
 */
function applyTaskEvent(id, data) {
  if (applyTimelineEvent(data)) return;
  if (data?.kind === "deleted") {
    removeTask(id);
    leaveToDraft();
  }
}

onTopic(TASKS_TOPIC, (data, seq) => {
  if (tasksHeld) tasksHeld.push({ data, seq });
  else if (seq > tasksSeq) applyTasksEvent(data);
});
onTopic(shownTaskTopic, (data, seq) => {
  const id = currentId.value;
  if (!id) return;
  if (taskHeld?.id === id) taskHeld.events.push({ data, seq });
  else if (seq > taskSeq) applyTaskEvent(id, data);
});

// ---------- snapshots ----------

async function loadTasks() {
  /** @type {HeldEvent<TasksEvent>[]} */
  const held = [];
  tasksHeld = held;
  try {
    const r = await request("tasks.list");
    if (tasksHeld !== held) return; // a newer load started
    tasksHeld = null;
    tasksSeq = r.seq;
    noteSeq(r.seq);
    batch(() => {
      tasksById.value = new Map(r.tasks.map((t) => [t.id, t]));
      for (const ev of held) if (ev.seq > r.seq) applyTasksEvent(ev.data);
      tasksLoaded.value = true;
    });
  } catch (e) {
    if (tasksHeld === held) tasksHeld = null;
    const code = errorCode(e);
    if (code === "store_unavailable") tasksLoaded.value = true; // the store banner explains
    else if (code !== "disconnected") notifyError("error.list", e);
  }
}

/** @param {string} id */
export async function subscribe(id) {
  const gen = ++openGen;
  /** @type {{id: string, events: HeldEvent<TaskEvent>[]}} */
  const held = { id, events: [] };
  taskHeld = held;
  if (entries.value.length === 0) timelineStatus.value = "loading";
  try {
    const r = await request("task.subscribe", { id });
    if (gen !== openGen) return; // the user moved on; that view unsubscribed
    taskHeld = null;
    taskSeq = r.seq;
    snapshotOf = id;
    noteSeq(r.seq);
    batch(() => {
      resetTimeline({ entries: r.entries, total: r.total, run: r.run ?? null });
      timelineStatus.value = "ready";
      for (const ev of held.events) if (ev.seq > r.seq) applyTaskEvent(id, ev.data);
      upsertTask(r.task);
    });
  } catch (e) {
    if (gen !== openGen) return;
    taskHeld = null;
    const code = errorCode(e);
    if (code === "not_found") {
      removeTask(id);
      leaveToDraft();
    } else if (code !== "disconnected") {
      timelineStatus.value = "error";
      notifyError("error.open", e);
    }
  }
}

/** @param {string} id */
function unsubscribe(id) {
  if (connState.value !== "open") return;
  request("task.unsubscribe", { id }).catch((e) => console.warn("reinagent: unsubscribe", e));
}

/** @param {string} id */
function markRead(id) {
  if (markingRead.has(id) || document.visibilityState === "hidden") return;
  markingRead.add(id);
  request("tasks.markRead", { id })
    .then((r) => {
      markingRead.delete(id);
      if (r?.task) upsertTask(r.task);
    })
    .catch((e) => {
      markingRead.delete(id);
      console.warn("reinagent: markRead", e);
    });
}

configure({
  synced(replayed) {
    // After a replay, only what was never fetched (e.g. a task chosen while offline)
    // needs a snapshot; otherwise everything is fetched again.
    if (!replayed || !tasksLoaded.value) loadTasks();
    const id = currentId.value;
    if (id && (!replayed || snapshotOf !== id)) subscribe(id);
  },
  topics: () => currentId.value ? ["tasks", taskTopic(currentId.value)] : ["tasks"],
});

// ---------- navigation ----------

/**
 * @param {string|null} id
 * @param {boolean} [push] add a history entry (Back returns to the view before)
 */
function writeHash(id, push = false) {
  const want = id ? `#/t/${id}` : "";
  if (location.hash === want) return;
  const url = location.pathname + location.search + want;
  if (push) history.pushState({ overHome: true }, "", url);
  else history.replaceState(history.state, "", url);
}

/** The task id named by the URL hash (`#/t/<id>`), if any. */
export function hashTaskId() {
  const m = /^#\/t\/(.+)$/.exec(location.hash);
  return m && ID_RE.test(m[1]) ? m[1] : null;
}

/**
 * @param {string|null} id
 * @param {boolean} [unsub] whether to unsubscribe from the task shown before
 * @param {boolean} [push] give the view its own history entry (phone home → task)
 */
export function show(id, unsub = true, push = false) {
  const prev = currentId.value;
  if (unsub && prev && prev !== id) unsubscribe(prev);
  openGen++;
  taskHeld = null;
  snapshotOf = null;
  batch(() => {
    currentId.value = id;
    resetTimeline(null);
    timelineStatus.value = id ? "loading" : "idle";
  });
  writeHash(id, push);
}

/**
 * Shows a task and subscribes to its timeline.
 * @param {string} id
 * @param {boolean} [push] add a history entry, so Back returns (the phone home does)
 */
export function openTask(id, push = false) {
  drawerOpen.value = false;
  if (id === currentId.value && timelineStatus.value !== "error") return;
  swapDraft(currentId.value ?? "", id);
  show(id, true, push);
  if (connState.value === "open") subscribe(id);
}

/** Opens the new-task draft: an empty composer; the task is created on first send. */
export function newTask() {
  drawerOpen.value = false;
  homeShown.value = false;
  if (currentId.value !== null) {
    swapDraft(currentId.value, "");
    composerText.value = "";
    show(null);
  }
  composerFocus.value++;
}

/** Leaves a task that no longer exists for the draft view (the task home on phones). */
export function leaveToDraft() {
  homeShown.value = true;
  swapDraft(currentId.value ?? "", "");
  show(null, false);
}

/**
 * Shows the phone task home (on desktop: the draft, like {@link newTask} but without
 * taking focus — on a phone that would open the keyboard).
 */
export function showHome() {
  drawerOpen.value = false;
  homeShown.value = true;
  if (currentId.value !== null) {
    swapDraft(currentId.value, "");
    composerText.value = "";
    show(null);
  }
}

/**
 * Gives a draft opened from the phone home its own history entry (Back returns home);
 * opened over Settings, it takes the place of Settings' entry.
 */
export function pushDraftEntry() {
  const url = location.pathname + location.search;
  const state = { draft: true, overHome: true };
  if (location.hash === "#/settings") history.replaceState(state, "", url);
  else history.pushState(state, "", url);
}

/** Restores the task named in the URL; call once at start-up. */
export function initNavigation() {
  currentId.value = hashTaskId();
  timelineStatus.value = currentId.value ? "loading" : "idle";
  document.addEventListener("visibilitychange", () => {
    const task = currentTask.value;
    if (task?.unread && timelineStatus.value === "ready") markRead(task.id);
  });
  if (history.state?.draft === true && !currentId.value) homeShown.value = false;
  addEventListener("hashchange", () => {
    const id = hashTaskId();
    if (id === currentId.value) return;
    if (id) openTask(id);
    else showHome();
  });
  // Back/Forward between the phone home and a draft opened from it (same URL, so no
  // hashchange); history entries with a task hash are handled above.
  addEventListener("popstate", (e) => {
    if (hashTaskId() || currentId.value !== null || location.hash === "#/settings") return;
    homeShown.value = e.state?.draft !== true;
  });
}
