/** Handlers for the ops in `protocol/permission_rules.ts` (Settings → Rules). */
import type { RULES_OP_ARGS } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { checkedRules, rulesView, saveRules } from "../sessions/rules.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";

/** The argument each scope names its place with; the others are refused, not ignored. */
const PLACE = { global: null, project: "projectPath", task: "taskId" } as const;

export const RULES_HANDLERS: OpHandlers<keyof typeof RULES_OP_ARGS> = {
  "rules.get": (ctx, a) => rulesView(services(ctx).repos, a.taskId),
  "rules.set": (ctx, a) => {
    const { repos, tasks, approvals } = services(ctx);
    for (const key of ["projectPath", "taskId"] as const) {
      if (a[key] !== undefined && PLACE[a.scope] !== key) {
        throw new OpError("invalid_args", `${key} is not taken for ${a.scope} rules`);
      }
    }
    let rules;
    try {
      rules = checkedRules(a.rules);
    } catch (e) {
      throw new OpError("invalid_args", (e as Error).message);
    }
    if (a.scope === "task") {
      if (!a.taskId) throw new OpError("invalid_args", "task rules need taskId");
      tasks.get(a.taskId); // not_found before anything changes
      approvals.setTaskRules(a.taskId, rules);
      // A new allow lets a waiting call go, a new deny refuses it.
      approvals.reevaluate(a.taskId);
      tasks.publish(tasks.get(a.taskId));
      return rulesView(repos, a.taskId);
    }
    try {
      saveRules(repos, a.scope, a.projectPath, rules);
    } catch (e) {
      throw new OpError("invalid_args", (e as Error).message);
    }
    // Every task with a call waiting: the new rules may settle it.
    for (const id of new Set(approvals.list().filter((p) => p.live).map((p) => p.taskId))) {
      approvals.reevaluate(id);
    }
    return rulesView(repos);
  },
};
