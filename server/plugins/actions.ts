/**
 * Switching a plugin on or off and trusting its hooks, shared by the `plugins.*` ops and
 * `reinagent plugins`. Trust binds to the fingerprint the user was shown, so hooks edited
 * between showing and trusting are never trusted unseen.
 */
import type { PluginView } from "../../protocol/plugins.ts";
import { discoverPlugins, type FoundPlugin, pluginView } from "./discover.ts";
import { updatePluginState } from "./state.ts";

export type PluginResult =
  | { ok: true; plugin: PluginView }
  | { ok: false; code: "not_found" | "conflict" | "invalid_args"; message: string };

/** The plugin at `path` (its folder, as listed, or its real path) among those of `workspaces`. */
export async function findPlugin(
  home: string,
  workspaces: string[],
  path: string,
): Promise<FoundPlugin | null> {
  let realPath = path;
  try {
    realPath = await Deno.realPath(path);
  } catch { /* listed paths of gone folders are not found below */ }
  const all = await discoverPlugins(home, workspaces);
  return all.find((p) => p.path === path || p.realDir === realPath || p.name === path) ?? null;
}

export async function setPluginEnabled(
  home: string,
  workspaces: string[],
  path: string,
  enabled: boolean,
): Promise<PluginResult> {
  const p = await findPlugin(home, workspaces, path);
  if (!p) return { ok: false, code: "not_found", message: `no plugin at ${path}` };
  if (enabled && (p.state === "invalid" || p.state === "refused")) {
    return { ok: false, code: "invalid_args", message: `not enabled: ${p.error}` };
  }
  try {
    await updatePluginState(home, (s) => {
      s.enabled = enabled ? [...s.enabled, p.realDir] : s.enabled.filter((x) => x !== p.realDir);
    });
  } catch (e) {
    return { ok: false, code: "conflict", message: (e as Error).message };
  }
  return { ok: true, plugin: pluginView({ ...p, enabled }) };
}

/** Trusts the plugin's hooks if they are still those of `fingerprint` (null: as they are now). */
export async function trustPlugin(
  home: string,
  workspaces: string[],
  path: string,
  fingerprint: string | null,
  now = Date.now(),
): Promise<PluginResult> {
  const p = await findPlugin(home, workspaces, path);
  if (!p) return { ok: false, code: "not_found", message: `no plugin at ${path}` };
  if (p.state === "invalid" || p.state === "refused") {
    return { ok: false, code: "invalid_args", message: `not trusted: ${p.error}` };
  }
  if (!p.hooks.length) {
    return { ok: false, code: "invalid_args", message: `${p.name} has no hooks to trust` };
  }
  if (fingerprint !== null && fingerprint !== p.fingerprint) {
    return {
      ok: false,
      code: "conflict",
      message: `${p.name}'s hooks changed since they were shown; review them again`,
    };
  }
  try {
    await updatePluginState(home, (s) => {
      s.trust[p.realDir] = { fingerprint: p.fingerprint, at: now };
    });
  } catch (e) {
    return { ok: false, code: "conflict", message: (e as Error).message };
  }
  return { ok: true, plugin: pluginView({ ...p, state: "ok" }) };
}
