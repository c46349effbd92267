/**
 * Handlers of an isolated task's worktree: review it against its base, merge it there,
 * keep its branch or discard it. A task without a worktree of its own is refused. Every
 * change is shown to every client (the task's entry, the task list) as it happens.
 */
import type { TaskSummary, WORKTREE_OP_ARGS, WorktreeInfo } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { type OpContext, services } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import {
  cleanLeftovers,
  discardWorktree,
  leftoverWorktrees,
  mergeWorktree,
  pushBranch,
  removeWorktree,
  reviewWorktree,
} from "../worktrees/worktree.ts";

function isolated(ctx: OpContext, id: string): { task: TaskSummary; info: WorktreeInfo } {
  const task = services(ctx).tasks.get(id);
  const info = task.settings.worktree;
  if (!info) throw new OpError("invalid_args", `task ${id} does not work in a worktree of its own`);
  return { task, info };
}

const leftovers = (ctx: OpContext) =>
  leftoverWorktrees(ctx.home, (id) => services(ctx).repos.tasks.get(id) !== null);

function idle(ctx: OpContext, id: string): void {
  if (services(ctx).runs.isRunning(id)) {
    throw new OpError("busy", "the task is running; stop it or wait for it to end first");
  }
}

export const WORKTREE_HANDLERS: OpHandlers<keyof typeof WORKTREE_OP_ARGS> = {
  "worktree.review": (ctx, a) => reviewWorktree(isolated(ctx, a.id).info),
  "worktree.merge": async (ctx, a) => {
    idle(ctx, a.id);
    const { task, info } = isolated(ctx, a.id);
    const r = await mergeWorktree(info, task.title);
    if (r.merged) ctx.notify?.branchFinished(task, { action: "merged", name: info.branch });
    return r;
  },
  "worktree.finish": async (ctx, a) => {
    idle(ctx, a.id);
    const { task, info } = isolated(ctx, a.id);
    if (a.action === "discard") {
      await discardWorktree(info);
      ctx.notify?.branchFinished(task, { action: "discarded", name: info.branch });
      return { action: a.action, pushed: null };
    }
    await removeWorktree(info, task.title);
    const pushed = await pushBranch(info);
    ctx.notify?.branchFinished(task, { action: "kept", name: info.branch });
    return { action: a.action, pushed };
  },
  "worktrees.leftovers": async (ctx) => ({ leftovers: await leftovers(ctx) }),
  "worktrees.cleanLeftovers": async (ctx) => await cleanLeftovers(await leftovers(ctx)),
};
