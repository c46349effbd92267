/**
 * Which plugins the user switched on and whose hooks they trusted (bound to the
 * fingerprint of the hooks they saw): `<data dir>/plugins.json`
 * (`{"enabled": [realPath…], "trust": {"<realPath>": {fingerprint, at}}}`). Plugins are
 * off until switched on, so a damaged file turns nothing on and trusts nothing; it is
 * reported and never overwritten. Lives in the data folder, which the agent cannot reach.
 */
import { join } from "../../lib/path.ts";

export const pluginStatePath = (home: string) => join(home, "plugins.json");

export interface PluginState {
  enabled: string[];
  trust: Record<string, { fingerprint: string; at: number }>;
}

const EMPTY: PluginState = { enabled: [], trust: {} };

export function readPluginState(
  home: string,
): { ok: true; state: PluginState } | { ok: false; error: string } {
  let text: string;
  try {
    text = Deno.readTextFileSync(pluginStatePath(home));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: true, state: structuredClone(EMPTY) };
    return { ok: false, error: `${pluginStatePath(home)} cannot be read: ${(e as Error).message}` };
  }
  try {
    const json = JSON.parse(text);
    const enabled = json?.enabled ?? [];
    const trust = json?.trust ?? {};
    if (
      !Array.isArray(enabled) || enabled.some((x) => typeof x !== "string") ||
      typeof trust !== "object" || trust === null || Array.isArray(trust)
    ) throw new Error("expected {enabled: [paths], trust: {path: {fingerprint, at}}}");
    return { ok: true, state: { enabled, trust } };
  } catch (e) {
    return { ok: false, error: `${pluginStatePath(home)} is damaged: ${(e as Error).message}` };
  }
}

// One writer at a time in this process (two switches flipped at once both land).
let chain: Promise<unknown> = Promise.resolve();

/** Applies `change` to the state file; a damaged file is refused, never overwritten. */
export function updatePluginState(
  home: string,
  change: (s: PluginState) => void,
): Promise<void> {
  const next = chain.then(() => write(home, change));
  chain = next.catch(() => {});
  return next;
}

async function write(home: string, change: (s: PluginState) => void): Promise<void> {
  const r = readPluginState(home);
  if (!r.ok) throw new Error(`${r.error}; fix or remove it first`);
  change(r.state);
  r.state.enabled = [...new Set(r.state.enabled)].sort();
  // Written beside and renamed: a crash never leaves half a file.
  const path = pluginStatePath(home);
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(r.state, null, 2) + "\n", { mode: 0o600 });
  await Deno.rename(tmp, path);
}
