/**
 * Prompt enhancement ✨: the composer's draft rewritten once by the model
 * (a side request, no tools), within {@link ENHANCE_LIMITS.timeoutMs}. Merged into
 * `OP_ARGS` by `protocol/index.ts`.
 */
import { nullable, obj, type Schema, str } from "./schema.ts";

export const ENHANCE_LIMITS = {
  /** Longest draft sent for rewriting (characters). */
  draftChars: 20_000,
  /** Longest rewrite accepted back (characters). */
  resultChars: 40_000,
  /** The request gives up after this long. */
  timeoutMs: 60_000,
} as const;

const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const modelRef = obj({
  providerId: str({ min: 1, max: 64 }),
  modelId: str({ min: 1, max: 200 }),
});

export const ENHANCE_OP_ARGS = {
  /**
   * Rewrites `text` with the task's model (`taskId`), else `model`, else the default.
   * Fails with `upstream` (the model's error, or the timeout) and changes nothing.
   */
  "composer.enhance": obj({
    text: str({ min: 1, max: ENHANCE_LIMITS.draftChars }),
    "taskId?": nullable(taskId),
    "model?": nullable(modelRef),
  }),
} satisfies Record<string, Schema>;

export interface EnhanceOpResults {
  "composer.enhance": { text: string; model: string };
}
