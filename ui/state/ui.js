/**
 * View state that is not server data: the phone drawer, the composer text and its
 * per-task drafts (autosaved to the server), focus requests and error notices.
 */
import { effect, signal } from "@preact/signals";
import { LIMITS } from "../../protocol/index.ts";
import { connState, errorCode, onSync, request } from "./connection.js";
import { attachments, setAttachments, uploading } from "./attachments.js";

/** @typedef {import("../../protocol/index.ts").Attachment} Attachment */

/** Whether the sidebar drawer is open (phone layout only). */
export const drawerOpen = signal(false);
/** Text in the composer for the view shown now. */
export const composerText = signal("");
/** Incremented to ask the composer to take focus (and put the caret at the end). */
export const composerFocus = signal(0);

/** @typedef {{id: number, key: string, message: string}} Notice */
/** Error notices shown above the conversation until dismissed. */
export const notices = signal(/** @type {Notice[]} */ ([]));
let noticeId = 0;

/**
 * Shows an error notice: `key` is an i18n key with a `{message}` placeholder.
 * @param {string} key
 * @param {unknown} err
 */
export function notifyError(key, err) {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`reinagent: ${key}:`, err);
  showNotice(key, message);
}

/**
 * Shows a notice the server reported (not a failure of this page, so nothing is logged).
 * @param {string} key an i18n key with a `{message}` placeholder
 * @param {string} message
 */
export function showNotice(key, message) {
  notices.value = [...notices.value.slice(-3), { id: ++noticeId, key, message }];
}

/** @param {number} id */
export function dismissNotice(id) {
  notices.value = notices.value.filter((n) => n.id !== id);
}

/** Puts `text` in the composer (without sending) and focuses it. */
export function prefill(/** @type {string} */ text) {
  composerText.value = text;
  composerFocus.value++;
}

/** @param {boolean} open */
export function setDrawer(open) {
  drawerOpen.value = open;
}

// ---------- drafts (per-task autosave) ----------

/** How long the composer must be still before its draft is saved. */
export const DRAFT_SAVE_MS = 500;

/**
 * Key of the draft the composer shows: a task id, "" for the new-task draft, null
 * before the composer started. Drafts live on the server (`draft.get`/`draft.set`),
 * so they survive reloads and follow the user to other devices; this page keeps a
 * copy of the ones it saw for instant switching.
 */
export const draftKey = signal(/** @type {string|null} */ (null));
/** @type {Map<string, {text: string, attachments: Attachment[]}>} */
const drafts = new Map();
let dirty = false;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let saveTimer;
let loadGen = 0;
/** Saves on their way, per key: a load answered meanwhile may be older, so it is ignored. */
const saving = new Map();

/** @param {string} key */
const taskOf = (key) => (key === "" ? null : key);

/** The composer content as a draft (uploaded attachments only). */
function currentDraft() {
  return {
    text: composerText.value,
    attachments: attachments.value.filter((c) => c.status === "done" && c.id).map((c) => ({
      id: /** @type {string} */ (c.id),
      name: c.name,
      mime: c.mime,
      size: c.size,
      kind: c.kind,
      createdAt: 0,
    })),
  };
}

/** The user changed the composer (text or attachments): save it soon. */
export function markDraftDirty() {
  dirty = true;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => saveDraftNow(false), DRAFT_SAVE_MS);
}

/**
 * Saves the shown draft if it changed; waits for uploads unless `force`.
 * @param {boolean} force
 */
export function saveDraftNow(force) {
  clearTimeout(saveTimer);
  const key = draftKey.value;
  if (!dirty || key === null) return;
  if (!force && uploading.value) {
    saveTimer = setTimeout(() => saveDraftNow(false), DRAFT_SAVE_MS);
    return;
  }
  const d = currentDraft();
  dirty = false;
  drafts.set(key, d);
  if (connState.value !== "open") {
    dirty = true; // saved once reconnected (see startDrafts)
    return;
  }
  saving.set(key, (saving.get(key) ?? 0) + 1);
  request("draft.set", {
    task: taskOf(key),
    text: d.text.slice(0, LIMITS.messageChars),
    attachments: d.attachments.map((a) => a.id),
  }).finally(() => {
    const n = (saving.get(key) ?? 1) - 1;
    if (n > 0) saving.set(key, n);
    else saving.delete(key);
  }).catch((e) => {
    const code = errorCode(e);
    if (code === "not_found") return; // the task was deleted meanwhile
    if (draftKey.value === key) dirty = true;
    if (code !== "disconnected") notifyError("draft.error.save", e);
  });
}

/**
 * Loads the draft of `key` from the server and shows it, unless the user started
 * typing meanwhile.
 * @param {string} key
 */
async function loadDraft(key) {
  const gen = ++loadGen;
  try {
    const r = await request("draft.get", { task: taskOf(key) });
    if (gen !== loadGen || draftKey.value !== key || dirty || saving.has(key)) return;
    const d = r.draft;
    drafts.set(key, { text: d?.text ?? "", attachments: d?.attachments ?? [] });
    composerText.value = d?.text ?? "";
    setAttachments(d?.attachments ?? []);
  } catch (e) {
    const code = errorCode(e);
    // A damaged store is already shown by its banner.
    if (code !== "disconnected" && code !== "not_found" && code !== "store_unavailable") {
      notifyError("draft.error.load", e);
    }
  }
}

let started = false;
/**
 * Starts draft autosave for the view shown now (`key`); idempotent. A draft is loaded
 * when the view changes and after a (re)connection that could not replay what was
 * missed; edits made offline are saved once the connection is back (they are newer).
 * @param {string} key
 */
export function startDrafts(key) {
  if (started) return;
  started = true;
  if (draftKey.value === null) draftKey.value = key;
  effect(() => {
    const k = draftKey.value;
    if (k !== null && connState.peek() === "open") loadDraft(k);
  });
  let wasOpen = connState.peek() === "open";
  effect(() => {
    const open = connState.value === "open";
    if (open && !wasOpen && dirty) saveDraftNow(true);
    wasOpen = open;
  });
  onSync((replayed) => {
    const k = draftKey.value;
    if (!replayed && !dirty && k !== null) loadDraft(k);
  });
}

/**
 * Saves the composer of the view being left and shows the draft of `nextKey`
 * (task id, "" = the new-task draft): the local copy at once, the server's when it
 * arrives.
 * @param {string} prevKey
 * @param {string} nextKey
 */
export function swapDraft(prevKey, nextKey) {
  if (prevKey === nextKey) return;
  if (draftKey.value === null || draftKey.value === prevKey) {
    if (draftKey.value === null) draftKey.value = prevKey;
    saveDraftNow(true);
    const d = currentDraft();
    if (d.text || d.attachments.length) drafts.set(prevKey, d);
    else drafts.delete(prevKey);
  }
  dirty = false;
  const next = drafts.get(nextKey);
  composerText.value = next?.text ?? "";
  setAttachments(next?.attachments ?? []);
  draftKey.value = nextKey; // loads the server's copy (startDrafts)
}

/**
 * After a send: the draft of `key` is gone, and the composer now belongs to
 * `nextKey` (a task created from the new-task draft).
 * @param {string} key
 * @param {string} nextKey
 */
export function draftSent(key, nextKey) {
  clearTimeout(saveTimer);
  drafts.delete(key);
  const composerEmpty = !composerText.value && !attachments.value.length;
  if (composerEmpty) dirty = false;
  if (connState.value === "open") {
    // The server already dropped it with the send; this covers an older server copy.
    request("draft.set", { task: taskOf(key), text: "", attachments: [] }).catch((e) => {
      const code = errorCode(e);
      if (code !== "not_found" && code !== "disconnected") notifyError("draft.error.save", e);
    });
  }
  if (nextKey !== key) {
    loadGen++; // the new task has no draft to load
    draftKey.value = nextKey;
  }
  if (!composerEmpty) markDraftDirty(); // typed while sending: keep that
}
