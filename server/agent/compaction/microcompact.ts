/**
 * Microcompact: before a request is sent, tool results older than the last
 * `keepLast` messages and longer than `maxChars` are cut to their head and tail with a
 * marker. Pure and deterministic: the same history always gives the same request (the
 * provider's prompt cache keeps hitting), a cut result is short enough that a second
 * pass leaves it alone, and the stored timeline is never touched (it works on a copy).
 */
import type { LlmMessage } from "../../../agent/index.ts";

export const MICROCOMPACT = { keepLast: 6, maxChars: 4096, head: 800, tail: 400 } as const;

/** The cut form of a long tool result (idempotent: the output is under `maxChars`). */
export function cutToolResult(text: string, o = MICROCOMPACT): string {
  if (text.length <= o.maxChars) return text;
  const omitted = text.length - o.head - o.tail;
  return `${
    text.slice(0, o.head)
  }\n…[${omitted} characters of this older tool result omitted to save context; run the tool again if you need them]…\n${
    text.slice(text.length - o.tail)
  }`;
}

/** A copy of `messages` with older long tool results cut; the input is not changed. */
export function microcompact(messages: LlmMessage[], o = MICROCOMPACT): LlmMessage[] {
  const older = messages.length - o.keepLast;
  if (older <= 0) return messages;
  let out: LlmMessage[] | null = null;
  for (let i = 0; i < older; i++) {
    const m = messages[i];
    if (m.role !== "tool" || m.content.length <= o.maxChars) continue;
    out ??= [...messages];
    out[i] = { ...m, content: cutToolResult(m.content, o) };
  }
  return out ?? messages;
}
