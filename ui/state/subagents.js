/**
 * Sub-agent runs of the task shown now (SPEC §5.15): loaded with `subagents.list`
 * when the task opens (and after a reconnection), kept live by `{kind:"subagent"}`
 * events on the task's topic. The tool cards, the transcript pane and the composer's
 * background badge read them; stopping one is an op.
 *
 * @typedef {import("../../protocol/index.ts").SubagentRun} SubagentRun
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 */
import { computed, effect, signal } from "@preact/signals";
import { taskTopic } from "../../protocol/index.ts";
import { connState, onEvent, onSync, request } from "./connection.js";
import { currentId } from "./tasks.js";

/** Runs of the shown task by id. */
export const subagentRuns = signal(/** @type {Map<string, SubagentRun>} */ (new Map()));

/** Background sub-agents still running, oldest first (the composer's badge). */
export const backgroundRunning = computed(() =>
  [...subagentRuns.value.values()].filter((r) => r.background && r.status === "running")
    .sort((a, b) => a.startedAt - b.startedAt)
);

/** @param {SubagentRun} run */
function put(run) {
  if (!run || typeof run.id !== "string" || run.taskId !== currentId.value) return;
  const next = new Map(subagentRuns.value);
  next.set(run.id, run);
  subagentRuns.value = next;
}

let loading = 0;
/** @param {string|null} id */
async function load(id) {
  const mine = ++loading;
  subagentRuns.value = new Map();
  if (!id) return;
  try {
    const r = await request("subagents.list", { taskId: id });
    if (mine !== loading) return;
    subagentRuns.value = new Map(r.runs.map((x) => [x.id, x]));
  } catch (e) {
    console.warn("reinagent: subagents.list", e);
  }
}

// Another task shown: its runs. A reconnection that replayed the missed events needs
// nothing more (the events carried the changes); one that could not, a fresh list.
effect(() => {
  const id = currentId.value;
  if (connState.peek() === "open") load(id);
});
onSync((replayed) => {
  if (!replayed) load(currentId.peek());
});

onEvent((topic, data) => {
  const id = currentId.value;
  if (id && topic === taskTopic(id) && data?.kind === "subagent") put(data.run);
});

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
 * @param {Record<string, any>} meta
 * @param {string} [callId]
 * @param {boolean} [live]
 * @returns {SubagentRun|null}
 */
export function runOfMeta(meta, callId, live = false) {
  const r = meta?.subagent;
  if (r && typeof r === "object" && typeof r.id === "string") {
    return subagentRuns.value.get(r.id) ?? /** @type {SubagentRun} */ (r);
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
