/** Handlers for the ops in `protocol/composer.ts` (steering queue, prompts, drafts). */
import type { COMPOSER_OP_ARGS } from "../../protocol/index.ts";
import type { OpHandlers } from "./types.ts";
import { services, startRun } from "./context.ts";

export const COMPOSER_HANDLERS: OpHandlers<keyof typeof COMPOSER_OP_ARGS> = {
  "queue.list": (ctx, a) => {
    const { tasks, composer } = services(ctx);
    tasks.get(a.id);
    return { queue: composer.list(a.id) };
  },
  "queue.remove": (ctx, a) => ({ queue: services(ctx).composer.remove(a.id, a.itemId) }),
  "queue.send": async (ctx, a) => ({
    queue: await services(ctx).composer.sendQueued(a.id, a.itemId, (id) => startRun(ctx, id)),
  }),
  "prompts.list": (ctx, a) => ({ prompts: services(ctx).composer.prompts(a.workspace) }),
  "draft.get": (ctx, a) => {
    const { tasks, composer } = services(ctx);
    if (a.task !== null) tasks.get(a.task);
    return { draft: composer.draft(a.task) };
  },
  "draft.set": async (ctx, a) => ({
    draft: await services(ctx).composer.setDraft(a.task, a.text, a.attachments),
  }),
  "uploads.info": async (ctx, a) => ({
    attachments: await services(ctx).composer.attachments(a.ids),
  }),
};
