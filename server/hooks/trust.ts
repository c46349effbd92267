/**
 * Which workspaces' hooks the user trusted, bound to the fingerprint of the hooks they
 * saw: `<data dir>/hooks-trust.json` (`{"<real workspace path>": {fingerprint, at}}`).
 * Read at every use, so `reinagent hooks trust` in a terminal applies to a running server
 * at once. Lives in the data dir, which commands (and so the agent) cannot reach.
 */
import { join } from "node:path";

export const trustPath = (home: string) => join(home, "hooks-trust.json");

interface TrustRecord {
  fingerprint: string;
  at: number;
}

/** The real path of a workspace (trust is per folder, whatever path reached it). */
export async function workspaceKey(workspace: string): Promise<string> {
  try {
    return await Deno.realPath(workspace);
  } catch {
    return workspace;
  }
}

async function readAll(home: string): Promise<Record<string, TrustRecord>> {
  let text: string;
  try {
    text = await Deno.readTextFile(trustPath(home));
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

/** The fingerprint trusted for `workspace`, or null (a damaged file trusts nothing). */
export async function trustedFingerprint(home: string, workspace: string): Promise<string | null> {
  try {
    const all = await readAll(home);
    const rec = all[await workspaceKey(workspace)];
    return typeof rec?.fingerprint === "string" ? rec.fingerprint : null;
  } catch (e) {
    console.error(`reading hook trust failed: ${(e as Error).message}`);
    return null;
  }
}

/** Trusts `fingerprint` for `workspace`; a damaged trust file is refused, never overwritten. */
export async function trust(
  home: string,
  workspace: string,
  fingerprint: string,
  now = Date.now(),
): Promise<void> {
  let all: Record<string, TrustRecord>;
  try {
    all = await readAll(home);
  } catch (e) {
    throw new Error(
      `cannot read ${trustPath(home)} (${(e as Error).message}); fix or remove it first`,
    );
  }
  all[await workspaceKey(workspace)] = { fingerprint, at: now };
  // Written beside and renamed: a crash never leaves half a file.
  const tmp = `${trustPath(home)}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(all, null, 2) + "\n", { mode: 0o600 });
  await Deno.rename(tmp, trustPath(home));
}
