/** Handlers for the ops in `protocol/usage.ts` (usage statistics and their reset point). */
import type { USAGE_OP_ARGS } from "../../protocol/index.ts";
import { USAGE_RESET_KEY, usageSnapshot } from "../usage/snapshot.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";

export const USAGE_HANDLERS: OpHandlers<keyof typeof USAGE_OP_ARGS> = {
  "usage.stats": (ctx, a) =>
    usageSnapshot(services(ctx).repos, a.range, a.utcOffsetMin, Date.now()),
  // A reset point, not a deletion: tasks and their stored usage stay as they are.
  "usage.reset": (ctx) => {
    const resetAt = Date.now();
    services(ctx).repos.kv.set(USAGE_RESET_KEY, resetAt);
    return { resetAt };
  },
};
