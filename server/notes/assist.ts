/**
 * AI assist on a note: summarise, fix the grammar, or continue the text —
 * one side request (no tools, no thinking) within a hard deadline. An empty answer or a
 * failure is an error; the note itself is never touched here (the editor applies the
 * answer and keeps the text it replaced for Undo).
 */
import { type Adapter, type ModelInfo, type ProviderConfig, sideText } from "../../agent/index.ts";
import { type AssistAction, NOTES_LIMITS } from "../../protocol/notes.ts";

export type SideTarget = { adapter: Adapter; provider: ProviderConfig; model: ModelInfo };

export class AssistError extends Error {}

const SYSTEM: Record<AssistAction, string> = {
  summarise: "You summarise a Markdown note. Reply with a short Markdown summary (a few " +
    "bullet points or a short paragraph) in the note's language. Keep names, numbers and " +
    "code exact; add nothing that is not in the note. No preface.",
  grammar: "You correct spelling, grammar and punctuation of a Markdown note. Keep its " +
    "language, meaning, tone, structure and every Markdown mark, link and code block as " +
    "they are. Reply with the whole corrected note only: no preface, no explanation.",
  continue: "You continue a Markdown note where it ends, in its language, style and " +
    "format, for one or two paragraphs. Reply with the continuation only (not the text " +
    "already written): no preface.",
};

/** Removes the thinking some models inline and one wrapping code fence. */
export function cleanAnswer(raw: string): string {
  let t = raw.replace(/<think>[\s\S]*?<\/think>/g, "").trim();
  t = t.replace(/^```(?:markdown|md)?\n([\s\S]*?)\n```$/, "$1").trim();
  return t;
}

/** `sideText` with a deadline: the caller is answered at it even if the adapter lags. */
export async function timedSideText(
  target: SideTarget,
  ask: { system: string; user: string; maxTokens: number },
  timeoutMs: number,
): Promise<string> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const late = `the model did not answer within ${timeoutMs / 1000} s`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AssistError(late)), timeoutMs + 50);
  });
  let out: string;
  try {
    out = await Promise.race([sideText(target, ask, timeout), deadline]);
  } catch (e) {
    if (e instanceof AssistError) throw e;
    if (timeout.aborted) throw new AssistError(late);
    throw new AssistError(`the model failed: ${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  const text = cleanAnswer(out);
  if (!text) throw new AssistError("the model answered with an empty text");
  return text.slice(0, NOTES_LIMITS.resultChars);
}

export function assistNote(
  target: SideTarget,
  action: AssistAction,
  text: string,
  timeoutMs: number = NOTES_LIMITS.assistTimeoutMs,
): Promise<string> {
  return timedSideText(target, {
    system: SYSTEM[action],
    user: `<note>\n${text}\n</note>`,
    maxTokens: action === "summarise" ? 1500 : 6000,
  }, timeoutMs);
}
