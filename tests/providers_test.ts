/** Wire adapters against the mock LLM server, for all four formats. */
import { assert, assertEquals, assertMatch, assertRejects } from "./helpers/assert.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import type { Scenario } from "../scripts/mock_llm/scenario.ts";
import { adapterFor } from "../agent/providers/index.ts";
import { withRetry } from "../agent/providers/retry.ts";
import { ProviderError } from "../agent/providers/errors.ts";
import type {
  ApiFormat,
  Effort,
  StreamEvent,
  StreamRequest,
  ToolSpec,
} from "../agent/providers/types.ts";

const FORMATS: ApiFormat[] = [
  "openai-chat-completions",
  "openai-responses",
  "anthropic-messages",
  "google-generative-ai",
];
const TOOL: ToolSpec = {
  name: "list_dir",
  description: "List a directory",
  parameters: {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
    additionalProperties: false,
  },
};

/** Clean ends (no error on the connection) that leave out the format's end marker. */
const CLEAN_CUTS: { how: string; cut: { afterChunks?: number; beforeEnd?: boolean } }[] = [
  { how: "after some text", cut: { afterChunks: 3 } },
  { how: "with all text sent", cut: { beforeEnd: true } },
];

let counter = 0;
function request(
  format: ApiFormat,
  base: string,
  model: string,
  over: Partial<StreamRequest> = {},
): StreamRequest {
  return {
    provider: {
      id: "p",
      name: "P",
      format,
      baseUrl: base,
      apiKey: "sk-test",
      enabled: true,
      models: [],
    },
    model: {
      id: model,
      name: model,
      enabled: true,
      contextWindow: null,
      maxOutput: null,
      vision: null,
      effortLevels: null,
      defaultEffort: null,
      source: "manual",
      price: null,
    },
    system: "You are a test.",
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    tools: [TOOL],
    effort: "default",
    maxTokens: 32000,
    ...over,
  };
}

async function collect(it: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

/** The ProviderError `fn` rejects with (fails when it resolves or throws something else). */
async function providerError(fn: () => Promise<unknown>): Promise<ProviderError> {
  try {
    await fn();
  } catch (e) {
    assert(e instanceof ProviderError, `expected a ProviderError, got ${e}`);
    return e;
  }
  throw new Error("expected the stream to fail, but it finished");
}

const text = (evs: StreamEvent[], t: "text" | "thinking") =>
  evs.filter((e) => e.type === t).map((e) => (e as { delta: string }).delta).join("");

async function withMock(
  fn: (mock: ReturnType<typeof startMockLlm>, name: (s: Scenario) => string) => Promise<void>,
) {
  const mock = startMockLlm({ quiet: true });
  const name = (s: Scenario) => {
    const n = `scn-${++counter}`;
    mock.register(n, s);
    return n;
  };
  try {
    await fn(mock, name);
  } finally {
    await mock.close();
  }
}

for (const format of FORMATS) {
  Deno.test(`${format}: thinking, text, tool calls with split args, usage`, () =>
    withMock(async (mock, name) => {
      const model = name({
        turns: [{
          thinking: "Let me think about the folder.",
          text: "I will list it.",
          toolCalls: [{ name: "list_dir", args: { path: "src/ünïcode dir" } }, {
            name: "list_dir",
            args: { path: "." },
          }],
          usage: { input: 120, output: 30, cacheRead: 50 },
          chunk: 3,
          noise: true,
        }],
      });
      const adapter = await adapterFor(format);
      const evs = await collect(
        adapter.stream(request(format, `${mock.base}/v1/`, model), new AbortController().signal),
      );
      assertEquals(text(evs, "text"), "I will list it.");
      assertEquals(text(evs, "thinking"), "Let me think about the folder.");
      const calls = evs.filter((e) => e.type === "tool_call") as Extract<
        StreamEvent,
        { type: "tool_call" }
      >[];
      assertEquals(calls.map((c) => [c.name, c.args]), [["list_dir", { path: "src/ünïcode dir" }], [
        "list_dir",
        { path: "." },
      ]]);
      assert(calls.every((c) => c.id && !c.argsError));
      const usage = evs.filter((e) => e.type === "usage").at(-1) as Extract<
        StreamEvent,
        { type: "usage" }
      >;
      assertEquals([usage.usage.input, usage.usage.output, usage.usage.cacheRead], [120, 30, 50]);
      assertEquals(evs.at(-1), { type: "stop", reason: "tool_use" });
      // Thinking comes before text, text before tool calls: production order.
      const kinds = evs.map((e) => e.type).filter((t) =>
        ["thinking", "text", "tool_call"].includes(t)
      );
      const order = kinds.filter((t, i) => t !== kinds[i - 1]);
      assertEquals(order, ["thinking", "text", "tool_call"]);
    }));

  Deno.test(`${format}: 429 twice → retried → success; notices report attempts`, () =>
    withMock(async (mock, name) => {
      const model = name({
        turns: [{ text: "finally", fail: { status: 429, message: "slow down", times: 2 } }],
      });
      const adapter = await adapterFor(format);
      const notices: string[] = [];
      const req = request(format, mock.base, model);
      const evs = await collect(
        withRetry(
          () => adapter.stream(req, new AbortController().signal),
          new AbortController().signal,
          (n) => {
            notices.push(`${n.attempt}/${n.max} ${n.error.info.category}`);
          },
          { random: () => 0 },
        ),
      );
      assertEquals(text(evs, "text"), "finally");
      assertEquals(notices, ["1/10 rate-limit", "2/10 rate-limit"]);
      assertEquals(mock.requests(model).length, 3);
    }));

  Deno.test(`${format}: 401 is not retried and reports auth with the upstream message`, () =>
    withMock(async (mock, name) => {
      const model = name({
        turns: [{ text: "x", fail: { status: 401, message: "invalid api key" } }],
      });
      const adapter = await adapterFor(format);
      let caught: ProviderError | null = null;
      try {
        await collect(
          withRetry(
            () => adapter.stream(request(format, mock.base, model), new AbortController().signal),
            new AbortController().signal,
            () => {},
          ),
        );
      } catch (e) {
        caught = e as ProviderError;
      }
      assert(caught instanceof ProviderError, String(caught));
      assertEquals(caught.info.category, "auth");
      assertEquals(caught.info.status, 401);
      assertMatch(caught.message, /invalid api key/);
      assertMatch(caught.info.url ?? "", /^http:\/\/127\.0\.0\.1:\d+\/v1/);
      assertEquals(mock.requests(model).length, 1);
    }));

  Deno.test(`${format}: a connection cut after content is not retried; partial content kept`, () =>
    withMock(async (mock, name) => {
      const model = name({
        turns: [{
          text: "partial answer that goes on and on",
          chunk: 4,
          cut: { afterChunks: 3, abrupt: true },
        }],
      });
      const adapter = await adapterFor(format);
      const got: StreamEvent[] = [];
      let err: unknown = null;
      try {
        for await (
          const e of withRetry(
            () => adapter.stream(request(format, mock.base, model), new AbortController().signal),
            new AbortController().signal,
            () => {},
          )
        ) got.push(e);
      } catch (e) {
        err = e;
      }
      assert(err instanceof ProviderError, `expected a ProviderError, got ${err}`);
      assert(text(got, "text").length > 0, "content before the cut is kept");
      assertEquals(mock.requests(model).length, 1);
    }));

  for (const { how, cut } of CLEAN_CUTS) {
    Deno.test(`${format}: a clean end without the end marker ${how} is an error; text kept`, () =>
      withMock(async (mock, name) => {
        const full = "cut short here";
        const model = name({ turns: [{ text: full, chunk: 4, cut: { ...cut, abrupt: false } }] });
        const adapter = await adapterFor(format);
        const got: StreamEvent[] = [];
        const err = await providerError(async () => {
          for await (
            const e of withRetry(
              () => adapter.stream(request(format, mock.base, model), new AbortController().signal),
              new AbortController().signal,
              () => {},
            )
          ) got.push(e);
        });
        assertEquals(err.info.category, "network");
        assertMatch(err.message, /stream ended before it finished \(no .+\)/);
        assert(full.startsWith(text(got, "text")) && text(got, "text").length > 0, "text kept");
        if (cut.beforeEnd) assertEquals(text(got, "text"), full);
        assert(!got.some((e) => e.type === "stop"), "no stop event: the answer did not finish");
        assertEquals(mock.requests(model).length, 1, "never retried after content");
      }));
  }

  // Gemini's first frame already carries text; the others open with a content-free frame.
  const beforeContent = format === "google-generative-ai" ? 0 : 1;

  Deno.test(`${format}: a clean end before any content is retried, then succeeds`, () =>
    withMock(async (mock, name) => {
      const model = name({
        turns: [{
          text: "whole answer",
          cut: { afterChunks: beforeContent, abrupt: false, times: 2 },
        }],
      });
      const adapter = await adapterFor(format);
      const notices: string[] = [];
      const evs = await collect(
        withRetry(
          () => adapter.stream(request(format, mock.base, model), new AbortController().signal),
          new AbortController().signal,
          (n) => notices.push(`${n.attempt} ${n.error.info.category} ${n.error.message}`),
          { random: () => 0 },
        ),
      );
      assertEquals(text(evs, "text"), "whole answer");
      assertEquals(evs.at(-1), { type: "stop", reason: "end" });
      assertEquals(notices.length, 2);
      assertMatch(notices[0], /^1 network the provider's stream ended before it finished/);
      assertEquals(mock.requests(model).length, 3);
    }));

  Deno.test(`${format}: a clean end before any content fails after the retries`, () =>
    withMock(async (mock, name) => {
      const model = name({
        turns: [{ text: "never", cut: { afterChunks: beforeContent, abrupt: false } }],
      });
      const adapter = await adapterFor(format);
      const err = await providerError(() =>
        collect(withRetry(
          () => adapter.stream(request(format, mock.base, model), new AbortController().signal),
          new AbortController().signal,
          () => {},
          { max: 2, random: () => 0 },
        ))
      );
      assertMatch(err.message, /stream ended before it finished/);
      assertEquals(mock.requests(model).length, 3, "first try + 2 retries");
    }));

  Deno.test(`${format}: malformed SSE data fails with a clear error`, () =>
    withMock(async (mock, name) => {
      const model = name({ turns: [{ text: "hello there", malformed: true }] });
      const adapter = await adapterFor(format);
      await assertRejects(() =>
        collect(adapter.stream(request(format, mock.base, model), new AbortController().signal))
      );
    }));

  Deno.test(`${format}: stop aborts the stream quickly`, () =>
    withMock(async (mock, name) => {
      const model = name({ turns: [{ text: "x".repeat(400), chunk: 2, delayMs: 20 }] });
      const adapter = await adapterFor(format);
      const ac = new AbortController();
      const t0 = performance.now();
      let n = 0;
      let caught: unknown = null;
      try {
        for await (const e of adapter.stream(request(format, mock.base, model), ac.signal)) {
          if (e.type === "text" && ++n === 3) ac.abort();
        }
      } catch (e) {
        caught = e;
      }
      // A stop must surface as "aborted", never as a normal (truncated) answer.
      assertEquals((caught as ProviderError)?.info?.category, "aborted");
      assert(performance.now() - t0 < 1000, "stopped within 1 s");
    }));
}

Deno.test("chat completions: inline <think> tags become thinking", () =>
  withMock(async (mock, name) => {
    const model = name({
      turns: [{ thinking: "hidden reasoning", text: "visible", inlineThink: true, chunk: 3 }],
    });
    const adapter = await adapterFor("openai-chat-completions");
    const evs = await collect(
      adapter.stream(
        request("openai-chat-completions", mock.base, model),
        new AbortController().signal,
      ),
    );
    assertEquals(text(evs, "thinking"), "hidden reasoning");
    assertEquals(text(evs, "text"), "visible");
  }));

Deno.test("request bodies: base URL joined once, max_tokens always, effort per format", () =>
  withMock(async (mock, name) => {
    const model = name({ turns: [{ text: "ok" }], repeatLast: true });
    const bodies: Record<
      string,
      { path: string; body: Record<string, unknown>; headers: Record<string, string> }
    > = {};
    for (const format of FORMATS) {
      for (const effort of ["default", "high", "off"] as Effort[]) {
        const adapter = await adapterFor(format);
        await collect(
          adapter.stream(
            request(format, `${mock.base}/v1//`, model, { effort, maxTokens: 8000 }),
            new AbortController().signal,
          ),
        );
        const r = mock.requests(model).at(-1)!;
        bodies[`${format}/${effort}`] = r;
      }
    }
    const chat = bodies["openai-chat-completions/high"];
    assertEquals(chat.path, "/v1/chat/completions");
    assertEquals(chat.body.max_tokens, 8000);
    assertEquals(chat.body.reasoning_effort, "high");
    assertEquals(chat.body.stream_options, { include_usage: true });
    assertEquals((chat.body.messages as unknown[])[0], {
      role: "system",
      content: "You are a test.",
    });
    assertEquals((chat.body.tools as unknown[])[0], { type: "function", function: TOOL });
    assertEquals("reasoning_effort" in bodies["openai-chat-completions/default"].body, false);
    assertEquals("reasoning_effort" in bodies["openai-chat-completions/off"].body, false);
    assertEquals(chat.headers.authorization, "Bearer sk-test");

    const resp = bodies["openai-responses/high"];
    assertEquals(resp.path, "/v1/responses");
    assertEquals(resp.body.max_output_tokens, 8000);
    assertEquals(resp.body.reasoning, { effort: "high", summary: "auto" });
    assertEquals(resp.body.instructions, "You are a test.");
    assertEquals("reasoning" in bodies["openai-responses/default"].body, false);

    const anth = bodies["anthropic-messages/high"];
    assertEquals(anth.path, "/v1/messages");
    assertEquals(anth.body.max_tokens, 8000);
    assertEquals(anth.body.thinking, { type: "enabled", budget_tokens: 7999 });
    assertEquals(bodies["anthropic-messages/off"].body.thinking, { type: "disabled" });
    assertEquals("thinking" in bodies["anthropic-messages/default"].body, false);
    assertEquals(anth.headers["x-api-key"], "sk-test");
    assertEquals(anth.headers["anthropic-version"], "2023-06-01");
    assertEquals((anth.body.tools as unknown[])[0], {
      name: TOOL.name,
      description: TOOL.description,
      input_schema: TOOL.parameters,
      cache_control: { type: "ephemeral" },
    });

    const gem = bodies["google-generative-ai/high"];
    assertEquals(gem.path, `/v1beta/models/${model}:streamGenerateContent`);
    assertEquals((gem.body.generationConfig as Record<string, unknown>).maxOutputTokens, 8000);
    assertEquals((gem.body.generationConfig as Record<string, unknown>).thinkingConfig, {
      thinkingBudget: 24576,
      includeThoughts: true,
    });
    assertEquals(
      (bodies["google-generative-ai/off"].body.generationConfig as Record<string, unknown>)
        .thinkingConfig,
      { thinkingBudget: 0, includeThoughts: false },
    );
    assertEquals(gem.headers["x-goog-api-key"], "sk-test");
    const decl =
      (gem.body.tools as { functionDeclarations: { parameters: Record<string, unknown> }[] }[])[0]
        .functionDeclarations[0];
    assertEquals("additionalProperties" in decl.parameters, false);
  }));

Deno.test("history round-trip: tool calls and results reach each format in its own shape", () =>
  withMock(async (mock, name) => {
    const model = name({ turns: [{ text: "a" }], repeatLast: true });
    const messages: StreamRequest["messages"] = [
      { role: "user", content: [{ type: "text", text: "list" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "hmm", signature: "sig" },
          { type: "text", text: "ok" },
          { type: "tool_call", id: "c1", name: "list_dir", args: { path: "." } },
        ],
      },
      { role: "tool", toolCallId: "c1", name: "list_dir", content: "a.txt", isError: false },
    ];
    for (const format of FORMATS) {
      const adapter = await adapterFor(format);
      await collect(
        adapter.stream(
          request(format, mock.base, model, { messages }),
          new AbortController().signal,
        ),
      );
    }
    const [chat, resp, anth, gem] = mock.requests(model).map((r) => r.body);
    assertEquals((chat.messages as unknown[]).slice(2), [
      {
        role: "assistant",
        content: "ok",
        tool_calls: [{
          id: "c1",
          type: "function",
          function: { name: "list_dir", arguments: '{"path":"."}' },
        }],
      },
      { role: "tool", tool_call_id: "c1", content: "a.txt" },
    ]);
    assertEquals((resp.input as unknown[]).slice(1), [
      { role: "assistant", content: [{ type: "output_text", text: "ok" }] },
      { type: "function_call", call_id: "c1", name: "list_dir", arguments: '{"path":"."}' },
      { type: "function_call_output", call_id: "c1", output: "a.txt" },
    ]);
    assertEquals((anth.messages as unknown[]).slice(1), [
      {
        role: "assistant",
        content: [{ type: "thinking", thinking: "hmm", signature: "sig" }, {
          type: "text",
          text: "ok",
        }, { type: "tool_use", id: "c1", name: "list_dir", input: { path: "." } }],
      },
      {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: "c1",
          content: "a.txt",
          is_error: false,
          cache_control: { type: "ephemeral" },
        }],
      },
    ]);
    assertEquals((gem.contents as unknown[]).slice(1), [
      {
        role: "model",
        // The model's own signed thought goes back where it came (on a thought part).
        parts: [
          { text: "hmm", thought: true, thoughtSignature: "sig" },
          { text: "ok" },
          { functionCall: { name: "list_dir", args: { path: "." } } },
        ],
      },
      {
        role: "user",
        parts: [{ functionResponse: { name: "list_dir", response: { content: "a.txt" } } }],
      },
    ]);
  }));

/** A one-shot server answering every POST with `sse` and recording the auth header. */
async function rawSse(sse: string, fn: (base: string, auth: () => string | null) => Promise<void>) {
  let auth: string | null = null;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    auth = req.headers.get("authorization");
    return new Response(sse, { headers: { "content-type": "text/event-stream" } });
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, () => auth);
  } finally {
    await server.shutdown();
  }
}

Deno.test("openai-chat-completions: an error object inside the stream is a provider error (429 retryable); the key goes as a Bearer token", () =>
  rawSse(
    'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n' +
      'data: {"error":{"message":"Rate limit reached","type":"rate_limit_exceeded"}}\n\n',
    async (base, auth) => {
      const adapter = await adapterFor("openai-chat-completions");
      const signal = new AbortController().signal;
      const err = await collect(
        adapter.stream(request("openai-chat-completions", base, "m"), signal),
      ).then(() => null, (e) => e);
      assert(err instanceof ProviderError, "the stream failed with a provider error");
      assertEquals(err.info.status, 429);
      assertMatch(err.message, /rate_limit_exceeded: Rate limit reached/);
      assertEquals(auth(), "Bearer sk-test");
      // No key (a local server): no Authorization header at all.
      const noKey = request("openai-chat-completions", base, "m");
      noKey.provider = { ...noKey.provider, apiKey: "" };
      await assertRejects(() => collect(adapter.stream(noKey, new AbortController().signal)));
      assertEquals(auth(), null);
    },
  ));

Deno.test("openai-responses: an `error` event inside the stream is a provider error with its message", () =>
  rawSse(
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"Hi"}\n\n' +
      'event: error\ndata: {"type":"error","code":"server_error","message":"The server had an error"}\n\n',
    async (base) => {
      const adapter = await adapterFor("openai-responses");
      const signal = new AbortController().signal;
      const err = await collect(adapter.stream(request("openai-responses", base, "m"), signal))
        .then(() => null, (e) => e);
      assert(err instanceof ProviderError, "the stream failed with a provider error");
      assertMatch(err.message, /The server had an error/);
    },
  ));
