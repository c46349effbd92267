/** `reinagent tasks` arguments (parsed before anything of the command loads). */
import { parseFlags } from "./flags.ts";

export interface TasksArgs {
  home?: string;
  json: boolean;
}

export function parseTasksArgs(argv: string[]): TasksArgs | { error: string } {
  const f = parseFlags(argv, { values: ["--home"], bools: ["--json"] });
  if ("error" in f) return f;
  if (f.positional.length) return { error: `tasks takes no arguments, got "${f.positional[0]}"` };
  return {
    json: f.bools.has("--json"),
    ...(f.values["--home"] ? { home: f.values["--home"] } : {}),
  };
}
