/** Handlers for the ops in `protocol/automations.ts` (scheduled prompts and their runs). */
import { type AUTOMATION_OP_ARGS, AUTOMATIONS_TOPIC } from "../../protocol/index.ts";
import type { AutomationService } from "../automations/service.ts";
import { OpError } from "../errors.ts";
import type { OpContext } from "./context.ts";
import type { OpHandlers } from "./types.ts";

function automations(ctx: OpContext): AutomationService {
  if (!ctx.automations) {
    throw new OpError(
      "store_unavailable",
      `the database could not be opened (${ctx.store.health.error}); it was left untouched`,
    );
  }
  return ctx.automations;
}

export const AUTOMATION_HANDLERS: OpHandlers<keyof typeof AUTOMATION_OP_ARGS> = {
  "automations.list": (ctx) => {
    const list = automations(ctx).list();
    ctx.client.topics.add(AUTOMATIONS_TOPIC);
    return { automations: list, seq: ctx.hub.lastSeq };
  },
  "automations.create": async (ctx, a) => ({ automation: await automations(ctx).create(a) }),
  "automations.update": async (ctx, { id, ...patch }) => ({
    automation: await automations(ctx).update(id, patch),
  }),
  "automations.delete": (ctx, a) => {
    automations(ctx).delete(a.id);
    return { id: a.id };
  },
  "automations.runNow": async (ctx, a) => ({ run: await automations(ctx).runNow(a.id) }),
  "automations.runs": (ctx, a) => ({ runs: automations(ctx).runs(a.id ?? null, a.limit ?? 50) }),
};
