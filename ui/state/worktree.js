/**
 * An isolated task's worktree as the review dialog shows it: the review (branch, how far
 * from the base, the whole diff), and the finishing actions — merge into the base (or the
 * conflicts, which can be handed back to the agent), keep the branch, discard it.
 *
 * @typedef {import("../../protocol/index.ts").WorktreeReview} WorktreeReview
 * @typedef {import("../../protocol/index.ts").WorktreeMerge} WorktreeMerge
 */
import { signal } from "@preact/signals";
import { request } from "./connection.js";

/** The task whose review dialog is open, or null. */
export const reviewing = signal(/** @type {string|null} */ (null));
export const review = signal(/** @type {WorktreeReview|null} */ (null));
/** What the last action did or why it failed, for the dialog. */
export const outcome = signal(
  /** @type {{kind: "merged"|"conflicts"|"kept"|"discarded"|"error", text: string, files?: string[]}|null} */ (
    null
  ),
);
export const busy = signal(false);

const message = (/** @type {unknown} */ e) => String(/** @type {Error} */ (e)?.message ?? e);

/** @param {string} id */
export async function openReview(id) {
  reviewing.value = id;
  review.value = null;
  outcome.value = null;
  await loadReview(id);
}

/** @param {string} id */
async function loadReview(id) {
  try {
    review.value = await request("worktree.review", { id });
  } catch (e) {
    outcome.value = { kind: "error", text: message(e) };
  }
}

export function closeReview() {
  reviewing.value = null;
  review.value = null;
  outcome.value = null;
}

/** @param {() => Promise<void>} fn */
async function act(fn) {
  busy.value = true;
  try {
    await fn();
  } catch (e) {
    outcome.value = { kind: "error", text: message(e) };
  } finally {
    busy.value = false;
  }
}

/** @param {string} id */
export const merge = (id) =>
  act(async () => {
    /** @type {WorktreeMerge} */
    const r = await request("worktree.merge", { id });
    outcome.value = r.merged
      ? { kind: "merged", text: r.how }
      : { kind: "conflicts", text: "", files: r.conflicts };
    await loadReview(id);
  });

/**
 * @param {string} id
 * @param {"keep"|"discard"} action
 */
export const finish = (id, action) =>
  act(async () => {
    const r = await request("worktree.finish", { id, action });
    outcome.value = { kind: action === "keep" ? "kept" : "discarded", text: r.pushed ?? "" };
  });

/**
 * Hands a merge conflict back to the task's agent as its next message.
 * @param {string} id
 * @param {string} text
 */
export const handBack = (id, text) =>
  act(async () => {
    await request("task.send", { id, text });
    closeReview();
  });
