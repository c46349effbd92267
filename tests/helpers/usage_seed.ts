/**
 * Tasks and model replies with known usage (and one without) written straight into a
 * data dir's database, for the usage statistics tests and the Usage page's browser test.
 */
import { Store } from "../../store/store.ts";
import { costOf, type ModelPrice } from "../../protocol/pricing.ts";

const DAY = 86_400_000;

export interface SeededReply {
  task: string;
  daysAgo: number;
  model: string | null;
  usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number } | null;
  subagent?: boolean;
}

/** Prices of the seeded models (per million tokens, micro-dollars); beta has none. */
export const PRICES: Record<string, ModelPrice> = {
  "mock/alpha": {
    currency: "USD",
    input: 3_000_000,
    output: 15_000_000,
    cacheRead: 300_000,
    cacheWrite: 3_750_000,
    source: "manual",
  },
  "mock/gamma": {
    currency: "USD",
    input: 1_000_000,
    output: 2_000_000,
    cacheRead: null,
    cacheWrite: null,
    source: "manual",
  },
};

/** The cost a seeded reply records (as the agent loop does when the reply ends). */
export function seededCost(r: SeededReply) {
  if (!r.usage || !r.model) return null;
  const c = costOf({ cacheRead: 0, cacheWrite: 0, ...r.usage }, PRICES[r.model]);
  return c.known ? c.cost : null;
}

/** Replies of the usage tests (and the Usage page's browser test). */
export const REPLIES: SeededReply[] = [
  {
    task: "Refactor parser",
    daysAgo: 0,
    model: "mock/alpha",
    usage: { input: 1200, output: 300, cacheRead: 800 },
  },
  { task: "Refactor parser", daysAgo: 0, model: "mock/alpha", usage: { input: 900, output: 250 } },
  {
    task: "Refactor parser",
    daysAgo: 0,
    model: "mock/beta",
    usage: { input: 400, output: 100, cacheWrite: 50 },
    subagent: true,
  },
  { task: "Fix login", daysAgo: 1, model: "mock/beta", usage: { input: 5000, output: 700 } },
  { task: "Fix login", daysAgo: 1, model: "mock/beta", usage: null },
  { task: "Write docs", daysAgo: 3, model: "mock/alpha", usage: { input: 300, output: 2000 } },
  { task: "Old work", daysAgo: 40, model: "mock/gamma", usage: { input: 10_000, output: 1000 } },
];

/**
 * Where today's replies start: noon (local time of this process), or earlier when noon has
 * not come yet — a reply in the future would outlive a reset made now. Replies are a minute
 * apart, so in the first minutes after midnight today's last ones are still ahead.
 */
export function dayAnchor(now: number): number {
  const dayStart = new Date(now);
  dayStart.setHours(0, 0, 0, 0);
  const room = now - dayStart.getTime() - REPLIES.length * 60_000;
  return dayStart.getTime() + Math.max(0, Math.min(12 * 3_600_000, room));
}

/**
 * Writes tasks and replies with usage into the data dir's database, each day's replies from
 * its anchor on (see dayAnchor).
 */
export function seedUsage(home: string, replies: SeededReply[] = REPLIES): void {
  let at = 0;
  const store = new Store(`${home}/reinagent.db`, () => at);
  const repos = store.repos!;
  const tasks = new Map<string, string>();
  let n = 0;
  const anchor = dayAnchor(Date.now());
  for (const r of replies) {
    at = anchor - r.daysAgo * DAY + n * 60_000;
    let taskId = tasks.get(r.task);
    if (!taskId) {
      taskId = `tseed${tasks.size}`;
      repos.tasks.create({ id: taskId, title: r.task, projectPath: null });
      tasks.set(r.task, taskId);
      repos.entries.append({
        id: `mu${n}`,
        taskId,
        role: "user",
        status: "done",
        parts: [{ type: "text", text: "go" }],
      });
    }
    const meta = {
      ...(r.model ? { model: r.model } : {}),
      ...(r.usage ? { usage: { cacheRead: 0, cacheWrite: 0, ...r.usage } } : {}),
      ...(seededCost(r) ? { cost: seededCost(r) } : {}),
    };
    if (r.subagent) {
      insertSubagentReply(store, `sa${n}`, taskId, `se${n}`, meta, at);
    } else {
      repos.entries.append({
        id: `ma${n}`,
        taskId,
        role: "assistant",
        status: "done",
        parts: [{ type: "text", text: "ok" }],
        meta,
      });
    }
    n++;
  }
  store.close();
}

/** A sub-agent run with one reply, written as its repository does (raw SQL, stable shape). */
function insertSubagentReply(
  store: Store,
  runId: string,
  taskId: string,
  entryId: string,
  meta: Record<string, unknown>,
  at: number,
): void {
  // deno-lint-ignore no-explicit-any
  const db = (store as any).db as import("node:sqlite").DatabaseSync;
  db.prepare(
    "INSERT INTO subagent_run (id, task_id, status, payload, started_at) VALUES (?, ?, 'done', '{}', ?)",
  )
    .run(runId, taskId, at);
  db.prepare(
    "INSERT INTO subagent_entry (id, run_id, pos, role, status, parts, meta, created_at, updated_at) VALUES (?, ?, 1, 'assistant', 'done', '[]', ?, ?, ?)",
  ).run(entryId, runId, JSON.stringify(meta), at, at);
}

/** What the snapshot must say for replies at most `days` old (all when null). */
export function expected(replies: SeededReply[], days: number | null) {
  const inRange = replies.filter((r) => days === null || r.daysAgo < days);
  const known = inRange.filter((r) => r.usage);
  const sum = (f: (u: NonNullable<SeededReply["usage"]>) => number) =>
    known.reduce((s, r) => s + f(r.usage!), 0);
  return {
    input: sum((u) => u.input),
    output: sum((u) => u.output),
    cacheRead: sum((u) => u.cacheRead ?? 0),
    cacheWrite: sum((u) => u.cacheWrite ?? 0),
    total: sum((u) => u.input + u.output),
    requests: known.length,
    unknownRequests: inRange.length - known.length,
    tasks: new Set(inRange.map((r) => r.task)).size,
    activeDays: new Set(inRange.map((r) => r.daysAgo)).size,
    cost: inRange.some((r) => seededCost(r))
      ? [{ currency: "USD", nanos: inRange.reduce((s, r) => s + (seededCost(r)?.total ?? 0), 0) }]
      : [],
    unpriced: inRange.filter((r) => !seededCost(r)).length,
  };
}
