/** Handlers for the ops in `protocol/composer.ts` (steering queue, prompts, drafts). */
import type { COMPOSER_OP_ARGS } from "../../protocol/index.ts";
import type { OpHandlers } from "./types.ts";
import type { OpContext } from "./context.ts";
import { needTasks } from "./task_ops.ts";
import { composerOf, type ComposerService } from "../composer/composer_service.ts";

function composer(ctx: OpContext): ComposerService {
  needTasks(ctx);
  return composerOf(ctx)!;
}

const startRun = (ctx: OpContext) => (id: string) => {
  ctx.runs!.start(id).catch((e) => console.error(`run ${id}:`, e));
};

export const COMPOSER_HANDLERS: OpHandlers<keyof typeof COMPOSER_OP_ARGS> = {
  "queue.list": (ctx, a) => {
    needTasks(ctx).get(a.id);
    return { queue: composer(ctx).list(a.id) };
  },
  "queue.remove": (ctx, a) => ({ queue: composer(ctx).remove(a.id, a.itemId) }),
  "queue.send": async (ctx, a) => ({
    queue: await composer(ctx).sendQueued(a.id, a.itemId, startRun(ctx)),
  }),
  "prompts.list": (ctx, a) => ({ prompts: composer(ctx).prompts(a.workspace) }),
  "draft.get": (ctx, a) => {
    if (a.task !== null) needTasks(ctx).get(a.task);
    return { draft: composer(ctx).draft(a.task) };
  },
  "draft.set": async (ctx, a) => ({
    draft: await composer(ctx).setDraft(a.task, a.text, a.attachments),
  }),
  "uploads.info": async (ctx, a) => ({ attachments: await composer(ctx).attachments(a.ids) }),
};
