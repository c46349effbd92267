/**
 * Prompt enhancement ✨: the draft rewritten once by the model — a side
 * request with no tools and no thinking, the template's `{{draft}}` replaced by the
 * draft — within a hard timeout. The answer is cleaned of wrappers models like to add
 * (quotes, "Enhanced:" labels, a code fence); an empty answer is an error, never an
 * empty composer.
 */
import { type Adapter, type ModelInfo, type ProviderConfig, sideText } from "../../agent/index.ts";
import { ENHANCE_LIMITS } from "../../protocol/enhance.ts";

export const ENHANCE_SYSTEM =
  "You rewrite a user's draft prompt for an AI coding agent so the agent can act on it " +
  "well. Keep the user's intent, language and every concrete detail (paths, names, code, " +
  "numbers); make the goal, the expected result and how to check it explicit; fix obvious " +
  "typos; do not invent facts. When essential information is missing, keep it as a short " +
  "placeholder question in brackets instead of guessing. Reply with the rewritten prompt " +
  "only: no preface, no quotes, no explanation.";

export const ENHANCE_TEMPLATE = "Rewrite this draft prompt:\n\n<draft>\n{{draft}}\n</draft>\n\n" +
  'Example: the draft "fix that thing in the login" becomes "Fix the bug in the login flow: ' +
  "[which error or behaviour do you see, and where?]. Find the cause, fix it, and run the " +
  'related tests to confirm."';

export class EnhanceError extends Error {}

/** Strips one pair of wrapping quotes, a label such as "Enhanced:" and a code fence. */
export function cleanEnhanced(raw: string): string {
  let t = raw.replace(/<think>[\s\S]*?<\/think>/g, "").trim();
  t = t.replace(/^```[\w-]*\n([\s\S]*?)\n```$/, "$1").trim();
  t = t.replace(/^(enhanced|improved|rewritten)( prompt)?\s*[:：]\s*/i, "")
    .replace(/^(增强后|优化后)(的提示词)?\s*[:：]\s*/, "").trim();
  const pairs: [string, string][] = [['"', '"'], ["“", "”"], ["'", "'"], ["「", "」"]];
  for (const [a, b] of pairs) {
    if (t.length >= 2 && t.startsWith(a) && t.endsWith(b)) {
      t = t.slice(a.length, -b.length).trim();
      break;
    }
  }
  return t;
}

/** The rewritten draft; throws {@link EnhanceError} on a timeout, an empty answer or a failure. */
export async function enhancePrompt(
  target: { adapter: Adapter; provider: ProviderConfig; model: ModelInfo },
  draft: string,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? ENHANCE_LIMITS.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  // The race gives the caller its answer at the deadline even if an adapter ignores the abort.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new EnhanceError(`the model did not answer within ${timeoutMs / 1000} s`)),
      timeoutMs + 50,
    );
  });
  let out: string;
  try {
    out = await Promise.race([
      sideText(target, {
        system: ENHANCE_SYSTEM,
        user: ENHANCE_TEMPLATE.replace("{{draft}}", () => draft),
        maxTokens: 4000,
      }, signal),
      deadline,
    ]);
  } catch (e) {
    if (e instanceof EnhanceError) throw e;
    if (timeout.aborted) {
      throw new EnhanceError(`the model did not answer within ${timeoutMs / 1000} s`);
    }
    throw new EnhanceError(`the model failed: ${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  const text = cleanEnhanced(out);
  if (!text) throw new EnhanceError("the model answered with an empty text");
  return text.slice(0, ENHANCE_LIMITS.resultChars);
}
