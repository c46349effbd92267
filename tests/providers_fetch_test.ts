/**
 * Fetching model lists (real metadata only, merge without losing user edits), the
 * connectivity test and key masking, against the mock LLM server and small local
 * servers that answer like each vendor.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { opHarness } from "./helpers/op_context.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { fetchModels } from "../server/providers/catalog_models.ts";
import { mergeModels, parseModel } from "../server/providers/models_fetch.ts";
import type { ModelInfo } from "../agent/providers/types.ts";
import type { PublicProvider } from "../protocol/index.ts";

const KEY = "sk-live-SECRET-0123456789abcdef";

/** A local HTTP server; records requests. */
function serve(handler: (req: Request) => Response | Promise<Response>) {
  const seen: { url: string; headers: Headers }[] = [];
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    seen.push({ url: req.url, headers: req.headers });
    return handler(req);
  });
  return { base: `http://127.0.0.1:${s.addr.port}`, seen, close: () => s.shutdown() };
}

const byId = (p: PublicProvider) => new Map(p.models.map((m) => [m.id, m]));

Deno.test("models.fetch against the mock: every metadata field, unknowns null", async () => {
  const mock = startMockLlm({ quiet: true });
  const h = await opHarness();
  try {
    const meta: Record<string, Record<string, unknown>> = {
      "m-window": { context_window: 131072, max_output_tokens: 8192, supports_images: true },
      "m-length": { context_length: 65536, max_tokens: 4096, modalities: { input: ["text"] } },
      "m-gemini-names": {
        inputTokenLimit: 1048576,
        outputTokenLimit: 65536,
        input_modalities: ["text", "image"],
        display_name: "Gemini-ish",
      },
      "m-completion": { max_completion_tokens: 32000, modalities: ["text", "image"] },
      "m-effort": { effort: { supported_levels: ["max", "bogus", "low"], default_level: "max" } },
      "m-bad": {
        context_window: "huge",
        max_output_tokens: -5,
        supports_images: "yes",
        effort: { supported_levels: ["ultra"], default_level: "ultra" },
      },
    };
    for (const [name, m] of Object.entries(meta)) {
      mock.register(name, { turns: [{ text: "ok" }], meta: m });
    }
    const pid = (await h.op("providers.add", { name: "Mock", baseUrl: `${mock.base}/v1/` }))
      .provider.id;
    const r = await h.op("models.fetch", { providerId: pid });
    assertEquals(r.added, r.total);
    assert(r.total >= 9, `expected builtins + 6, got ${r.total}`);
    const m = byId(r.provider);
    const facts = (id: string) => {
      const x = m.get(id)!;
      return [x.contextWindow, x.maxOutput, x.vision, x.effortLevels, x.defaultEffort, x.enabled];
    };
    assertEquals(facts("m-window"), [131072, 8192, true, null, null, false]);
    assertEquals(facts("m-length"), [65536, 4096, false, null, null, false]);
    assertEquals(facts("m-gemini-names"), [1048576, 65536, true, null, null, false]);
    assertEquals(m.get("m-gemini-names")!.name, "Gemini-ish");
    assertEquals(facts("m-completion"), [null, 32000, true, null, null, false]);
    assertEquals(facts("m-effort"), [null, null, null, ["low", "max"], "max", false]);
    assertEquals(facts("m-bad"), [null, null, null, null, null, false]);
    assertEquals(facts("mock-plain"), [null, null, null, null, null, false]);
    assertEquals(m.get("mock-plain")!.source, "fetched");
    assertEquals(m.get("mock-tools")!.effortLevels, ["low", "medium", "high"]);
  } finally {
    await h.close();
    await mock.close();
  }
});

Deno.test(
  "models.fetch merge: user edits kept, new models disabled, nothing dropped",
  async () => {
    const mock = startMockLlm({ quiet: true });
    const h = await opHarness();
    try {
      const pid = (await h.op("providers.add", {
        name: "Mock",
        baseUrl: mock.base,
        models: ["my-manual", "mock-plain"],
      })).provider.id;
      const first = await h.op("models.fetch", { providerId: pid });
      assertEquals(first.added, first.total - 1, "mock-plain was already there");
      let m = byId(first.provider);
      assertEquals([m.get("mock-plain")!.enabled, m.get("mock-plain")!.source], [true, "manual"]);
      assertEquals(m.get("mock-echo")!.enabled, false);

      const edit = (modelId: string, patch: Record<string, unknown>) =>
        h.op("models.update", { providerId: pid, modelId, patch });
      await edit("mock-echo", { enabled: true, name: "My echo", contextWindow: 64000 });
      await edit("mock-plain", { maxOutput: 1234 });
      await edit("mock-tools", { vision: false });
      mock.register("brand-new", { turns: [{ text: "x" }], meta: { context_window: 1000 } });

      const second = await h.op("models.fetch", { providerId: pid });
      assertEquals(second.added, 1);
      m = byId(second.provider);
      const echo = m.get("mock-echo")!;
      assertEquals([echo.enabled, echo.name, echo.contextWindow, echo.maxOutput], [
        true,
        "My echo",
        64000,
        8192,
      ]);
      assertEquals(m.get("mock-plain")!.maxOutput, 1234);
      assertEquals(m.get("mock-tools")!.vision, false, "a user edit beats the listed value");
      assertEquals([m.get("brand-new")!.enabled, m.get("brand-new")!.contextWindow], [false, 1000]);
      assertEquals(m.get("my-manual")!.enabled, true, "manual models are kept");
      assertEquals(second.provider.models.at(-1)!.id, "brand-new", "new models go last");
    } finally {
      await h.close();
      await mock.close();
    }
  },
);

Deno.test("mergeModels keeps models the provider no longer lists; parseModel skips bad ids", () => {
  const old: ModelInfo = {
    id: "gone",
    name: "Gone",
    enabled: true,
    contextWindow: 1,
    maxOutput: null,
    vision: null,
    effortLevels: null,
    defaultEffort: null,
    source: "fetched",
    price: null,
  };
  const r = mergeModels([old], []);
  assertEquals(r, { models: [old], added: 0 });
  assertEquals(parseModel("openai-chat-completions", { id: "has space" }), null);
  assertEquals(parseModel("openai-chat-completions", { object: "model" }), null);
  assertEquals(
    parseModel("openai-chat-completions", { id: "n", context_length: "4096" })!
      .contextWindow,
    4096,
  );
});

Deno.test("models.fetch per format: auth headers, Gemini and Anthropic paging", async () => {
  const s = serve((req) => {
    const u = new URL(req.url);
    const json = (b: unknown) => Response.json(b);
    if (u.pathname === "/v1beta/models") {
      return u.searchParams.get("pageToken") === "p2"
        ? json({ models: [{ name: "models/gemini-b", inputTokenLimit: 2000 }] })
        : json({
          models: [
            {
              name: "models/gemini-a",
              displayName: "Gemini A",
              inputTokenLimit: 1048576,
              outputTokenLimit: 8192,
              supportedGenerationMethods: ["generateContent", "countTokens"],
            },
            { name: "models/embed", supportedGenerationMethods: ["embedContent"] },
          ],
          nextPageToken: "p2",
        });
    }
    if (u.pathname === "/v1/models" && req.headers.has("x-api-key")) {
      return u.searchParams.get("after_id") === "claude-a"
        ? json({ data: [{ id: "claude-b" }], has_more: false })
        : json({
          data: [{ id: "claude-a", display_name: "Claude A" }],
          has_more: true,
          last_id: "claude-a",
        });
    }
    return json({ data: [{ id: "gpt-x" }] });
  });
  const h = await opHarness();
  try {
    const add = async (format: string) =>
      (await h.op("providers.add", { name: format, format, baseUrl: s.base, apiKey: KEY }))
        .provider.id;
    const g = await h.op("models.fetch", { providerId: await add("google-generative-ai") });
    assertEquals(g.provider.models.map((m: ModelInfo) => [m.id, m.name, m.contextWindow]), [
      ["gemini-a", "Gemini A", 1048576],
      ["gemini-b", "gemini-b", 2000],
    ]);
    const gReqs = s.seen.splice(0);
    assertEquals(gReqs.length, 2);
    assert(gReqs.every((r) => r.headers.get("x-goog-api-key") === KEY), "gemini key header");
    assert(gReqs.every((r) => !r.url.includes(KEY)), "the key is never put in the URL");

    const a = await h.op("models.fetch", { providerId: await add("anthropic-messages") });
    assertEquals(a.provider.models.map((m: ModelInfo) => m.id), ["claude-a", "claude-b"]);
    const aReqs = s.seen.splice(0);
    assertEquals(aReqs.map((r) => r.headers.get("anthropic-version")), [
      "2023-06-01",
      "2023-06-01",
    ]);
    assertEquals(aReqs[0].headers.get("x-api-key"), KEY);

    const o = await h.op("models.fetch", { providerId: await add("openai-responses") });
    assertEquals(o.provider.models.map((m: ModelInfo) => m.id), ["gpt-x"]);
    assertEquals(s.seen[0].headers.get("authorization"), `Bearer ${KEY}`);
    assertEquals(new URL(s.seen[0].url).pathname, "/v1/models");
  } finally {
    await h.close();
    await s.close();
  }
});

Deno.test(
  "models.fetch errors: real status/text/URL, key scrubbed; network; timeout",
  async () => {
    const s = serve((req) => {
      const p = new URL(req.url).pathname;
      if (p.startsWith("/nojson")) return new Response("<html>gateway</html>", { status: 200 });
      if (p.startsWith("/nodata")) return Response.json({ models: "?" });
      if (p.startsWith("/slow")) {
        // Answers only once the client gave up, so the server can shut down.
        return new Promise((r) => req.signal.addEventListener("abort", () => r(new Response(""))));
      }
      return Response.json(
        { error: { message: `Incorrect API key provided: ${KEY}` } },
        { status: 401 },
      );
    });
    const h = await opHarness();
    try {
      const add = async (baseUrl: string) =>
        (await h.op("providers.add", { name: baseUrl, baseUrl, apiKey: KEY })).provider.id;
      const e401 = await h.fail("models.fetch", { providerId: await add(`${s.base}/auth`) });
      assertEquals(e401.code, "upstream");
      assertMatch(e401.message, /HTTP 401: Incorrect API key provided: sk-…cdef/);
      assert(e401.message.includes(`${s.base}/auth/v1/models`), e401.message);
      assertMatch(e401.message, /API key was rejected/);
      assert(!e401.message.includes(KEY), "the key is scrubbed from upstream text");

      const nojson = await h.fail("models.fetch", { providerId: await add(`${s.base}/nojson`) });
      assertMatch(nojson.message, /the model list is not JSON/);
      const nodata = await h.fail("models.fetch", { providerId: await add(`${s.base}/nodata`) });
      assertMatch(nodata.message, /no "data" array/);

      const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const closedPort = (l.addr as Deno.NetAddr).port;
      l.close();
      const net = await h.fail("models.fetch", {
        providerId: await add(`http://127.0.0.1:${closedPort}`),
      });
      assertMatch(
        net.message,
        /network error: .*Connection refused.*Nothing answers at 127\.0\.0\.1:\d+/,
      );
      const blankId = (await h.op("providers.add", { apiKey: KEY })).provider.id;
      const blank = await h.fail("models.fetch", { providerId: blankId });
      assertEquals(blank.code, "invalid_args");
      assertMatch(blank.message, /set the base URL of "New provider 1" first/);

      const slowId = await add(`${s.base}/slow`);
      let err = "";
      await fetchModels(h.store.repos!, slowId, { timeoutMs: 150 }).catch((e) => err = e.message);
      assertMatch(err, /no answer within 0 s|no answer within/);
      const untouched = (await h.op("providers.list")).providers.find((p: PublicProvider) =>
        p.id === slowId
      );
      assertEquals(untouched.models, [], "a failed fetch changes nothing");
    } finally {
      await h.close();
      await s.close();
    }
  },
);

Deno.test(
  "models.test: ok with latency in every format; real errors; keys never returned",
  async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("fail-401", { turns: [{ fail: { status: 401, message: `bad key ${KEY}` } }] });
    const h = await opHarness();
    try {
      const outputs: unknown[] = [];
      const run = async (op: string, args: unknown = {}) => {
        const out = await h.raw(op, args);
        outputs.push(out);
        return (out as { result: unknown }).result;
      };
      for (
        const format of [
          "openai-chat-completions",
          "openai-responses",
          "anthropic-messages",
          "google-generative-ai",
        ]
      ) {
        const { provider } = await run("providers.add", {
          name: format,
          format,
          baseUrl: mock.base,
          apiKey: KEY,
          models: ["mock-echo", "fail-401"],
        }) as { provider: PublicProvider };
        const ok = await run("models.test", { providerId: provider.id, modelId: "mock-echo" }) as {
          ok: boolean;
          latencyMs: number;
          reply: string;
        };
        assertEquals([ok.ok, ok.reply], [true, "Hello from the mock model."], format);
        assert(ok.latencyMs >= 0 && ok.latencyMs < 25_000, `${ok.latencyMs}`);
        const bad = await run("models.test", { providerId: provider.id, modelId: "fail-401" }) as {
          ok: boolean;
          error: { status: number; category: string; message: string };
        };
        assertEquals([bad.ok, bad.error.status, bad.error.category], [false, 401, "auth"], format);
        assertMatch(bad.error.message, /bad key sk-…cdef/, format);
        await run("models.fetch", { providerId: provider.id }).catch(() => {});
        await run("models.update", {
          providerId: provider.id,
          modelId: "mock-echo",
          patch: { enabled: true },
        });
        await run("settings.setDefaultModel", { providerId: provider.id, modelId: "mock-echo" });
        await run("providers.update", { id: provider.id, name: `${format}!` });
      }
      const chat = mock.requests("mock-echo").find((r) => r.path === "/v1/chat/completions")!;
      assertEquals(chat.body.max_tokens, 16);
      assertEquals((chat.body.messages as { content: unknown }[])[0].content, "Reply with OK.");
      assertEquals(chat.headers.authorization, `Bearer ${KEY}`, "the real key is sent upstream");
      const demo = await run("models.test", { providerId: "demo", modelId: "demo" }) as {
        ok: boolean;
        reply: string;
      };
      assertEquals(demo.ok, true);
      assertMatch(demo.reply, /Demo/);
      await run("providers.list");
      await run("settings.subscribe");
      await run("models.delete", { providerId: "openai-responses", modelId: "fail-401" });
      await run("providers.delete", { id: "anthropic-messages" });
      const text = JSON.stringify(outputs);
      assert(!text.includes(KEY), "an op result contains the API key");
      assertMatch(text, /sk-…cdef/);
      assertEquals(
        (await h.fail("models.test", { providerId: "openai-responses", modelId: "nope" })).code,
        "not_found",
      );
    } finally {
      await h.close();
      await mock.close();
    }
  },
);

Deno.test(
  "models.fetch takes the prices the list states; a typed price survives a refetch",
  async () => {
    const mock = startMockLlm({ quiet: true });
    const h = await opHarness();
    try {
      // OpenRouter's shape: dollars per token as decimal strings, "-1" = varies.
      mock.register("vendor/priced", {
        turns: [{ text: "ok" }],
        meta: {
          pricing: {
            prompt: "0.000003",
            completion: "0.000015",
            input_cache_read: "0.0000003",
            input_cache_write: "0.00000375",
          },
        },
      });
      mock.register("vendor/varies", {
        turns: [{ text: "ok" }],
        meta: { pricing: { prompt: "-1", completion: "-1" } },
      });
      const pid = (await h.op("providers.add", { name: "Router", baseUrl: mock.base })).provider.id;
      const r = await h.op("models.fetch", { providerId: pid });
      const m = byId(r.provider);
      assertEquals(m.get("vendor/priced")!.price, {
        currency: "USD",
        input: 3_000_000,
        output: 15_000_000,
        cacheRead: 300_000,
        cacheWrite: 3_750_000,
        source: "fetched",
      });
      assertEquals(m.get("vendor/varies")!.price, null, "no stated price: unknown, not 0");
      assertEquals(m.get("mock-plain")!.price, null);

      // The user's own price is kept when the list is fetched again.
      const mine = { currency: "EUR", input: 1, output: 2, cacheRead: null, cacheWrite: null };
      await h.op("models.update", {
        providerId: pid,
        modelId: "vendor/priced",
        patch: { price: mine },
      });
      const again = byId((await h.op("models.fetch", { providerId: pid })).provider);
      assertEquals(again.get("vendor/priced")!.price, { ...mine, source: "manual" });
    } finally {
      await h.close();
      await mock.close();
    }
  },
);

Deno.test("models.fetch from a preset vendor fills in the built-in list price", async () => {
  const h = await opHarness();
  try {
    const pid = (await h.op("providers.add", { preset: "deepseek", apiKey: "sk-test-1234567890" }))
      .provider.id;
    const fake: typeof fetch = () =>
      Promise.resolve(
        new Response(JSON.stringify({ data: [{ id: "deepseek-chat" }, { id: "deepseek-x" }] })),
      );
    const r = await fetchModels(h.store.repos!, pid, { fetchFn: fake });
    const m = new Map(r.provider.models.map((x) => [x.id, x]));
    assertEquals(m.get("deepseek-chat")!.price?.source, "builtin");
    assertEquals(m.get("deepseek-chat")!.price?.input, 280_000);
    assertEquals(m.get("deepseek-x")!.price, null);
    // Added by hand: the built-in price too; an explicit null means unknown.
    const added = await h.op("models.add", {
      providerId: pid,
      model: { id: "deepseek-reasoner" },
    });
    assertEquals(added.model.price.output, 420_000);
    const none = await h.op("models.add", {
      providerId: pid,
      model: { id: "deepseek-reasoner-2", price: null },
    });
    assertEquals(none.model.price, null);
  } finally {
    await h.close();
  }
});
