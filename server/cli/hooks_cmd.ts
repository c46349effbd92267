/**
 * `reinagent hooks list|trust [--project DIR] [--json] [--home DIR]`: the hooks that
 * apply to a workspace (default: the current folder) with their trust state, and trusting
 * a workspace's hooks without the UI (a VPS, CI). Works on the files directly: a running
 * server reads the trust at its next hook.
 */
import { resolve } from "../../lib/path.ts";
import type { HookSource, HookView } from "../../protocol/hooks.ts";
import { listSources } from "../agent/hooks/sources.ts";
import { trustSource } from "../agent/hooks/trust_source.ts";
import { parseFlags } from "./flags.ts";

export interface HooksArgs {
  action: "list" | "trust";
  project: string;
  json: boolean;
  home?: string;
}

export function parseHooksArgs(argv: string[]): HooksArgs | { error: string } {
  const f = parseFlags(argv, { values: ["--home", "--project"], bools: ["--json"] });
  if ("error" in f) return f;
  const [action, ...rest] = f.positional;
  if (action !== "list" && action !== "trust") {
    return { error: `hooks needs "list" or "trust", got ${action ? `"${action}"` : "nothing"}` };
  }
  if (rest.length) return { error: `unexpected argument "${rest[0]}"` };
  return {
    action,
    project: resolve(f.values["--project"] ?? Deno.cwd()),
    json: f.bools.has("--json"),
    ...(f.values["--home"] ? { home: f.values["--home"] } : {}),
  };
}

const STATES: Record<HookSource["state"], string> = {
  user: "your own (runs)",
  trusted: "trusted (runs)",
  untrusted: "not trusted (does not run)",
  changed: "changed since trusted (the new hooks do not run)",
  invalid: "invalid (does not run)",
};

function describe(s: HookSource, line: (s: string) => void): void {
  line(`${s.path} — ${STATES[s.state]}`);
  if (s.error) line(`  ${s.error}`);
  const list = (hooks: HookView[]) => {
    for (const h of hooks) {
      const m = h.matcher ? ` [${h.matcher}]` : "";
      line(`  ${h.event}${m} (${h.timeoutMs / 1000} s): ${h.command}`);
    }
  };
  list(s.hooks);
  if (s.trustedHooks?.length) {
    line("  still running until the change is trusted (trusted before):");
    list(s.trustedHooks);
  }
}

export async function hooksCommand(
  a: HooksArgs,
  home: string,
  io: { line(s: string): void; err(s: string): void },
): Promise<number> {
  if (a.action === "list") {
    const sources = await listSources(home, [a.project]);
    if (a.json) io.line(JSON.stringify(sources, null, 2));
    else if (!sources.length) io.line(`No hooks configured for ${a.project}.`);
    else for (const s of sources) describe(s, io.line);
    return 0;
  }
  const r = await trustSource(home, a.project, null);
  if (!r.ok) {
    io.err(`reinagent: ${r.message}`);
    return 1;
  }
  if (a.json) io.line(JSON.stringify(r.source, null, 2));
  else {
    io.line("Trusted these hooks (a change to them asks again):");
    describe(r.source, io.line);
  }
  return 0;
}
