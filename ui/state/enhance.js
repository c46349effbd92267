/**
 * Prompt enhancement ✨: the draft rewritten once by the composer's model
 * (`composer.enhance`, 60 s deadline on the server). The text it replaced is kept for
 * Undo, which puts back exactly that text. Switching the view or sending ends both the
 * undo and a request still on its way (its late answer is dropped).
 */
import { effect, signal } from "@preact/signals";
import { ENHANCE_LIMITS } from "../../protocol/index.ts";
import { request } from "./connection.js";
import { chosenOptions } from "./run_actions.js";
import { currentId } from "./tasks.js";
import { composerFocus, composerText, markDraftDirty } from "./ui.js";

export const enhancing = signal(false);
/** The text before the last enhancement (null: nothing to undo). */
export const enhanceUndo = signal(/** @type {string|null} */ (null));
export const enhanceError = signal(/** @type {string|null} */ (null));
/** The enhanced text as it was put in; the undo ends when the draft is sent (emptied). */
let placed = /** @type {string|null} */ (null);
let generation = 0;

/** Why ✨ is unavailable for `text` ("" = available). */
export function enhanceBlock(/** @type {string} */ text) {
  if (!text.trim()) return "empty";
  if (text.trimStart().startsWith("/")) return "command";
  if (text.length > ENHANCE_LIMITS.draftChars) return "tooLong";
  return "";
}

function reset() {
  generation++;
  enhancing.value = false;
  enhanceUndo.value = null;
  enhanceError.value = null;
  placed = null;
}

// Another task (or the new-task view): its own draft, nothing to undo.
let shownId = currentId.peek();
effect(() => {
  const id = currentId.value;
  if (id !== shownId) {
    shownId = id;
    reset();
  }
});
// Sent: the composer was emptied after an enhancement, which is not undone any more.
effect(() => {
  if (composerText.value === "" && placed !== null && !enhancing.peek()) {
    enhanceUndo.value = null;
    placed = null;
  }
});

/** Asks the model for a better version of the draft and puts it in the composer. */
export async function enhanceDraft() {
  const text = composerText.value;
  if (enhancing.value || enhanceBlock(text)) return;
  const gen = ++generation;
  const taskId = currentId.value;
  enhancing.value = true;
  enhanceError.value = null;
  try {
    const args = taskId !== null ? { text, taskId } : { text, model: chosenOptions.value.model };
    const r = await request("composer.enhance", args, {
      timeoutMs: ENHANCE_LIMITS.timeoutMs + 5000,
    });
    if (gen !== generation) return;
    enhanceUndo.value = text;
    placed = r.text;
    composerText.value = r.text;
    markDraftDirty();
    composerFocus.value++;
  } catch (e) {
    if (gen === generation) enhanceError.value = e instanceof Error ? e.message : String(e);
  } finally {
    if (gen === generation) enhancing.value = false;
  }
}

/** Puts back exactly the text the last enhancement replaced. */
export function undoEnhance() {
  const before = enhanceUndo.value;
  if (before === null) return;
  enhanceUndo.value = null;
  placed = null;
  composerText.value = before;
  markDraftDirty();
  composerFocus.value++;
}
