/**
 * `reinagent plugins list|enable|disable|trust [NAME|PATH] [--project DIR] [--json]
 * [--home DIR]`: the plugins found for a workspace (default: the current folder) — the
 * user's and the workspace's — with their state, switching one on or off, and trusting
 * its hooks as they are now. Works on the files directly: a running server reads them at
 * its next use.
 */
import { resolve } from "../../lib/path.ts";
import type { PluginView } from "../../protocol/plugins.ts";
import { discoverPlugins, pluginView } from "../plugins/discover.ts";
import { setPluginEnabled, trustPlugin } from "../plugins/actions.ts";
import type { PluginsArgs } from "./plugins_args.ts";
export { parsePluginsArgs } from "./plugins_args.ts";

const STATES: Record<PluginView["state"], string> = {
  ok: "ready",
  untrusted: "hooks not trusted (they do not run)",
  changed: "hooks changed since trusted (they do not run)",
  invalid: "invalid (not used)",
  refused: "refused (not used)",
};

function describe(p: PluginView, line: (s: string) => void): void {
  const v = p.version ? ` ${p.version}` : "";
  line(`${p.name}${v} [${p.scope}] — ${p.enabled ? "enabled" : "disabled"}, ${STATES[p.state]}`);
  line(`  ${p.path}`);
  if (p.description) line(`  ${p.description}`);
  if (p.error) line(`  ${p.error}`);
  if (p.commandsDir) line(`  commands: ${p.commandsDir}`);
  if (p.skillsDir) line(`  skills: ${p.skillsDir}`);
  for (const h of p.hooks) {
    const m = h.matcher ? ` [${h.matcher}]` : "";
    line(`  hook ${h.event}${m}: ${h.command}`);
  }
}

export async function pluginsCommand(
  a: PluginsArgs,
  home: string,
  io: { line(s: string): void; err(s: string): void },
): Promise<number> {
  if (a.action === "list") {
    const plugins = (await discoverPlugins(home, [a.project])).map(pluginView);
    if (a.json) io.line(JSON.stringify(plugins, null, 2));
    else if (!plugins.length) io.line(`No plugins found for ${a.project}.`);
    else for (const p of plugins) describe(p, io.line);
    return 0;
  }
  // A folder given relative to where the command runs; else a plugin name.
  const target = /[\\/]/.test(a.target!) || a.target!.startsWith(".")
    ? resolve(a.target!)
    : a.target!;
  const r = a.action === "trust"
    ? await trustPlugin(home, [a.project], target, null)
    : await setPluginEnabled(home, [a.project], target, a.action === "enable");
  if (!r.ok) {
    io.err(`reinagent: ${r.message}`);
    return r.code === "not_found" ? 1 : 2;
  }
  if (a.json) io.line(JSON.stringify(r.plugin, null, 2));
  else describe(r.plugin, io.line);
  return 0;
}
