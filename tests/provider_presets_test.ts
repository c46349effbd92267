/**
 * The provider presets and each one's request shape: the URL, how the key travels, the
 * vendor's extra headers and body fields, and that its usage is counted — against the
 * mock LLM (OpenRouter, LM Studio, Azure OpenAI, the original five) and a small in-test
 * server speaking Groq's stream (usage under `x_groq`).
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { opHarness } from "./helpers/op_context.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { adapterFor } from "../agent/providers/index.ts";
import { chatCompletionsUrl, dialectOf } from "../agent/providers/dialects.ts";
import { AZURE_DEFAULT_API_VERSION, PRESET_IDS } from "../protocol/presets.ts";
import type { ProviderConfig, StreamEvent, Usage } from "../agent/providers/types.ts";
import type { Effort } from "../protocol/constants.ts";

const KEY = "sk-or-v1-0123456789abcdefSECRET";

/** One request through the provider's adapter; the events it produced. */
async function ask(p: ProviderConfig, modelId: string, effort: Effort = "default") {
  const adapter = await adapterFor(p.format);
  const model = p.models.find((m) => m.id === modelId)!;
  const events: StreamEvent[] = [];
  for await (
    const ev of adapter.stream({
      provider: p,
      model,
      system: "sys",
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      tools: [],
      effort,
      maxTokens: 500,
    }, new AbortController().signal)
  ) events.push(ev);
  const usage = events.find((e) => e.type === "usage") as { usage: Usage } | undefined;
  const text = events.filter((e) => e.type === "text").map((e) => (e as { delta: string }).delta)
    .join("");
  return { usage: usage?.usage ?? null, text };
}

/** A provider made from `preset` through the ops, pointed at `baseUrl`, with `model` added. */
async function fromPreset(
  h: Awaited<ReturnType<typeof opHarness>>,
  preset: string,
  baseUrl: string,
  model: string,
  extra: Record<string, unknown> = {},
): Promise<ProviderConfig> {
  const { provider } = await h.op("providers.add", { preset, baseUrl, ...extra });
  await h.op("models.add", { providerId: provider.id, model: { id: model } });
  return h.store.repos!.providers.get(provider.id)!;
}

Deno.test("presets: the new four beside the original five, with their endpoints", async () => {
  const h = await opHarness();
  try {
    assertEquals(PRESET_IDS, [
      "deepseek",
      "openai",
      "anthropic",
      "gemini",
      "ollama",
      "openrouter",
      "lmstudio",
      "groq",
      "azure",
    ]);
    const { presets } = await h.op("providers.presets");
    const by = new Map(presets.map((p: { id: string }) => [p.id, p]));
    // deno-lint-ignore no-explicit-any
    const at = (id: string) => by.get(id) as any;
    assertEquals(at("openrouter").baseUrl, "https://openrouter.ai/api");
    assertEquals(at("lmstudio").baseUrl, "http://127.0.0.1:1234");
    assertEquals(at("groq").baseUrl, "https://api.groq.com/openai");
    assertEquals([at("azure").baseUrl, at("azure").listsModels], ["", false]);
    // The stored base URLs lead to each vendor's documented endpoint.
    const groq = (await h.op("providers.add", { preset: "groq" })).provider;
    assertEquals(
      chatCompletionsUrl({ ...groq, apiKey: "" }, "llama-3.3-70b-versatile"),
      "https://api.groq.com/openai/v1/chat/completions",
    );
    const or = (await h.op("providers.add", { preset: "openrouter" })).provider;
    assertEquals(
      chatCompletionsUrl({ ...or, apiKey: "" }, "x"),
      "https://openrouter.ai/api/v1/chat/completions",
    );
    // A custom provider pointed at a vendor's host gets the vendor's quirks too.
    assertEquals(dialectOf({ preset: null, baseUrl: "https://openrouter.ai/api" }), "openrouter");
    assertEquals(dialectOf({ preset: null, baseUrl: "https://x.openai.azure.com" }), "azure");
    assertEquals(dialectOf({ preset: null, baseUrl: "https://api.groq.com/openai" }), "groq");
    assertEquals(dialectOf({ preset: null, baseUrl: "http://127.0.0.1:1234" }), "plain");
  } finally {
    await h.close();
  }
});

Deno.test(
  "OpenRouter: Bearer key, HTTP-Referer and X-Title, reasoning as {effort}, usage counted",
  async () => {
    const mock = startMockLlm({ quiet: true });
    const h = await opHarness();
    try {
      mock.register("anthropic/claude-x", {
        turns: [{ thinking: "hmm", text: "hello", usage: { input: 40, output: 9, cacheRead: 60 } }],
      });
      const p = await fromPreset(h, "openrouter", mock.base, "anthropic/claude-x", { apiKey: KEY });
      assertEquals([p.preset, p.format], ["openrouter", "openai-chat-completions"]);
      const r = await ask(p, "anthropic/claude-x", "high");
      assertEquals(r.text, "hello");
      assertEquals(r.usage, { input: 40, output: 9, cacheRead: 60, cacheWrite: 0, reasoning: 0 });
      const req = mock.requests("anthropic/claude-x").at(-1)!;
      assertEquals(req.path, "/v1/chat/completions");
      assertEquals(req.headers["authorization"], `Bearer ${KEY}`);
      assertEquals(req.headers["x-title"], "ReinAgent");
      assertEquals(req.headers["http-referer"], "http://localhost");
      assertEquals(req.body.reasoning, { effort: "high" });
      assertEquals(req.body.reasoning_effort, undefined);
      assertEquals(req.body.max_tokens, 500);
      // The app URL sent as the referer is the user's to set.
      await h.op("providers.update", { id: p.id, options: { appUrl: "https://me.example" } });
      await ask(h.store.repos!.providers.get(p.id)!, "anthropic/claude-x");
      assertEquals(
        mock.requests("anthropic/claude-x").at(-1)!.headers["http-referer"],
        "https://me.example",
      );
      assertMatch(
        (await h.fail("providers.update", { id: p.id, options: { appUrl: "javascript:x" } }))
          .message,
        /app URL must start with http/,
      );
    } finally {
      await h.close();
      await mock.close();
    }
  },
);

Deno.test("LM Studio: local, no key, no auth header; thinking and usage read", async () => {
  const mock = startMockLlm({ quiet: true });
  const h = await opHarness();
  try {
    mock.register("qwen3-8b", { turns: [{ thinking: "think", text: "ok" }] });
    const p = await fromPreset(h, "lmstudio", mock.base, "qwen3-8b");
    assertEquals(p.apiKey, "");
    const r = await ask(p, "qwen3-8b");
    assertEquals(r.text, "ok");
    assert(r.usage && r.usage.input > 0);
    const req = mock.requests("qwen3-8b").at(-1)!;
    assertEquals(req.path, "/v1/chat/completions");
    assertEquals(req.headers["authorization"], undefined);
    assertEquals(req.body.stream_options, { include_usage: true });
    // Fetching the list works as for any OpenAI-compatible server.
    const fetched = await h.op("models.fetch", { providerId: p.id });
    assert(fetched.total >= 1);
  } finally {
    await h.close();
    await mock.close();
  }
});

Deno.test(
  "Azure OpenAI: deployment URL with api-version, api-key header, max_completion_tokens",
  async () => {
    const mock = startMockLlm({ quiet: true });
    const h = await opHarness();
    try {
      mock.register("my-gpt4o", {
        turns: [{ text: "from azure", usage: { input: 12, output: 3 } }],
      });
      // The resource URL as the portal shows it, with a trailing slash.
      const p = await fromPreset(h, "azure", `${mock.base}/`, "my-gpt4o", { apiKey: KEY });
      assertEquals(p.options, { apiVersion: AZURE_DEFAULT_API_VERSION });
      const r = await ask(p, "my-gpt4o", "low");
      assertEquals(r.text, "from azure");
      assertEquals(r.usage, { input: 12, output: 3, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
      const req = mock.requests("my-gpt4o").at(-1)!;
      assertEquals(
        req.path,
        `/openai/deployments/my-gpt4o/chat/completions?api-version=${AZURE_DEFAULT_API_VERSION}`,
      );
      assertEquals(req.headers["api-key"], KEY);
      assertEquals(req.headers["authorization"], undefined, "the key travels once, as api-key");
      assertEquals(req.body.max_completion_tokens, 500);
      assertEquals(req.body.max_tokens, undefined);
      assertEquals(req.body.reasoning_effort, "low");

      // Another api-version; a bad one is refused with a clear error.
      await h.op("providers.update", { id: p.id, options: { apiVersion: "2025-04-01-preview" } });
      await ask(h.store.repos!.providers.get(p.id)!, "my-gpt4o");
      assertMatch(mock.requests("my-gpt4o").at(-1)!.path, /api-version=2025-04-01-preview$/);
      const bad = await h.fail("providers.update", { id: p.id, options: { apiVersion: "a b" } });
      assertEquals(bad.code, "invalid_args");
      // Deployments cannot be listed for a key: the error says what to do instead.
      assertMatch(
        (await h.fail("models.fetch", { providerId: p.id })).message,
        /add each deployment's name as a model/,
      );
      // A provider without a base URL cannot be used: Azure's preset has none to offer.
      const blank = (await h.op("providers.add", { preset: "azure" })).provider;
      assertEquals(blank.baseUrl, "");
      assertMatch(
        (await h.fail("models.fetch", { providerId: blank.id })).message,
        /set the base URL/,
      );
    } finally {
      await h.close();
      await mock.close();
    }
  },
);

Deno.test(
  "Groq: Bearer key under /openai/v1; usage read from x_groq when it arrives there",
  async () => {
    const seen: { path: string; auth: string | null; body: Record<string, unknown> }[] = [];
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      async (req) => {
        const url = new URL(req.url);
        seen.push({
          path: url.pathname,
          auth: req.headers.get("authorization"),
          body: await req.json(),
        });
        const chunk = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
        const sse = [
          chunk({ choices: [{ index: 0, delta: { role: "assistant", content: "fast" } }] }),
          chunk({
            choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
            x_groq: { id: "req_1", usage: { prompt_tokens: 30, completion_tokens: 5 } },
          }),
          "data: [DONE]\n\n",
        ].join("");
        return new Response(sse, { headers: { "content-type": "text/event-stream" } });
      },
    );
    const h = await opHarness();
    try {
      const base = `http://127.0.0.1:${server.addr.port}/openai`;
      const p = await fromPreset(h, "groq", base, "llama-3.3-70b-versatile", { apiKey: KEY });
      // The built-in list price of a Groq model comes with it.
      assertEquals(p.models[0].price?.input, 590_000);
      const r = await ask(p, "llama-3.3-70b-versatile");
      assertEquals(r.text, "fast");
      assertEquals(r.usage, { input: 30, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
      assertEquals(seen[0].path, "/openai/v1/chat/completions");
      assertEquals(seen[0].auth, `Bearer ${KEY}`);
      assertEquals(seen[0].body.max_tokens, 500);
    } finally {
      await h.close();
      await server.shutdown();
    }
  },
);

Deno.test("the original presets keep their request shape (DeepSeek, Ollama)", async () => {
  const mock = startMockLlm({ quiet: true });
  const h = await opHarness();
  try {
    mock.register("deepseek-chat", { turns: [{ text: "ds" }] });
    mock.register("llama3", { turns: [{ text: "local" }] });
    const ds = await fromPreset(h, "deepseek", mock.base, "deepseek-chat", { apiKey: KEY });
    await ask(ds, "deepseek-chat", "high");
    const req = mock.requests("deepseek-chat").at(-1)!;
    assertEquals([req.path, req.headers["authorization"]], [
      "/v1/chat/completions",
      `Bearer ${KEY}`,
    ]);
    assertEquals([req.body.reasoning_effort, req.body.reasoning], ["high", undefined]);
    assertEquals([req.headers["x-title"], req.headers["api-key"]], [undefined, undefined]);
    const ol = await fromPreset(h, "ollama", mock.base, "llama3");
    await ask(ol, "llama3");
    assertEquals(mock.requests("llama3").at(-1)!.headers["authorization"], undefined);
  } finally {
    await h.close();
    await mock.close();
  }
});
