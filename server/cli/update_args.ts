/** `reinagent update …` arguments (parsed before anything of the command loads). */
import { parseFlags } from "./flags.ts";

export interface UpdateArgs {
  check: boolean;
  force: boolean;
  manifest: string | null;
  target: string | null;
  home?: string;
}

export function parseUpdateArgs(argv: string[]): UpdateArgs | { error: string } {
  const f = parseFlags(argv, {
    values: ["--manifest", "--target", "--home"],
    bools: ["--check", "--force"],
  });
  if ("error" in f) return f;
  if (f.positional.length) return { error: `unexpected argument "${f.positional[0]}"` };
  return {
    check: f.bools.has("--check"),
    force: f.bools.has("--force"),
    manifest: f.values["--manifest"] ?? Deno.env.get("REINAGENT_UPDATE_MANIFEST") ?? null,
    target: f.values["--target"] ?? Deno.env.get("REINAGENT_UPDATE_TARGET") ?? null,
    ...(f.values["--home"] ? { home: f.values["--home"] } : {}),
  };
}
