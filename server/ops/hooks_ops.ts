/** Handlers for the ops in `protocol/hooks.ts` (the hooks listed, a workspace's trusted). */
import { type HOOK_OP_ARGS, HOOKS_TOPIC } from "../../protocol/index.ts";
import { join } from "../../lib/path.ts";
import { OpError } from "../errors.ts";
import { listSources } from "../agent/hooks/sources.ts";
import { trustSource } from "../agent/hooks/trust_source.ts";
import type { OpHandlers } from "./types.ts";

export const HOOK_HANDLERS: OpHandlers<keyof typeof HOOK_OP_ARGS> = {
  "hooks.list": async (ctx, a) => {
    ctx.client.topics.add(HOOKS_TOPIC);
    // Every project, and the folder of tasks without one.
    const projects = a.project ? [a.project] : [
      ...(ctx.store.repos?.projects.list() ?? []).map((p) => p.path),
      join(ctx.home, "DefaultProject"),
    ];
    return { sources: await listSources(ctx.home, projects), seq: ctx.hub.lastSeq };
  },
  "hooks.trust": async (ctx, a) => {
    const r = await trustSource(ctx.home, a.project, a.fingerprint);
    if (!r.ok) throw new OpError(r.code, r.message);
    ctx.hub.publish(HOOKS_TOPIC, { kind: "changed", project: r.source.project });
    return { source: r.source };
  },
};
