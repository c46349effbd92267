/**
 * Reasoning effort: which levels a model offers, the step budget of
 * each level, and how a level maps onto each wire format.
 */
import type { Effort } from "./types.ts";
import { STEP_BUDGET } from "../../protocol/constants.ts";

export { effectiveEffort, offeredLevels } from "../../protocol/constants.ts";

/**
 * Agent steps allowed for one turn: the effort's budget in every mode
 * but `full`, which has no cap.
 */
export function stepBudget(effort: Effort, approval: string): number {
  return approval === "full" ? Number.POSITIVE_INFINITY : STEP_BUDGET[effort];
}

/** `reasoning_effort` for OpenAI/DeepSeek; undefined = send nothing. */
export function openaiEffort(e: Effort): string | undefined {
  if (e === "default" || e === "off") return undefined;
  return e; // low | medium | high | xhigh | max, as the model declares them
}

const ANTHROPIC_BUDGET: Partial<Record<Effort, number>> = {
  low: 4_000,
  medium: 10_000,
  high: 24_000,
  xhigh: 32_000,
  max: 48_000,
};

/** Anthropic `thinking` block; the budget stays below max_tokens as the API requires. */
export function anthropicThinking(e: Effort, maxTokens: number):
  | { type: "enabled"; budget_tokens: number }
  | { type: "disabled" }
  | undefined {
  if (e === "default") return undefined;
  if (e === "off") return { type: "disabled" };
  const budget = Math.min(ANTHROPIC_BUDGET[e]!, Math.max(1024, maxTokens - 1));
  return { type: "enabled", budget_tokens: budget };
}

/** Gemini `thinkingConfig`. */
export function geminiThinking(
  e: Effort,
): { thinkingBudget: number; includeThoughts: boolean } | undefined {
  if (e === "default") return undefined;
  if (e === "off") return { thinkingBudget: 0, includeThoughts: false };
  const budget = { low: 2_048, medium: 8_192, high: 24_576, xhigh: 32_768, max: 32_768 }[e];
  return { thinkingBudget: budget, includeThoughts: true };
}

/** max_tokens is always sent: min(known model max, request) or 32000 when unknown. */
export function resolveMaxTokens(modelMax: number | null, requested?: number): number {
  const fallback = 32_000;
  if (modelMax === null) return requested ?? fallback;
  return Math.min(modelMax, requested ?? modelMax);
}
