/**
 * "Organise this conversation into a note": the task's conversation — what
 * the user asked, what the assistant answered, which tools it used — as one transcript
 * (its end kept when long), organised by the model into a Markdown note with a `#` title.
 * The note's name comes from that title (made safe), else the task's title.
 */
import type { Entry } from "../../protocol/domain.ts";
import { NOTE_NAME, NOTES_LIMITS } from "../../protocol/notes.ts";
import { type SideTarget, timedSideText } from "./assist.ts";

const SYSTEM = "You turn a conversation between a user and an AI coding agent into a clear " +
  "Markdown note the user can keep: start with a `# ` title, then the goal, what was done " +
  "and decided, the key facts, commands, paths and code (exact), and open questions or " +
  "next steps. Write in the conversation's language. Leave out chatter and tool noise. " +
  "Reply with the note only.";

/** Entries read from the end of the task at most (the transcript is cut anyway). */
export const ORGANISE_ENTRIES = 400;

function entryLine(e: Entry): string | null {
  if (e.role !== "user" && e.role !== "assistant" && e.role !== "compact") return null;
  const bits: string[] = [];
  for (const p of e.parts) {
    if (p.type === "text" && p.text?.trim()) bits.push(p.text.trim());
    if (p.type === "tool_call") bits.push(`[used tool ${String(p.data?.name ?? "?")}]`);
  }
  if (!bits.length) return null;
  const who = e.role === "user" ? "User" : e.role === "compact" ? "Summary so far" : "Assistant";
  return `## ${who}\n${bits.join("\n")}`;
}

/** The conversation as text, at most {@link NOTES_LIMITS.organiseChars} (the end kept). */
export function transcriptOf(entries: Entry[]): string {
  const text = entries.map(entryLine).filter((s) => s !== null).join("\n\n");
  if (text.length <= NOTES_LIMITS.organiseChars) return text;
  return `(earlier part left out)\n…${text.slice(-NOTES_LIMITS.organiseChars)}`;
}

/** A valid note name from a title: unsafe characters become spaces; null if nothing is left. */
export function noteNameFrom(title: string): string | null {
  const cleaned = title.replace(/[^\p{L}\p{N} _\-.,()&+']+/gu, " ").replace(/\s+/g, " ")
    .trim().replace(/^[. ]+|[. ]+$/g, "").slice(0, NOTES_LIMITS.nameChars - 4).trim();
  return cleaned && NOTE_NAME.test(cleaned) ? cleaned : null;
}

/** The note's body from the model; throws AssistError (timeout, failure, empty). */
export function organiseConversation(
  target: SideTarget,
  taskTitle: string,
  entries: Entry[],
  timeoutMs: number = NOTES_LIMITS.assistTimeoutMs,
): Promise<string> {
  return timedSideText(target, {
    system: SYSTEM,
    user: `Task: ${taskTitle}\n\n<conversation>\n${transcriptOf(entries)}\n</conversation>`,
    maxTokens: 6000,
  }, timeoutMs);
}
