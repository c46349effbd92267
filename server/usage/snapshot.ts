/**
 * The Usage page's numbers (protocol/usage.ts) from the SQL sums of store/usage.ts:
 * days filled in, heatmap levels, streaks, model shares. Everything is in the client's
 * local days (its UTC offset), and starts at the reset point when there is one.
 */
import {
  HEATMAP_WEEKS,
  USAGE_TOP_TASKS,
  type UsageDay,
  type UsageRange,
  type UsageSnapshot,
} from "../../protocol/usage.ts";
import type { Repos } from "../../store/store.ts";
import { addMoney, type MoneySum } from "../../protocol/pricing.ts";
import type { UsageRow } from "../../store/usage.ts";

const DAY_MS = 86_400_000;
/** kv key of the reset point (ms): statistics count replies from then on. */
export const USAGE_RESET_KEY = "usage.resetAt";

const dayName = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export function resetPoint(repos: Repos): number | null {
  const v = repos.kv.get(USAGE_RESET_KEY);
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** Heatmap level 0–4 of a day against the busiest day (quartiles; any use is at least 1). */
export function level(total: number, used: boolean, max: number): number {
  if (!used) return 0;
  if (max <= 0) return 1;
  const r = total / max;
  return r > 0.75 ? 4 : r > 0.5 ? 3 : r > 0.25 ? 2 : 1;
}

/** Current (ending today or yesterday) and longest run of consecutive active days. */
export function streaks(active: number[], today: number): { current: number; longest: number } {
  const set = new Set(active);
  let longest = 0;
  for (const d of set) {
    if (set.has(d - 1)) continue;
    let n = 1;
    while (set.has(d + n)) n++;
    longest = Math.max(longest, n);
  }
  let current = 0;
  let d = set.has(today) ? today : today - 1;
  while (set.has(d)) {
    current++;
    d--;
  }
  return { current, longest };
}

/** Day sums (input + output, replies with and without usage), in day order. */
function perDayTotals(rows: UsageRow[]): { day: number; total: number; requests: number }[] {
  const out = new Map<number, { day: number; total: number; requests: number }>();
  for (const r of rows) {
    const d = out.get(r.day) ?? { day: r.day, total: 0, requests: 0 };
    d.total += r.input + r.output;
    d.requests += r.requests + r.unknown;
    out.set(r.day, d);
  }
  return [...out.values()].sort((a, b) => a.day - b.day);
}

/** The costliest tasks since `since`, their cost per currency and unpriced replies. */
function taskCosts(repos: Repos, since: number): UsageSnapshot["taskCosts"] {
  const out = new Map<string, UsageSnapshot["taskCosts"][number]>();
  for (const r of repos.usage.costByTask(since, USAGE_TOP_TASKS)) {
    const t = out.get(r.taskId) ??
      { taskId: r.taskId, title: r.title, cost: [], replies: 0, unpriced: 0 };
    t.replies += r.replies;
    t.unpriced += r.replies - r.priced;
    if (r.currency !== null && r.priced > 0) {
      addMoney(t.cost, { currency: r.currency, nanos: r.cost });
    }
    out.set(r.taskId, t);
  }
  return [...out.values()];
}

export function usageSnapshot(
  repos: Repos,
  range: UsageRange,
  utcOffsetMin: number,
  now: number,
): UsageSnapshot {
  const off = utcOffsetMin * 60_000;
  const resetAt = resetPoint(repos);
  const today = Math.floor((now + off) / DAY_MS);
  const floor = resetAt ?? 0;
  const startOf = (day: number) => Math.max(day * DAY_MS - off, floor);

  // One scan since the reset (rows per day and model: few); the range is a slice of it.
  const all = repos.usage.byDayAndModel(floor, off);
  const days = perDayTotals(all);
  const firstDay = range === "all" ? (days[0]?.day ?? null) : today - (range === "7d" ? 6 : 29);
  const since = firstDay === null ? now + 1 : startOf(firstDay);
  const rows = firstDay === null ? [] : all.filter((r) => r.day >= firstDay);

  const totals = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    total: 0,
    requests: 0,
    unknownRequests: 0,
    tasks: firstDay === null ? 0 : repos.usage.taskCount(since),
    activeDays: 0,
    cost: [] as MoneySum[],
    unpriced: 0,
  };
  type Priced = { cost: MoneySum[]; unpriced: number };
  const models = new Map<string, { total: number; requests: number } & Priced>();
  const perDay = new Map<
    number,
    { models: Record<string, number>; total: number; requests: number } & Priced
  >();
  const price = (into: Priced, r: UsageRow) => {
    if (r.currency !== null && r.priced > 0) {
      addMoney(into.cost, { currency: r.currency, nanos: r.cost });
    }
    into.unpriced += r.requests + r.unknown - r.priced;
  };
  for (const r of rows) addRow(r);
  function addRow(r: UsageRow) {
    const t = r.input + r.output;
    totals.input += r.input;
    totals.output += r.output;
    totals.cacheRead += r.cacheRead;
    totals.cacheWrite += r.cacheWrite;
    totals.total += t;
    totals.requests += r.requests;
    totals.unknownRequests += r.unknown;
    price(totals, r);
    const m = models.get(r.model) ?? { total: 0, requests: 0, cost: [], unpriced: 0 };
    m.total += t;
    m.requests += r.requests + r.unknown;
    price(m, r);
    models.set(r.model, m);
    const d = perDay.get(r.day) ??
      { models: {}, total: 0, requests: 0, cost: [], unpriced: 0 };
    price(d, r);
    d.models[r.model] = (d.models[r.model] ?? 0) + t;
    d.total += t;
    d.requests += r.requests + r.unknown;
    perDay.set(r.day, d);
  }
  totals.activeDays = perDay.size;

  const daily: UsageSnapshot["daily"] = [];
  let peakDay: UsageDay | null = null;
  if (firstDay !== null) {
    for (let d = firstDay; d <= today; d++) {
      const v = perDay.get(d);
      daily.push({
        day: dayName(d),
        models: v?.models ?? {},
        total: v?.total ?? 0,
        cost: v?.cost ?? [],
        unpriced: v?.unpriced ?? 0,
      });
      if (v && v.total > (peakDay?.total ?? 0)) {
        peakDay = { day: dayName(d), total: v.total, requests: v.requests };
      }
    }
  }

  // The heatmap: HEATMAP_WEEKS weeks, Sunday first, ending with the Saturday of this week.
  const weekday = (today + 4) % 7; // day 0 (1970-01-01) was a Thursday
  const end = today + (6 - weekday);
  const start = end - HEATMAP_WEEKS * 7 + 1;
  const byDay = new Map(days.map((d) => [d.day, d]));
  let max = 0;
  for (const d of days) if (d.day >= start) max = Math.max(max, d.total);
  const heatmap: UsageSnapshot["heatmap"] = [];
  for (let d = start; d <= end; d++) {
    const v = byDay.get(d);
    const requests = v?.requests ?? 0;
    heatmap.push({
      day: dayName(d),
      total: v?.total ?? 0,
      requests,
      level: level(v?.total ?? 0, requests > 0, max),
    });
  }

  const sum = totals.total;
  return {
    range,
    resetAt,
    from: firstDay === null ? null : dayName(firstDay),
    to: dayName(today),
    totals,
    models: [...models.entries()]
      .map(([model, m]) => ({ model, ...m, share: sum > 0 ? m.total / sum : 0 }))
      .sort((a, b) => b.total - a.total || b.requests - a.requests),
    daily,
    heatmap,
    streaks: streaks(days.map((d) => d.day), today),
    peakDay,
    longestTask: firstDay === null ? null : repos.usage.longestTask(since),
    taskCosts: firstDay === null ? [] : taskCosts(repos, since),
  };
}
