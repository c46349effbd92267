/**
 * What the switched-on plugins of a workspace add to the features that own them: their
 * command folders (read by the custom commands loader, confined to the plugin) and their
 * hooks (run by the hooks engine only while trusted for exactly what they are).
 */
import type { HookView } from "../../protocol/hooks.ts";
import type { DefinitionDir } from "../commands/definition_files.ts";
import { activePlugins, discoverPlugins, isActive } from "./discover.ts";

/** Command folders of the workspace's active plugins (after the user's own folders). */
export async function pluginCommandDirs(home: string, workspace: string): Promise<DefinitionDir[]> {
  try {
    return (await activePlugins(home, workspace))
      .filter((p) => p.commandsDir)
      .map((p) => ({ dir: p.commandsDir!, source: p.scope, confine: p.realDir }));
  } catch (e) {
    console.error(`reading plugins failed: ${(e as Error).message}`);
    return [];
  }
}

export interface PluginHooks {
  /** Hooks of the workspace's active plugins that are trusted as they are now. */
  run: { hook: HookView; source: "user" | "workspace"; plugin: string; root: string }[];
  /** Active plugins whose hooks wait for the user's trust (they do not run). */
  waiting: { name: string; state: "untrusted" | "changed"; n: number; key: string }[];
}

export async function pluginHooks(home: string, workspace: string): Promise<PluginHooks> {
  try {
    const active = await activePlugins(home, workspace);
    return {
      run: active.filter((p) => p.state === "ok")
        .flatMap((p) =>
          p.hooks.map((hook) => ({ hook, source: p.scope, plugin: p.name, root: p.realDir }))
        ),
      waiting: active.flatMap((p) =>
        p.state === "untrusted" || p.state === "changed"
          ? [{
            name: p.name,
            state: p.state,
            n: p.hooks.length,
            key: `${p.realDir}:${p.fingerprint}`,
          }]
          : []
      ),
    };
  } catch (e) {
    console.error(`reading plugins failed: ${(e as Error).message}`);
    return { run: [], waiting: [] };
  }
}

/** Skills folders (real paths) of the workspace's active plugins. */
export async function pluginSkillDirs(
  home: string,
  workspace: string | null,
): Promise<{ path: string; plugin: string }[]> {
  try {
    const all = workspace
      ? await activePlugins(home, workspace)
      : (await discoverPlugins(home, [])).filter(isActive);
    return all.filter((p) => p.skillsDir).map((p) => ({ path: p.skillsDir!, plugin: p.name }));
  } catch (e) {
    console.error(`reading plugins failed: ${(e as Error).message}`);
    return [];
  }
}
