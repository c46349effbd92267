/**
 * Compaction end to end in-process: real store and runs, the mock LLM
 * reporting usage from the request's size. A single 60-step turn and a 30-turn session
 * cross the watermark and compact (the next request is smaller, carries the summary, has
 * no orphan tool result, the run finishes); a "context length exceeded" 400 is answered
 * by one compaction and a retry; `/compact` uses the normal request's prefix; a failed or
 * stopped compaction leaves the history as it was; the request preview is the body the
 * next turn sends.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { entries, type Env, env } from "./helpers/agent_env.ts";
import type { RecordedRequest } from "../scripts/mock-llm.ts";
import { requestTokens } from "../scripts/mock_llm/scenario.ts";
import type { Scenario } from "../scripts/mock_llm/scenario.ts";
import { type CompactMeta, compactMetaOf, type Entry } from "../protocol/index.ts";
import { requestPreview } from "../server/agent/request_preview.ts";

const SUMMARY = "SUMMARY-OF-EARLIER-WORK";
const summaryMatch = { lastIncludes: "[Compaction]", turn: { text: `## State\n${SUMMARY}` } };

const isSummaryRequest = (r: RecordedRequest) => JSON.stringify(r.body).includes("[Compaction]");
type ChatMsg = { role: string; tool_call_id?: string; tool_calls?: { id: string }[] };

/** Every tool result in a chat request answers a call made before it in that request. */
function assertNoOrphans(r: RecordedRequest): void {
  const calls = new Set<string>();
  for (const m of r.body.messages as ChatMsg[]) {
    for (const c of m.tool_calls ?? []) calls.add(c.id);
    if (m.role === "tool") assert(calls.has(m.tool_call_id!), `orphan result ${m.tool_call_id}`);
  }
}

const compactions = (list: Entry[]) =>
  list.flatMap((e) => compactMetaOf(e) ? [compactMetaOf(e) as CompactMeta] : []);

async function withEnv(fn: (e: Env) => Promise<void>) {
  const e = await env();
  try {
    await fn(e);
  } finally {
    await e.close();
  }
}

Deno.test(
  "compaction: a single 60-step turn compacts inside the turn and finishes",
  async () => {
    await withEnv(async (e) => {
      const ws = `${e.deps.home}/DefaultProject`;
      for (let i = 0; i < 60; i++) {
        await Deno.writeTextFile(`${ws}/f${i}.txt`, `${i}:` + "x".repeat(3000));
      }
      const turns: Scenario["turns"] = [];
      for (let i = 0; i < 60; i++) {
        turns.push({
          toolCalls: [{ id: `c${i}`, name: "read_file", args: { path: `f${i}.txt` } }],
        });
      }
      turns.push({ text: "All sixty files read." });
      const model = e.scenario(
        { turns, sequential: true, usageFromRequest: true, match: [summaryMatch] },
        "openai-chat-completions",
        { contextWindow: 24_000, maxOutput: 2000 },
      );
      const { task } = e.deps.tasks!.create({
        message: "Read f0.txt to f59.txt one by one.",
        title: "sixty",
        options: { model, approval: "full" },
      });
      const t0 = performance.now();
      const outcome = await e.deps.runs!.start(task.id);
      const ms = performance.now() - t0;
      assertEquals(outcome?.kind, "done");
      assertEquals(outcome?.steps, 61);
      const list = entries(e, task.id);
      const metas = compactions(list);
      assert(metas.length >= 1, "no compaction happened");
      assert(
        metas.every((m) => m.inTurn && m.trigger === "auto"),
        JSON.stringify(metas),
      );
      assertEquals(metas[0].request, "Read f0.txt to f59.txt one by one.");
      // Watermark 0.7 × (24000 − 2000) = 15400 tokens: no normal request may go far beyond it.
      const all = e.mock.requests(model.modelId);
      const normal = all.filter((r) => !isSummaryRequest(r));
      assertEquals(normal.length, 61);
      const sizes = normal.map((r) => requestTokens(r.body));
      const peak = Math.max(...sizes);
      assert(peak < 15_400 + 2_000, `a request reached ${peak} tokens`);
      // The request right after the first summary: smaller, starts with it, no orphans.
      const firstSummary = all.findIndex(isSummaryRequest);
      const before = requestTokens(all[firstSummary - 1].body);
      const after = all[firstSummary + 1];
      assert(!isSummaryRequest(after));
      const afterSize = requestTokens(after.body);
      assert(afterSize < before * 0.6, `after ${afterSize} ≥ 60% of before ${before}`);
      assert(
        JSON.stringify(after.body).includes(SUMMARY),
        "the summary is not in the next request",
      );
      for (const r of normal) assertNoOrphans(r);
      // The stored timeline keeps every step: 60 tool results, all there.
      assertEquals(list.filter((x) => x.role === "tool").length, 60);
      console.log(
        `60-step turn: ${metas.length} compactions; prompt ${before} → ${afterSize} tokens ` +
          `(estimated after: ${metas[0].tokensAfter}); compaction took ${metas[0].durationMs} ms ` +
          `against the mock; whole turn ${Math.round(ms)} ms`,
      );
    });
  },
);

Deno.test(
  "compaction: a 30-turn session compacts between turns and keeps the last turns",
  async () => {
    await withEnv(async (e) => {
      const model = e.scenario(
        {
          turns: [{ text: "A long answer. " + "y".repeat(1800) }],
          repeatLast: true,
          usageFromRequest: true,
          match: [summaryMatch],
        },
        "openai-chat-completions",
        { contextWindow: 16_000, maxOutput: 2000 },
      );
      const { task } = e.deps.tasks!.create({
        message: "turn 0 " + "q".repeat(600),
        title: "thirty",
        options: { model, approval: "full" },
      });
      assertEquals((await e.deps.runs!.start(task.id))?.kind, "done");
      for (let t = 1; t < 30; t++) {
        e.deps.tasks!.send(task.id, `turn ${t} ` + "q".repeat(600));
        assertEquals((await e.deps.runs!.start(task.id))?.kind, "done", `turn ${t}`);
      }
      const list = entries(e, task.id);
      const metas = compactions(list);
      assert(metas.length >= 1, "no compaction in 30 turns");
      assert(metas.every((m) => !m.inTurn && m.trigger === "auto"));
      const normal = e.mock.requests(model.modelId).filter((r) => !isSummaryRequest(r));
      assertEquals(normal.length, 30);
      const last = normal[normal.length - 1];
      const text = JSON.stringify(last.body);
      assert(text.includes(SUMMARY), "the last request has no summary");
      assert(!text.includes("turn 0 "), "a compacted turn is still sent");
      for (let t = 26; t < 30; t++) assert(text.includes(`turn ${t} `), `turn ${t} missing`);
      // Watermark 0.7 × (16000 − 2000) = 9800: a request is at most one turn (~700) beyond it.
      const sizes = normal.map((r) => requestTokens(r.body));
      assert(Math.max(...sizes) < 9800 + 1000, `sizes ${sizes.join(",")}`);
      assertEquals(list.filter((x) => x.role === "user").length, 30, "the timeline lost messages");
    });
  },
);

Deno.test(
  "compaction: a 'context length exceeded' 400 is recovered by one compaction",
  async () => {
    for (const format of ["openai-chat-completions", "anthropic-messages"] as const) {
      await withEnv(async (e) => {
        const scenario: Scenario = {
          turns: [{ text: "answer " + "z".repeat(1500) }],
          repeatLast: true,
          match: [summaryMatch],
        };
        // No window declared: the 128K default never triggers; only the refusal does.
        const model = e.scenario(scenario, format, { contextWindow: null, maxOutput: 2000 });
        const { task } = e.deps.tasks!.create({
          message: "first " + "w".repeat(1500),
          title: "overflow",
          options: { model, approval: "full" },
        });
        await e.deps.runs!.start(task.id);
        for (let t = 1; t < 7; t++) {
          e.deps.tasks!.send(task.id, `turn ${t} ` + "w".repeat(1500));
          await e.deps.runs!.start(task.id);
        }
        const sizes = e.mock.requests(model.modelId).map((r) => requestTokens(r.body));
        // The next request is ~800 tokens bigger than the last: over the limit.
        e.mock.register(model.modelId, {
          ...scenario,
          contextLimit: sizes[sizes.length - 1] + 300,
        });
        const before = entries(e, task.id).length;
        e.deps.tasks!.send(task.id, "turn 7 " + "w".repeat(1500));
        const outcome = await e.deps.runs!.start(task.id);
        assertEquals(outcome?.kind, "done", `${format}: the run failed`);
        const list = entries(e, task.id);
        const metas = compactions(list);
        assertEquals(metas.length, 1, format);
        assertEquals(metas[0].trigger, "overflow");
        assertEquals(
          list.filter((x) => x.role === "error").length,
          0,
          `${format}: an error was recorded`,
        );
        // user + compact + the answer; the refused (empty) attempt is not kept.
        assertEquals(list.length, before + 3, `${format}: ${list.map((x) => x.role).join(",")}`);
      });
    }
  },
);

Deno.test(
  "compaction: when even the older part is too long to summarise, its oldest half is left out",
  async () => {
    await withEnv(async (e) => {
      const scenario: Scenario = {
        turns: [{ text: "answer " + "z".repeat(1500) }],
        repeatLast: true,
        match: [summaryMatch],
      };
      const model = e.scenario(scenario, "openai-chat-completions", { contextWindow: null });
      const { task } = e.deps.tasks!.create({
        message: "turn 0 " + "w".repeat(1500),
        title: "too long",
        options: { model, approval: "full" },
      });
      await e.deps.runs!.start(task.id);
      for (let t = 1; t < 10; t++) {
        e.deps.tasks!.send(task.id, `turn ${t} ` + "w".repeat(1500));
        await e.deps.runs!.start(task.id);
      }
      const sizes = e.mock.requests(model.modelId).map((r) => requestTokens(r.body));
      const perTurn = sizes[9] - sizes[8];
      const base = sizes[0] - 380;
      // The next request overflows, so does a summary of the 7 older turns; half of them fits.
      const limit = base + 5 * perTurn;
      e.mock.register(model.modelId, { ...scenario, contextLimit: limit });
      e.deps.tasks!.send(task.id, "turn 10 " + "w".repeat(1500));
      assertEquals((await e.deps.runs!.start(task.id))?.kind, "done");
      const metas = compactions(entries(e, task.id));
      assertEquals(metas.length, 1);
      const summaryReqs = e.mock.requests(model.modelId).filter(isSummaryRequest);
      assert(summaryReqs.length >= 2, `${summaryReqs.length} summary requests`);
      const fitted = JSON.stringify(summaryReqs.at(-1)!.body);
      assert(fitted.includes("did not fit and is not shown"), "the cut is not said");
      assert(!fitted.includes("turn 0 "), "the oldest turn was still sent");
      assert(requestTokens(summaryReqs.at(-1)!.body) <= limit);
    });
  },
);

Deno.test(
  "compaction: /compact reuses the normal request's prefix; failures and stops change nothing",
  async () => {
    await withEnv(async (e) => {
      const scenario: Scenario = {
        turns: [{ text: "answer " + "k".repeat(400) }],
        repeatLast: true,
        match: [summaryMatch],
      };
      const model = e.scenario(scenario);
      const { task } = e.deps.tasks!.create({
        message: "one",
        title: "manual",
        options: { model, approval: "full" },
      });
      await e.deps.runs!.start(task.id);
      for (let t = 2; t <= 4; t++) {
        e.deps.tasks!.send(task.id, `message ${t}`);
        await e.deps.runs!.start(task.id);
      }
      const normal = e.mock.requests(model.modelId).at(-1)!;

      // A failing summary: nothing compacted, the failure said, the conversation as before.
      e.mock.register(model.modelId, {
        ...scenario,
        match: [{ lastIncludes: "[Compaction]", turn: { fail: { status: 400, message: "nope" } } }],
      });
      const countBefore = entries(e, task.id).length;
      const failed = await e.deps.runs!.compact(task.id);
      assertEquals(failed.ok, false);
      const afterFail = entries(e, task.id);
      assertEquals(compactions(afterFail).length, 0);
      assertEquals(afterFail.length, countBefore + 1);
      assert(
        afterFail.at(-1)!.role === "error" &&
          afterFail.at(-1)!.parts[0].text!.includes("unchanged"),
        JSON.stringify(afterFail.at(-1)),
      );

      // A slow summary stopped half way: nothing written.
      e.mock.register(model.modelId, {
        ...scenario,
        match: [{
          lastIncludes: "[Compaction]",
          turn: { text: "s".repeat(400), chunk: 2, delayMs: 20 },
        }],
      });
      const pending = e.deps.runs!.compact(task.id);
      for (let i = 0; e.deps.runs!.state(task.id)?.phase !== "compacting"; i++) {
        assert(i < 500, "not shown as compacting");
        await new Promise((r) => setTimeout(r, 10));
      }
      await e.deps.runs!.stop(task.id);
      assertEquals((await pending).ok, false);
      assertEquals(entries(e, task.id).length, countBefore + 1);

      // The real thing, focused: same system prompt and tools, the history as the prefix.
      e.mock.register(model.modelId, scenario);
      const r = await e.deps.runs!.compact(task.id, "the file names");
      assert(r.ok, JSON.stringify(r));
      const req = e.mock.requests(model.modelId).at(-1)!;
      const msgs = req.body.messages as { role: string; content: unknown }[];
      const base = normal.body.messages as { role: string; content: unknown }[];
      assertEquals(msgs[0], base[0], "system prompt differs");
      assertEquals(req.body.tools, normal.body.tools, "tools differ");
      assertEquals(msgs.slice(0, 3), base.slice(0, 3), "the cached prefix is not reused");
      assert(JSON.stringify(msgs.at(-1)).includes("Focus the summary on: the file names"));
      const meta = compactMetaOf(r.entry)!;
      assertEquals(meta.trigger, "manual");
      assertEquals(meta.focus, "the file names");
      assert(meta.count >= 2, `count ${meta.count}`);
      // The next turn carries the summary, not the compacted messages.
      e.deps.tasks!.send(task.id, "after compaction");
      await e.deps.runs!.start(task.id);
      const next = JSON.stringify(e.mock.requests(model.modelId).at(-1)!.body);
      assert(
        next.includes(SUMMARY) && !next.includes('"one"'),
        "the compacted message is still sent",
      );
    });
  },
);

Deno.test(
  "request preview: exactly the body the next turn sends, microcompacted, images by size",
  async () => {
    await withEnv(async (e) => {
      const ws = `${e.deps.home}/DefaultProject`;
      await Deno.writeTextFile(`${ws}/big.txt`, "B".repeat(9000));
      const model = e.scenario({
        turns: [
          { toolCalls: [{ id: "r1", name: "read_file", args: { path: "big.txt" } }] },
          { toolCalls: [{ id: "l1", name: "list_dir", args: { path: "." } }] },
          { toolCalls: [{ id: "l2", name: "glob", args: { pattern: "*.txt" } }] },
          { toolCalls: [{ id: "l3", name: "grep", args: { pattern: "B", path: "." } }] },
          { text: "done" },
        ],
        repeatLast: true,
      });
      const { task } = e.deps.tasks!.create({
        message: "look around",
        title: "preview",
        options: { model, approval: "full" },
      });
      await e.deps.runs!.start(task.id);
      const p = await requestPreview(task.id, await e.deps.runs!.preview(task.id));
      assertEquals(p.model, `${model.providerId}/${model.modelId}`);
      assertEquals(p.format, "openai-chat-completions");
      assert(p.system.length > 100 && p.tools.some((t) => t.name === "read_file"));
      assert(p.messages[0].text.includes("<system-reminder>"), "the reminder is not shown");
      const read = p.messages.find((m) => m.role === "tool" && m.text.includes("BBBB"))!;
      assert(
        read.text.includes("characters of this older tool result omitted"),
        read.text.slice(0, 200),
      );
      // What the preview shows is what the next turn sends (Continue runs on this history).
      const before = e.mock.requests(model.modelId).length;
      await e.deps.runs!.start(task.id);
      const sent = e.mock.requests(model.modelId)[before].body;
      assertEquals(p.body, sent);
      // A task whose model is gone: a clear error, not a guess.
      e.deps.store.repos!.providers.delete(model.providerId);
      let err = "";
      await e.deps.runs!.preview(task.id).catch((x) => (err = (x as Error).message));
      assert(/cannot be used/.test(err), err);
    });
  },
);
