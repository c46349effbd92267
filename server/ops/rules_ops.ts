/** Handlers for the ops in `protocol/permission_rules.ts` (Settings → Rules). */
import type { RULES_OP_ARGS } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { rulesView, saveRules } from "../sessions/rules.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";

export const RULES_HANDLERS: OpHandlers<keyof typeof RULES_OP_ARGS> = {
  "rules.get": (ctx) => rulesView(services(ctx).repos),
  "rules.set": (ctx, a) => {
    const { repos } = services(ctx);
    try {
      saveRules(repos, a.scope, a.projectPath, a.rules);
    } catch (e) {
      throw new OpError("invalid_args", (e as Error).message);
    }
    return rulesView(repos);
  },
};
