/**
 * The tools a sub-agent gets: the type's list, resolved against the registry. Never
 * `agent` or `subagent_output` (no recursion), nor the tools that act on the parent
 * task's conversation (plan review, questions to the user, the todo list, memory). Claude
 * Code's tool names (Read, Bash, …) map to ours, so `.claude/agents` files work.
 * Names that match no tool, or a tool a sub-agent may not have, are reported.
 */
import { ToolRegistry } from "../../../tools/registry.ts";
import type { SubagentDef } from "./definitions.ts";

/** Never given to a sub-agent, whatever its definition says. */
export const PARENT_ONLY = new Set([
  "agent",
  "subagent_output",
  "exit_plan_mode",
  "ask_user_question",
  "todo_write",
  "memory",
]);

/** Claude Code's tool names (lower case) → ours. */
const CLAUDE_NAMES: Record<string, string> = {
  read: "read_file",
  write: "write_file",
  edit: "edit_file",
  multiedit: "edit_file",
  glob: "glob",
  grep: "grep",
  ls: "list_dir",
  bash: "exec_command",
  bashoutput: "task_output",
  killbash: "task_stop",
  killshell: "task_stop",
  webfetch: "webfetch",
  websearch: "websearch",
  todowrite: "todo_write",
  task: "agent",
};

export interface FilteredTools {
  registry: ToolRegistry;
  /** Names of the definition that give the sub-agent nothing, with why (English). */
  unknown: string[];
}

export function filterTools(def: Pick<SubagentDef, "tools">, all: ToolRegistry): FilteredTools {
  const unknown: string[] = [];
  if (def.tools === null) {
    return {
      registry: new ToolRegistry(all.all().filter((t) => !PARENT_ONLY.has(t.name))),
      unknown,
    };
  }
  const picked = new Set<string>();
  for (const raw of def.tools) {
    const name = all.get(raw) ? raw : CLAUDE_NAMES[raw.toLowerCase()] ?? raw;
    if (PARENT_ONLY.has(name)) unknown.push(`${raw} (not available to sub-agents)`);
    else if (!all.get(name)) unknown.push(raw);
    else picked.add(name);
  }
  // Registry order, so the model sees the tools as the parent does.
  return { registry: new ToolRegistry(all.all().filter((t) => picked.has(t.name))), unknown };
}
