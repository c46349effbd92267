/**
 * Provider & settings ops through the real dispatcher and store: add/update/delete,
 * presets, base URL rules, the read-only Demo, settings, events, masking of keys and
 * model resolution without silent fallback.
 */
import { DEFAULT_HIDDEN_PATHS } from "../server/providers/catalog.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { opHarness } from "./helpers/op_context.ts";
import {
  getSettings,
  resolveModel,
  SETTINGS_KEYS,
  slugify,
  uniqueId,
} from "../server/providers/catalog.ts";
import { OpError } from "../server/errors.ts";
import type { PublicProvider } from "../protocol/index.ts";

const KEY = "sk-live-SECRET-0123456789abcdef";

function throwsOp(fn: () => unknown, code: string, re: RegExp): void {
  try {
    fn();
  } catch (e) {
    assert(e instanceof OpError, `not an OpError: ${e}`);
    assertEquals(e.code, code);
    assertMatch(e.message, re);
    return;
  }
  throw new Error("expected an OpError");
}

Deno.test("providers: Demo first and read-only; add defaults to New provider N", async () => {
  const h = await opHarness();
  try {
    const first = await h.op("providers.list");
    assertEquals(first.providers.map((p: PublicProvider) => [p.id, p.readOnly]), [["demo", true]]);
    assertEquals(first.defaultModel, null);

    const a = (await h.op("providers.add")).provider;
    assertEquals(
      [a.id, a.name, a.format, a.baseUrl, a.enabled, a.hasKey, a.models],
      ["new-provider-1", "New provider 1", "openai-chat-completions", "", true, false, []],
    );
    const b = (await h.op("providers.add")).provider;
    assertEquals([b.id, b.name], ["new-provider-2", "New provider 2"]);
    await h.op("providers.delete", { id: a.id });
    const c = (await h.op("providers.add")).provider;
    assertEquals(c.name, "New provider 1", "the smallest free number is reused");

    for (
      const [op, args] of [
        ["providers.update", { id: "demo", name: "Mine" }],
        ["providers.delete", { id: "demo" }],
        ["models.add", { providerId: "demo", model: { id: "x" } }],
        ["models.update", { providerId: "demo", modelId: "demo", patch: { enabled: false } }],
        ["models.delete", { providerId: "demo", modelId: "demo" }],
      ] as const
    ) {
      const e = await h.fail(op, args);
      assertEquals(e.code, "invalid_args", op);
      assertMatch(e.message, /Demo provider is read-only/, op);
    }
    const f = await h.fail("models.fetch", { providerId: "demo" });
    assertMatch(f.message, /Demo provider has a fixed model list/);
    const list = (await h.op("providers.list")).providers as PublicProvider[];
    assertEquals(list.map((p) => p.id), ["demo", "new-provider-2", "new-provider-1"]);
    assertEquals(list[0].models.map((m) => m.enabled), [true]);
  } finally {
    await h.close();
  }
});

Deno.test("providers: presets, id slugs, explicit ids", async () => {
  const h = await opHarness();
  try {
    const { presets } = await h.op("providers.presets");
    assertEquals(
      presets.map((p: { id: string; baseUrl: string; format: string }) => [
        p.id,
        p.baseUrl,
        p.format,
      ]),
      [
        ["deepseek", "https://api.deepseek.com", "openai-chat-completions"],
        ["openai", "https://api.openai.com", "openai-responses"],
        ["anthropic", "https://api.anthropic.com", "anthropic-messages"],
        ["gemini", "https://generativelanguage.googleapis.com", "google-generative-ai"],
        ["ollama", "http://127.0.0.1:11434", "openai-chat-completions"],
        ["openrouter", "https://openrouter.ai/api", "openai-chat-completions"],
        ["lmstudio", "http://127.0.0.1:1234", "openai-chat-completions"],
        ["groq", "https://api.groq.com/openai", "openai-chat-completions"],
        ["azure", "", "openai-chat-completions"],
      ],
    );
    const ds = (await h.op("providers.add", { preset: "deepseek", apiKey: KEY })).provider;
    assertEquals([ds.id, ds.name, ds.baseUrl, ds.hasKey], [
      "deepseek",
      "DeepSeek",
      "https://api.deepseek.com",
      true,
    ]);
    const ds2 = (await h.op("providers.add", { preset: "deepseek" })).provider;
    assertEquals([ds2.id, ds2.name], ["deepseek-2", "DeepSeek 2"]);
    assertEquals((await h.fail("providers.add", { preset: "nope" })).code, "invalid_args");

    const named = (await h.op("providers.add", { name: "Mój Dostawca!" })).provider;
    assertEquals(named.id, "moj-dostawca");
    assertEquals((await h.op("providers.add", { name: "我的服务商" })).provider.id, "provider");
    assertEquals(
      (await h.op("providers.add", { name: "我的服务商 二" })).provider.id,
      "provider-2",
    );
    assertEquals(slugify("x".repeat(60)).length, 40);
    const taken = new Set(["y".repeat(40)]);
    assertEquals(uniqueId("y".repeat(40), taken), `${"y".repeat(38)}-2`);

    const exp = (await h.op("providers.add", { id: "corp-gw", name: "Corp" })).provider;
    assertEquals(exp.id, "corp-gw");
    assertMatch((await h.fail("providers.add", { id: "corp-gw" })).message, /already exists/);
    assertMatch((await h.fail("providers.add", { id: "demo" })).message, /reserved/);
    assertEquals((await h.fail("providers.add", { id: "Bad_Id" })).code, "invalid_args");
    assertEquals((await h.fail("providers.add", { name: "   " })).code, "invalid_args");
    assertEquals((await h.fail("providers.add", { format: "demo" })).code, "invalid_args");
    assertEquals((await h.fail("providers.add", { bogus: 1 })).code, "invalid_args");
  } finally {
    await h.close();
  }
});

Deno.test("providers.update: base URL normalised or rejected; key set and cleared", async () => {
  const h = await opHarness();
  try {
    const { id } = (await h.op("providers.add", { name: "P" })).provider;
    for (
      const [input, stored] of [
        ["https://api.example.com/v1/", "https://api.example.com"],
        ["https://api.example.com///", "https://api.example.com"],
        ["  http://10.0.0.2:8787/v1  ", "http://10.0.0.2:8787"],
        ["https://gw.example.com/api/v1", "https://gw.example.com/api"],
        ["", ""],
      ]
    ) {
      const p = (await h.op("providers.update", { id, baseUrl: input })).provider;
      assertEquals(p.baseUrl, stored, input);
    }
    await h.op("providers.update", { id, baseUrl: "https://keep.example.com" });
    for (
      const [input, re] of [
        ["ftp://files.example.com", /must start with http:\/\/ or https:\/\//],
        ["not a url", /not a valid URL/],
        ["javascript:alert(1)", /must start with http/],
        ["https://user:pw@example.com", /must not contain a user name or password/],
        ["https://example.com/?x=1", /query/],
      ] as const
    ) {
      const e = await h.fail("providers.update", { id, baseUrl: input });
      assertEquals(e.code, "invalid_args", input);
      assertMatch(e.message, re, input);
      assert(!e.message.includes("pw@"), "the rejected URL is not echoed");
    }
    let p = (await h.op("providers.list")).providers[1] as PublicProvider;
    assertEquals(p.baseUrl, "https://keep.example.com", "a rejected update changes nothing");

    p = (await h.op("providers.update", {
      id,
      apiKey: ` ${KEY}\n`,
      name: "  Renamed   provider ",
      format: "anthropic-messages",
      enabled: false,
    })).provider;
    assertEquals([p.name, p.format, p.enabled, p.hasKey, p.apiKeyMasked], [
      "Renamed provider",
      "anthropic-messages",
      false,
      true,
      "sk-…cdef",
    ]);
    assertEquals(h.store.repos!.providers.get(id)!.apiKey, KEY, "stored trimmed, in full");
    assertMatch(
      (await h.fail("providers.update", { id, apiKey: "sk has spaces" })).message,
      /printable ASCII/,
    );
    p = (await h.op("providers.update", { id, apiKey: "" })).provider;
    assertEquals([p.hasKey, p.apiKeyMasked], [false, ""]);
    assertEquals(
      (await h.fail("providers.update", { id: "missing", name: "x" })).code,
      "not_found",
    );
    assertEquals((await h.fail("providers.update", { id, format: "gpt" })).code, "invalid_args");
  } finally {
    await h.close();
  }
});

Deno.test("models: manual add/edit/delete; default follows renames and clears on delete", async () => {
  const h = await opHarness();
  try {
    const pid = (await h.op("providers.add", {
      name: "P",
      baseUrl: "http://127.0.0.1:9",
      models: ["m1", "m1", "m2"],
    })).provider.id;
    let p = (await h.op("providers.list")).providers[1] as PublicProvider;
    assertEquals(p.models.map((m) => [m.id, m.enabled, m.source]), [
      ["m1", true, "manual"],
      ["m2", true, "manual"],
    ]);
    const added = await h.op("models.add", {
      providerId: pid,
      model: { id: "big", name: "Big one", contextWindow: 1_000_000, vision: true },
    });
    assertEquals(added.model, {
      id: "big",
      name: "Big one",
      enabled: true,
      contextWindow: 1_000_000,
      maxOutput: null,
      vision: true,
      effortLevels: null,
      defaultEffort: null,
      source: "manual",
      price: null,
    });
    assertMatch(
      (await h.fail("models.add", { providerId: pid, model: { id: "big" } })).message,
      /already has a model "big"/,
    );
    assertEquals(
      (await h.fail("models.add", { providerId: pid, model: { id: "has space" } })).code,
      "invalid_args",
    );
    assertEquals(
      (await h.fail("models.add", { providerId: pid, model: { id: "x", contextWindow: 0 } }))
        .code,
      "invalid_args",
    );

    await h.op("settings.setDefaultModel", { providerId: pid, modelId: "big" });
    const upd = await h.op("models.update", {
      providerId: pid,
      modelId: "big",
      patch: { id: "big-2", name: "", contextWindow: null, maxOutput: 8192, vision: null },
    });
    assertEquals(
      [upd.model.id, upd.model.name, upd.model.contextWindow, upd.model.maxOutput],
      ["big-2", "big-2", null, 8192],
    );
    assertEquals((await h.op("settings.get")).defaultModel, { providerId: pid, modelId: "big-2" });
    assertMatch(
      (await h.fail("models.update", { providerId: pid, modelId: "m1", patch: { id: "m2" } }))
        .message,
      /already has a model "m2"/,
    );
    assertEquals(
      (await h.fail("models.update", { providerId: pid, modelId: "nope", patch: {} })).code,
      "not_found",
    );
    const del = await h.op("models.delete", { providerId: pid, modelId: "big-2" });
    assertEquals(del.defaultCleared, true);
    assertEquals((await h.op("settings.get")).defaultModel, null);
    p = del.provider;
    assertEquals(p.models.map((m) => m.id), ["m1", "m2"]);
  } finally {
    await h.close();
  }
});

Deno.test("settings: defaults, validation, events on topic settings", async () => {
  const h = await opHarness();
  try {
    assertEquals(await h.op("settings.get"), {
      defaultModel: null,
      defaultEffort: "default",
      defaultApproval: "edit",
      sandboxLevel: "workspace-write",
      sandboxNetwork: true,
      commandEnvAllow: [],
      hiddenPaths: [...DEFAULT_HIDDEN_PATHS],
      compactModel: null,
    });
    const snap = await h.op("settings.subscribe");
    assert(h.topics.has("settings"), "settings.subscribe subscribes");
    assertEquals(snap.providers[0].id, "demo");
    assertEquals(snap.defaultApproval, "edit");
    h.events();

    const s = await h.op("settings.set", { defaultEffort: "high", defaultApproval: "ask" });
    assertEquals([s.defaultEffort, s.defaultApproval], ["high", "ask"]);
    assertEquals((await h.fail("settings.set", { defaultEffort: "turbo" })).code, "invalid_args");
    assertEquals((await h.fail("settings.set", { defaultApproval: "yolo" })).code, "invalid_args");
    const sb = await h.op("settings.set", { sandboxLevel: "read-only", sandboxNetwork: false });
    assertEquals([sb.sandboxLevel, sb.sandboxNetwork], ["read-only", false]);
    assertEquals((await h.fail("settings.set", { sandboxLevel: "none" })).code, "invalid_args");
    const pid = (await h.op("providers.add", { name: "P", baseUrl: "http://h.example" })).provider
      .id;
    await h.op("models.add", { providerId: pid, model: { id: "m" } });
    await h.op("models.update", { providerId: pid, modelId: "m", patch: { enabled: false } });
    assertMatch(
      (await h.fail("settings.setDefaultModel", { providerId: pid, modelId: "m" })).message,
      /the model "m" is disabled/,
    );
    assertMatch(
      (await h.fail("settings.setDefaultModel", { providerId: pid, modelId: "zzz" })).message,
      /has no model "zzz"/,
    );
    assertMatch(
      (await h.fail("settings.setDefaultModel", { providerId: "ghost", modelId: "m" })).message,
      /there is no provider "ghost"/,
    );
    const demo = await h.op("settings.setDefaultModel", { providerId: "demo", modelId: "demo" });
    assertEquals(demo.defaultModel, { providerId: "demo", modelId: "demo" });
    const kinds = h.events().filter((e) => e.topic === "settings").map((e) =>
      (e.data as { kind: string }).kind
    );
    assert(kinds.includes("settings") && kinds.includes("providers"), kinds.join(","));
    // A failed op publishes nothing.
    await h.fail("providers.update", { id: pid, baseUrl: "ftp://x" });
    assertEquals(h.events().length, 0);
    // Server-owned keys are not writable through kv.set.
    assertEquals(
      (await h.fail("kv.set", { key: "settings.defaultModel", value: null })).code,
      "invalid_args",
    );
  } finally {
    await h.close();
  }
});

Deno.test("settings: every stored key is read back (all keys in one query)", async () => {
  const h = await opHarness();
  try {
    const demo = { providerId: "demo", modelId: "demo" };
    const stored: Record<keyof typeof SETTINGS_KEYS, unknown> = {
      defaultModel: demo,
      defaultEffort: "high",
      defaultApproval: "ask",
      sandboxLevel: "read-only",
      sandboxNetwork: false,
      commandEnvAllow: ["MY_VAR"],
      hiddenPaths: ["~/.secret"],
      compactModel: demo,
    };
    const repos = h.store.repos!;
    for (const [name, key] of Object.entries(SETTINGS_KEYS)) {
      repos.kv.set(key, stored[name as keyof typeof SETTINGS_KEYS]);
    }
    // A key outside the settings is not mistaken for one.
    repos.kv.set("settings", "not a setting");
    assertEquals({ ...getSettings(repos) }, stored);
  } finally {
    await h.close();
  }
});

Deno.test("resolveModel: ref → default → Demo; an unusable reference throws, never falls back", async () => {
  const h = await opHarness();
  try {
    const repos = h.store.repos!;
    assertEquals(resolveModel(repos, null).provider.id, "demo");
    assertEquals(resolveModel(repos, { providerId: "demo", modelId: "demo" }).model.id, "demo");
    const pid = (await h.op("providers.add", {
      name: "Real",
      baseUrl: "http://h.example",
      models: ["a", "b"],
    })).provider.id;
    await h.op("settings.setDefaultModel", { providerId: pid, modelId: "a" });
    const def = resolveModel(repos, null);
    assertEquals([def.provider.id, def.model.id], [pid, "a"]);
    assertEquals(resolveModel(repos, { providerId: pid, modelId: "b" }).model.id, "b");

    throwsOp(
      () => resolveModel(repos, { providerId: "ghost", modelId: "a" }),
      "not_found",
      /selected model ghost\/a cannot be used: there is no provider "ghost"/,
    );
    throwsOp(
      () => resolveModel(repos, { providerId: pid, modelId: "zz" }),
      "not_found",
      /no model/,
    );
    throwsOp(() => resolveModel(repos, { providerId: "demo", modelId: "x" }), "not_found", /x/);
    await h.op("models.update", { providerId: pid, modelId: "a", patch: { enabled: false } });
    throwsOp(() => resolveModel(repos, null), "not_found", /default model .* "a" is disabled/);
    await h.op("models.update", { providerId: pid, modelId: "a", patch: { enabled: true } });
    await h.op("providers.update", { id: pid, enabled: false });
    throwsOp(() => resolveModel(repos, null), "not_found", /provider "Real" is disabled/);
    await h.op("providers.update", { id: pid, enabled: true, baseUrl: "" });
    throwsOp(() => resolveModel(repos, null), "not_found", /has no base URL/);
    const del = await h.op("providers.delete", { id: pid });
    assertEquals(del, { id: pid, defaultCleared: true });
    assertEquals(resolveModel(repos, null).provider.id, "demo", "no default left: the Demo");
    assertEquals((await h.fail("providers.delete", { id: pid })).code, "not_found");
  } finally {
    await h.close();
  }
});

Deno.test("store unavailable: provider ops answer store_unavailable", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-ops-bad-" });
  await Deno.writeTextFile(`${home}/reinagent.db`, "not a database");
  const h = await opHarness({ home });
  try {
    for (const op of ["providers.list", "settings.get", "providers.add", "settings.subscribe"]) {
      assertEquals((await h.fail(op)).code, "store_unavailable", op);
    }
    assertEquals((await h.op("providers.presets")).presets.length, 9);
  } finally {
    await h.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("settings: a new install defaults to edit; an install that stored a default keeps it", async () => {
  const { stepBudget } = await import("../agent/providers/effort.ts");
  const fresh = await opHarness();
  try {
    const s = await fresh.op("settings.get");
    assertEquals(s.defaultApproval, "edit");
    // edit: the effort's budget applies (full would have no cap).
    assertEquals(stepBudget(s.defaultEffort, s.defaultApproval), 100);
    assertEquals(stepBudget("high", "edit"), 400);
    assertEquals(stepBudget("high", "full"), Infinity);
    await fresh.op("settings.set", { defaultApproval: "full" });
  } finally {
    await fresh.store.close();
  }
  // The same data folder opened again (an existing install that chose full): still full.
  const again = await opHarness({ home: fresh.home });
  try {
    assertEquals((await again.op("settings.get")).defaultApproval, "full");
  } finally {
    await again.close();
    await Deno.remove(fresh.home, { recursive: true });
  }
});

Deno.test("models.setEnabled: many models in one request; unknown ids change nothing", async () => {
  const h = await opHarness();
  try {
    const pid = (await h.op("providers.add", { name: "P", baseUrl: "http://h.example" })).provider
      .id;
    for (const id of ["a", "b", "c"]) await h.op("models.add", { providerId: pid, model: { id } });
    await h.op("models.setEnabled", { providerId: pid, modelIds: ["a", "b", "c"], enabled: false });
    await h.op("settings.subscribe");
    h.events();
    const r = await h.op("models.setEnabled", {
      providerId: pid,
      modelIds: ["a", "c"],
      enabled: true,
    });
    assertEquals(r.changed, 2);
    assertEquals(r.provider.models.map((m: { enabled: boolean }) => m.enabled), [
      true,
      false,
      true,
    ]);
    assertEquals(h.events().filter((e) => e.topic === "settings").length, 1, "one event");
    const again = await h.op("models.setEnabled", {
      providerId: pid,
      modelIds: ["a"],
      enabled: true,
    });
    assertEquals(again.changed, 0);
    assertEquals(h.events().filter((e) => e.topic === "settings").length, 0, "nothing changed");
    const bad = await h.fail("models.setEnabled", {
      providerId: pid,
      modelIds: ["b", "ghost"],
      enabled: true,
    });
    assertMatch(bad.message, /has no model "ghost"/);
    const list = (await h.op("providers.list")).providers.find((p: { id: string }) => p.id === pid);
    assertEquals(list.models.map((m: { enabled: boolean }) => m.enabled), [true, false, true]);
    assertEquals(
      (await h.fail("models.setEnabled", {
        providerId: "demo",
        modelIds: ["demo"],
        enabled: false,
      }))
        .code,
      "invalid_args",
    );
  } finally {
    await h.close();
  }
});
