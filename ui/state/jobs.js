/**
 * Background commands of the task shown now (SPEC §8.2): loaded with `jobs.list` when
 * the task changes or a reconnection could not replay, then kept live by `{kind: "job"}`
 * events (start, output tail at most once a second, end).
 *
 * @typedef {import("../../protocol/index.ts").JobInfo} JobInfo
 */
import { computed, effect, signal } from "@preact/signals";
import { taskTopic } from "../../protocol/index.ts";
import { connState, onEvent, onSync, request } from "./connection.js";
import { currentId } from "./tasks.js";

/** The shown task's background commands, by id. */
export const jobs = signal(/** @type {Map<string, JobInfo>} */ (new Map()));

/** The ones still running, oldest first (the badge lists them). */
export const runningJobs = computed(() =>
  [...jobs.value.values()].filter((j) => j.status === "running")
    .sort((a, b) => a.startedAt - b.startedAt)
);

/** @param {JobInfo} job */
function put(job) {
  if (!job || typeof job.id !== "string" || job.taskId !== currentId.value) return;
  const next = new Map(jobs.value);
  next.set(job.id, job);
  jobs.value = next;
}

let loading = 0;
/** @param {string|null} id */
async function load(id) {
  const mine = ++loading;
  jobs.value = new Map();
  if (!id) return;
  try {
    const r = await request("jobs.list", { taskId: id });
    if (mine === loading) jobs.value = new Map(r.jobs.map((j) => [j.id, j]));
  } catch (e) {
    console.warn("reinagent: jobs.list", e);
  }
}

effect(() => {
  const id = currentId.value;
  if (connState.peek() === "open") load(id);
});
onSync((replayed) => {
  if (!replayed) load(currentId.peek());
});
onEvent((topic, data) => {
  const id = currentId.value;
  if (id && topic === taskTopic(id) && data?.kind === "job") put(data.job);
});

/** @param {string} taskId @param {string} id */
export async function stopJob(taskId, id) {
  const r = await request("job.stop", { taskId, id });
  put(r.job);
}
