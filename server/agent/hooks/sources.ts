/**
 * The hooks that apply to a workspace: the user's file and the workspace's, each with its
 * trust state (what `hooks.list`, `reinagent hooks list` and a run all read). A workspace
 * whose trusted hooks were changed, broken or removed since keeps running the trusted
 * copy (`trustedHooks`) until the user reviews the change.
 */
import type { HookSource, HookView } from "../../../protocol/hooks.ts";
import { fingerprintOf, readHookFile, userConfigPath, workspaceConfigPath } from "./config.ts";
import { trustRecord, workspaceKey } from "./trust.ts";

/** The user's hooks source (null: none configured). */
export async function userSource(home: string): Promise<HookSource | null> {
  const file = await readHookFile(userConfigPath(home));
  if (!file) return null;
  if (!file.ok) return invalid("user", file.path, null, file.error);
  return {
    kind: "user",
    path: file.path,
    project: null,
    state: "user",
    fingerprint: file.fingerprint,
    hooks: file.hooks,
  };
}

function invalid(
  kind: "user" | "workspace",
  path: string,
  project: string | null,
  error: string,
): HookSource {
  return {
    kind,
    path,
    project,
    state: "invalid",
    fingerprint: "",
    error: `${path} ${error}`,
    hooks: [],
  };
}

/** A workspace's hooks source (null: none configured and none trusted). */
export async function workspaceSource(home: string, workspace: string): Promise<HookSource | null> {
  const project = workspaceKey(workspace);
  const path = workspaceConfigPath(project);
  const [file, rec] = await Promise.all([readHookFile(path), trustRecord(home, project)]);
  const kept: Partial<HookSource> = rec?.hooks?.length ? { trustedHooks: rec.hooks } : {};
  if (!file) {
    if (!kept.trustedHooks) return null;
    // Removed since trusted: trusting "no hooks" is what forgets the copy.
    const none: HookView[] = [];
    return {
      kind: "workspace",
      path,
      project,
      state: "changed",
      fingerprint: await fingerprintOf(none),
      hooks: none,
      ...kept,
    };
  }
  if (!file.ok) return { ...invalid("workspace", path, project, file.error), ...kept };
  const state = rec?.fingerprint === file.fingerprint
    ? "trusted"
    : kept.trustedHooks
    ? "changed"
    : "untrusted";
  return {
    kind: "workspace",
    path,
    project,
    state,
    fingerprint: file.fingerprint,
    hooks: file.hooks,
    ...(state === "trusted" ? {} : kept),
  };
}

/** The hooks of a source that run now (a workspace's trusted copy while it is not reviewed). */
export function hooksToRun(s: HookSource): HookView[] {
  if (s.state === "user" || s.state === "trusted") return s.hooks;
  return s.trustedHooks ?? [];
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
