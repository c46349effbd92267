/**
 * Streams recorded from the real provider APIs (tests/fixtures/recorded/, sources in its
 * README) replayed through the adapters and the agent loop: what the timeline shows, the
 * usage and stop reason reported, and what the next request sends back to the API.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  partsOf,
  recorded,
  replayRequest,
  replayServer,
  runRecorded,
  splitResponses,
} from "./helpers/replay.ts";
import { toConversation } from "../server/agent/history.ts";
import { chatBody } from "../agent/providers/openai_chat.ts";
import { responsesBody } from "../agent/providers/openai_responses.ts";
import { anthropicBody } from "../agent/providers/anthropic.ts";
import { geminiBody } from "../agent/providers/gemini.ts";
import { adapterFor } from "../agent/providers/index.ts";
import type { ApiFormat, LlmMessage, StreamEvent } from "../agent/providers/types.ts";
import { ProviderError } from "../agent/providers/errors.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const USER_NEXT: LlmMessage = { role: "user", content: [{ type: "text", text: "and now?" }] };

/** What a recorded chat stream said in one delta field, joined. */
const joined = (lines: string[], field: string) =>
  lines.map((l) => JSON.parse(l).choices?.[0]?.delta?.[field] ?? "").join("");

/** The events an adapter makes of one recorded stream. */
async function eventsOf(format: ApiFormat, model: string, lines: string[]): Promise<StreamEvent[]> {
  const server = replayServer(format, [lines]);
  try {
    const adapter = await adapterFor(format);
    const out: StreamEvent[] = [];
    const req = replayRequest(format, server.base, model, [USER_NEXT]);
    for await (const ev of adapter.stream(req, new AbortController().signal)) out.push(ev);
    return out;
  } finally {
    await server.close();
  }
}

const usageOf = (events: StreamEvent[]) =>
  events.filter((e) => e.type === "usage").at(-1) as Extract<StreamEvent, { type: "usage" }>;
const stopOf = (events: StreamEvent[]) =>
  (events.find((e) => e.type === "stop") as Extract<StreamEvent, { type: "stop" }>).reason;

// ---------- DeepSeek / xAI (chat completions with reasoning_content) ----------

Deno.test("replay deepseek: a thinking tool-call step goes back with its reasoning_content", async () => {
  const step1 = recorded("deepseek-tool-call.chunks.txt");
  const run = await runRecorded({
    format: "openai-chat-completions",
    model: "deepseek-reasoner",
    streams: [step1, recorded("deepseek-reasoning.chunks.txt")],
    tools: ["weather"],
  });
  assertEquals(run.outcome, { kind: "done", steps: 2 });
  const reasoning = joined(step1, "reasoning_content");
  assert(reasoning.length > 50, "the recording has reasoning");
  const parts = partsOf(run.entries);
  assertEquals(parts[0].type, "thinking");
  assertEquals(parts[0].text, reasoning);
  const call = parts.find((p) => p.type === "tool_call")!;
  assertEquals(call.data?.name, "weather");
  // The second request: the assistant's tool-call message with the reasoning it streamed.
  const sent = (run.bodies[1].messages as Json[]).find((m) => m.role === "assistant");
  assertEquals(sent.reasoning_content, reasoning);
  assertEquals(sent.tool_calls[0].function.name, "weather");
  assertEquals(sent.tool_calls[0].id, call.data?.id);
  // The same from the stored timeline (a new turn, an edit-and-resend, a restart).
  const again = chatBody(replayRequest(
    "openai-chat-completions",
    "http://x",
    "deepseek-reasoner",
    [...toConversation(run.entries), USER_NEXT],
  ));
  const stored = again.messages.find((m: Json) => m.role === "assistant" && m.tool_calls);
  assertEquals(stored.reasoning_content, reasoning);
  // A final answer (no tool calls) does not carry its reasoning back.
  const last = again.messages.filter((m: Json) => m.role === "assistant").at(-1);
  assertEquals("reasoning_content" in last, false);
});

Deno.test("replay deepseek: usage with cache hits and reasoning tokens; length is max_tokens", async () => {
  const tool = await eventsOf(
    "openai-chat-completions",
    "deepseek-reasoner",
    recorded("deepseek-tool-call.chunks.txt"),
  );
  assertEquals(usageOf(tool).usage, {
    input: 19,
    output: 83,
    cacheRead: 320,
    cacheWrite: 0,
    reasoning: 39,
  });
  const text = await eventsOf(
    "openai-chat-completions",
    "deepseek-chat",
    recorded("deepseek-text.chunks.txt"),
  );
  assertEquals(stopOf(text), "max_tokens");
  assertEquals(usageOf(text).usage.output, 400);
});

Deno.test("replay deepseek: an answer cut by the output limit ends the run as truncated", async () => {
  const run = await runRecorded({
    format: "openai-chat-completions",
    model: "deepseek-chat",
    streams: [recorded("deepseek-text.chunks.txt")],
  });
  assertEquals(run.outcome, { kind: "done", steps: 1, stop: "max_tokens" });
  assertEquals(run.entries.at(-1)?.meta.stopReason, "max_tokens");
});

Deno.test("replay xai: grok's reasoning_content goes back on its tool-call message", async () => {
  const step1 = recorded("xai-tool-call.chunks.txt");
  const run = await runRecorded({
    format: "openai-chat-completions",
    model: "grok-3-mini",
    streams: [step1, recorded("openai-text.chunks.txt")],
    tools: ["weather"],
  });
  assertEquals(run.outcome.kind, "done");
  const sent = (run.bodies[1].messages as Json[]).find((m) => m.role === "assistant");
  assertEquals(sent.reasoning_content, joined(step1, "reasoning_content"));
  assertEquals(JSON.parse(sent.tool_calls[0].function.arguments), { location: "San Francisco" });
  assertEquals(run.bodies[1].prompt_cache_key, undefined, "only OpenAI's own API gets the key");
});

Deno.test("replay chat: a call with no arguments (groq) and plain text (openai)", async () => {
  const run = await runRecorded({
    format: "openai-chat-completions",
    model: "llama-3.3-70b-versatile",
    streams: [recorded("groq-tool-call.chunks.txt"), recorded("openai-text.chunks.txt")],
    tools: ["weather"],
  });
  assertEquals(run.outcome, { kind: "done", steps: 2 });
  const sent = run.bodies[1].messages as Json[];
  const asst = sent.find((m) => m.role === "assistant");
  assertEquals(asst.tool_calls[0].function, { name: "weather", arguments: "{}" });
  assertEquals("reasoning_content" in asst, false, "no reasoning streamed, none sent");
  assertEquals(sent.at(-1), { role: "tool", tool_call_id: "tk85n1k4m", content: "weather done" });
  const text = recorded("openai-text.chunks.txt");
  const final = run.entries.at(-1)!;
  assertEquals(final.parts.map((p) => p.type), ["text"]);
  assertEquals(final.parts[0].text, joined(text, "content"));
  assertEquals(final.meta.usage, {
    input: 16,
    output: 300,
    cacheRead: 0,
    cacheWrite: 0,
    reasoning: 0,
  });
});

// ---------- OpenAI Responses ----------

Deno.test("replay responses: encrypted reasoning asked for and sent back in order with its call", async () => {
  const steps = splitResponses(recorded("openai-reasoning-encrypted-content.1.chunks.txt"));
  assertEquals(steps.length, 4);
  const run = await runRecorded({
    format: "openai-responses",
    model: "gpt-5.1",
    streams: steps,
    tools: ["calculator"],
  });
  assertEquals(run.outcome, { kind: "done", steps: 4 });
  for (const b of run.bodies) {
    assertEquals(b.store, false);
    assertEquals(b.include, ["reasoning.encrypted_content"]);
    assertEquals(b.prompt_cache_key, "task-1");
  }
  // The reasoning item exactly as the API finished it.
  const done =
    steps[0].map((l) => JSON.parse(l)).find((e) =>
      e.type === "response.output_item.done" && e.item.type === "reasoning"
    ).item;
  const input = run.bodies[1].input as Json[];
  assertEquals(input.map((x) => x.type ?? x.role), [
    "user",
    "reasoning",
    "function_call",
    "function_call_output",
  ]);
  assertEquals(input[1], {
    type: "reasoning",
    id: done.id,
    summary: done.summary,
    encrypted_content: done.encrypted_content,
  });
  assertEquals(input[2].call_id, "call_AB6AaRZ1FYZB2RwS6A5vbdqn");
  // Later steps keep it, in place, before the calls that followed it.
  const last = run.bodies[3].input as Json[];
  assertEquals(last.map((x) => x.type ?? x.role), [
    "user",
    "reasoning",
    "function_call",
    "function_call_output",
    "function_call",
    "function_call_output",
    "function_call",
    "function_call_output",
  ]);
  assertEquals(last[1].encrypted_content, done.encrypted_content);
  // The summary shows as thinking in the timeline, once.
  const thinking = partsOf(run.entries).filter((p) => p.type === "thinking");
  assertEquals(thinking.length, 1);
  assertMatch(thinking[0].text!, /^\*\*Calculating step-by-step/);
  assertEquals(run.entries.at(-1)?.parts[0].text, "The final result is **570**.");
  // From the stored timeline too.
  const again = responsesBody(replayRequest(
    "openai-responses",
    "http://x",
    "gpt-5.1",
    toConversation(run.entries),
  ));
  const item = again.input.find((x: Json) => x.type === "reasoning");
  assertEquals(item.encrypted_content, done.encrypted_content);
});

Deno.test("replay responses: a retry after a cut answer drops the reasoning it led nowhere", async () => {
  const [step1, ...rest] = splitResponses(
    recorded("openai-reasoning-encrypted-content.1.chunks.txt"),
  );
  // The connection ends right after the reasoning item is done: no call, no completion.
  const cut = step1.slice(0, step1.findIndex((l) => l.includes('"type":"function_call"')));
  const run = await runRecorded({
    format: "openai-responses",
    model: "gpt-5.1",
    streams: [cut],
    tools: ["calculator"],
  });
  assertEquals(run.outcome.kind, "error");
  const kept = partsOf(run.entries).filter((p) => p.type === "thinking");
  assertEquals(kept.length, 1, "the timeline keeps what streamed");
  // Retry (the same conversation from the stored entries): no orphan reasoning item.
  const retry = await runRecorded({
    format: "openai-responses",
    model: "gpt-5.1",
    streams: rest,
    tools: ["calculator"],
    messages: [
      { role: "user", content: [{ type: "text", text: "go" }] },
      ...toConversation(run.entries),
    ],
  });
  assertEquals((retry.bodies[0].input as Json[]).map((x) => x.type ?? x.role), ["user"]);
});

Deno.test("replay responses: an error event mid-stream is reported with the API's own words", async () => {
  const run = await runRecorded({
    format: "openai-responses",
    model: "gpt-5-nano",
    streams: [recorded("openai-error.1.chunks.txt")],
  });
  assertEquals(run.outcome.kind, "error");
  if (run.outcome.kind !== "error") return;
  assertMatch(run.outcome.error.message, /^insufficient_quota: You exceeded your current quota/);
  assertEquals(run.outcome.error.category, "balance");
  assertEquals(run.entries.at(-1)?.role, "error");
});

// ---------- Anthropic ----------

Deno.test("replay anthropic: a refusal is told, not an empty answer", async () => {
  const run = await runRecorded({
    format: "anthropic-messages",
    model: "claude-fable-5",
    streams: [recorded("anthropic-refusal.chunks.txt")],
  });
  assertEquals(run.outcome, { kind: "done", steps: 1, stop: "refusal" });
  assertEquals(run.entries.at(-1)?.meta.stopReason, "refusal");
});

Deno.test("replay anthropic: message_delta's final input count is the one reported", async () => {
  const events = await eventsOf(
    "anthropic-messages",
    "claude-opus-4-5",
    recorded("anthropic-message-delta-input-tokens.chunks.txt"),
  );
  assertEquals(usageOf(events).usage, {
    input: 61,
    output: 2,
    cacheRead: 0,
    cacheWrite: 0,
    reasoning: 0,
  });
  assertEquals(stopOf(events), "end");
});

Deno.test("replay anthropic: calls with and without arguments go back as tool_use + tool_result", async () => {
  const run = await runRecorded({
    format: "anthropic-messages",
    model: "claude-haiku-4-5",
    streams: [
      recorded("anthropic-tool-no-args.chunks.txt"),
      recorded("anthropic-json-tool.1.chunks.txt"),
      recorded("anthropic-text.chunks.txt"),
    ],
    tools: ["json", "getLocation", "weather", "updateIssueList"],
  });
  assertEquals(run.outcome, { kind: "done", steps: 3 });
  const calls = partsOf(run.entries).filter((p) => p.type === "tool_call");
  assertEquals(calls.length, 2);
  assertEquals(calls[0].data?.args, {});
  assertEquals(calls[1].data?.args, {
    elements: [{ location: "San Francisco", temperature: 58, condition: "sunny" }],
  });
  const msgs = run.bodies[2].messages as Json[];
  assertEquals(msgs.map((m) => m.role), ["user", "assistant", "user", "assistant", "user"]);
  assertEquals(msgs[1].content.at(-1).input, {});
  assertEquals(msgs[2].content[0].tool_use_id, calls[0].data?.id);
  assertEquals(msgs[3].content.at(-1).type, "tool_use");
});

Deno.test("replay anthropic: signed thinking goes back with its signature", async () => {
  const lines = recorded("anthropic-clear-thinking.1.chunks.txt");
  const run = await runRecorded({
    format: "anthropic-messages",
    model: "claude-sonnet-4-5",
    streams: [lines],
  });
  const signature =
    lines.map((l) => JSON.parse(l)).find((e) => e.delta?.type === "signature_delta").delta
      .signature;
  const body = anthropicBody(replayRequest(
    "anthropic-messages",
    "http://x",
    "claude-sonnet-4-5",
    [...toConversation(run.entries), USER_NEXT],
  ));
  const asst = body.messages.find((m: Json) => m.role === "assistant");
  assertEquals(asst.content[0].type, "thinking");
  assertEquals(asst.content[0].signature, signature);
  assertMatch(asst.content[0].thinking, /^The previous result was 925/);
  assertEquals(asst.content[1], { type: "text", text: "925 ÷ 5 = 185" });
});

Deno.test("replay anthropic: a stream cut before message_stop is an error, not an answer", async () => {
  const lines = recorded("anthropic-text.chunks.txt");
  const cut = lines.slice(0, lines.findIndex((l) => l.includes('"message_delta"')));
  const run = await runRecorded({
    format: "anthropic-messages",
    model: "claude-haiku-4-5",
    streams: [cut],
  });
  assertEquals(run.outcome.kind, "error");
  assertEquals(run.entries.find((e) => e.role === "assistant")?.status, "error");
});

// ---------- Gemini ----------

Deno.test("replay gemini: thought signatures go back on the call and on the text part", async () => {
  const run = await runRecorded({
    format: "google-generative-ai",
    model: "gemini-3-pro-preview",
    streams: [
      recorded("google-tool-call-gemini3.chunks.txt"),
      recorded("google-reasoning-gemini3.chunks.txt"),
    ],
    tools: ["weather"],
  });
  assertEquals(run.outcome, { kind: "done", steps: 2 });
  const callSig = JSON.parse(recorded("google-tool-call-gemini3.chunks.txt")[0]).candidates[0]
    .content.parts[0].thoughtSignature;
  const step2 = run.bodies[1].contents as Json[];
  assertEquals(step2[1].role, "model");
  assertEquals(step2[1].parts[0].thoughtSignature, callSig);
  assertEquals(step2[1].parts[0].functionCall, {
    name: "weather",
    args: { location: "San Francisco" },
  });
  // The answer's signature came on an empty text part at its end: it goes back there.
  const textSig = recorded("google-reasoning-gemini3.chunks.txt").map((l) => JSON.parse(l))
    .flatMap((c) => c.candidates[0].content.parts).find((p: Json) => p.thoughtSignature)
    .thoughtSignature;
  const next = geminiBody(replayRequest(
    "google-generative-ai",
    "http://x",
    "gemini-3-pro-preview",
    [...toConversation(run.entries), USER_NEXT],
  ));
  const answer = next.contents.filter((c: Json) => c.role === "model").at(-1);
  assert(
    answer.parts.some((p: Json) => p.thoughtSignature === textSig),
    "the text part's signature is sent back",
  );
  assertMatch(answer.parts.map((p: Json) => p.text ?? "").join(""), /There are \*\*3\*\*/);
  const usage = run.entries.at(-1)?.meta.usage as Record<string, number>;
  assertEquals(usage.reasoning, 302);
  assertEquals(usage.output, 23 + 302, "the last (cumulative) numbers, thoughts included");
});

Deno.test("replay gemini: plain text and its usage", async () => {
  const events = await eventsOf(
    "google-generative-ai",
    "gemini-2.5-flash",
    recorded("google-text.chunks.txt"),
  );
  assertEquals(stopOf(events), "end");
  assert(events.some((e) => e.type === "text"));
  const u = usageOf(events).usage;
  assert(u.input > 0 && u.output > 0);
  // A Gemini 2.5 call: its signature goes back on it.
  const call = recorded("google-tool-call.chunks.txt");
  const run = await runRecorded({
    format: "google-generative-ai",
    model: "gemini-2.5-flash",
    streams: [call, recorded("google-text.chunks.txt")],
    tools: ["weather"],
  });
  assertEquals(run.outcome, { kind: "done", steps: 2 });
  const model = (run.bodies[1].contents as Json[])[1];
  assertEquals(model.role, "model");
  assertEquals(model.parts, [JSON.parse(call[0]).candidates[0].content.parts[0]]);
  assertEquals((run.bodies[1].contents as Json[])[2].parts[0].functionResponse.response, {
    content: "weather done",
  });
});

// ---------- model switch within a task ----------

Deno.test("replay: another model never gets this one's signatures or encrypted reasoning", async () => {
  const anth = await runRecorded({
    format: "anthropic-messages",
    model: "claude-sonnet-4-5",
    streams: [recorded("anthropic-clear-thinking.1.chunks.txt")],
  });
  const resp = await runRecorded({
    format: "openai-responses",
    model: "gpt-5.1",
    streams: splitResponses(recorded("openai-reasoning-encrypted-content.1.chunks.txt")),
    tools: ["calculator"],
    messages: [...anth.messages, USER_NEXT],
  });
  const gem = await runRecorded({
    format: "google-generative-ai",
    model: "gemini-3-pro-preview",
    streams: [
      recorded("google-tool-call-gemini3.chunks.txt"),
      recorded("google-reasoning-gemini3.chunks.txt"),
    ],
    tools: ["weather"],
    messages: [...resp.messages, USER_NEXT],
  });
  const all = [...gem.messages, USER_NEXT];
  const body = (format: ApiFormat, model: string) => {
    const req = replayRequest(format, "http://x", model, all);
    return JSON.stringify(
      format === "anthropic-messages"
        ? anthropicBody(req)
        : format === "openai-responses"
        ? responsesBody(req)
        : format === "google-generative-ai"
        ? geminiBody(req)
        : chatBody(req),
    );
  };
  const anthSig = "EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3";
  const encrypted = "gAAAAABpPDIV";
  const gemSig = "EpEgCo4gAb4+9vvWwdN+NkNiCCwrqvFI8uf9IiD2A47B";
  // Each model gets its own back…
  assert(body("anthropic-messages", "claude-sonnet-4-5").includes(anthSig));
  assert(body("openai-responses", "gpt-5.1").includes(encrypted));
  assert(body("google-generative-ai", "gemini-3-pro-preview").includes(gemSig));
  // …and nothing of the others.
  const claude = body("anthropic-messages", "claude-sonnet-4-5");
  assert(!claude.includes(encrypted) && !claude.includes(gemSig));
  const gpt = body("openai-responses", "gpt-5.1");
  assert(!gpt.includes(anthSig) && !gpt.includes(gemSig));
  const gemini = body("google-generative-ai", "gemini-3-pro-preview");
  assert(!gemini.includes(anthSig) && !gemini.includes(encrypted));
  // Another Claude model is another model: its thinking is not signed for it.
  const otherClaude = body("anthropic-messages", "claude-opus-4-5");
  assert(!otherClaude.includes(anthSig) && !otherClaude.includes(encrypted));
  // Gemini 3 takes the calls other models made with the documented placeholder signature.
  const geminiFromOthers = JSON.parse(body("google-generative-ai", "gemini-3-flash"));
  const foreignCalls = geminiFromOthers.contents.flatMap((c: Json) => c.parts).filter((p: Json) =>
    p.functionCall
  );
  assert(foreignCalls.length > 0);
  for (const p of foreignCalls) {
    assertEquals(p.thoughtSignature, "skip_thought_signature_validator");
  }
  const chat = body("openai-chat-completions", "deepseek-reasoner");
  assert(!chat.includes(anthSig) && !chat.includes(encrypted) && !chat.includes(gemSig));
});

Deno.test("replay: a recorded stream cut mid-way is never taken for a finished answer", async () => {
  for (
    const [format, file] of [
      ["openai-chat-completions", "deepseek-tool-call.chunks.txt"],
      ["google-generative-ai", "google-reasoning-gemini3.chunks.txt"],
    ] as const
  ) {
    const lines = recorded(file);
    const cut = lines.slice(0, Math.max(1, lines.length - 2));
    let err: unknown = null;
    try {
      await eventsOf(format, "m", format === "google-generative-ai" ? cut.slice(0, 1) : cut);
    } catch (e) {
      err = e;
    }
    assert(err instanceof ProviderError, `${format}: a cut stream is an error`);
  }
});

// No public recording of parallel calls was found: the mock LLM speaks each format.
Deno.test("parallel calls (mock): both calls, then both results, in order, in every format", async () => {
  const mock = startMockLlm({ quiet: true });
  try {
    mock.register("parallel", {
      turns: [
        {
          thinking: "Two things at once.",
          toolCalls: [{ name: "weather", args: { city: "Rome" } }, { name: "clock", args: {} }],
        },
        { text: "Sunny, noon." },
      ],
    });
    for (
      const format of [
        "openai-chat-completions",
        "openai-responses",
        "anthropic-messages",
        "google-generative-ai",
      ] as const
    ) {
      const run = await runRecorded({
        format,
        model: "parallel",
        streams: [],
        base: mock.base,
        tools: ["weather", "clock"],
      });
      assertEquals(run.outcome, { kind: "done", steps: 2 }, format);
      const calls = partsOf(run.entries).filter((p) => p.type === "tool_call");
      assertEquals(calls.map((c) => [c.data?.name, c.data?.args]), [
        ["weather", { city: "Rome" }],
        ["clock", {}],
      ]);
      const sent = JSON.stringify(toConversation(run.entries));
      assert(sent.indexOf("weather done") < sent.indexOf("clock done"), format);
    }
    const [chat, resp, anth, gem] = ["/v1/chat/completions", "/v1/responses", "/v1/messages", ":"]
      .map((path) =>
        mock.requests("parallel").filter((r) => r.path.includes(path))[1].body as Json
      );
    assertEquals(
      chat.messages.slice(-3).map((m: Json) => m.role),
      ["assistant", "tool", "tool"],
    );
    assertEquals(chat.messages.at(-3).tool_calls.map((c: Json) => c.function.arguments), [
      '{"city":"Rome"}',
      "{}",
    ]);
    assertEquals(resp.input.slice(-4).map((x: Json) => x.type), [
      "function_call",
      "function_call",
      "function_call_output",
      "function_call_output",
    ]);
    assertEquals(anth.messages.at(-1).content.map((b: Json) => b.type), [
      "tool_result",
      "tool_result",
    ]);
    assertEquals(gem.contents.at(-1).parts.map((p: Json) => p.functionResponse.name), [
      "weather",
      "clock",
    ]);
  } finally {
    await mock.close();
  }
});

Deno.test("responses: a model without encrypted reasoning is asked again without it, and remembered", async () => {
  const text = splitResponses(recorded("openai-reasoning-encrypted-content.1.chunks.txt"))[3];
  const bodies: Json[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (r) => {
    const body = await r.json();
    bodies.push(body);
    if (body.include) {
      // The API's answer to a non-reasoning model (gpt-4o, gpt-4.1), word for word.
      return Response.json({
        error: {
          message: "Encrypted content is not supported with this model.",
          type: "invalid_request_error",
          param: "include",
          code: null,
        },
      }, { status: 400 });
    }
    return new Response(text.map((l) => `data: ${l}\n\n`).join(""), {
      headers: { "content-type": "text/event-stream" },
    });
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const adapter = await adapterFor("openai-responses");
    for (let i = 0; i < 2; i++) {
      const req = replayRequest("openai-responses", base, "gpt-4.1", [USER_NEXT]);
      let answer = "";
      for await (const ev of adapter.stream(req, new AbortController().signal)) {
        if (ev.type === "text") answer += ev.delta;
      }
      assertEquals(answer, "The final result is **570**.");
    }
    assertEquals(bodies.map((b) => "include" in b), [true, false, false]);
  } finally {
    await server.shutdown();
  }
});
