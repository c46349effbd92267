/** UI composer options: step budgets, offered levels, defaults, badges. */
import { assertEquals } from "./helpers/assert.ts";
import { type Effort, EFFORT_LEVELS } from "../protocol/index.ts";
import { offeredLevels as serverLevels, stepBudget } from "../agent/providers/effort.ts";
import { DEMO_MODEL, DEMO_PROVIDER_ID } from "../agent/providers/demo.ts";
import {
  DEMO_REF,
  effectiveEffort,
  effectiveOptions,
  findModel,
  formatTokens,
  offeredLevels,
  stepsFor,
  usableGroups,
} from "../ui/state/options.js";

Deno.test("step budgets match the server's for every level and mode", () => {
  for (const e of EFFORT_LEVELS) {
    for (const a of ["plan", "ask", "edit", "full"] as const) {
      assertEquals(stepsFor(e, a), stepBudget(e, a), `${e}/${a}`);
    }
  }
  assertEquals(stepsFor("high", "ask"), 400);
  assertEquals(stepsFor("high", "full"), Infinity);
});

Deno.test("offered levels match the server's rule", () => {
  const declared = { effortLevels: ["low", "high"] as ("low" | "high")[] };
  assertEquals(offeredLevels(declared), serverLevels(declared));
  assertEquals(offeredLevels({ effortLevels: null }), serverLevels({ effortLevels: null }));
  assertEquals(offeredLevels(null), ["default", "low", "medium", "high"]);
  // The Demo is scripted: it declares only Default.
  assertEquals(offeredLevels(DEMO_MODEL), ["default"]);
});

Deno.test("effectiveEffort: a level the model does not offer becomes its default, else its first", () => {
  const ds = { effortLevels: ["low", "high", "max"] as Effort[], defaultEffort: "high" as Effort };
  assertEquals(effectiveEffort(ds, "high"), "high");
  assertEquals(effectiveEffort(ds, "default"), "high");
  assertEquals(effectiveEffort({ ...ds, defaultEffort: null }, "medium"), "low");
  assertEquals(effectiveEffort({ effortLevels: null, defaultEffort: null }, "high"), "high");
  assertEquals(effectiveEffort({ effortLevels: null, defaultEffort: null }, "max"), "default");
  assertEquals(effectiveEffort(DEMO_MODEL, "high"), "default");
});

Deno.test("the UI's Demo reference is the server's Demo model", () => {
  assertEquals(DEMO_REF, { providerId: DEMO_PROVIDER_ID, modelId: DEMO_MODEL.id });
});

Deno.test("formatTokens", () => {
  assertEquals(
    [128_000, 200_000, 32_768, 1_000_000, 1_500_000, 512, null, 0].map(formatTokens),
    ["128K", "200K", "32.8K", "1M", "1.5M", "512", "", ""],
  );
});

Deno.test("effectiveOptions: task choice, else system default, else built-in", () => {
  const sys = {
    defaultModel: { providerId: "p", modelId: "m" },
    defaultEffort: "medium" as const,
    defaultApproval: "ask" as const,
  };
  const none = { model: null, effort: null, approval: null };
  assertEquals(effectiveOptions(none, null), {
    model: DEMO_REF,
    effort: "default",
    approval: "edit",
    isDemo: true,
    inherited: { model: true, effort: true, approval: true },
  });
  const fromSys = effectiveOptions(none, sys);
  assertEquals([fromSys.model, fromSys.effort, fromSys.approval, fromSys.isDemo], [
    sys.defaultModel,
    "medium",
    "ask",
    false,
  ]);
  const chosen = effectiveOptions({ model: DEMO_REF, effort: "high", approval: "plan" }, sys);
  assertEquals([chosen.isDemo, chosen.effort, chosen.approval, chosen.inherited], [
    true,
    "high",
    "plan",
    { model: false, effort: false, approval: false },
  ]);
});

Deno.test("usableGroups and findModel", () => {
  const m = (id: string, enabled = true) => ({
    id,
    name: id,
    enabled,
    contextWindow: null,
    maxOutput: null,
    vision: null,
    effortLevels: null,
    defaultEffort: null,
    source: "manual" as const,
    price: null,
  });
  const p = (id: string, enabled: boolean, models: ReturnType<typeof m>[]) => ({
    id,
    name: id,
    format: "openai-chat-completions" as const,
    baseUrl: "",
    enabled,
    models,
    apiKeyMasked: "",
    hasKey: false,
    readOnly: id === "demo",
  });
  const list = [
    p("a", true, [m("a1"), m("a2", false)]),
    p("off", false, [m("x")]),
    p("empty", true, [m("e", false)]),
    p("demo", true, [m("demo")]),
  ];
  assertEquals(
    usableGroups(list).map((g) => [g.provider.id, g.models.map((x) => x.id)]),
    [["demo", ["demo"]], ["a", ["a1"]]],
  );
  assertEquals(findModel(list, { providerId: "a", modelId: "a2" })?.usable, false);
  assertEquals(findModel(list, { providerId: "a", modelId: "a1" })?.usable, true);
  assertEquals(findModel(list, { providerId: "a", modelId: "nope" }), null);
  assertEquals(findModel(list, null), null);
});
