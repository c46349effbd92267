/**
 * Usage aggregation over the stored model replies: `meta.usage` of assistant entries of
 * tasks and of their sub-agents, summed in SQL (the partial index `message_replies`
 * keeps a range to its rows; entries are never loaded into JS). A reply that stored no
 * usage object counts as `unknown`, its tokens as nothing.
 */
import type { DatabaseSync } from "node:sqlite";

const DAY_MS = 86_400_000;

/**
 * `select` over the finished replies since `:since` (ms) of both sources, each arm
 * aggregated by `group` on its own (a UNION ALL under one GROUP BY would be
 * materialised first), then summed again by the caller's outer query.
 */
function replies(select: string, group: string): string {
  return `
    SELECT ${select} FROM message m
      WHERE m.role = 'assistant' AND m.created_at >= :since AND m.status <> 'streaming'
      ${group}
    UNION ALL
    SELECT ${select} FROM subagent_entry m JOIN subagent_run s ON s.id = m.run_id
      WHERE m.role = 'assistant' AND m.created_at >= :since AND m.status <> 'streaming'
      ${group}`;
}

const day = `CAST((m.created_at + :off) / ${DAY_MS} AS INTEGER)`;
const known = "(json_type(m.meta, '$.usage') IS 'object')";
/** Provider-reported numbers; anything else in the field counts as 0 (SUM coerces). */
const tokens = (field: string) => `COALESCE(SUM(m.meta ->> '$.usage.${field}'), 0)`;
const counts = `SUM(${known}) AS requests, SUM(NOT ${known}) AS unknown`;
/** A reply priced when it ended (`meta.cost`, nano-units of `meta.cost.currency`). */
const priced = "(json_type(m.meta, '$.cost') IS 'object')";
const currency = "CAST(m.meta ->> '$.cost.currency' AS TEXT)";
const costs = `COALESCE(SUM(m.meta ->> '$.cost.total'), 0) AS cost, SUM(${priced}) AS priced`;
const taskOf = (arm: "m" | "s") => (arm === "m" ? "m.task_id" : "s.task_id");

/** Day and model sums. `day` = local day number (days since 1970-01-01 in the client's zone). */
export interface UsageRow {
  day: number;
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  requests: number;
  unknown: number;
  /** Currency of `cost`; null for the replies that have no cost (price unknown). */
  currency: string | null;
  /** Nano-units of `currency`. */
  cost: number;
  /** Replies with a cost. */
  priced: number;
}

/** A task's cost so far: per model and currency, with the replies that have no price. */
export interface TaskCostRow {
  model: string;
  currency: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costInput: number;
  costOutput: number;
  costCacheRead: number;
  costCacheWrite: number;
  cost: number;
  requests: number;
  unknown: number;
  priced: number;
}

export class UsageRepo {
  constructor(private db: DatabaseSync) {}

  /** Sums per local day and model of the replies since `since`. */
  byDayAndModel(since: number, offsetMs: number): UsageRow[] {
    const select = `${day} AS day,
      COALESCE(CAST(m.meta ->> '$.model' AS TEXT), 'unknown') AS model,
      ${tokens("input")} AS input, ${tokens("output")} AS output,
      ${tokens("cacheRead")} AS cacheRead, ${tokens("cacheWrite")} AS cacheWrite, ${counts},
      ${currency} AS currency, ${costs}`;
    return this.db.prepare(`
      SELECT day, model, SUM(input) AS input, SUM(output) AS output, SUM(cacheRead) AS cacheRead,
             SUM(cacheWrite) AS cacheWrite, SUM(requests) AS requests, SUM(unknown) AS unknown,
             currency, SUM(cost) AS cost, SUM(priced) AS priced
        FROM (${replies(select, "GROUP BY 1, 2, currency")}) GROUP BY day, model, currency
        ORDER BY day, model, currency`).all({
      since,
      off: offsetMs,
    }) as unknown as UsageRow[];
  }

  /** The cost of one task's replies and its sub-agents' so far, per model and currency. */
  taskCost(taskId: string): TaskCostRow[] {
    const part = (f: string) => `COALESCE(SUM(m.meta ->> '$.cost.${f}'), 0)`;
    const select = `COALESCE(CAST(m.meta ->> '$.model' AS TEXT), 'unknown') AS model,
      ${currency} AS currency,
      ${tokens("input")} AS input, ${tokens("output")} AS output,
      ${tokens("cacheRead")} AS cacheRead, ${tokens("cacheWrite")} AS cacheWrite,
      ${part("input")} AS costInput, ${part("output")} AS costOutput,
      ${part("cacheRead")} AS costCacheRead, ${part("cacheWrite")} AS costCacheWrite,
      ${costs}, ${counts}`;
    const where = (arm: string) =>
      `WHERE ${arm} = :task AND m.role = 'assistant' AND m.status <> 'streaming'`;
    return this.db.prepare(`
      SELECT model, currency, SUM(input) AS input, SUM(output) AS output,
             SUM(cacheRead) AS cacheRead, SUM(cacheWrite) AS cacheWrite,
             SUM(costInput) AS costInput, SUM(costOutput) AS costOutput,
             SUM(costCacheRead) AS costCacheRead, SUM(costCacheWrite) AS costCacheWrite,
             SUM(cost) AS cost, SUM(priced) AS priced, SUM(requests) AS requests,
             SUM(unknown) AS unknown
        FROM (
          SELECT ${select} FROM message m ${where("m.task_id")} GROUP BY 1, 2
          UNION ALL
          SELECT ${select} FROM subagent_entry m JOIN subagent_run s ON s.id = m.run_id
            ${where("s.task_id")} GROUP BY 1, 2
        ) GROUP BY model, currency ORDER BY cost DESC, model`).all({
      task: taskId,
    }) as unknown as TaskCostRow[];
  }

  /**
   * Per task and currency, the cost of its replies (and its sub-agents') since `since`,
   * with the replies that have no cost; rows of the `limit` costliest tasks.
   */
  costByTask(since: number, limit: number): {
    taskId: string;
    title: string;
    currency: string | null;
    cost: number;
    replies: number;
    priced: number;
  }[] {
    const select = (arm: "m" | "s") =>
      `${taskOf(arm)} AS task_id, ${currency} AS currency, COUNT(*) AS replies, ${costs}`;
    const live = "m.role = 'assistant' AND m.created_at >= :since AND m.status <> 'streaming'";
    return this.db.prepare(`
      WITH x AS (
        SELECT ${select("m")} FROM message m WHERE ${live} GROUP BY 1, 2
        UNION ALL
        SELECT ${select("s")} FROM subagent_entry m JOIN subagent_run s ON s.id = m.run_id
          WHERE ${live} GROUP BY 1, 2
      ), per AS (
        SELECT task_id, currency, SUM(cost) AS cost, SUM(replies) AS replies,
               SUM(priced) AS priced FROM x GROUP BY task_id, currency
      ), top AS (
        SELECT task_id, SUM(cost) AS rank FROM per GROUP BY task_id
          ORDER BY rank DESC, task_id LIMIT :limit
      )
      SELECT per.task_id AS taskId, t.title AS title, per.currency AS currency, per.cost AS cost,
             per.replies AS replies, per.priced AS priced
        FROM per JOIN top ON top.task_id = per.task_id JOIN task t ON t.id = per.task_id
        ORDER BY top.rank DESC, per.task_id, per.currency`).all({ since, limit }) as unknown as {
      taskId: string;
      title: string;
      currency: string | null;
      cost: number;
      replies: number;
      priced: number;
    }[];
  }

  /** Tasks with a reply since `since`. */
  taskCount(since: number): number {
    const sql = `SELECT COUNT(*) AS n FROM (
      SELECT m.task_id FROM message m
        WHERE m.role = 'assistant' AND m.created_at >= :since AND m.status <> 'streaming'
      UNION
      SELECT s.task_id FROM subagent_entry m JOIN subagent_run s ON s.id = m.run_id
        WHERE m.role = 'assistant' AND m.created_at >= :since AND m.status <> 'streaming')`;
    return (this.db.prepare(sql).get({ since }) as { n: number }).n;
  }

  /** The task whose replies since `since` span the longest time (first start → last end). */
  longestTask(since: number): { taskId: string; title: string; durationMs: number } | null {
    const span = (arm: "m" | "s") =>
      `${taskOf(arm)} AS task_id, MIN(m.created_at) AS first, MAX(m.updated_at) AS last`;
    const row = this.db.prepare(`
      SELECT x.task_id AS taskId, t.title AS title, MAX(x.last) - MIN(x.first) AS durationMs
        FROM (
          SELECT ${span("m")} FROM message m
            WHERE m.role = 'assistant' AND m.created_at >= :since AND m.status <> 'streaming'
            GROUP BY m.task_id
          UNION ALL
          SELECT ${span("s")} FROM subagent_entry m JOIN subagent_run s ON s.id = m.run_id
            WHERE m.role = 'assistant' AND m.created_at >= :since AND m.status <> 'streaming'
            GROUP BY s.task_id
        ) x JOIN task t ON t.id = x.task_id
        GROUP BY x.task_id ORDER BY durationMs DESC, x.task_id LIMIT 1`).get({ since }) as
      | { taskId: string; title: string; durationMs: number }
      | undefined;
    return row ?? null;
  }
}
