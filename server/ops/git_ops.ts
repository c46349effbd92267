/** Handlers for the ops in `protocol/git.ts`: the task's workspace repository. */
import { GIT_LIMITS, type GIT_OP_ARGS } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import * as git from "../git/repo.ts";
import { localMessage, modelMessage } from "../git/message.ts";
import { resolveModel } from "../providers/catalog.ts";
import { adapterFor } from "../../agent/index.ts";
import { DEMO_PROVIDER_ID } from "../../protocol/constants.ts";
import { services } from "./context.ts";
import { taskWorkspace } from "./workspace.ts";
import type { OpHandlers } from "./types.ts";

const SUGGEST_TIMEOUT_MS = 30_000;

export const GIT_HANDLERS: OpHandlers<keyof typeof GIT_OP_ARGS> = {
  "git.status": (ctx, a) => git.status(taskWorkspace(ctx, a.taskId)),
  "git.diff": (ctx, a) => git.diff(taskWorkspace(ctx, a.taskId), a.path, a.staged),
  "git.stage": async (ctx, a) => {
    await git.stage(taskWorkspace(ctx, a.taskId), a.paths);
    return { ok: true };
  },
  "git.unstage": async (ctx, a) => {
    await git.unstage(taskWorkspace(ctx, a.taskId), a.paths);
    return { ok: true };
  },
  "git.discard": async (ctx, a) => {
    await git.discard(taskWorkspace(ctx, a.taskId), a.paths);
    return { ok: true };
  },
  "git.branches": (ctx, a) => git.branches(taskWorkspace(ctx, a.taskId)),
  "git.switch": async (ctx, a) => {
    await git.switchBranch(taskWorkspace(ctx, a.taskId), a.branch);
    return { branch: a.branch };
  },
  "git.createBranch": async (ctx, a) => {
    await git.createBranch(taskWorkspace(ctx, a.taskId), a.branch);
    return { branch: a.branch };
  },
  "git.commit": (ctx, a) => git.commit(taskWorkspace(ctx, a.taskId), a.message),
  "git.suggestMessage": async (ctx, a) => {
    const ws = taskWorkspace(ctx, a.taskId);
    const diff = await git.stagedDiff(ws);
    if (!diff.stat.trim()) throw new OpError("invalid_args", "nothing is staged to describe");
    const repos = ctx.store.repos;
    try {
      if (!repos) throw new Error("no store");
      const task = services(ctx).tasks.get(a.taskId);
      const r = resolveModel(repos, task.settings.model);
      if (r.provider.id === DEMO_PROVIDER_ID) throw new Error("demo");
      const adapter = await adapterFor(r.provider.format);
      const msg = await modelMessage(
        adapter,
        r.provider,
        r.model,
        diff,
        AbortSignal.timeout(SUGGEST_TIMEOUT_MS),
      );
      if (msg) return { message: msg.slice(0, GIT_LIMITS.messageChars), by: "model" };
    } catch {
      // No usable model answer: the local summary below.
    }
    return { message: localMessage(diff.stat), by: "local" };
  },
  "git.push": (ctx, a) => git.push(taskWorkspace(ctx, a.taskId)),
  "git.init": async (ctx, a) => {
    const ws = taskWorkspace(ctx, a.taskId);
    await Deno.mkdir(ws, { recursive: true });
    return { root: await git.init(ws) };
  },
  "git.log": (ctx, a) => git.log(taskWorkspace(ctx, a.taskId), a.limit ?? 200),
};
