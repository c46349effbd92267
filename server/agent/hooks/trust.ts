/**
 * Which workspaces' hooks the user trusted, bound to the fingerprint of the hooks they
 * saw, with those hooks themselves: `<data dir>/hooks-trust.json`
 * (`{"<real workspace path>": {fingerprint, at, hooks}}`). The copy is what keeps running
 * while the file is changed, broken or removed (by the agent, say) until the user reviews
 * the change: editing the config never switches trusted hooks off unseen.
 * Read at every use, so `reinagent hooks trust` in a terminal applies to a running server
 * at once. Lives in the data dir, which commands (and so the agent) cannot reach.
 */
import { join } from "../../../lib/path.ts";
import type { HookView } from "../../../protocol/hooks.ts";

export const trustPath = (home: string) => join(home, "hooks-trust.json");

export interface TrustRecord {
  fingerprint: string;
  at: number;
  /** The hooks as trusted (absent in records of an older version: nothing kept). */
  hooks?: HookView[];
}

/** The real path of a workspace (trust is per folder, whatever path reached it). */
export function workspaceKey(workspace: string): string {
  try {
    return Deno.realPathSync(workspace);
  } catch {
    return workspace;
  }
}

function readAll(home: string): Record<string, TrustRecord> {
  let text: string;
  try {
    text = Deno.readTextFileSync(trustPath(home));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return {};
    throw e;
  }
  const json = JSON.parse(text);
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new Error(`${trustPath(home)} is not a JSON object`);
  }
  return json as Record<string, TrustRecord>;
}

/** What was trusted for `workspace`, or null (a damaged file trusts nothing). */
export async function trustRecord(home: string, workspace: string): Promise<TrustRecord | null> {
  try {
    const all = await readAll(home);
    const rec = all[workspaceKey(workspace)];
    if (typeof rec?.fingerprint !== "string") return null;
    return { ...rec, hooks: Array.isArray(rec.hooks) ? rec.hooks : [] };
  } catch (e) {
    console.error(`reading hook trust failed: ${(e as Error).message}`);
    return null;
  }
}

/**
 * Trusts `hooks` (of `fingerprint`) for `workspace`; no hooks forgets the workspace. A
 * damaged trust file is refused, never overwritten.
 */
export async function trust(
  home: string,
  workspace: string,
  fingerprint: string,
  hooks: HookView[],
  now = Date.now(),
): Promise<void> {
  let all: Record<string, TrustRecord>;
  try {
    all = readAll(home);
  } catch (e) {
    throw new Error(
      `cannot read ${trustPath(home)} (${(e as Error).message}); fix or remove it first`,
    );
  }
  const key = workspaceKey(workspace);
  if (hooks.length) all[key] = { fingerprint, at: now, hooks };
  else delete all[key];
  // Written beside and renamed: a crash never leaves half a file.
  const tmp = `${trustPath(home)}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(all, null, 2) + "\n", { mode: 0o600 });
  await Deno.rename(tmp, trustPath(home));
}
