/**
 * Context assembly: a static system prompt (base + environment + mode),
 * and a per-turn `<system-reminder>` prepended to the first user message (date, goal,
 * AGENTS.md, enabled skills, accepted memories) so the system prompt stays cacheable.
 */
import basePrompt from "./prompts/base.md" with { type: "text" };
import { join } from "../../lib/path.ts";
import type { LlmMessage } from "../../agent/index.ts";

export const AGENTS_FILES = ["AGENTS.md", ".agents/AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md"];
const AGENTS_CAP = 64 * 1024;

export interface PromptEnv {
  workspace: string;
  os: string;
  arch: string;
  shell: string;
}

export function environmentOf(workspace: string): PromptEnv {
  return {
    workspace,
    os: Deno.build.os,
    arch: Deno.build.arch,
    shell: Deno.env.get("SHELL") ?? (Deno.build.os === "windows" ? "powershell" : "/bin/sh"),
  };
}

/** `persona`: the task's assistant section (agent/assistants/apply.ts), put first. */
export function systemPrompt(env: PromptEnv, mode: string, persona?: string | null): string {
  const parts = [
    ...(persona ? [persona] : []),
    basePrompt.trim(),
    `# Environment\n- OS: ${env.os} (${env.arch})\n- Shell: ${env.shell}\n- Workspace root: ${env.workspace}\n- Paths without a leading / are relative to the workspace root.`,
  ];
  if (mode === "plan") {
    parts.push(
      "# Plan mode\nYou are in plan mode: research with read-only tools only. Do not write files or run commands. " +
        "When you have a plan, call exit_plan_mode with the full plan for the user to approve.",
    );
  }
  return parts.join("\n\n");
}

/**
 * The first of AGENTS.md, .agents/AGENTS.md, CLAUDE.md, .claude/CLAUDE.md (64 KB cap). The
 * read stays asynchronous: the workspace is the model's to write, and a FIFO put there (or a
 * file swapped for one) must hang a pool thread at worst, never the server's own thread.
 */
export async function readAgentsFile(
  workspace: string,
): Promise<{ path: string; text: string } | null> {
  for (const name of AGENTS_FILES) {
    try {
      const bytes = await Deno.readFile(join(workspace, name));
      const text = new TextDecoder().decode(bytes.subarray(0, AGENTS_CAP));
      return {
        path: name,
        text: bytes.length > AGENTS_CAP ? `${text}\n…(truncated at 64 KB)` : text,
      };
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        return { path: name, text: `(could not read ${name}: ${(e as Error).message})` };
      }
    }
  }
  return null;
}

export function reminderBlock(
  opts: {
    now: Date;
    agents: { path: string; text: string } | null;
    goal?: string | null;
    /** The enabled skills (server/skills/reminder.ts), listed last. */
    skills?: string | null;
    /** The accepted memories' index (memory_reminder.ts), or null. */
    memory?: string | null;
  },
): string {
  const lines = [`Current date: ${opts.now.toISOString().slice(0, 10)}`];
  // The goal section comes formatted (goal.ts: paused or not, quoted as data).
  if (opts.goal) lines.push(`\n${opts.goal}`);
  if (opts.agents) {
    lines.push(`\nProject instructions from ${opts.agents.path}:\n${opts.agents.text}`);
  }
  if (opts.skills) lines.push(`\n${opts.skills}`);
  if (opts.memory) lines.push(`\n${opts.memory}`);
  return `<system-reminder>\n${lines.join("\n")}\n</system-reminder>`;
}

const REMINDER_OPEN = "<system-reminder>\n";

/** Whether a conversation already carries a reminder (one pinned to a stored user message). */
export function hasReminder(messages: LlmMessage[]): boolean {
  return messages.some((m) =>
    m.role === "user" &&
    m.content.some((b) => b.type === "text" && b.text.startsWith(REMINDER_OPEN))
  );
}

/**
 * Prepends the reminder to the first user message (a copy; the timeline is unchanged)
 * unless the conversation carries one already: a reminder pinned to the stored message it
 * was first sent with stays there, so the conversation's prefix (and its prompt cache)
 * does not change from one turn to the next.
 */
export function withReminder(messages: LlmMessage[], reminder: string): LlmMessage[] {
  if (hasReminder(messages)) return messages;
  const i = messages.findIndex((m) => m.role === "user");
  if (i < 0) return messages;
  const first = messages[i] as Extract<LlmMessage, { role: "user" }>;
  const copy = [...messages];
  copy[i] = { role: "user", content: [{ type: "text", text: reminder }, ...first.content] };
  return copy;
}
