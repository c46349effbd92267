/**
 * Background commands of the task shown now: `jobs.list`, kept live by
 * `{kind: "job"}` events (start, output tail at most once a second, end).
 */
import { computed } from "@preact/signals";
import { request } from "./connection.js";
import { taskLiveMap } from "./task_live_map.js";

const live = taskLiveMap({
  what: "jobs.list",
  list: async (taskId) => (await request("jobs.list", { taskId })).jobs,
  fromEvent: (data) => data?.kind === "job" ? data.job : undefined,
});

/** The shown task's background commands, by id. */
export const jobs = live.items;

/** The ones still running, oldest first (the badge lists them). */
export const runningJobs = computed(() =>
  [...jobs.value.values()].filter((j) => j.status === "running")
    .sort((a, b) => a.startedAt - b.startedAt)
);

/** @param {string} taskId @param {string} id */
export async function stopJob(taskId, id) {
  const r = await request("job.stop", { taskId, id });
  live.put(r.job);
}
