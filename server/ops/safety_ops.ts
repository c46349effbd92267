/** Handlers for the ops in `protocol/safety.ts`. */
import type { CommandSafetyInfo, SAFETY_OP_ARGS } from "../../protocol/index.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import { describeCommandEnv } from "../agent/command_policy.ts";
import { getSettings } from "../providers/catalog.ts";
import { describeSandbox, sandboxStatus } from "../../tools/exec/bwrap.ts";

export const SAFETY_HANDLERS: OpHandlers<keyof typeof SAFETY_OP_ARGS> = {
  "safety.info": async (ctx): Promise<CommandSafetyInfo> => {
    const { repos } = services(ctx);
    const s = getSettings(repos);
    const sb = describeSandbox(s.sandboxLevel, s.sandboxNetwork, await sandboxStatus());
    return {
      ...describeCommandEnv(repos, ctx.home),
      sandboxed: sb.use,
      unsandboxedReason: sb.use ? null : sb.label,
      recent: ctx.safety.recent(),
    };
  },
};
