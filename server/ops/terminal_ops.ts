/**
 * Handlers for the ops in `protocol/terminal.ts`. A terminal is the user's own shell
 * (not sandboxed); it rides the authenticated WebSocket like every op.
 */
import { join } from "../../lib/path.ts";
import { type TERMINAL_OP_ARGS, TERMINALS_TOPIC } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { terminalsOf } from "../terminal/manager.ts";
import type { TerminalViewer } from "../terminal/session.ts";
import { type OpContext, services } from "./context.ts";
import type { OpHandlers } from "./types.ts";

/** The task's workspace, or the data dir's DefaultProject without a task. */
function workspace(ctx: OpContext, taskId: string | null | undefined): string {
  if (taskId) {
    const task = services(ctx).tasks.get(taskId);
    if (task.projectPath) return task.projectPath;
  }
  const dir = join(ctx.home, "DefaultProject");
  Deno.mkdirSync(dir, { recursive: true });
  return dir;
}

function viewerOf(ctx: OpContext): TerminalViewer {
  const raw = ctx.client.raw;
  if (!raw) throw new OpError("invalid_args", "a terminal is shown over a WebSocket connection");
  return { id: ctx.client.id, send: raw.send, buffered: raw.buffered };
}

export const TERMINAL_HANDLERS: OpHandlers<keyof typeof TERMINAL_OP_ARGS> = {
  "terminal.list": (ctx) => {
    ctx.client.topics.add(TERMINALS_TOPIC);
    return terminalsOf(ctx).list();
  },
  "terminal.open": (ctx, a) => ({
    terminal: terminalsOf(ctx).open(workspace(ctx, a.taskId), a.cols, a.rows),
  }),
  "terminal.attach": (ctx, a) => terminalsOf(ctx).attach(a.id, viewerOf(ctx)),
  "terminal.detach": (ctx, a) => {
    terminalsOf(ctx).get(a.id).detach(ctx.client.id);
    return { id: a.id };
  },
  "terminal.ack": (ctx, a) => {
    terminalsOf(ctx).get(a.id).ack(ctx.client.id, a.chars);
    return { id: a.id };
  },
  "terminal.input": (ctx, a) => {
    try {
      terminalsOf(ctx).get(a.id).input(a.data);
    } catch (e) {
      if (e instanceof OpError) throw e;
      throw new OpError("busy", (e as Error).message);
    }
    return { id: a.id };
  },
  "terminal.resize": (ctx, a) => ({ terminal: terminalsOf(ctx).resize(a.id, a.cols, a.rows) }),
  "terminal.close": async (ctx, a) => {
    await terminalsOf(ctx).close(a.id, a.force === true);
    return { id: a.id };
  },
  "terminal.reorder": (ctx, a) => ({ terminals: terminalsOf(ctx).reorder(a.ids) }),
};
