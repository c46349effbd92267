/**
 * Pure UI logic of search, find, the stats line and the context ring: session stats
 * from recorded usage (unknown stays unknown), context use against the model's
 * window, find matches and stepping, result rows, shortcuts.
 */
import { assertEquals } from "./helpers/assert.ts";
import {
  compactTokens,
  contextUse,
  contextWindowOf,
  sessionStats,
  shortDuration,
  usageOf,
} from "../ui/state/stats_model.js";
import { analyseTurn, groupTurns, turnSpan } from "../ui/state/timeline_model.js";
import { entryText, matchesIn, stepIndex } from "../ui/state/find_model.js";
import { itemsOf, shares, shortcutOf } from "../ui/state/search_model.js";
import type { Entry, PublicProvider } from "../protocol/index.ts";

let n = 0;
function entry(
  role: Entry["role"],
  text: string,
  extra: Partial<Entry> & { meta?: Record<string, unknown> } = {},
): Entry {
  n++;
  return {
    id: `e${n}`,
    taskId: "t",
    pos: n,
    role,
    status: "done",
    createdAt: extra.createdAt ?? 1000 * n,
    updatedAt: extra.updatedAt ?? 1000 * n,
    parts: text ? [{ type: "text", text }] : [],
    meta: {},
    ...extra,
  };
}

const providers = [{
  id: "p",
  models: [{ id: "m/x", contextWindow: 100_000 }, { id: "nowin", contextWindow: null }],
}] as unknown as PublicProvider[];

Deno.test("stats: turns, steps, duration, tokens and cache hit from recorded usage", () => {
  const list = [
    entry("user", "hi", { createdAt: 10_000 }),
    entry("assistant", "a", {
      meta: {
        model: "p/m/x",
        startedAt: 10_100,
        endedAt: 12_000,
        usage: { input: 1000, output: 100, cacheRead: 3000, cacheWrite: 0 },
      },
    }),
    entry("tool", "", { meta: { endedAt: 15_000 } }),
    entry("assistant", "b", {
      meta: {
        model: "p/m/x",
        endedAt: 20_000,
        usage: { input: 500, output: 200, cacheRead: 4000, cacheWrite: 500 },
      },
    }),
    entry("user", "again", { createdAt: 100_000 }),
    entry("assistant", "c", { meta: { model: "p/m/x", endedAt: 105_000 } }), // no usage
  ];
  const s = sessionStats(list, { providers });
  assertEquals(s.turns, 2);
  assertEquals(s.steps, 3);
  assertEquals(s.durationMs, 10_000 + 5_000);
  // prompt = input + cacheRead + cacheWrite; tokens = prompt + output
  assertEquals(s.input, 1000 + 3000 + 500 + 4000 + 500);
  assertEquals(s.output, 300);
  assertEquals(s.tokens, 9000 + 300);
  assertEquals(s.cacheHit, 7000 / 9000);
  assertEquals(s.stepsWithoutUsage, 1);
  assertEquals(s.partial, false);
  // Context: the latest request with usage (the last step reported none).
  assertEquals(s.context, { used: 5200, limit: 100_000, percent: 5.2, model: "p/m/x" });
  assertEquals(sessionStats(list, { providers, total: 50 }).partial, true);
});

Deno.test("stats: the time is what the turns say they worked, added up; a rewind does not count", () => {
  // Turn 1 worked 19 s, turn 2 worked 10 s; minutes later the code was rewound to before
  // turn 2: the record of it ends the list, and the rewound message is marked then.
  const list = [
    entry("user", "one", { createdAt: 10_000, updatedAt: 187_000 }),
    entry("assistant", "a", { createdAt: 10_500, updatedAt: 29_000, meta: { endedAt: 29_000 } }),
    entry("user", "two", { createdAt: 60_000, updatedAt: 187_000 }),
    entry("tool", "", { createdAt: 61_000, updatedAt: 64_000, meta: { endedAt: 64_000 } }),
    entry("assistant", "b", { createdAt: 64_500, updatedAt: 70_000, meta: { endedAt: 70_000 } }),
    entry("system", "hook", { createdAt: 95_000, updatedAt: 95_000, meta: { kind: "hook" } }),
    entry("system", "Code rewound", {
      createdAt: 187_000,
      updatedAt: 187_000,
      meta: { kind: "rewind" },
    }),
  ];
  const turns = groupTurns(list);
  const worked = turns.map((t) => {
    const v = analyseTurn(t, false);
    return v.endedAt - v.startedAt;
  });
  assertEquals(worked, [19_000, 10_000], "each turn's Worked line");
  assertEquals(turns.map((t) => turnSpan(t).endedAt - turnSpan(t).startedAt), worked);
  assertEquals(sessionStats(list).durationMs, 29_000, "the stats line: the same time, added up");
  // While a run is live the streaming step ends now, in the turn and in the sum alike.
  const live = [...list, entry("user", "three", { createdAt: 200_000 }), {
    ...entry("assistant", "", { createdAt: 200_500, updatedAt: 201_000 }),
    status: "streaming" as const,
  }];
  assertEquals(turnSpan(groupTurns(live)[2], 205_000).endedAt, 205_000);
  assertEquals(sessionStats(live, { running: true, now: 205_000 }).durationMs, 29_000 + 5_000);
  // A turn with nothing but its message (just sent) has no time yet.
  assertEquals(sessionStats([entry("user", "q")]).durationMs, null);
});

Deno.test("stats: nothing reported → unknown, never invented", () => {
  const s = sessionStats([entry("user", "q"), entry("assistant", "a")], { providers });
  assertEquals(s.tokens, null);
  assertEquals(s.cacheHit, null);
  assertEquals(s.context, { used: null, limit: null, percent: null, model: null });
  // Usage without a known window: used is known, the limit and percent are not.
  const c = contextUse([
    entry("assistant", "a", {
      meta: { model: "p/nowin", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } },
    }),
  ], providers);
  assertEquals(c, { used: 15, limit: null, percent: null, model: "p/nowin" });
  assertEquals(contextWindowOf(providers, "other/m"), null);
  assertEquals(contextWindowOf(providers, "p/m/x"), 100_000);
  assertEquals(contextWindowOf(providers, "nomodel"), null);
  assertEquals(usageOf(null), null);
  assertEquals(usageOf({ foo: 1 }), null);
  assertEquals(usageOf({ input: 3 }), { input: 3, output: 0, cacheRead: 0, cacheWrite: 0 });
  // A cache hit needs a prompt: 0 tokens of prompt → unknown, not 0 %.
  const zero = sessionStats([
    entry("assistant", "a", { meta: { usage: { input: 0, output: 4, cacheRead: 0 } } }),
  ]);
  assertEquals([zero.tokens, zero.cacheHit], [4, null]);
  // Percent is capped at 100.
  const over = contextUse([
    entry("assistant", "a", {
      meta: { model: "p/m/x", usage: { input: 200_000, output: 0, cacheRead: 0 } },
    }),
  ], providers);
  assertEquals(over.percent, 100);
});

Deno.test("stats: formatting", () => {
  assertEquals(compactTokens(950), "950");
  assertEquals(compactTokens(12_400), "12.4K");
  assertEquals(compactTokens(128_000), "128K");
  assertEquals(compactTokens(1_500_000), "1.5M");
  assertEquals(shortDuration(400), "<1s");
  assertEquals(shortDuration(59_000), "59s");
  assertEquals(shortDuration(65_000), "1m 5s");
  assertEquals(shortDuration(3_725_000), "1h 2m");
});

Deno.test("find: matches in user/assistant text, case-insensitive, in order; stepping wraps", () => {
  const list = [
    entry("user", "Walrus and WALRUS"),
    entry("tool", "walrus in a tool result"),
    entry("assistant", "", {
      parts: [{ type: "thinking", text: "walrus thought" }, { type: "text", text: "one walrus" }],
    }),
    entry("assistant", "none here"),
  ];
  assertEquals(entryText(list[1]), "");
  const m = matchesIn(list, "walrus");
  assertEquals(m.map((x) => [x.entryId, x.nth]), [
    [list[0].id, 0],
    [list[0].id, 1],
    [list[2].id, 0],
  ]);
  assertEquals(matchesIn(list, ""), []);
  assertEquals(matchesIn([entry("user", "aaaa")], "aa").length, 2, "no overlapping matches");
  assertEquals(stepIndex(-1, 3, 1), 0);
  assertEquals(stepIndex(-1, 3, -1), 2);
  assertEquals(stepIndex(2, 3, 1), 0);
  assertEquals(stepIndex(0, 3, -1), 2);
  assertEquals(stepIndex(0, 0, 1), -1);
});

Deno.test("search rows, context shares and shortcuts", () => {
  const rows = itemsOf({
    q: "x",
    mode: "fts",
    tasks: [
      {
        taskId: "a",
        title: "A",
        projectPath: null,
        updatedAt: 1,
        titleMatch: null,
        hits: 2,
        snippets: [
          { entryId: "m1", role: "user", pos: 1, before: "", match: "x", after: "" },
          { entryId: "m2", role: "assistant", pos: 2, before: "", match: "x", after: "" },
        ],
      },
      {
        taskId: "b",
        title: "B",
        projectPath: null,
        updatedAt: 1,
        titleMatch: null,
        hits: 0,
        snippets: [],
      },
    ],
  });
  assertEquals(rows.map((r) => [r.taskId, r.entryId]), [
    ["a", null],
    ["a", "m1"],
    ["a", "m2"],
    ["b", null],
  ]);
  assertEquals(itemsOf(null), []);
  assertEquals(shares([{ tokens: 1 }, { tokens: 3 }, { tokens: 0 }]), [25, 75, 0]);
  assertEquals(shares([{ tokens: 0 }]), [0]);
  const k = (
    key: string,
    mods: Partial<Record<"ctrlKey" | "metaKey" | "altKey" | "shiftKey", boolean>>,
  ) => shortcutOf({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
  assertEquals(k("k", { ctrlKey: true }), "search");
  assertEquals(k("K", { metaKey: true }), "search");
  assertEquals(k("f", { ctrlKey: true }), "find");
  assertEquals(k("f", { ctrlKey: true, shiftKey: true }), null);
  assertEquals(k("f", {}), null);
  assertEquals(k("k", { altKey: true, ctrlKey: true }), null);
});
