/**
 * The commands of a workspace (built-ins, then custom ones) and the expansion of a
 * prompt command into what the model receives. Read fresh on every call: command
 * files are small, and a user editing one sees the change at once.
 */
import type { CommandInfo, CommandProblem, CommandUse } from "../../protocol/index.ts";
import { expandTemplate, parseSlash } from "../../protocol/index.ts";
import { builtinPrompt, BUILTINS, isBuiltin } from "./builtins.ts";
import { pluginCommandDirs } from "../plugins/contributions.ts";
import { commandDirs, type CustomCommand, loadCustomCommands } from "./custom.ts";

export interface CommandScope {
  workspace: string;
  /** ReinAgent's data folder (its `commands/` holds the user's commands). */
  home: string;
  /** The user's home folder (for `~/.claude/commands`); default $HOME. */
  userHome?: string;
  /** Prompts of connected MCP servers, offered as `/mcp__<server>__<prompt>`. */
  mcpPrompts?: McpPromptCommands;
}

export interface McpPromptCommands {
  promptCommands(): { name: string; description: string; argHint?: string }[];
  expandPrompt(name: string, args: string): Promise<string | null>;
}

/**
 * Built-in prompt commands a workspace or user may define for itself: many keep their
 * own `/review` (a `.claude/commands/review.md`), and theirs is the one they mean.
 */
const OVERRIDABLE = new Set(["review"]);

async function custom(scope: CommandScope) {
  const dirs = [
    ...commandDirs(scope.workspace, scope.home, scope.userHome),
    ...await pluginCommandDirs(scope.home, scope.workspace),
  ];
  return await loadCustomCommands(dirs, (name) => isBuiltin(name) && !OVERRIDABLE.has(name));
}

/** The `/` menu: built-ins first, then custom commands by name; plus the files not used. */
export async function listCommands(
  scope: CommandScope,
): Promise<{ commands: CommandInfo[]; problems: CommandProblem[] }> {
  const { commands, problems } = await custom(scope);
  const list = commands.map(({ body: _body, ...info }: CustomCommand) => info);
  const mcp: CommandInfo[] = (scope.mcpPrompts?.promptCommands() ?? [])
    .map((c) => ({ ...c, source: "mcp" as const }));
  const own = new Set(list.map((c) => c.name));
  return { commands: [...BUILTINS.filter((b) => !own.has(b.name)), ...list, ...mcp], problems };
}

/**
 * What the model receives for a message that starts with a prompt command (`/init`
 * or a custom one); null for plain text, unknown names and local commands.
 */
export async function expandPromptCommand(
  text: string,
  scope: CommandScope,
): Promise<CommandUse | null> {
  const cmd = parseSlash(text);
  if (!cmd) return null;
  if (isBuiltin(cmd.name)) {
    if (OVERRIDABLE.has(cmd.name)) {
      const own = (await custom(scope)).commands.find((c) => c.name === cmd.name);
      if (own) return { ...cmd, prompt: expandTemplate(own.body, cmd.args) };
    }
    const prompt = builtinPrompt(cmd.name, cmd.args);
    return prompt === null ? null : { ...cmd, prompt };
  }
  if (cmd.name.startsWith("mcp__") && scope.mcpPrompts) {
    // Parsed names are lower-cased; the server's prompt keeps its own case.
    const exact = scope.mcpPrompts.promptCommands()
      .find((c) => c.name.toLowerCase() === cmd.name)?.name;
    const prompt = exact ? await scope.mcpPrompts.expandPrompt(exact, cmd.args) : null;
    if (prompt !== null) return { ...cmd, prompt };
  }
  const found = (await custom(scope)).commands.find((c) => c.name === cmd.name);
  return found ? { ...cmd, prompt: expandTemplate(found.body, cmd.args) } : null;
}
