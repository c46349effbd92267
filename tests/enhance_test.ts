/**
 * Prompt enhancement ✨ : `composer.enhance` rewrites a draft with
 * the composer's model (a side request: the draft in the template, no tools), cleans
 * the wrappers models add, and fails clearly — the Demo model, an error from the
 * model, a timeout — without changing anything.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { env } from "./helpers/agent_env.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import { cleanEnhanced, EnhanceError, enhancePrompt } from "../server/composer/enhance.ts";
import { adapterFor } from "../agent/providers/index.ts";
import { resolveModel } from "../server/providers/catalog.ts";

Deno.test("composer.enhance: the task's model rewrites the draft; Demo and failures are clear errors", async () => {
  const e = await env();
  const client = { id: "t", topics: new Set<string>(), deliver: () => {} };
  const ctx = { ...e.deps, client } as OpContext;
  try {
    const m = e.scenario({
      turns: [{ text: 'Enhanced: "Fix the login bug: find the cause, fix it, run the tests."' }],
      repeatLast: true,
    });
    const r = await runOp(ctx, "composer.enhance", { text: "fix login thing", model: m });
    assert(r.ok, JSON.stringify(r));
    assertEquals(r.result, {
      text: "Fix the login bug: find the cause, fix it, run the tests.",
      model: `${m.providerId}/${m.modelId}`,
    });
    const req = e.mock.requests(m.modelId)[0].body as {
      messages: { role: string; content: string }[];
      tools?: unknown[];
    };
    assertMatch(req.messages[0].content, /rewrite a user's draft prompt/);
    assertMatch(req.messages[1].content, /<draft>\nfix login thing\n<\/draft>/);
    assert(!req.tools?.length, "no tools in a side request");

    // A task's own model is used for its composer.
    const { task } = e.deps.tasks!.create({ title: "t", options: { model: m } });
    const byTask = await runOp(ctx, "composer.enhance", { text: "x", taskId: task.id });
    assert(
      byTask.ok && (byTask.result as { model: string }).model === `${m.providerId}/${m.modelId}`,
    );

    const demo = await runOp(ctx, "composer.enhance", { text: "hello" });
    assert(!demo.ok);
    assertMatch(demo.error.message, /Demo model cannot rewrite/);

    const failing = e.scenario({ turns: [{ fail: { status: 400, message: "bad request here" } }] });
    const f = await runOp(ctx, "composer.enhance", { text: "x", model: failing });
    assert(!f.ok);
    assertEquals(f.error.code, "upstream");
    assertMatch(f.error.message, /the model failed: .*bad request here/);

    const empty = e.scenario({ turns: [{ text: '""' }] });
    const em = await runOp(ctx, "composer.enhance", { text: "x", model: empty });
    assert(!em.ok);
    assertMatch(em.error.message, /empty/);

    const long = await runOp(ctx, "composer.enhance", { text: "x".repeat(20_001), model: m });
    assert(!long.ok && long.error.code === "invalid_args");
  } finally {
    await e.close();
  }
});

Deno.test("enhancePrompt gives up at its timeout with a clear error", async () => {
  const e = await env();
  try {
    const m = e.scenario({
      turns: [{ text: "a slow answer that keeps coming", chunk: 1, delayMs: 200 }],
    });
    const target = resolveModel(e.deps.store.repos!, m);
    const adapter = await adapterFor(target.provider.format);
    const started = Date.now();
    let err: unknown = null;
    await enhancePrompt({ ...target, adapter }, "draft", { timeoutMs: 400 }).catch((x) => err = x);
    assert(err instanceof EnhanceError, String(err));
    assertMatch((err as Error).message, /did not answer within 0\.4 s/);
    assert(Date.now() - started < 3000, "the caller is answered at the deadline");
  } finally {
    await e.close();
  }
});

Deno.test("cleanEnhanced strips one wrapper, keeps the text", () => {
  assertEquals(cleanEnhanced("```\nDo X.\n```"), "Do X.");
  assertEquals(cleanEnhanced("“做 X”"), "做 X");
  assertEquals(cleanEnhanced("增强后的提示词：做 X"), "做 X");
  assertEquals(cleanEnhanced('<think>hmm</think>Rewritten prompt: Do "X" now'), 'Do "X" now');
});
