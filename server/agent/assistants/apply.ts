/**
 * What an assistant does to a task: its persona goes into the system prompt of every
 * turn (read afresh, so edits apply to the next turn), and its bound model / effort /
 * MCP servers are written into the task's settings once — when the task starts with it
 * or switches to it — so the user's later choices win.
 */
import type { Assistant } from "../../../protocol/assistants.ts";
import type { ModelRef, TaskSettings } from "../../../protocol/domain.ts";
import type { KvRepo } from "../../../store/kv.ts";
import { findAssistant, storedDefault } from "./catalog.ts";

/** The task's assistant: its own choice, else the global default (older tasks have none). */
export function assistantIdOf(settings: TaskSettings, kv: KvRepo): string {
  return settings.assistantId ?? storedDefault(kv);
}

/** The section put in front of the system prompt, or null for none (no persona text). */
export function personaSection(a: Assistant | null): string | null {
  if (!a || !a.persona.trim()) return null;
  const head = `# Assistant persona: ${a.name}`;
  const desc = a.description.trim() ? `\n${a.description.trim()}` : "";
  return `${head}${desc}\n\n${a.persona.trim()}\n\n` +
    "The persona shapes how you work and answer; the rules below still apply.";
}

/** The persona section of a task's next turn (a missing assistant means none). */
export async function personaOfTask(
  home: string,
  kv: KvRepo,
  settings: TaskSettings,
): Promise<string | null> {
  return personaSection(await findAssistant(home, assistantIdOf(settings, kv)));
}

/**
 * The settings a task gets from an assistant applied now: the id always; the model
 * only when `usable` accepts it (a bound model that is gone is skipped, not applied);
 * the effort when bound; the MCP servers it names (none named = all enabled).
 */
export function bindingsOf(
  a: Assistant,
  usable: (ref: ModelRef) => boolean,
):
  & Pick<TaskSettings, "assistantId" | "mcpServers">
  & Partial<Pick<TaskSettings, "model" | "effort">> {
  return {
    assistantId: a.id,
    ...(a.model && usable(a.model) ? { model: a.model } : {}),
    ...(a.effort ? { effort: a.effort } : {}),
    mcpServers: a.mcpServers.length ? [...a.mcpServers] : null,
  };
}
