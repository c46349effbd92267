/**
 * "Rewind code to before this turn": the dialog's state and its two
 * requests. Opening asks the server for a preview (`task.rewindPreview`); Confirm
 * applies it (`task.rewind`, all-or-nothing). A `conflict` answer (a file changed
 * between preview and confirm) keeps the dialog open with the server's message and
 * a fresh preview that shows the conflict.
 *
 * @typedef {import("../../protocol/index.ts").RewindPlan} RewindPlan
 * @typedef {{taskId: string, entryId: string,
 *   phase: "loading"|"preview"|"applying"|"done"|"failed",
 *   plan: RewindPlan|null, error: string, result: RewindPlan|null}} RewindState
 */
import { signal } from "@preact/signals";
import { errorCode, request } from "./connection.js";
import { t } from "../i18n/index.js";
import { normalisePlan, planState } from "./interact_model.js";
import { isRunning } from "./run_actions.js";
import { currentId } from "./tasks.js";

/** The open rewind dialog, or null. */
export const rewindState = signal(/** @type {RewindState|null} */ (null));

/** Bumped on every open/close so a late answer never lands in another dialog. */
let gen = 0;

/** @param {Partial<RewindState>} patch */
function update(patch) {
  if (rewindState.value) rewindState.value = { ...rewindState.value, ...patch };
}

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/**
 * @param {number} g
 * @param {string} error shown above the refreshed preview
 */
async function preview(g, error) {
  const s = rewindState.value;
  if (!s) return;
  try {
    const r = await request("task.rewindPreview", { id: s.taskId, entryId: s.entryId });
    if (g === gen) update({ phase: "preview", plan: normalisePlan(r), error });
  } catch (e) {
    if (g === gen) update({ phase: "failed", error: messageOf(e) });
  }
}

/**
 * Opens the dialog for the turn that starts at user message `entryId` of the shown
 * task. Does nothing while the task runs.
 * @param {string} entryId
 */
export function openRewind(entryId) {
  const taskId = currentId.value;
  if (!taskId || isRunning.value) return;
  const g = ++gen;
  rewindState.value = { taskId, entryId, phase: "loading", plan: null, error: "", result: null };
  return preview(g, "");
}

/** Applies the previewed rewind. */
export async function confirmRewind() {
  const s = rewindState.value;
  if (!s || s.phase !== "preview" || !s.plan || planState(s.plan) !== "ready") return;
  if (isRunning.value) return; // the button says why
  const g = gen;
  update({ phase: "applying", error: "" });
  try {
    const r = await request("task.rewind", { id: s.taskId, entryId: s.entryId });
    if (g === gen) update({ phase: "done", result: normalisePlan(r) });
  } catch (e) {
    if (g !== gen) return;
    // The server's message is English (CLI/API); the refreshed preview lists the files.
    if (errorCode(e) === "conflict") await preview(g, t("rewind.conflictOnApply"));
    else update({ phase: "preview", error: messageOf(e) });
  }
}

export function closeRewind() {
  gen++;
  rewindState.value = null;
}

// Leaving the task closes its dialog.
currentId.subscribe((id) => {
  const s = rewindState.peek();
  if (s && s.taskId !== id) closeRewind();
});
