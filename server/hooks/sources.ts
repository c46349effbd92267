/**
 * The hooks that apply to a workspace: the user's file and the workspace's, each with its
 * trust state (what `hooks.list`, `reinagent hooks list` and a run all read).
 */
import type { HookSource, HookTrustState } from "../../protocol/hooks.ts";
import { type HookFile, readHookFile, userConfigPath, workspaceConfigPath } from "./config.ts";
import { trustedFingerprint, workspaceKey } from "./trust.ts";

/** A source as listed, or null when its file has no hooks. */
async function sourceOf(
  file: HookFile | null,
  kind: "user" | "workspace",
  project: string | null,
  home: string,
): Promise<HookSource | null> {
  if (!file) return null;
  if (!file.ok) {
    return {
      kind,
      path: file.path,
      project,
      state: "invalid",
      fingerprint: "",
      error: `${file.path} ${file.error}`,
      hooks: [],
    };
  }
  let state: HookTrustState = "user";
  if (kind === "workspace") {
    const trusted = await trustedFingerprint(home, project!);
    state = trusted === file.fingerprint ? "trusted" : trusted ? "changed" : "untrusted";
  }
  return {
    kind,
    path: file.path,
    project,
    state,
    fingerprint: file.fingerprint,
    hooks: file.hooks,
  };
}

/** The user's hooks source (null: none configured). */
export async function userSource(home: string): Promise<HookSource | null> {
  return await sourceOf(await readHookFile(userConfigPath(home)), "user", null, home);
}

/** A workspace's hooks source (null: none configured). */
export async function workspaceSource(home: string, workspace: string): Promise<HookSource | null> {
  const project = await workspaceKey(workspace);
  return await sourceOf(
    await readHookFile(workspaceConfigPath(project)),
    "workspace",
    project,
    home,
  );
}

/** The user's source and each workspace's that has hooks, in that order. */
export async function listSources(home: string, workspaces: string[]): Promise<HookSource[]> {
  const out: HookSource[] = [];
  const user = await userSource(home);
  if (user) out.push(user);
  const seen = new Set<string>();
  for (const w of workspaces) {
    const s = await workspaceSource(home, w);
    if (s && !seen.has(s.path)) {
      seen.add(s.path);
      out.push(s);
    }
  }
  return out;
}
