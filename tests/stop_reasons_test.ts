/**
 * Stop reasons told truthfully (refusal, content filter, output limit, pause_turn) by
 * every format, in the loop's outcome, the timeline's turn notice and `reinagent run`;
 * and the wire cases no recording covers (redacted thinking, the OpenAI cache key).
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { adapterFor } from "../agent/providers/index.ts";
import type { ApiFormat, StopReason, StreamEvent } from "../agent/providers/types.ts";
import { chatBody } from "../agent/providers/openai_chat.ts";
import { replayRequest, runRecorded } from "./helpers/replay.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { reinagent } from "./helpers/cli.ts";
import { analyseTurn, groupTurns } from "../ui/state/timeline_model.js";
import type { Entry } from "../protocol/index.ts";
import enUS from "../ui/i18n/run.en-US.js";
import zhCN from "../ui/i18n/run.zh-CN.js";

// deno-lint-ignore no-explicit-any
type Json = any;

const CASES: Record<string, Record<string, StopReason>> = {
  "openai-chat-completions": {
    refusal: "refusal",
    content_filter: "content_filter",
    max_tokens: "max_tokens",
  },
  "openai-responses": {
    refusal: "refusal",
    content_filter: "content_filter",
    max_tokens: "max_tokens",
  },
  // Claude has no separate filter: its refusals are `stop_reason: "refusal"`.
  "anthropic-messages": { refusal: "refusal", content_filter: "refusal", max_tokens: "max_tokens" },
  // Gemini has no refusal: its safety stops are a content filter.
  "google-generative-ai": {
    refusal: "content_filter",
    content_filter: "content_filter",
    max_tokens: "max_tokens",
  },
};

Deno.test("stop reasons: each format's refusal, filter and output limit reach the stop event", async () => {
  const mock = startMockLlm({ quiet: true });
  try {
    for (const [format, cases] of Object.entries(CASES)) {
      for (const [scripted, expected] of Object.entries(cases)) {
        const name = `${format}-${scripted}`;
        mock.register(name, {
          turns: [{ text: "Partial", stopReason: scripted as "refusal" }],
        });
        const adapter = await adapterFor(format as ApiFormat);
        const events: StreamEvent[] = [];
        const req = replayRequest(format as ApiFormat, mock.base, name, [
          { role: "user", content: [{ type: "text", text: "hi" }] },
        ]);
        for await (const ev of adapter.stream(req, new AbortController().signal)) events.push(ev);
        const stop = events.find((e) => e.type === "stop") as { reason: StopReason };
        assertEquals(stop.reason, expected, `${format} ${scripted}`);
      }
    }
  } finally {
    await mock.close();
  }
});

/** Anthropic SSE payloads of one answer: optional redacted thinking, text, a stop reason. */
function anthropicAnswer(opts: { redacted?: string; text: string; stop: string }): string[] {
  const lines: Json[] = [{
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [],
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  }];
  let i = 0;
  if (opts.redacted) {
    lines.push({
      type: "content_block_start",
      index: i,
      content_block: { type: "redacted_thinking", data: opts.redacted },
    });
    lines.push({ type: "content_block_stop", index: i++ });
  }
  lines.push({ type: "content_block_start", index: i, content_block: { type: "text", text: "" } });
  lines.push({
    type: "content_block_delta",
    index: i,
    delta: { type: "text_delta", text: opts.text },
  });
  lines.push({ type: "content_block_stop", index: i });
  lines.push({
    type: "message_delta",
    delta: { stop_reason: opts.stop },
    usage: { output_tokens: 5 },
  });
  lines.push({ type: "message_stop" });
  return lines.map((l) => JSON.stringify(l));
}

Deno.test("pause_turn: the paused answer goes back as it is (redacted thinking first) and the turn resumes", async () => {
  const run = await runRecorded({
    format: "anthropic-messages",
    model: "claude-sonnet-4-5",
    streams: [
      anthropicAnswer({ redacted: "EmwKAhgBEgy3va", text: "Working on it", stop: "pause_turn" }),
      anthropicAnswer({ text: " — done.", stop: "end_turn" }),
    ],
  });
  assertEquals(run.outcome, { kind: "done", steps: 2 });
  assertEquals(run.entries[0].meta.stopReason, "pause_turn");
  assertEquals(run.entries[0].parts.map((p) => p.type), ["thinking", "text"]);
  const msgs = run.bodies[1].messages as Json[];
  assertEquals(msgs.at(-1).role, "assistant", "the paused answer is the last message");
  assertEquals(msgs.at(-1).content[0], { type: "redacted_thinking", data: "EmwKAhgBEgy3va" });
  assertEquals(msgs.at(-1).content[1].text, "Working on it");
});

Deno.test("chat: prompt_cache_key goes to OpenAI's own API only", () => {
  const messages = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];
  const openai = chatBody(
    replayRequest("openai-chat-completions", "https://api.openai.com", "gpt-5", messages),
  );
  assertEquals(openai.prompt_cache_key, "task-1");
  const deepseek = chatBody(
    replayRequest("openai-chat-completions", "https://api.deepseek.com", "deepseek-chat", messages),
  );
  assertEquals("prompt_cache_key" in deepseek, false);
});

let pos = 0;
const entry = (role: Entry["role"], meta: Record<string, unknown> = {}): Entry => ({
  id: `e${++pos}`,
  taskId: "t",
  pos,
  role,
  status: "done",
  parts: role === "user" ? [{ type: "text", text: "q" }] : [{ type: "text", text: "a" }],
  meta,
  createdAt: pos,
  updatedAt: pos,
} as Entry);

Deno.test("turn notice: a refused, filtered or cut last answer is said under the turn", () => {
  for (const reason of ["refusal", "content_filter", "max_tokens"]) {
    const [turn] = groupTurns([entry("user"), entry("assistant", { stopReason: reason })]);
    assertEquals(analyseTurn(turn, false).stopNotice, reason);
    assertEquals(analyseTurn(turn, true).stopNotice, null, "not while the run goes on");
  }
  const [ok] = groupTurns([entry("user"), entry("assistant", { stopReason: "end" })]);
  assertEquals(analyseTurn(ok, false).stopNotice, null);
  for (const k of ["refusal", "contentFilter", "maxTokens"]) {
    for (const key of [`turn.stop.${k}`, `turn.stop.${k}Hint`]) {
      assert((enUS as Record<string, string>)[key], `en-US ${key}`);
      assert((zhCN as Record<string, string>)[key], `zh-CN ${key}`);
    }
  }
});

Deno.test("run: a refusal exits 4 with outcome refused; an output-limit cut exits 6", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("refuses", { turns: [{ text: "", stopReason: "refusal" }], repeatLast: true });
  mock.register("cut", { turns: [{ text: "It goes on and", stopReason: "max_tokens" }] });
  const home = await homeWithProvider(mock.base, ["refuses", "cut"]);
  const project = await Deno.makeTempDir();
  try {
    const args = ["--home", home, "--project", project];
    const r = await reinagent(["run", "do something bad", ...args, "--model", "mock/refuses"]);
    assertEquals(r.code, 4, r.stderr);
    assertMatch(r.stderr, /run ended: the model refused to answer/);
    const j = await reinagent([
      "run",
      "again",
      ...args,
      "--model",
      "mock/refuses",
      "--json",
    ]);
    assertEquals(j.code, 4, j.stderr);
    const done = JSON.parse(j.stdout.trim().split("\n").at(-1)!);
    assertEquals([done.type, done.outcome, done.stopReason], ["done", "refused", "refusal"]);
    assertEquals(Object.keys(done.usage), [
      "input",
      "output",
      "cacheRead",
      "cacheWrite",
      "reasoning",
    ]);
    const cut = await reinagent(["run", "write", ...args, "--model", "mock/cut", "--json"]);
    assertEquals(cut.code, 6, cut.stderr);
    assertEquals(JSON.parse(cut.stdout.trim().split("\n").at(-1)!).outcome, "truncated");
  } finally {
    await mock.close();
  }
});
