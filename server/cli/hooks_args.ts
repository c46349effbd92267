/** `reinagent hooks …` arguments (parsed before anything of the command loads). */
import { resolve } from "../../lib/path.ts";
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
