/**
 * The Memory page (Settings → Memory): the bucket shown (global, or one project's),
 * its memories and corrupt files as the server lists them (`memory.list`), the search,
 * the edit form, and the page's actions. Other clients' and the agent's changes arrive
 * on topic `memory` and reload the bucket shown.
 *
 * @typedef {import("../../protocol/index.ts").MemoryBucketView} MemoryBucketView
 * @typedef {import("../../protocol/index.ts").MemorySearchHit} MemorySearchHit
 * @typedef {import("../../protocol/index.ts").MemoryScope} MemoryScope
 * @typedef {import("../../protocol/index.ts").MemoryType} MemoryType
 * @typedef {{id: string|null, title: string, description: string, type: MemoryType, body: string}} MemoryDraft
 */
import { signal } from "@preact/signals";
import { MEMORY_TOPIC } from "../../protocol/index.ts";
import { errorCode, onSync, onTopic, request } from "./connection.js";
import { notifyError } from "./ui.js";

export const memoryScope = signal(/** @type {MemoryScope} */ ("global"));
/** The project whose memories the project tab shows (null = the default project). */
export const memoryProject = signal(/** @type {string|null} */ (null));
export const memoryView = signal(/** @type {MemoryBucketView|null} */ (null));
export const memoryQuery = signal("");
/** Search results for `memoryQuery` (null = no search: the whole list). */
export const memoryHits = signal(/** @type {MemorySearchHit[]|null} */ (null));
/** The add/edit form (null = closed). */
export const memoryDraft = signal(/** @type {MemoryDraft|null} */ (null));

/** The bucket arguments of the page (a project tab without a path: the default project). */
function bucket() {
  if (memoryScope.value === "global") return { scope: /** @type {const} */ ("global") };
  const projectPath = memoryProject.value;
  return projectPath
    ? { scope: /** @type {const} */ ("project"), projectPath }
    : { scope: /** @type {const} */ ("project") };
}

export async function loadMemory() {
  try {
    memoryView.value = await request("memory.list", bucket());
    if (memoryQuery.value.trim()) await searchMemory(memoryQuery.value);
  } catch (e) {
    if (errorCode(e) !== "disconnected") notifyError("memory.error", e);
  }
}

/**
 * Shows a tab: the project tab starts on `projectPath` (the open task's; null = the
 * default project).
 * @param {MemoryScope} scope @param {string|null} [projectPath]
 */
export function showMemoryTab(scope, projectPath = null) {
  memoryScope.value = scope;
  if (scope === "project") memoryProject.value = projectPath;
  memoryHits.value = null;
  memoryQuery.value = "";
}

/** @param {string} q */
export async function searchMemory(q) {
  memoryQuery.value = q;
  if (!q.trim()) {
    memoryHits.value = null;
    return;
  }
  try {
    const r = await request("memory.search", { ...bucket(), q });
    if (memoryQuery.value === q) memoryHits.value = r.hits;
  } catch (e) {
    if (errorCode(e) !== "disconnected") notifyError("memory.error", e);
  }
}

/**
 * Runs an op that returns the bucket; returns an error message or null.
 * @param {() => Promise<MemoryBucketView>} fn
 */
async function changing(fn) {
  try {
    memoryView.value = await fn();
    if (memoryQuery.value.trim()) await searchMemory(memoryQuery.value);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** @param {MemoryDraft} d */
export function saveMemory(d) {
  const { id, ...fields } = d;
  return changing(async () =>
    (await request("memory.save", { ...bucket(), ...fields, ...(id ? { id } : {}) })).bucket
  );
}

/** @param {string} id */
export const acceptMemory = (id) => changing(() => request("memory.accept", { ...bucket(), id }));
/** @param {string} id */
export const deleteMemory = (id) => changing(() => request("memory.delete", { ...bucket(), id }));

/** Moves every memory of the bucket to the trash; returns an error message or null. */
export const wipeMemory = () =>
  changing(async () => (await request("memory.wipe", { ...bucket(), confirm: "wipe" })).bucket);

/** @param {string} id */
export async function editMemory(id) {
  try {
    const m = await request("memory.read", { ...bucket(), id });
    memoryDraft.value = {
      id: m.id,
      title: m.title,
      description: m.description,
      type: m.type,
      body: m.body,
    };
  } catch (e) {
    notifyError("memory.error", e);
  }
}

/** @param {boolean} extraction */
export async function setExtraction(extraction) {
  try {
    const settings = await request("memory.setSettings", { extraction });
    if (memoryView.value) memoryView.value = { ...memoryView.value, settings };
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

// A new connection has no subscription yet: listing again subscribes (and catches up).
onSync(() => {
  if (memoryView.value) void loadMemory();
});

onTopic(MEMORY_TOPIC, (ev) => {
  if (!memoryView.value) return;
  const v = memoryView.value;
  if (ev.scope === v.scope && (ev.scope === "global" || ev.projectPath === v.projectPath)) {
    void loadMemory();
  }
});
