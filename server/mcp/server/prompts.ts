/**
 * MCP prompts of the workbench: the user's custom slash commands (by their name, with
 * one optional `arguments` string, expanded as the composer expands them) and the
 * enabled skills (`skill/<name>`, their SKILL.md as the message). A client such as an
 * editor offers them in its own prompt menu. Listing goes through the ops; the text of a
 * command or skill is read when asked for, so an edit shows at once.
 */
import type { OpPort } from "./op_port.ts";
import { McpOpError } from "./op_port.ts";
import { expandPromptCommand } from "../../commands/registry.ts";
import { join } from "../../../lib/path.ts";

const SKILL_PREFIX = "skill/";
/** Longest SKILL.md sent (a larger one is cut, and said so). */
const SKILL_CHARS = 100_000;

export interface PromptHost {
  /** The data folder (custom commands of the user live there). */
  home: string;
}

const defaultWorkspace = (home: string) => join(home, "DefaultProject");

export async function listPrompts(ops: OpPort) {
  const [{ commands }, { skills }] = await Promise.all([
    ops.call("commands.list", {}),
    ops.call("skills.list", {}),
  ]);
  const fromCommands = commands.filter((c) => c.source !== "builtin").map((c) => ({
    name: c.name,
    title: `/${c.name}`,
    description: c.description,
    arguments: [{
      name: "arguments",
      description: c.argHint
        ? `What follows the command: ${c.argHint}`
        : "What follows the command",
      required: false,
    }],
  }));
  const fromSkills = skills.filter((s) => s.enabled && !s.problem).map((s) => ({
    name: `${SKILL_PREFIX}${s.name}`,
    title: `Skill: ${s.name}`,
    description: s.description,
  }));
  return { prompts: [...fromCommands, ...fromSkills] };
}

export async function getPrompt(
  ops: OpPort,
  host: PromptHost,
  name: string,
  args: Record<string, string> | undefined,
) {
  if (name.startsWith(SKILL_PREFIX)) {
    const wanted = name.slice(SKILL_PREFIX.length);
    const { skills } = await ops.call("skills.list", {});
    const skill = skills.find((s) => s.name === wanted && s.enabled && !s.problem);
    if (!skill) throw new McpOpError("not_found", `no enabled skill "${wanted.slice(0, 80)}"`);
    let text = await Deno.readTextFile(skill.path);
    if (text.length > SKILL_CHARS) {
      text = `${text.slice(0, SKILL_CHARS)}\n… (${text.length - SKILL_CHARS} more characters)`;
    }
    return {
      description: skill.description,
      messages: [{
        role: "user" as const,
        content: { type: "text" as const, text: `Use the skill "${skill.name}":\n\n${text}` },
      }],
    };
  }
  const { commands } = await ops.call("commands.list", {});
  const cmd = commands.find((c) => c.name === name && c.source !== "builtin");
  if (!cmd) throw new McpOpError("not_found", `no prompt "${name.slice(0, 80)}"`);
  const line = `/${cmd.name} ${args?.arguments ?? ""}`.trim();
  const used = await expandPromptCommand(line, {
    workspace: defaultWorkspace(host.home),
    home: host.home,
  });
  if (!used) throw new McpOpError("not_found", `no prompt "${name.slice(0, 80)}"`);
  return {
    description: cmd.description,
    messages: [{ role: "user" as const, content: { type: "text" as const, text: used.prompt } }],
  };
}
