/** `reinagent run …` arguments (parsed before anything of the command loads). */
import { resolve } from "../../lib/path.ts";
import { parseFlags } from "./flags.ts";
import { APPROVAL_MODES, EFFORT_LEVELS } from "../../protocol/constants.ts";

export interface RunArgs {
  prompt: string;
  home?: string;
  project?: string;
  model?: { providerId: string; modelId: string };
  effort?: string;
  approval?: string;
  task?: string;
  json: boolean;
  /** Work in a git worktree of its own on a new branch (the project must be a repository). */
  worktree?: boolean;
}

export function parseRunArgs(argv: string[]): RunArgs | { error: string } {
  const f = parseFlags(argv, {
    values: ["--home", "--project", "--model", "--effort", "--approval", "--task"],
    bools: ["--json", "--worktree"],
  });
  if ("error" in f) return f;
  if (f.positional.length !== 1 || !f.positional[0].trim()) {
    return { error: 'run needs exactly one prompt argument: reinagent run "<prompt>"' };
  }
  const out: RunArgs = { prompt: f.positional[0], json: f.bools.has("--json") };
  const v = f.values;
  if (v["--home"]) out.home = v["--home"];
  if (v["--project"]) out.project = resolve(v["--project"]);
  if (v["--task"]) out.task = v["--task"];
  if (f.bools.has("--worktree")) {
    if (v["--task"]) return { error: "--worktree makes a new task: it does not go with --task" };
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
