/**
 * The context-usage panel's breakdown: `task.contextBreakdown` for the
 * shown task, fetched when the panel opens, and the exact text of one category on
 * demand.
 *
 * @typedef {import("../../protocol/index.ts").ContextBreakdown} ContextBreakdown
 * @typedef {import("../../protocol/index.ts").ContextCategory} ContextCategory
 */
import { signal } from "@preact/signals";
import { compactMetaOf } from "../../protocol/index.ts";
import { request } from "./connection.js";
import { commandNotice } from "./commands.js";
import { notifyError } from "./ui.js";

export const breakdown = signal(/** @type {ContextBreakdown|null} */ (null));
export const breakdownStatus = signal(
  /** @type {"idle"|"loading"|"ready"|"error"} */ ("idle"),
);
export const breakdownError = signal("");
/** The category whose text is shown; null = viewer closed. */
export const viewing = signal(
  /** @type {{key: ContextCategory, text: string|null, format: string, error: string}|null} */ (
    null
  ),
);

let gen = 0;

/** @param {string} taskId */
export async function loadBreakdown(taskId) {
  const mine = ++gen;
  breakdownStatus.value = "loading";
  try {
    const r = await request("task.contextBreakdown", { id: taskId });
    if (mine !== gen) return;
    breakdown.value = r;
    breakdownStatus.value = "ready";
  } catch (e) {
    if (mine !== gen) return;
    breakdownStatus.value = "error";
    breakdownError.value = /** @type {Error} */ (e).message ?? String(e);
  }
}

/**
 * @param {string} taskId
 * @param {ContextCategory} key
 */
export async function viewCategory(taskId, key) {
  viewing.value = { key, text: null, format: "text", error: "" };
  try {
    const r = await request("task.contextBreakdown", { id: taskId, category: key });
    if (viewing.value?.key !== key) return;
    viewing.value = { key, text: r.text?.text ?? "", format: r.text?.format ?? "text", error: "" };
  } catch (e) {
    if (viewing.value?.key !== key) return;
    viewing.value = { key, text: null, format: "text", error: /** @type {Error} */ (e).message };
  }
}

export function closeViewer() {
  viewing.value = null;
}

export { shares } from "./search_model.js";

/** Id of the task a "Compact now" is running for (null = none). */
export const compactingTask = signal(/** @type {string|null} */ (null));

/**
 * "Compact now": summarises the task's conversation (`task.compact`). The band appears
 * through the timeline's events; a failure is a notice (the history is unchanged).
 * @param {string} taskId
 */
export async function compactNow(taskId) {
  if (compactingTask.peek()) return;
  compactingTask.value = taskId;
  try {
    const r = await request("task.compact", { id: taskId });
    const m = r.entry ? compactMetaOf(r.entry) : null;
    commandNotice.value = m
      ? {
        key: "cmd.reply.compacted",
        params: {
          count: m.count,
          before: m.tokensBefore,
          after: m.tokensAfter,
          seconds: Math.round(m.durationMs / 100) / 10,
        },
      }
      : { key: "cmd.reply.compactNothing" };
    loadBreakdown(taskId);
  } catch (e) {
    notifyError("error.compact", e);
  } finally {
    compactingTask.value = null;
  }
}

/**
 * The request preview: the exact next request of a task, fetched when it
 * opens; null = closed.
 * @type {import("@preact/signals").Signal<{taskId: string,
 *   data: import("../../protocol/index.ts").RequestPreview|null, error: string}|null>}
 */
export const preview = signal(null);
/** "parts" (text per part) or "json" (the wire body). */
export const previewTab = signal(/** @type {"parts"|"json"} */ ("parts"));

/** @param {string} taskId */
export async function openPreview(taskId) {
  preview.value = { taskId, data: null, error: "" };
  try {
    const data = await request("task.requestPreview", { id: taskId });
    if (preview.value?.taskId === taskId) preview.value = { taskId, data, error: "" };
  } catch (e) {
    if (preview.value?.taskId !== taskId) return;
    preview.value = { taskId, data: null, error: /** @type {Error} */ (e).message ?? String(e) };
  }
}

export function closePreview() {
  preview.value = null;
}
