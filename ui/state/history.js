/**
 * Timeline history actions: "Load earlier (N left)", edit & resend
 * a user message, retry an assistant reply, branch a task at a reply, copy text.
 * Components call these; the server's `truncate`/`entry` events update the timeline
 * of every client, this one included.
 */
import { bottomRequest } from "./overlays.js";
import { signal } from "@preact/signals";
import { request } from "./connection.js";
import { currentId, entries, entriesTotal, openTask } from "./tasks.js";
import { prependEntries } from "./timeline.js";
import { notifyError } from "./ui.js";

/** True while a page of older entries is being fetched. */
export const loadingEarlier = signal(false);
/** Id of the user message being edited inline (one at a time), or null. */
export const editingId = signal(/** @type {string|null} */ (null));

let loadGen = 0;
currentId.subscribe(() => {
  loadGen++;
  loadingEarlier.value = false;
  editingId.value = null;
});

/**
 * Fetches the page of entries before the oldest one loaded; resolves to whether
 * anything was added.
 */
export async function loadEarlier() {
  const id = currentId.value;
  const first = entries.value[0];
  if (!id || !first || loadingEarlier.value) return false;
  if (entriesTotal.value <= entries.value.length) return false;
  const gen = ++loadGen;
  loadingEarlier.value = true;
  try {
    const r = await request("task.entriesBefore", { id, beforePos: first.pos });
    if (gen !== loadGen) return false;
    prependEntries(r.entries, r.total);
    return r.entries.length > 0;
  } catch (e) {
    if (gen === loadGen) notifyError("history.loadFailed", e);
    return false;
  } finally {
    if (gen === loadGen) loadingEarlier.value = false;
  }
}

/**
 * Loads older pages until entry `entryId` is loaded (or there is nothing more).
 * @param {string} entryId
 */
export async function loadUntil(entryId) {
  for (let i = 0; i < 200; i++) {
    if (entries.value.some((e) => e.id === entryId)) return true;
    while (loadingEarlier.value) await new Promise((r) => setTimeout(r, 30));
    if (entries.value.some((e) => e.id === entryId)) return true;
    if (!(await loadEarlier())) return false;
  }
  return false;
}

/**
 * Replaces the text of user message `entryId` and runs the task again from there.
 * Rejects with the server's error (shown by the editor).
 * @param {string} entryId
 * @param {string} text
 */
export async function editResend(entryId, text) {
  const id = currentId.value;
  if (!id) return;
  bottomRequest.value++; // the re-run is what the user wants to see
  await request("task.editResend", { id, entryId, text });
  editingId.value = null;
}

/**
 * Re-sends the user prompt of assistant reply `entryId`.
 * @param {string} entryId
 */
export async function retryReply(entryId) {
  const id = currentId.value;
  if (!id) return;
  bottomRequest.value++; // the re-run is what the user wants to see
  await request("task.retry", { id, entryId });
}

/**
 * Copies the task up to reply `entryId` into a new task and opens it.
 * @param {string} entryId
 */
export async function branchAt(entryId) {
  const id = currentId.value;
  if (!id) return;
  const r = await request("task.branch", { id, entryId });
  openTask(r.task.id);
}

/**
 * Copies text to the clipboard (with a fallback for pages without the Clipboard API,
 * e.g. plain http on a phone); resolves to whether it worked.
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.style.position = "fixed";
    ta.style.opacity = "0";
    document.body.append(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    ta.remove();
    return ok;
  }
}
