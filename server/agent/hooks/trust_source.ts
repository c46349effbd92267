/**
 * Trusting a workspace's hooks as the user saw them: the fingerprint they were shown
 * must still be the config's, so an edit between showing and trusting is never trusted
 * unseen. Shared by the `hooks.trust` op and `reinagent hooks trust`.
 */
import type { HookSource } from "../../../protocol/hooks.ts";
import { workspaceSource } from "./sources.ts";
import { trust } from "./trust.ts";

export type TrustResult =
  | { ok: true; source: HookSource }
  | { ok: false; code: "not_found" | "conflict" | "invalid_args"; message: string };

/** Trusts `workspace`'s hooks if they are still those of `fingerprint` (null: whatever they are now). */
export async function trustSource(
  home: string,
  workspace: string,
  fingerprint: string | null,
): Promise<TrustResult> {
  const src = await workspaceSource(home, workspace);
  if (!src) {
    return { ok: false, code: "not_found", message: `${workspace} has no hooks to trust` };
  }
  if (src.state === "invalid") {
    // Broken: what is trusted stays as it was.
    return { ok: false, code: "invalid_args", message: `not trusted: ${src.error}` };
  }
  if (fingerprint !== null && src.fingerprint !== fingerprint) {
    return {
      ok: false,
      code: "conflict",
      message: `${src.path} changed since it was shown; review its hooks again`,
    };
  }
  try {
    await trust(home, workspace, src.fingerprint, src.hooks);
  } catch (e) {
    return { ok: false, code: "conflict", message: (e as Error).message };
  }
  const { trustedHooks: _, ...rest } = src;
  return { ok: true, source: { ...rest, state: "trusted" } };
}
