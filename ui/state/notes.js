/**
 * The Notes page (Settings → Notes): the notebooks, the notes of the one
 * shown, and the open note's editor text with its autosave. A save names the version
 * the editor loaded; the server refuses it when the file changed on disk meanwhile,
 * which shows as a conflict (the user picks: load the disk's text, or keep theirs) —
 * never a silent overwrite. AI assist replaces or extends the text and keeps what it
 * replaced for Undo.
 *
 * @typedef {import("../../protocol/index.ts").NotebooksView} NotebooksView
 * @typedef {import("../../protocol/index.ts").NotebookView} NotebookView
 * @typedef {import("../../protocol/index.ts").NoteDoc} NoteDoc
 * @typedef {import("../../protocol/index.ts").AssistAction} AssistAction
 * @typedef {"saved"|"dirty"|"saving"|"error"|"conflict"} SaveState
 */
import { signal } from "@preact/signals";
import { DEFAULT_NOTEBOOK, NOTES_LIMITS, NOTES_TOPIC } from "../../protocol/index.ts";
import { errorCode, onSync, onTopic, request } from "./connection.js";
import { notifyError } from "./ui.js";
import { chosenOptions } from "./run_actions.js";
import { currentId } from "./tasks.js";
import { openSettingsTab } from "./settings.js";

export const notebooksView = signal(/** @type {NotebooksView|null} */ (null));
export const notebookName = signal(DEFAULT_NOTEBOOK);
export const notebookView = signal(/** @type {NotebookView|null} */ (null));
/** The open note as last loaded or saved (its `body` is the text on disk). */
export const openNote = signal(/** @type {NoteDoc|null} */ (null));
/** The editor's text (may be ahead of the disk until the autosave ran). */
export const noteText = signal("");
export const saveState = signal(/** @type {SaveState} */ ("saved"));
export const saveError = signal(/** @type {string|null} */ (null));
/** The action running (null = none). */
export const assistBusy = signal(/** @type {AssistAction|null} */ (null));
export const assistError = signal(/** @type {string|null} */ (null));
/** The text before the last assist (null = nothing to undo). */
export const assistUndo = signal(/** @type {string|null} */ (null));
/** The task being organised into a note (null = none). */
export const organising = signal(/** @type {string|null} */ (null));

/** @param {unknown} e */
const messageOf = (e) => e instanceof Error ? e.message : String(e);

let timer = /** @type {ReturnType<typeof setTimeout>|undefined} */ (undefined);
let saving = /** @type {Promise<void>|null} */ (null);

export async function loadNotebooks() {
  try {
    const v = await request("notes.list", {});
    notebooksView.value = v;
    if (!v.notebooks.some((b) => b.name === notebookName.value)) {
      notebookName.value = v.notebooks[0]?.name ?? DEFAULT_NOTEBOOK;
    }
    await loadNotebook();
  } catch (e) {
    if (errorCode(e) !== "disconnected") notifyError("notes.error", e);
  }
}

export async function loadNotebook() {
  const name = notebookName.value;
  try {
    const v = await request("notes.notes", { notebook: name });
    if (notebookName.value === name) notebookView.value = v;
  } catch (e) {
    if (errorCode(e) !== "disconnected") notifyError("notes.error", e);
  }
}

/** @param {string} name */
export async function showNotebook(name) {
  await flushSave();
  closeNote();
  notebookName.value = name;
  notebookView.value = null;
  await loadNotebook();
}

export function closeNote() {
  clearTimeout(timer);
  openNote.value = null;
  noteText.value = "";
  saveState.value = "saved";
  saveError.value = null;
  assistUndo.value = null;
  assistError.value = null;
}

/** @param {NoteDoc} doc */
function place(doc) {
  clearTimeout(timer);
  openNote.value = doc;
  noteText.value = doc.body;
  saveState.value = "saved";
  saveError.value = null;
  assistUndo.value = null;
  assistError.value = null;
}

/** Opens a note (after saving the one open). @param {string} notebook @param {string} name */
export async function openNoteByName(notebook, name) {
  await flushSave();
  try {
    const doc = await request("notes.read", { notebook, note: name });
    if (notebookName.value !== notebook) {
      notebookName.value = notebook;
      await loadNotebook();
    }
    place(doc);
  } catch (e) {
    notifyError("notes.error", e);
  }
}

/** The editor changed: saved {@link NOTES_LIMITS.autosaveMs} after the last change. @param {string} text */
export function editNote(text) {
  noteText.value = text;
  if (saveState.value === "conflict") return;
  saveState.value = "dirty";
  clearTimeout(timer);
  timer = setTimeout(() => void saveNow(), NOTES_LIMITS.autosaveMs);
}

/** Saves the editor's text now (one save at a time; a later edit saves again). */
export function saveNow() {
  clearTimeout(timer);
  if (saving) return saving;
  const doc = openNote.value;
  if (!doc || saveState.value === "conflict" || saveState.value === "saved") {
    return Promise.resolve();
  }
  const body = noteText.value;
  saveState.value = "saving";
  saving = (async () => {
    try {
      const r = await request("notes.save", {
        notebook: doc.notebook,
        note: doc.name,
        body,
        baseVersion: doc.version,
      });
      if (openNote.value !== doc) return;
      openNote.value = { ...doc, body, version: r.version, updatedAt: r.updatedAt };
      saveError.value = null;
      saveState.value = noteText.value === body ? "saved" : "dirty";
    } catch (e) {
      if (openNote.value !== doc) return;
      saveError.value = messageOf(e);
      saveState.value = errorCode(e) === "conflict" ? "conflict" : "error";
    } finally {
      saving = null;
    }
    if (saveState.value === "dirty") {
      timer = setTimeout(() => void saveNow(), NOTES_LIMITS.autosaveMs);
    }
    void loadNotebook();
  })();
  return saving;
}

/** Waits for a pending autosave (before the note shown changes). */
export async function flushSave() {
  if (saving) await saving;
  if (saveState.value === "dirty") await saveNow();
}

/** Conflict: drop the editor's text and load the file as it is on disk. */
export async function reloadFromDisk() {
  const doc = openNote.value;
  if (!doc) return;
  try {
    place(await request("notes.read", { notebook: doc.notebook, note: doc.name }));
  } catch (e) {
    saveError.value = messageOf(e);
  }
}

/** Conflict: the user chose their text — saved over the file's current version. */
export async function keepMine() {
  const doc = openNote.value;
  if (!doc) return;
  try {
    const disk = await request("notes.read", { notebook: doc.notebook, note: doc.name });
    openNote.value = { ...doc, version: disk.version };
    saveState.value = "dirty";
    await saveNow();
  } catch (e) {
    saveError.value = messageOf(e);
  }
}

/** @param {string} [body] */
export async function createNote(body) {
  await flushSave();
  try {
    const doc = await request("notes.create", {
      notebook: notebookName.value,
      ...(body ? { body } : {}),
    });
    place(doc);
    await loadNotebook();
  } catch (e) {
    notifyError("notes.error", e);
  }
}

/** Returns an error message or null. @param {string} name */
export async function createNotebook(name) {
  try {
    notebooksView.value = await request("notes.createNotebook", { name });
    await showNotebook(name);
    return null;
  } catch (e) {
    return messageOf(e);
  }
}

/** Renames the notebook shown; returns an error message or null. @param {string} to */
export async function renameNotebook(to) {
  const name = notebookName.value;
  if (to === name) return null;
  await flushSave();
  try {
    notebooksView.value = await request("notes.renameNotebook", { name, to });
    await showNotebook(to);
    return null;
  } catch (e) {
    return messageOf(e);
  }
}

/** Returns an error message or null. @param {string} name */
export async function deleteNotebook(name) {
  try {
    notebooksView.value = await request("notes.deleteNotebook", { name });
    await showNotebook(notebooksView.value.notebooks[0]?.name ?? DEFAULT_NOTEBOOK);
    return null;
  } catch (e) {
    return messageOf(e);
  }
}

/** Renames the open note; returns an error message or null. @param {string} to */
export async function renameNote(to) {
  const doc = openNote.value;
  if (!doc || to === doc.name) return null;
  await flushSave();
  try {
    notebookView.value = await request("notes.rename", {
      notebook: doc.notebook,
      note: doc.name,
      to,
    });
    const moved = await request("notes.read", { notebook: doc.notebook, note: to });
    openNote.value = moved;
    return null;
  } catch (e) {
    return messageOf(e);
  }
}

/** Moves a note to the trash; returns an error message or null. @param {string} name */
export async function deleteNote(name) {
  const nb = notebookName.value;
  if (openNote.value?.name === name) closeNote();
  try {
    notebookView.value = await request("notes.delete", { notebook: nb, note: name });
    return null;
  } catch (e) {
    return messageOf(e);
  }
}

/** The model assist uses: the open task's, else the one picked for a new task. */
const modelArgs = () =>
  currentId.value !== null ? { taskId: currentId.value } : { model: chosenOptions.value.model };

/** Runs an assist action on the note's text. @param {AssistAction} action */
export async function assist(action) {
  const doc = openNote.value;
  const before = noteText.value;
  if (!doc || assistBusy.value || !before.trim()) return;
  assistBusy.value = action;
  assistError.value = null;
  try {
    const r = await request("notes.assist", {
      text: before.slice(-NOTES_LIMITS.assistChars),
      action,
      ...modelArgs(),
    }, { timeoutMs: NOTES_LIMITS.assistTimeoutMs + 5000 });
    // The user kept typing or opened another note: the answer is not applied over it.
    if (openNote.value?.name !== doc.name || noteText.value !== before) return;
    const after = action === "grammar"
      ? r.text
      : action === "continue"
      ? `${before.trimEnd()}\n\n${r.text}\n`
      : `${before.trimEnd()}\n\n## Summary\n\n${r.text}\n`;
    editNote(after);
    assistUndo.value = before;
  } catch (e) {
    assistError.value = messageOf(e);
  } finally {
    assistBusy.value = null;
  }
}

/** Puts back the text the last assist replaced. */
export function undoAssist() {
  const before = assistUndo.value;
  if (before === null) return;
  assistUndo.value = null;
  editNote(before);
}

/** "Organise this conversation into a note": saved in the default notebook and opened. @param {string} taskId */
export async function organiseTask(taskId) {
  if (organising.value) return;
  organising.value = taskId;
  // The page shows the work in progress, then the note.
  openSettingsTab("notes");
  try {
    const doc = await request("notes.organise", { taskId, notebook: DEFAULT_NOTEBOOK }, {
      timeoutMs: NOTES_LIMITS.assistTimeoutMs + 5000,
    });
    await flushSave();
    notebookName.value = doc.notebook;
    await loadNotebooks();
    place(doc);
  } catch (e) {
    notifyError("notes.organiseError", e);
  } finally {
    organising.value = null;
  }
}

onSync(() => {
  if (notebooksView.value) void loadNotebooks();
  // A save that failed while the connection was down is tried again once it is back.
  if (saveState.value === "error") void saveNow();
});

// Another client (or an organise) changed notes: the lists follow; an open note with no
// edits of its own follows the disk too.
onTopic(NOTES_TOPIC, (ev) => {
  if (!notebooksView.value) return;
  void request("notes.list", {}).then((v) => notebooksView.value = v).catch(() => {});
  if (ev.notebook === notebookName.value) void loadNotebook();
  const doc = openNote.value;
  // A save's event names its version: the editor that made it (or holds it) reads nothing.
  if (ev.version && ev.version === doc?.version) return;
  if (doc && ev.note === doc.name && saveState.value === "saved" && !saving) {
    void request("notes.read", { notebook: doc.notebook, note: doc.name }).then((fresh) => {
      if (openNote.value === doc && saveState.value === "saved" && fresh.version !== doc.version) {
        place(fresh);
      }
    }).catch(() => {});
  }
});
