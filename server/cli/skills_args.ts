/**
 * Arguments of `reinagent skills list|enable|disable` (see skills_cmd.ts), parsed
 * without loading the skills code: the CLI's argument parser imports this on every start.
 */
import { parseFlags } from "./flags.ts";

export type SkillsCommand =
  | { kind: "skills"; action: "list"; home?: string; project?: string; json: boolean }
  | { kind: "skills"; action: "enable" | "disable"; home?: string; project?: string; name: string };

export function parseSkillsArgs(argv: string[]): { command: SkillsCommand } | { error: string } {
  const [action, ...rest] = argv;
  if (action !== "list" && action !== "enable" && action !== "disable") {
    return { error: `skills needs list, enable or disable${action ? `, got "${action}"` : ""}` };
  }
  const f = parseFlags(rest, {
    values: ["--home", "--project"],
    bools: action === "list" ? ["--json"] : [],
  });
  if ("error" in f) return f;
  const where = {
    ...(f.values["--home"] ? { home: f.values["--home"] } : {}),
    ...(f.values["--project"] ? { project: f.values["--project"] } : {}),
  };
  if (action === "list") {
    if (f.positional.length) {
      return { error: `skills list takes no NAME, got "${f.positional[0]}"` };
    }
    return { command: { kind: "skills", action, json: f.bools.has("--json"), ...where } };
  }
  if (f.positional.length !== 1) return { error: `skills ${action} needs one NAME` };
  return { command: { kind: "skills", action, name: f.positional[0], ...where } };
}
