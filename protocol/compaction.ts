/**
 * Compaction: a `compact` entry holds the summary that replaces the older
 * part of a task's conversation for the model. The timeline keeps every entry; the
 * model sees the summary followed by the entries from `keepFrom` on.
 *
 * Op:
 * - `task.compact {id, focus?}`: compacts now (the ring's "Compact now", `/compact`).
 *   Runs like a turn (status running, phase "compacting", Stop stops it); fails with
 *   `busy` while the task runs (a run compacts by itself when it needs to).
 */
import { obj, type Schema, str } from "./schema.ts";
import type { Entry } from "./domain.ts";

/** Why a compaction ran. `overflow`: the provider refused the request as too long. */
export type CompactTrigger = "auto" | "manual" | "overflow";

export interface CompactMeta {
  kind: "compaction";
  /** Messages (user, assistant and tool entries) the summary replaced. */
  count: number;
  /** `pos` of the first entry kept verbatim; the summary stands for everything before. */
  keepFrom: number;
  trigger: CompactTrigger;
  /** The older steps of a running turn were summarised (the turn went on). */
  inTurn: boolean;
  /** Estimated prompt tokens of the request before (by characters, like `tokensAfter`). */
  tokensBefore: number;
  /** Estimated prompt tokens of the next request. */
  tokensAfter: number;
  durationMs: number;
  /** `provider/model` that wrote the summary. */
  model: string;
  focus?: string;
  /** In-turn: the user's request being worked on, verbatim (capped), kept next to the summary. */
  request?: string;
}

/** The compaction record of a `compact` entry, or null when it is not a valid one. */
export function compactMetaOf(e: Pick<Entry, "role" | "meta">): CompactMeta | null {
  if (e.role !== "compact") return null;
  const m = e.meta as Partial<CompactMeta> | undefined;
  if (m?.kind !== "compaction" || typeof m.keepFrom !== "number") return null;
  return m as CompactMeta;
}

/** Default share of the usable window (window − max output) that triggers compaction. */
export const COMPACT_WATERMARK = 0.7;
/** The window assumed for a model that does not declare one. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/**
 * Prompt tokens at which a task compacts by itself: 0.7 × (window − max output), the
 * window defaulting to 128K when the model declares none.
 */
export function compactWatermark(contextWindow: number | null, maxOutput: number): number {
  const window = contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  return Math.max(1024, Math.floor(COMPACT_WATERMARK * (window - maxOutput)));
}

export const COMPACTION_OP_ARGS = {
  "task.compact": obj({
    id: str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ }),
    "focus?": str({ max: 2000 }),
  }),
} satisfies Record<string, Schema>;

export interface CompactionOpResults {
  /** `entry`: the compact entry written; null when there was nothing to compact yet. */
  "task.compact": { entry: Entry | null };
}
