/** `reinagent plugins …` arguments (parsed before anything of the command loads). */
import { resolve } from "../../lib/path.ts";
import { parseFlags } from "./flags.ts";

export interface PluginsArgs {
  action: "list" | "enable" | "disable" | "trust";
  /** The plugin (name or folder) for enable/disable/trust. */
  target: string | null;
  project: string;
  json: boolean;
  home?: string;
}

const ACTIONS = ["list", "enable", "disable", "trust"] as const;

export function parsePluginsArgs(argv: string[]): PluginsArgs | { error: string } {
  const f = parseFlags(argv, { values: ["--home", "--project"], bools: ["--json"] });
  if ("error" in f) return f;
  const [action, target, ...rest] = f.positional;
  if (!ACTIONS.includes(action as PluginsArgs["action"])) {
    return {
      error: `plugins needs one of ${ACTIONS.join(", ")}, got ${
        action ? `"${action}"` : "nothing"
      }`,
    };
  }
  if (action === "list" ? target !== undefined : target === undefined) {
    return {
      error: action === "list"
        ? `unexpected argument "${target}"`
        : `plugins ${action} needs a plugin name or folder`,
    };
  }
  if (rest.length) return { error: `unexpected argument "${rest[0]}"` };
  return {
    action: action as PluginsArgs["action"],
    target: target ?? null,
    project: resolve(f.values["--project"] ?? Deno.cwd()),
    json: f.bools.has("--json"),
    ...(f.values["--home"] ? { home: f.values["--home"] } : {}),
  };
}
