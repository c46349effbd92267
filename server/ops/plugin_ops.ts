/** Handlers for the ops in `protocol/plugins.ts` (plugins listed, switched, trusted). */
import { type PLUGIN_OP_ARGS, PLUGINS_TOPIC } from "../../protocol/index.ts";
import { join } from "../../lib/path.ts";
import { OpError } from "../errors.ts";
import { discoverPlugins, pluginView } from "../plugins/discover.ts";
import { setPluginEnabled, trustPlugin } from "../plugins/actions.ts";
import type { OpContext } from "./context.ts";
import type { OpHandlers } from "./types.ts";

/** Every project, and the folder of tasks without one. */
const allProjects = (ctx: OpContext) => [
  ...(ctx.store.repos?.projects.list() ?? []).map((p) => p.path),
  join(ctx.home, "DefaultProject"),
];

export const PLUGIN_HANDLERS: OpHandlers<keyof typeof PLUGIN_OP_ARGS> = {
  "plugins.list": async (ctx, a) => {
    ctx.client.topics.add(PLUGINS_TOPIC);
    const projects = a.project ? [a.project] : allProjects(ctx);
    const plugins = (await discoverPlugins(ctx.home, projects)).map(pluginView);
    return { plugins, seq: ctx.hub.lastSeq };
  },
  "plugins.setEnabled": async (ctx, a) => {
    const r = await setPluginEnabled(ctx.home, allProjects(ctx), a.path, a.enabled);
    if (!r.ok) throw new OpError(r.code, r.message);
    ctx.hub.publish(PLUGINS_TOPIC, { kind: "changed" });
    return { plugin: r.plugin };
  },
  "plugins.trust": async (ctx, a) => {
    const r = await trustPlugin(ctx.home, allProjects(ctx), a.path, a.fingerprint);
    if (!r.ok) throw new OpError(r.code, r.message);
    ctx.hub.publish(PLUGINS_TOPIC, { kind: "changed" });
    return { plugin: r.plugin };
  },
};
