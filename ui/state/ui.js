/**
 * View state that is not server data: the phone drawer, the composer text (kept per
 * task while the page lives), focus requests and error notices.
 */
import { signal } from "@preact/signals";

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

/** Drafts of views not shown now, by task id ("" = the new-task draft). */
const drafts = new Map();

/**
 * Saves the composer text of the view being left and restores the one of `nextKey`.
 * @param {string} prevKey
 * @param {string} nextKey
 */
export function swapDraft(prevKey, nextKey) {
  if (prevKey === nextKey) return;
  if (composerText.value) drafts.set(prevKey, composerText.value);
  else drafts.delete(prevKey);
  composerText.value = drafts.get(nextKey) ?? "";
  drafts.delete(nextKey);
}
