/**
 * Usage statistics from the usage stored on each model reply
 * (`meta.usage` of assistant entries, the task's and its sub-agents'). A reply without
 * stored usage is counted as such (`unknownRequests`), never estimated.
 * `total` = input + output; cache reads and writes are shown beside it, not added.
 * Cost is the sum of what each reply cost at its model's price when it ended
 * (nano-units, one sum per currency); replies without a price are counted as
 * `unpriced`, never as free.
 *
 * Ops: `usage.stats {range, utcOffsetMin}`, `usage.reset {}` (records a reset point:
 * statistics start there; no task or entry is deleted).
 */
import { int, obj, oneOf, type Schema } from "./schema.ts";
import type { MoneySum } from "./pricing.ts";

export const USAGE_RANGES = ["7d", "30d", "all"] as const;
export type UsageRange = typeof USAGE_RANGES[number];

/** How many tasks the Usage page lists by cost. */
export const USAGE_TOP_TASKS = 10;

/** Days in the heatmap: 52 full weeks plus the current one (weeks start on Sunday). */
export const HEATMAP_WEEKS = 53;

export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** input + output */
  total: number;
  /** Model replies with stored usage. */
  requests: number;
  /** Model replies that stored no usage (older entries, providers that report none). */
  unknownRequests: number;
  /** Tasks with at least one model reply in the range. */
  tasks: number;
  /** Days with at least one model reply. */
  activeDays: number;
  /** Cost of the priced replies, one sum per currency (empty when none is priced). */
  cost: MoneySum[];
  /** Replies whose cost is unknown (no price for the tokens they used, or no usage). */
  unpriced: number;
}

export interface UsageModelShare {
  /** `providerId/modelId` as the reply recorded it ("unknown" when it did not). */
  model: string;
  total: number;
  requests: number;
  /** Share of the range's total tokens, 0–1 (0 when the total is 0). */
  share: number;
  cost: MoneySum[];
  unpriced: number;
}

/** One local day, `YYYY-MM-DD`. */
export interface UsageDay {
  day: string;
  total: number;
  requests: number;
}

export interface UsageSnapshot {
  range: UsageRange;
  /** The reset point (ms) statistics start from, or null. */
  resetAt: number | null;
  /** First day of the range (local `YYYY-MM-DD`); for `all` the first day with usage. */
  from: string | null;
  to: string;
  totals: UsageTotals;
  models: UsageModelShare[];
  /** Every day of the range in order, per model tokens (`all`: from the first active day). */
  daily: {
    day: string;
    models: Record<string, number>;
    total: number;
    cost: MoneySum[];
    unpriced: number;
  }[];
  /** `HEATMAP_WEEKS` × 7 days ending with today's week (Sunday first), level 0–4. */
  heatmap: (UsageDay & { level: number })[];
  streaks: { current: number; longest: number };
  peakDay: UsageDay | null;
  /** The costliest tasks of the range (at most `USAGE_TOP_TASKS`), costliest first. */
  taskCosts: {
    taskId: string;
    title: string;
    cost: MoneySum[];
    replies: number;
    /** Replies whose cost is unknown. */
    unpriced: number;
  }[];
  /** The task with the longest span from its first to its last entry in the range. */
  longestTask: { taskId: string; title: string; durationMs: number } | null;
}

export const USAGE_OP_ARGS = {
  "usage.stats": obj({
    range: oneOf(USAGE_RANGES),
    /** The client's offset from UTC in minutes (east positive), for day boundaries. */
    utcOffsetMin: int({ min: -14 * 60, max: 14 * 60 }),
  }),
  "usage.reset": obj({}),
} satisfies Record<string, Schema>;

export interface UsageOpResults {
  "usage.stats": UsageSnapshot;
  "usage.reset": { resetAt: number };
}
