/**
 * A task's cost so far (its replies and its sub-agents'), as `/cost` and
 * `reinagent run --json` report it: per currency and token kind, per model, and how
 * many replies have no price. Amounts are nano-units of their currency.
 */
import { addMoney, formatMoney, type MoneySum } from "../../protocol/pricing.ts";
import type { UsageRepo } from "../../store/usage.ts";

/** One currency's total and its parts. */
export interface CostBreakdown {
  currency: string;
  total: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface TaskCost {
  /** Priced replies' cost, one entry per currency (empty when nothing is priced). */
  cost: CostBreakdown[];
  /** Per model: tokens, cost per currency and replies without a price. */
  models: {
    model: string;
    replies: number;
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    cost: MoneySum[];
    unpriced: number;
  }[];
  replies: number;
  /** Replies whose cost is unknown: no price for the tokens used, or no usage reported. */
  unpriced: number;
}

export function taskCost(usage: UsageRepo, taskId: string): TaskCost {
  const rows = usage.taskCost(taskId);
  const cost: CostBreakdown[] = [];
  const models = new Map<string, TaskCost["models"][number]>();
  let replies = 0;
  let unpriced = 0;
  for (const r of rows) {
    const n = r.requests + r.unknown;
    const unp = n - r.priced;
    replies += n;
    unpriced += unp;
    const m = models.get(r.model) ?? {
      model: r.model,
      replies: 0,
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      cost: [],
      unpriced: 0,
    };
    m.replies += n;
    m.input += r.input;
    m.output += r.output;
    m.cacheRead += r.cacheRead;
    m.cacheWrite += r.cacheWrite;
    m.unpriced += unp;
    models.set(r.model, m);
    if (r.currency === null || r.priced === 0) continue;
    addMoney(m.cost, { currency: r.currency, nanos: r.cost });
    let c = cost.find((x) => x.currency === r.currency);
    if (!c) {
      c = { currency: r.currency, total: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      cost.push(c);
    }
    c.total += r.cost;
    c.input += r.costInput;
    c.output += r.costOutput;
    c.cacheRead += r.costCacheRead;
    c.cacheWrite += r.costCacheWrite;
  }
  return { cost, models: [...models.values()], replies, unpriced };
}

/** "$0.0123" or "$0.01 + ¥0.20"; "price unknown" when nothing is priced. */
export function moneyText(sums: MoneySum[], locale = "en-US"): string {
  return sums.length
    ? sums.map((s) => formatMoney(s.nanos, s.currency, locale)).join(" + ")
    : "price unknown";
}

/** The English report of `/cost` (the CLI prints it; the UI translates the summary). */
export function costReport(c: TaskCost): string {
  if (c.replies === 0) return "No model replies in this task yet: nothing has cost anything.";
  const money = (n: number, cur: string) => formatMoney(n, cur, "en-US");
  const lines = [
    `Cost of this task so far: ${
      moneyText(c.cost.map((x) => ({ currency: x.currency, nanos: x.total })))
    }` +
    (c.unpriced && c.cost.length ? " (plus replies whose price is unknown)" : ""),
  ];
  for (const x of c.cost) {
    lines.push(
      `  input ${money(x.input, x.currency)} · output ${money(x.output, x.currency)} · ` +
        `cache read ${money(x.cacheRead, x.currency)} · cache write ${
          money(x.cacheWrite, x.currency)
        }`,
    );
  }
  lines.push("By model:");
  for (const m of c.models) {
    const unknown = m.unpriced ? ` (${m.unpriced} of ${m.replies} replies: price unknown)` : "";
    lines.push(
      `  ${m.model}: ${m.cost.length ? moneyText(m.cost) : "price unknown"} — ${m.replies} ` +
        `${
          m.replies === 1 ? "reply" : "replies"
        }, ${m.input} input, ${m.output} output, ${m.cacheRead} cache read, ` +
        `${m.cacheWrite} cache write tokens${m.cost.length ? unknown : ""}`,
    );
  }
  if (c.unpriced) {
    lines.push(
      `${c.unpriced} of ${c.replies} replies have no price: set the model's price in ` +
        "Settings → Providers to count them.",
    );
  }
  return lines.join("\n");
}
