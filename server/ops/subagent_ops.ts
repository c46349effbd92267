/** Handlers for the ops in `protocol/subagents.ts`. */
import { SUBAGENT_LIMITS, type SUBAGENT_OP_ARGS } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";

export const SUBAGENT_HANDLERS: OpHandlers<keyof typeof SUBAGENT_OP_ARGS> = {
  "subagents.list": (ctx, a) => {
    const { tasks, runs } = services(ctx);
    tasks.get(a.taskId);
    return { runs: runs.subagents.list(a.taskId) };
  },
  "subagent.transcript": (ctx, a) => {
    const { tasks, runs, repos } = services(ctx);
    tasks.get(a.taskId);
    const run = runs.subagents.list(a.taskId).find((r) => r.id === a.runId) ??
      repos.subagents.getRun(a.runId);
    // Another task's sub-agent is as unknown as a missing one.
    if (!run || run.taskId !== a.taskId) {
      throw new OpError("not_found", `sub-agent ${a.runId} is not part of task ${a.taskId}`);
    }
    const cap = SUBAGENT_LIMITS.transcriptEntries;
    const entries = repos.subagents.entries(a.runId, cap);
    return { run, entries, truncated: repos.subagents.countEntries(a.runId) > cap };
  },
  "subagent.stop": async (ctx, a) => {
    const { tasks, runs } = services(ctx);
    tasks.get(a.taskId);
    return { stopped: await runs.subagents.stop(a.taskId, a.runId) };
  },
};
