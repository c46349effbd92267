/**
 * Cost in money end to end in-process (real store, runs, ops and the mock LLM): each
 * reply records what it cost at its model's price when it ended, a model without a
 * price records "unknown" (never 0), `/cost` reports the task's cost by token kind and
 * model, the Usage statistics sum cost per day and model, and a price typed through
 * `models.update` is validated and prices the next replies.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { entries, env } from "./helpers/agent_env.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import type { ModelPrice, UsageSnapshot } from "../protocol/index.ts";

const PRICE: ModelPrice = {
  currency: "USD",
  input: 2_000_000,
  output: 8_000_000,
  cacheRead: 500_000,
  cacheWrite: null,
  source: "manual",
};

Deno.test(
  "a reply records its cost; /cost breaks the task's cost down; unknown stays unknown",
  async () => {
    const e = await env();
    const ctx: OpContext = { ...e.deps, client: { id: "t", topics: new Set(), deliver: () => {} } };
    // deno-lint-ignore no-explicit-any
    const op = async (name: string, args: unknown): Promise<any> => {
      const out = await runOp(ctx, name, args);
      if (!out.ok) throw new Error(`${name}: ${out.error.code}: ${out.error.message}`);
      return out.result;
    };
    const idle = async (id: string) => {
      while (e.deps.runs!.isRunning(id)) await new Promise((r) => setTimeout(r, 5));
    };
    try {
      const turn = { text: "ok", usage: { input: 1000, output: 250, cacheRead: 4000 } };
      const priced = e.scenario({ turns: [turn], repeatLast: true }, undefined, { price: PRICE });
      const { task } = await op("tasks.create", {
        title: "t",
        message: "go",
        options: { model: priced },
      });
      await idle(task.id);
      await op("task.send", { id: task.id, text: "again" });
      await idle(task.id);
      const replies = entries(e, task.id).filter((x) => x.role === "assistant");
      assertEquals(replies.length, 2);
      // 1000 × $2/M + 250 × $8/M + 4000 × $0.50/M = $0.002 + $0.002 + $0.002
      assertEquals(replies[0].meta.cost, {
        currency: "USD",
        total: 6_000_000,
        input: 2_000_000,
        output: 2_000_000,
        cacheRead: 2_000_000,
        cacheWrite: 0,
      });

      const cost = await op("task.send", { id: task.id, text: "/cost" });
      assertEquals(cost.command.code, "cost");
      assertEquals(cost.command.params.total, "$0.0120");
      assertEquals(cost.command.params.cacheRead, "$0.0040");
      assertEquals(cost.command.params.unpriced, 0);
      assertMatch(cost.command.text, /Cost of this task so far: \$0\.0120/);
      assertMatch(
        cost.command.text,
        new RegExp(`${priced.providerId}/${priced.modelId}: \\$0\\.0120`),
      );

      // A model with no price: the reply says which kinds lack one; /cost says unknown.
      const bare = e.scenario({ turns: [turn], repeatLast: true });
      const other = await op("tasks.create", {
        title: "u",
        message: "go",
        options: { model: bare },
      });
      await idle(other.task.id);
      const reply = entries(e, other.task.id).find((x) => x.role === "assistant")!;
      assertEquals(reply.meta.cost, undefined);
      assertEquals(reply.meta.costMissing, ["input", "output", "cacheRead"]);
      const unknown = await op("task.send", { id: other.task.id, text: "/cost" });
      assertEquals(unknown.command.code, "costUnknown");
      assertMatch(unknown.command.text, /price unknown/);

      // The price typed through the op prices the next reply; bad prices are refused.
      const bad = await runOp(ctx, "models.update", {
        providerId: bare.providerId,
        modelId: bare.modelId,
        patch: { price: { ...PRICE, currency: "usd" } },
      });
      assert(!bad.ok && bad.error.code === "invalid_args", JSON.stringify(bad));
      const negative = await runOp(ctx, "models.update", {
        providerId: bare.providerId,
        modelId: bare.modelId,
        patch: { price: { ...PRICE, input: -1 } },
      });
      assert(!negative.ok && negative.error.code === "invalid_args");
      const up = await op("models.update", {
        providerId: bare.providerId,
        modelId: bare.modelId,
        patch: { price: { ...PRICE, source: "builtin" } },
      });
      assertEquals(up.model.price, PRICE, "a typed price is the user's, whatever the client says");
      await op("task.send", { id: other.task.id, text: "priced now" });
      await idle(other.task.id);
      const mixed = await op("task.send", { id: other.task.id, text: "/cost" });
      assertEquals([mixed.command.code, mixed.command.params.total], ["cost", "$0.0060"]);
      assertEquals(mixed.command.params.unpriced, 1);

      // The Usage page: today's cost and each model's.
      const snap: UsageSnapshot = await op("usage.stats", {
        range: "7d",
        utcOffsetMin: -new Date().getTimezoneOffset(),
      });
      assertEquals(snap.totals.cost, [{ currency: "USD", nanos: 18_000_000 }]);
      assertEquals(snap.totals.unpriced, 1);
      assertEquals(snap.daily.at(-1)!.cost, [{ currency: "USD", nanos: 18_000_000 }]);
      const byModel = new Map(snap.models.map((m) => [m.model, m]));
      assertEquals(byModel.get(`${priced.providerId}/${priced.modelId}`)!.cost, [
        { currency: "USD", nanos: 12_000_000 },
      ]);
      const bareRow = byModel.get(`${bare.providerId}/${bare.modelId}`)!;
      assertEquals([bareRow.cost, bareRow.unpriced], [[{ currency: "USD", nanos: 6_000_000 }], 1]);
      // Per task, costliest first; the one with an unpriced reply says how many.
      assertEquals(snap.taskCosts.map((x) => [x.taskId, x.cost, x.replies, x.unpriced]), [
        [task.id, [{ currency: "USD", nanos: 12_000_000 }], 2, 0],
        [other.task.id, [{ currency: "USD", nanos: 6_000_000 }], 2, 1],
      ]);
    } finally {
      await e.close();
    }
  },
);
