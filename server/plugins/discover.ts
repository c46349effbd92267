/**
 * Finding plugins: the sub-folders of `<data dir>/plugins` and of each workspace's
 * `.reinagent/plugins`, each read with its manifest, switch and trust state. What is
 * wrong is listed with the plugin, never skipped silently. A plugin folder that leads
 * (through links) into the data folder — or, for a workspace's, out of its project — is
 * refused: it would hand the agent ReinAgent's own secrets.
 */
import { join } from "../../lib/path.ts";
import { PLUGIN_LIMITS, type PluginView } from "../../protocol/plugins.ts";
import { isInside } from "../../tools/paths.ts";
import { workspaceKey } from "../agent/hooks/trust.ts";
import { readManifest } from "./manifest.ts";
import { type PluginState, readPluginState } from "./state.ts";

export const userPluginsDir = (home: string) => join(home, "plugins");
export const workspacePluginsDir = (workspace: string) => join(workspace, ".reinagent", "plugins");

/** A plugin found, with its folder's real path (what switches and trust are keyed by). */
export interface FoundPlugin extends PluginView {
  realDir: string;
}

function real(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/** Why the plugin folder (real path `dir`) may not be used, or null. */
async function refusal(dir: string, home: string, project: string | null): Promise<string | null> {
  const realHome = await real(home);
  const ours = real(userPluginsDir(home));
  if (project !== null) {
    const ws = real(project);
    if (!ws || !isInside(dir, ws)) return `it leads to ${dir}, outside the project`;
    // The default project lives in the data folder: inside the project is its own.
    if (realHome && isInside(dir, realHome) && !isInside(ws, realHome)) {
      return `it leads into ${home}, ReinAgent's data folder`;
    }
    return null;
  }
  if (!realHome) return null;
  if (isInside(realHome, dir)) return `it leads to ${dir}, which holds ReinAgent's data folder`;
  if (isInside(dir, realHome) && !(ours && dir !== ours && isInside(dir, ours))) {
    return `it leads into ${home}, ReinAgent's data folder`;
  }
  return null;
}

async function readOne(
  path: string,
  folderName: string,
  home: string,
  project: string | null,
  st: PluginState,
  stateError: string | null,
): Promise<FoundPlugin | null> {
  const realDir = real(path);
  if (!realDir) return null;
  try {
    if (!Deno.statSync(realDir).isDirectory) return null;
  } catch {
    return null;
  }
  const base: FoundPlugin = {
    path,
    realDir,
    scope: project === null ? "user" : "workspace",
    project,
    name: folderName,
    version: "",
    description: "",
    enabled: st.enabled.includes(realDir),
    state: "ok",
    commandsDir: null,
    skillsDir: null,
    hooks: [],
    fingerprint: "",
  };
  const refused = await refusal(realDir, home, project);
  if (refused) return { ...base, enabled: false, state: "refused", error: `refused: ${refused}` };
  const m = await readManifest(realDir);
  if (!m.ok) return { ...base, enabled: false, state: "invalid", error: m.error };
  const trusted = st.trust[realDir]?.fingerprint;
  const state = !m.manifest.hooks.length || trusted === m.manifest.fingerprint
    ? "ok"
    : trusted
    ? "changed"
    : "untrusted";
  return {
    ...base,
    ...m.manifest,
    state,
    ...(stateError ? { error: stateError } : {}),
  };
}

/** The plugins of one plugins folder (sorted by folder name). */
async function readDir(
  dir: string,
  home: string,
  project: string | null,
  st: PluginState,
  stateError: string | null,
  problems: FoundPlugin[],
): Promise<FoundPlugin[]> {
  let names: string[] = [];
  try {
    for (const e of Deno.readDirSync(dir)) {
      if ((e.isDirectory || e.isSymlink) && !e.name.startsWith(".")) names.push(e.name);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) {
      problems.push(brokenDir(dir, project, `cannot read the folder: ${(e as Error).message}`));
    }
    return [];
  }
  names.sort();
  if (names.length > PLUGIN_LIMITS.perDir) {
    problems.push(
      brokenDir(
        dir,
        project,
        `${names.length} folders; only the first ${PLUGIN_LIMITS.perDir} are read`,
      ),
    );
    names = names.slice(0, PLUGIN_LIMITS.perDir);
  }
  const out: FoundPlugin[] = [];
  for (const name of names) {
    // deno-lint-ignore no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(name)) continue;
    const p = await readOne(join(dir, name), name, home, project, st, stateError);
    if (p) out.push(p);
  }
  return out;
}

function brokenDir(dir: string, project: string | null, error: string): FoundPlugin {
  return {
    path: dir,
    realDir: dir,
    scope: project === null ? "user" : "workspace",
    project,
    name: dir.split(/[\\/]/).pop() ?? dir,
    version: "",
    description: "",
    enabled: false,
    state: "invalid",
    error,
    commandsDir: null,
    skillsDir: null,
    hooks: [],
    fingerprint: "",
  };
}

/** The user's plugins, then each workspace's (a folder reached twice is listed once). */
export async function discoverPlugins(home: string, workspaces: string[]): Promise<FoundPlugin[]> {
  const read = readPluginState(home);
  const st = read.ok ? read.state : { enabled: [], trust: {} };
  const stateError = read.ok ? null : read.error;
  const problems: FoundPlugin[] = [];
  const out = await readDir(userPluginsDir(home), home, null, st, stateError, problems);
  for (const w of workspaces) {
    const project = workspaceKey(w);
    out.push(
      ...await readDir(workspacePluginsDir(project), home, project, st, stateError, problems),
    );
  }
  const seen = new Set<string>();
  return [...out.filter((p) => !seen.has(p.realDir) && seen.add(p.realDir)), ...problems];
}

/** Switched on and usable (its hooks may still wait for trust). */
export const isActive = (p: FoundPlugin) =>
  p.enabled && p.state !== "invalid" && p.state !== "refused";

/** The plugins that apply to `workspace` and are switched on and usable. */
export async function activePlugins(home: string, workspace: string): Promise<FoundPlugin[]> {
  return (await discoverPlugins(home, [workspace])).filter(isActive);
}

/** The view of a plugin (without the internal real path). */
export const pluginView = ({ realDir: _, ...v }: FoundPlugin): PluginView => v;
