/**
 * Projects (folders the user added) and the sidebar's layout, kept on the server:
 * the project list comes from `projects.list` after each (re)connection plus pushed
 * `projects` events (the full list after every change); the layout (section order,
 * collapsed sections and projects) is a `ui.sidebar.layout` kv value, so it follows
 * the user to every device. `draftProject` is the project the new-task draft will be
 * created in.
 *
 * @typedef {import("../../protocol/index.ts").Project} Project
 * @typedef {import("../../protocol/index.ts").TaskSummary} TaskSummary
 * @typedef {"projects"|"tasks"} SectionId
 * @typedef {{order: SectionId[], collapsed: string[]}} SidebarLayout
 */
import { computed, effect, signal } from "@preact/signals";
import { PROJECTS_TOPIC } from "../../protocol/index.ts";
import { connState, errorCode, onSync, onTopic, request } from "./connection.js";
import { currentId, newTask, sortedTasks } from "./tasks.js";
import { notifyError } from "./ui.js";

export const LAYOUT_KEY = "ui.sidebar.layout";
/** @type {SectionId[]} */
export const SECTION_IDS = ["projects", "tasks"];

/** Every project, in the user's order. */
export const projects = signal(/** @type {Project[]} */ ([]));
/** The order the server has (what a refused reorder goes back to). */
let serverOrder = /** @type {string[]} */ ([]);
/** @param {Project[]} list */
function setFromServer(list) {
  serverOrder = list.map((p) => p.id);
  projects.value = list;
}
export const projectsLoaded = signal(false);
/** Path of the project the draft will be created in; null = no project. */
export const draftProject = signal(/** @type {string|null} */ (null));
/** The draft's task gets a git worktree and branch of its own (only with a project). */
export const draftWorktree = signal(false);
/** Section order and collapsed ids (`projects`, `tasks`, `project:<id>`). */
export const layout = signal(
  /** @type {SidebarLayout} */ ({ order: [...SECTION_IDS], collapsed: [] }),
);

/** Tasks grouped by project path (each list pinned first, then most recent). */
export const tasksByProject = computed(() => {
  /** @type {Map<string, TaskSummary[]>} */
  const m = new Map(projects.value.map((p) => [p.path, []]));
  for (const task of sortedTasks.value) {
    const folder = projectOf(task);
    if (folder) m.get(folder)?.push(task);
  }
  return m;
});

/**
 * The project folder a task belongs to: its own folder, or for a task in a worktree of
 * its own, the repository the worktree came from.
 * @param {TaskSummary} task
 */
export const projectOf = (task) => task.settings.worktree?.repo ?? task.projectPath;

/** Tasks shown under "Tasks": no project, or a project no longer listed (kept, not lost). */
export const looseTasks = computed(() => {
  const known = new Set(projects.value.map((p) => p.path));
  return sortedTasks.value.filter((x) => {
    const folder = projectOf(x);
    return !folder || !known.has(folder);
  });
});

/** @param {string|null} path */
export function projectByPath(path) {
  return path ? projects.value.find((p) => p.path === path) ?? null : null;
}

// A task was opened (or created from the draft): the draft's choice is used up.
effect(() => {
  if (currentId.value !== null) {
    draftProject.value = null;
    draftWorktree.value = false;
  }
});
// The draft's project was removed (here or on another device).
effect(() => {
  const p = draftProject.value;
  if (p && projectsLoaded.value && !projects.value.some((x) => x.path === p)) {
    draftProject.value = null;
  }
});

/** Args for `tasks.create` from the draft: its project, when one is chosen (and its worktree). */
export function draftProjectArgs() {
  if (!draftProject.value) return {};
  return draftWorktree.value
    ? { projectPath: draftProject.value, worktree: {} }
    : { projectPath: draftProject.value };
}

/**
 * A project added while a task was shown: the next plain "New task" draft starts in
 * it (a draft shown while adding moves into it at once).
 */
let addedForNextDraft = /** @type {string|null} */ (null);

/**
 * Opens the new-task draft in a project (or in none).
 * @param {string|null} path
 */
export function newTaskIn(path) {
  addedForNextDraft = null;
  newTask();
  draftProject.value = path;
}

/**
 * A plain "New task": in the project just added, if any; else in no project, or with
 * `keep` in the draft's current project.
 * @param {{keep?: boolean}} [opts]
 */
export function newDraft({ keep = false } = {}) {
  const added = addedForNextDraft;
  if (added && projects.value.some((p) => p.path === added)) newTaskIn(added);
  else if (keep) {
    addedForNextDraft = null;
    newTask();
  } else newTaskIn(null);
}

// ---------- server data ----------

let pushes = 0;
onTopic(PROJECTS_TOPIC, (data) => {
  if (data?.kind !== "list" || !Array.isArray(data.projects)) return;
  pushes++;
  setFromServer(data.projects);
  projectsLoaded.value = true;
});

async function loadProjects() {
  const mark = pushes;
  try {
    const r = await request("projects.list");
    if (pushes === mark) setFromServer(r.projects);
    projectsLoaded.value = true;
  } catch (e) {
    const code = errorCode(e);
    if (code === "store_unavailable") projectsLoaded.value = true;
    else if (code !== "disconnected") notifyError("projects.error.list", e);
  }
}

/** @param {unknown} v */
export function normaliseLayout(v) {
  const raw = /** @type {any} */ (v) ?? {};
  const order = Array.isArray(raw.order)
    ? raw.order.filter((/** @type {any} */ x, /** @type {number} */ i, /** @type {any[]} */ a) =>
      SECTION_IDS.includes(x) && a.indexOf(x) === i
    )
    : [];
  for (const id of SECTION_IDS) if (!order.includes(id)) order.push(id);
  const collapsed = Array.isArray(raw.collapsed)
    ? raw.collapsed.filter((/** @type {any} */ x) => typeof x === "string" && x.length < 80)
      .slice(0, 300)
    : [];
  return /** @type {SidebarLayout} */ ({ order, collapsed });
}

let layoutEdits = 0;
async function loadLayout() {
  const mark = layoutEdits;
  try {
    const r = await request("kv.get", { key: LAYOUT_KEY });
    if (layoutEdits === mark && r.value !== null) layout.value = normaliseLayout(r.value);
    savedOrder = layout.value.order.join();
  } catch (e) {
    const code = errorCode(e);
    if (code !== "disconnected" && code !== "store_unavailable") {
      console.warn("reinagent: sidebar layout", e);
    }
  }
}

onSync((replayed) => {
  if (!replayed || !projectsLoaded.value) loadProjects();
  if (!replayed) loadLayout();
}, () => ["projects"]);

/** @param {SidebarLayout} next */
function saveLayout(next) {
  layoutEdits++;
  layout.value = next;
  if (connState.value !== "open") return;
  request("kv.set", { key: LAYOUT_KEY, value: next }).catch((e) =>
    notifyError("projects.error.layout", e)
  );
}

/** @param {string} id `projects`, `tasks` or `project:<id>` */
export function isCollapsed(id) {
  return layout.value.collapsed.includes(id);
}

/** @param {string} id */
export function toggleCollapsed(id) {
  const c = layout.value.collapsed;
  saveLayout({
    ...layout.value,
    collapsed: c.includes(id) ? c.filter((x) => x !== id) : [...c, id],
  });
}

/**
 * Moves a section to position `to` (0-based) on screen only; {@link saveSectionOrder}
 * keeps it (a drag previews every step and saves once at the drop).
 * @param {string} id
 * @param {number} to
 */
export function moveSection(id, to) {
  const order = layout.value.order.filter((x) => x !== id);
  order.splice(Math.max(0, Math.min(order.length, to)), 0, /** @type {SectionId} */ (id));
  if (order.join() !== layout.value.order.join()) layout.value = { ...layout.value, order };
}

let savedOrder = "";
export function saveSectionOrder() {
  const order = layout.value.order.join();
  if (order === savedOrder) return;
  savedOrder = order;
  saveLayout(layout.value);
}

// ---------- actions ----------

/**
 * Adds a folder as a project. Resolves to the project, or throws the server's error
 * (the folder browser shows it; `needs_confirmation` for a folder too wide for an agent,
 * added only when asked again with `confirmWide`).
 * @param {string} path
 * @param {boolean} [confirmWide]
 * @returns {Promise<Project>}
 */
export async function addProject(path, confirmWide = false) {
  const r = await request("projects.add", confirmWide ? { path, confirmWide } : { path });
  if (!projects.value.some((p) => p.id === r.project.id)) {
    setFromServer([...projects.value, r.project]);
  }
  // Opening it: the folder was added to work in it, so the next draft is in it.
  if (isCollapsed("projects")) toggleCollapsed("projects");
  if (currentId.value === null) draftProject.value = r.project.path;
  else addedForNextDraft = r.project.path;
  return r.project;
}

/**
 * @param {string} id
 * @param {string} name
 */
export async function renameProject(id, name) {
  const clean = name.replace(/\s+/g, " ").trim();
  if (!clean) return false;
  try {
    const r = await request("projects.rename", { id, name: clean });
    projects.value = projects.value.map((p) => p.id === id ? r.project : p);
    return true;
  } catch (e) {
    notifyError("projects.error.rename", e);
    return false;
  }
}

/**
 * The command run in each new worktree of the project ("" = none); throws the server's error.
 * @param {string} id
 * @param {string} command
 */
export async function setProjectSetup(id, command) {
  const r = await request("projects.setSetup", { id, command: command.trim() || null });
  projects.value = projects.value.map((p) => p.id === id ? r.project : p);
}

/** @param {string} id */
export async function removeProject(id) {
  try {
    await request("projects.remove", { id });
    setFromServer(projects.value.filter((p) => p.id !== id));
  } catch (e) {
    notifyError("projects.error.remove", e);
  }
}

/**
 * Moves a project to position `to` (0-based) on screen only; {@link saveProjectOrder}
 * sends the order.
 * @param {string} id
 * @param {number} to
 */
export function moveProject(id, to) {
  const list = projects.value.filter((p) => p.id !== id);
  const moved = projects.value.find((p) => p.id === id);
  if (!moved) return;
  list.splice(Math.max(0, Math.min(list.length, to)), 0, moved);
  if (list.map((p) => p.id).join() !== projects.value.map((p) => p.id).join()) {
    projects.value = list;
  }
}

/** Sends the order shown (after a drag or a key press); reverts it when refused. */
export async function saveProjectOrder() {
  const ids = projects.value.map((p) => p.id);
  if (ids.join() === serverOrder.join()) return;
  try {
    const r = await request("projects.reorder", { ids });
    setFromServer(r.projects);
  } catch (e) {
    projects.value = [...projects.value].sort((a, b) =>
      serverOrder.indexOf(a.id) - serverOrder.indexOf(b.id)
    );
    notifyError("projects.error.reorder", e);
  }
}

/**
 * The folder browser's listing of `path` (`~` = home).
 * @param {string} path
 */
export function listDirs(path) {
  return request("fs.listDirs", { path });
}
