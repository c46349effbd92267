/**
 * Usage statistics: the op's totals equal the usage stored on the seeded
 * replies (tasks and sub-agents), unknown usage is counted as unknown (never guessed),
 * the ranges, heatmap, streaks, model shares and longest task, the reset point (no task
 * history deleted), and the SQL aggregation stays fast on many entries.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { Store } from "../store/store.ts";
import { createServices } from "../server/services.ts";
import { localOpClient } from "../server/cli/op_client.ts";
import { level, streaks } from "../server/usage/snapshot.ts";
import type { UsageSnapshot } from "../protocol/index.ts";
import { expected, REPLIES, seedUsage } from "./helpers/usage_seed.ts";

const DAY = 86_400_000;

const offset = () => -new Date().getTimezoneOffset();

Deno.test("usage.stats: totals equal the stored usage; unknown usage is counted, not guessed", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-usage-" });
  seedUsage(home);
  const deps = createServices({ home });
  const ops = localOpClient(deps);
  try {
    const all = await ops.request<UsageSnapshot>("usage.stats", {
      range: "all",
      utcOffsetMin: offset(),
    });
    assertEquals(all.totals, expected(REPLIES, null));
    const week = await ops.request<UsageSnapshot>("usage.stats", {
      range: "7d",
      utcOffsetMin: offset(),
    });
    assertEquals(week.totals, expected(REPLIES, 7));
    assertEquals(week.daily.length, 7, "every day of the range, empty ones too");
    assertEquals(week.daily.at(-1)!.total, 1200 + 300 + 900 + 250 + 400 + 100);
    assertEquals(week.daily.at(-1)!.models, { "mock/alpha": 2650, "mock/beta": 500 });
    const month = await ops.request<UsageSnapshot>("usage.stats", {
      range: "30d",
      utcOffsetMin: offset(),
    });
    assertEquals(month.daily.length, 30);
    assertEquals(month.totals.total, week.totals.total, "nothing between 7 and 30 days ago");
    // Shares over the range's total, largest first.
    assertEquals(week.models.map((m) => m.model), ["mock/beta", "mock/alpha"]);
    const beta = week.models[0];
    assertEquals(beta.total, 500 + 5700);
    assertEquals(beta.requests, 3, "the reply without usage is one of beta's requests");
    assert(Math.abs(week.models.reduce((s, m) => s + m.share, 0) - 1) < 1e-9);
    // Heatmap: 53 weeks from a Sunday; today is active.
    assertEquals(all.heatmap.length, 53 * 7);
    assertEquals(new Date(`${all.heatmap[0].day}T00:00:00Z`).getUTCDay(), 0);
    const today = all.heatmap.find((d) => d.day === all.to)!;
    assert(today.level >= 1);
    assertEquals(all.heatmap.find((d) => d.day === all.to)!.requests, 3);
    // Streaks: today and yesterday, then a gap (3 and 40 days ago).
    assertEquals(all.streaks, { current: 2, longest: 2 });
    assertEquals(all.peakDay?.total, 10_000 + 1000);
    assertEquals(week.peakDay?.total, 5700);
    // Its replies (the sub-agent's too) span two minutes; the others one or none.
    assertEquals(all.longestTask?.title, "Refactor parser");
    assertEquals(all.longestTask?.durationMs, 2 * 60_000);
  } finally {
    await ops.close();
  }
});

Deno.test("usage.reset records a reset point: statistics restart, task history stays", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-usage-reset-" });
  seedUsage(home);
  const deps = createServices({ home });
  const ops = localOpClient(deps);
  try {
    const before = deps.store.repos!.tasks.list().length;
    const { resetAt } = await ops.request("usage.reset");
    assert(resetAt > 0);
    const all = await ops.request<UsageSnapshot>("usage.stats", {
      range: "all",
      utcOffsetMin: offset(),
    });
    assertEquals(all.resetAt, resetAt);
    assertEquals(all.totals.total, 0);
    assertEquals(all.totals.requests + all.totals.unknownRequests, 0);
    assertEquals(all.heatmap.every((d) => d.level === 0), true);
    assertEquals(all.longestTask, null);
    assertEquals(deps.store.repos!.tasks.list().length, before, "no task was deleted");
    assertEquals(deps.store.repos!.entries.count("tseed0") > 0, true, "no entry was deleted");
  } finally {
    await ops.close();
  }
});

Deno.test("usage helpers: heatmap levels and streaks", () => {
  assertEquals(level(0, false, 100), 0);
  assertEquals(level(0, true, 100), 1, "a day with only unknown usage still shows");
  assertEquals([10, 30, 60, 80].map((t) => level(t, true, 100)), [1, 2, 3, 4]);
  assertEquals(streaks([], 10), { current: 0, longest: 0 });
  assertEquals(streaks([1, 2, 3, 7, 8, 9, 10], 10), { current: 4, longest: 4 });
  assertEquals(streaks([1, 2, 3, 9], 10), { current: 1, longest: 3 }, "yesterday keeps the streak");
  assertEquals(streaks([1, 2, 3, 8], 10), { current: 0, longest: 3 });
});

Deno.test("usage.stats stays fast on 30 000 replies (SQL aggregation)", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-usage-big-" });
  const store = new Store(`${home}/reinagent.db`);
  // deno-lint-ignore no-explicit-any
  const db = (store as any).db as import("node:sqlite").DatabaseSync;
  const start = Date.now() - 400 * DAY;
  db.exec("BEGIN");
  for (let t = 0; t < 300; t++) {
    db.prepare(
      "INSERT INTO task (id, title, settings, created_at, updated_at) VALUES (?, ?, '{}', ?, ?)",
    )
      .run(`t${t}`, `task ${t}`, start, start);
    const ins = db.prepare(
      "INSERT INTO message (id, task_id, pos, role, status, meta, created_at, updated_at) VALUES (?, ?, ?, ?, 'done', ?, ?, ?)",
    );
    for (let i = 0; i < 100; i++) {
      const at = start + Math.floor(((t * 100 + i) / 30_000) * 400 * DAY);
      const role = i % 2 ? "assistant" : "user";
      const meta = role === "assistant"
        ? JSON.stringify({
          model: `p/m${t % 4}`,
          usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
        })
        : "{}";
      ins.run(`m${t}-${i}`, `t${t}`, i + 1, role, meta, at, at);
    }
  }
  db.exec("COMMIT");
  store.close();
  const deps = createServices({ home });
  const ops = localOpClient(deps);
  try {
    await ops.request("usage.stats", { range: "all", utcOffsetMin: 0 }); // warm
    const t0 = performance.now();
    const all = await ops.request<UsageSnapshot>("usage.stats", { range: "all", utcOffsetMin: 0 });
    const ms = performance.now() - t0;
    assertEquals(all.totals.requests, 15_000);
    assertEquals(all.totals.total, 15_000 * 15);
    assert(ms < 400, `usage.stats took ${ms.toFixed(0)} ms`);
  } finally {
    await ops.close();
  }
});
