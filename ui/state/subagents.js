/**
 * Sub-agent runs of the task shown now: loaded with `subagents.list`
 * when the task opens (and after a reconnection), kept live by `{kind:"subagent"}`
 * events on the task's topic. The tool cards, the transcript pane and the composer's
 * background badge read them; stopping one is an op.
 *
 * @typedef {import("../../protocol/index.ts").SubagentRun} SubagentRun
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/tool_details.ts").DetailsOf<"agent"|"subagent_output">}
 *   SubagentDetails
 */
import { computed } from "@preact/signals";
import { request } from "./connection.js";
import { taskLiveMap } from "./task_live_map.js";

const live = taskLiveMap({
  what: "subagents.list",
  list: async (taskId) => (await request("subagents.list", { taskId })).runs,
  fromEvent: (data) => data?.kind === "subagent" ? data.run : undefined,
});

/** Runs of the shown task by id. */
export const subagentRuns = live.items;

/** Background sub-agents still running, oldest first (the composer's badge). */
export const backgroundRunning = computed(() =>
  [...subagentRuns.value.values()].filter((r) => r.background && r.status === "running")
    .sort((a, b) => a.startedAt - b.startedAt)
);

/** @param {string} taskId @param {string} runId */
export async function stopSubagent(taskId, runId) {
  await request("subagent.stop", { taskId, runId });
}

/**
 * The run and its transcript (from the server).
 * @param {string} taskId @param {string} runId
 * @returns {Promise<{run: SubagentRun, entries: Entry[], truncated: boolean}>}
 */
export function fetchTranscript(taskId, runId) {
  return request("subagent.transcript", { taskId, runId });
}

/**
 * The run a tool result describes: the live one when known, else its stored facts.
 * Before the result exists (a foreground run of the live turn), the newest run started
 * by call `callId`, when `live` (call ids repeat across turns).
 * @param {SubagentDetails} meta
 * @param {string} [callId]
 * @param {boolean} [live]
 * @returns {SubagentRun|null}
 */
export function runOfMeta(meta, callId, live = false) {
  const r = meta?.subagent;
  if (r && typeof r === "object" && typeof r.id === "string") {
    return subagentRuns.value.get(r.id) ?? r;
  }
  if (!live || !callId) return null;
  let found = /** @type {SubagentRun|null} */ (null);
  for (const x of subagentRuns.value.values()) {
    if (
      x.callId === callId && x.status === "running" && (!found || x.startedAt > found.startedAt)
    ) {
      found = x;
    }
  }
  return found;
}
