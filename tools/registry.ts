/** The tools the agent can call, by name. */
import type { Tool } from "./types.ts";
import type { ToolSpec } from "../protocol/provider_types.ts";
import { listDir } from "./list_dir.ts";
import { readFile } from "./read_file.ts";
import { writeFile } from "./write_file.ts";
import { editFile } from "./edit_file.ts";
import { deleteFile } from "./delete_file.ts";
import { applyPatch } from "./apply_patch.ts";
import { diagnosticsTool } from "./diagnostics.ts";
import { glob } from "./glob.ts";
import { grep } from "./grep.ts";
import { execCommand } from "./exec/exec_command.ts";
import { todoWrite } from "./todo_write.ts";
import { backgroundBash, taskOutput, taskStop } from "./exec/background.ts";
import { askUserQuestion, exitPlanMode } from "./interactive.ts";
import { webfetch } from "./web/webfetch.ts";
import { websearch } from "./web/websearch.ts";
import { agentTool, subagentOutput } from "./agent.ts";
import { memoryTool } from "./memory.ts";

export class ToolRegistry {
  private tools = new Map<string, Tool>();

  constructor(tools: Tool[]) {
    for (const t of tools) this.tools.set(t.name, t);
  }

  /** This registry plus `extra` (a built-in's name is never taken over). */
  with(extra: Tool[]): ToolRegistry {
    const out = new ToolRegistry([...this.tools.values()]);
    for (const t of extra) if (!out.tools.has(t.name)) out.tools.set(t.name, t);
    return out;
  }

  /** This registry with `tools` in place of the ones of the same names (an editor's). */
  replacing(tools: Tool[]): ToolRegistry {
    const out = new ToolRegistry([...this.tools.values()]);
    for (const t of tools) if (out.tools.has(t.name)) out.tools.set(t.name, t);
    return out;
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** Every tool, in registration order. */
  all(): Tool[] {
    return [...this.tools.values()];
  }

  /** Specs sent to the model. */
  specs(): ToolSpec[] {
    return [...this.tools.values()].map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    }));
  }
}

export function defaultTools(): ToolRegistry {
  return new ToolRegistry([
    listDir,
    readFile,
    glob,
    grep,
    writeFile,
    editFile,
    deleteFile,
    applyPatch,
    diagnosticsTool,
    execCommand,
    backgroundBash,
    taskOutput,
    taskStop,
    webfetch,
    websearch,
    todoWrite,
    askUserQuestion,
    exitPlanMode,
    agentTool,
    subagentOutput,
    memoryTool,
  ]);
}
