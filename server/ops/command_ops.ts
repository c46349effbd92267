/** Handlers for the ops in `protocol/commands.ts` and `protocol/mentions.ts`. */
import type { COMMAND_OP_ARGS, COMPACTION_OP_ARGS, MENTION_OP_ARGS } from "../../protocol/index.ts";
import { type OpContext, services } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import { listCommands } from "../commands/registry.ts";
import { rankResources, searchMentions, withResources } from "../composer/mention_search.ts";
import { commandPolicy } from "../agent/command_policy.ts";
import { OpError } from "../errors.ts";
import type { SurfaceDeps } from "../commands/surface.ts";
import { compactTask } from "../commands/compact.ts";
import { taskCost } from "../usage/task_cost.ts";

/** The workspace of a task (`id`) or of the new-task draft (`projectPath`, null = default). */
function workspaceOf(ctx: OpContext, a: { id?: string; projectPath?: string | null }): string {
  const { composer, tasks } = services(ctx);
  if (a.id !== undefined) return composer.workspaceOf(tasks.get(a.id).projectPath);
  return composer.workspaceOf(a.projectPath ?? null);
}

/** What the slash-command surfaces need (server/commands/surface.ts). */
export function surfaceOf(ctx: OpContext): SurfaceDeps {
  return {
    home: ctx.home,
    tasks: services(ctx).tasks,
    runs: services(ctx).runs,
    composer: services(ctx).composer,
    reevaluate: (id) => services(ctx).approvals.reevaluate(id),
    cost: (id) => taskCost(services(ctx).repos.usage, id),
    models: () =>
      services(ctx).repos.providers.list().filter((p) => p.enabled).flatMap((p) =>
        p.models.filter((m) => m.enabled).map((m) => `${p.id}/${m.id}`)
      ),
  };
}

export const COMMAND_HANDLERS: OpHandlers<
  keyof typeof COMMAND_OP_ARGS | keyof typeof MENTION_OP_ARGS | keyof typeof COMPACTION_OP_ARGS
> = {
  "task.compact": async (ctx, a) => {
    const { tasks, runs } = services(ctx);
    tasks.get(a.id); // not_found first
    return { entry: await compactTask(runs, a.id, a.focus) };
  },
  "commands.list": async (ctx, a) => {
    return await listCommands({
      workspace: workspaceOf(ctx, a),
      home: ctx.home,
      ...(ctx.mcp ? { mcpPrompts: ctx.mcp } : {}),
    });
  },
  "task.setGoal": (ctx, a) => {
    const { tasks } = services(ctx);
    const task = tasks.get(a.id);
    const current = task.settings.goal ?? null;
    if (a.text === null) return { task: tasks.setGoal(a.id, null) };
    if (a.text === undefined && !current) {
      throw new OpError("not_found", `task ${a.id} has no goal to pause or resume`);
    }
    const goal = {
      text: a.text ?? current!.text,
      paused: a.paused ?? (a.text !== undefined ? false : current!.paused),
      setAt: a.text !== undefined ? Date.now() : current!.setAt,
    };
    return { task: tasks.setGoal(a.id, goal) };
  },
  "files.mention": async (ctx, a) => {
    const { repos } = services(ctx);
    const ws = workspaceOf(ctx, a);
    const st = await Deno.stat(ws).catch(() => null);
    if (!st?.isDirectory) throw new OpError("not_found", `the folder ${ws} does not exist`);
    const [files, listed] = await Promise.all([
      searchMentions(ws, a.q, commandPolicy(repos, ctx.home).hidden),
      ctx.mcp?.resources.candidates() ?? { items: [], pending: false },
    ]);
    const out = withResources(files, rankResources(listed.items, a.q));
    return listed.pending ? { ...out, pending: true } : out;
  },
};
