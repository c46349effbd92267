/** Handlers for the ops in `protocol/jobs.ts` (the background-work badge). */
import type { JOB_OP_ARGS } from "../../protocol/index.ts";
import { listJobs, stopJob } from "../../tools/exec/background.ts";
import { OpError } from "../errors.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";

export const JOB_HANDLERS: OpHandlers<keyof typeof JOB_OP_ARGS> = {
  "jobs.list": (ctx, a) => {
    services(ctx).tasks.get(a.taskId); // not_found first
    return { jobs: listJobs(a.taskId) };
  },
  "job.stop": async (ctx, a) => {
    services(ctx).tasks.get(a.taskId);
    const job = await stopJob(a.taskId, a.id);
    // Another task's job is as unknown as a missing one.
    if (!job) throw new OpError("not_found", `task ${a.taskId} has no background command ${a.id}`);
    return { job };
  },
};
