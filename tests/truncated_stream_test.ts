/**
 * A provider stream that ends cleanly but without its end marker, through the whole
 * run: an error with the partial answer kept (then Continue), or a retry when nothing
 * was streamed yet. One set per wire format.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { entries, env, runTask } from "./helpers/agent_env.ts";
import type { TaskEvent } from "../protocol/index.ts";
import type { ApiFormat } from "../agent/providers/types.ts";

const FORMATS: ApiFormat[] = [
  "openai-chat-completions",
  "openai-responses",
  "anthropic-messages",
  "google-generative-ai",
];
const TRUNCATED = /^the provider's stream ended before it finished \(no .+\)$/;

for (const format of FORMATS) {
  Deno.test(`${format}: a cut after some text ends the run as an error; the text stays; Continue works`, async () => {
    const e = await env();
    try {
      const full = "The partial answer goes here";
      const model = e.scenario({
        turns: [
          { text: full, chunk: 4, cut: { afterChunks: 3, abrupt: false } },
          { text: "And the rest." },
        ],
      }, format);
      const { task, outcome } = await runTask(e, model, "hi", "fixed title");
      assertEquals(outcome?.kind, "error");
      const tl = entries(e, task.id);
      assertEquals(tl.map((x) => [x.role, x.status]), [
        ["user", "done"],
        ["assistant", "error"],
        ["error", "error"],
      ]);
      const partial = tl[1].parts.filter((p) => p.type === "text").map((p) => p.text).join("");
      assert(partial.length > 0 && full.startsWith(partial) && partial !== full, partial);
      const info = tl[2].meta.error as { category: string; message: string; hint: string };
      assertEquals(info.category, "network");
      assertMatch(info.message, TRUNCATED);
      assertMatch(info.hint, /What arrived is kept/);
      assertEquals(e.deps.store.repos!.tasks.get(task.id)!.lastRun, "failed");
      assertEquals(e.mock.requests(model.modelId).length, 1, "not retried after content");

      // Continue (the error line's Retry) resumes with the partial answer in the history.
      assertEquals((await e.deps.runs!.start(task.id))?.kind, "done");
      const last = entries(e, task.id).at(-1)!;
      assertEquals([last.role, last.status, last.parts[0].text], [
        "assistant",
        "done",
        "And the rest.",
      ]);
      const sent = JSON.stringify(e.mock.requests(model.modelId).at(-1)!.body);
      assert(sent.includes(partial), "the partial answer was sent back to the model");
    } finally {
      await e.close();
    }
  });

  Deno.test(`${format}: a cut before any content is retried and the run finishes`, async () => {
    const e = await env();
    try {
      // Gemini's first frame already carries text; the others open with a content-free one.
      const afterChunks = format === "google-generative-ai" ? 0 : 1;
      const model = e.scenario({
        turns: [{ text: "Whole answer.", cut: { afterChunks, abrupt: false, times: 1 } }],
      }, format);
      const { task, outcome } = await runTask(e, model, "hi", "fixed title");
      assertEquals(outcome?.kind, "done");
      const tl = entries(e, task.id);
      assertEquals(tl.map((x) => [x.role, x.status]), [["user", "done"], ["assistant", "done"]]);
      assertEquals(tl[1].parts.map((p) => p.text).join(""), "Whole answer.");
      assertEquals(e.mock.requests(model.modelId).length, 2);
      e.deps.hub.flush();
      const retry = e.events
        .filter((x) => x.topic === `task:${task.id}` && (x.data as TaskEvent).kind === "run")
        .map((x) => (x.data as Extract<TaskEvent, { kind: "run" }>).run?.retry)
        .find((r) => r);
      assertEquals(retry?.attempt, 1);
      assertMatch(retry!.message, TRUNCATED);
    } finally {
      await e.close();
    }
  });
}
