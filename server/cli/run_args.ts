/** `reinagent run …` arguments (parsed before anything of the command loads). */
import { resolve } from "../../lib/path.ts";
import { parseFlags } from "./flags.ts";
import { APPROVAL_MODES, EFFORT_LEVELS } from "../../protocol/constants.ts";
import { parseRule } from "../../protocol/permission_rules.ts";

export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;
export type OutputFormat = typeof OUTPUT_FORMATS[number];

export interface RunArgs {
  /** The prompt; "-" reads it from stdin. */
  prompt: string;
  home?: string;
  project?: string;
  model?: { providerId: string; modelId: string };
  effort?: string;
  approval?: string;
  task?: string;
  /** Continue the project's most recent task. */
  continue?: boolean;
  /** One JSON event per line (`--output-format stream-json`, alias `--json`). */
  json: boolean;
  /** Work in a git worktree of its own on a new branch (the project must be a repository). */
  worktree?: boolean;
  format: OutputFormat;
  maxTurns?: number;
  appendSystemPrompt?: string;
  /** Task rules from --allowed-tools (allow) and --disallowed-tools (deny). */
  rules?: { rule: string; policy: "allow" | "deny" }[];
}

/**
 * The tools of `--allowed-tools` / `--disallowed-tools`: names or rules, separated by
 * commas or spaces outside parentheses (`read_file,exec_command(npm test *)`).
 */
export function splitToolList(list: string): string[] {
  const out: string[] = [];
  let cur = "";
  let depth = 0;
  for (const c of list) {
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === "," || c === " ")) {
      if (cur.trim()) out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

export function parseRunArgs(argv: string[]): RunArgs | { error: string } {
  const f = parseFlags(argv, {
    values: [
      "--home",
      "--project",
      "--model",
      "--effort",
      "--approval",
      "--task",
      "--max-turns",
      "--append-system-prompt",
      "--output-format",
    ],
    multi: ["--allowed-tools", "--disallowed-tools"],
    bools: ["--json", "--continue", "--worktree"],
  });
  if ("error" in f) return f;
  if (f.positional.length !== 1 || !f.positional[0].trim()) {
    return {
      error: 'run needs exactly one prompt argument: reinagent run "<prompt>" (or - for stdin)',
    };
  }
  const v = f.values;
  const format = v["--output-format"] ?? (f.bools.has("--json") ? "stream-json" : "text");
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    return { error: `--output-format must be one of ${OUTPUT_FORMATS.join(", ")}` };
  }
  if (f.bools.has("--json") && format !== "stream-json") {
    return { error: "--json is --output-format stream-json; give one of them" };
  }
  const out: RunArgs = {
    prompt: f.positional[0],
    json: format === "stream-json",
    format: format as OutputFormat,
  };
  if (f.bools.has("--continue")) {
    if (v["--task"]) return { error: "--continue and --task cannot be combined" };
    out.continue = true;
  }
  if (v["--max-turns"] !== undefined) {
    const n = Number(v["--max-turns"]);
    if (!Number.isInteger(n) || n < 1 || n > 10_000) {
      return { error: "--max-turns must be a whole number from 1 to 10000" };
    }
    out.maxTurns = n;
  }
  if (v["--append-system-prompt"]) out.appendSystemPrompt = v["--append-system-prompt"];
  const rules: NonNullable<RunArgs["rules"]> = [];
  for (
    const [flag, policy] of [["--allowed-tools", "allow"], ["--disallowed-tools", "deny"]] as const
  ) {
    for (const rule of (f.multi[flag] ?? []).flatMap(splitToolList)) {
      if (!parseRule(rule)) return { error: `${flag}: not a tool name or rule: ${rule}` };
      rules.push({ rule, policy });
    }
  }
  if (rules.length) out.rules = rules;
  if (v["--home"]) out.home = v["--home"];
  if (v["--project"]) out.project = resolve(v["--project"]);
  if (v["--task"]) out.task = v["--task"];
  if (f.bools.has("--worktree")) {
    if (v["--task"] || out.continue) {
      return { error: "--worktree makes a new task: it does not go with --task or --continue" };
    }
    out.worktree = true;
  }
  if (v["--model"]) {
    const slash = v["--model"].indexOf("/");
    if (slash <= 0 || slash === v["--model"].length - 1) {
      return { error: `--model must be PROVIDER/MODEL, got "${v["--model"]}"` };
    }
    out.model = {
      providerId: v["--model"].slice(0, slash),
      modelId: v["--model"].slice(slash + 1),
    };
  }
  if (v["--effort"]) {
    if (!(EFFORT_LEVELS as readonly string[]).includes(v["--effort"])) {
      return { error: `--effort must be one of ${EFFORT_LEVELS.join(", ")}` };
    }
    out.effort = v["--effort"];
  }
  if (v["--approval"]) {
    if (!(APPROVAL_MODES as readonly string[]).includes(v["--approval"])) {
      return { error: `--approval must be one of ${APPROVAL_MODES.join(", ")}` };
    }
    out.approval = v["--approval"];
  }
  return out;
}
