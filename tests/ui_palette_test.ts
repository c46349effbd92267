/**
 * Pure UI logic of the command palette, the shortcuts, the conversation navigator and
 * the trajectory view: fuzzy matching and ranking, the shortcut registry (chords,
 * text fields, conflicts, labels), questions and stepping between them, and the
 * trajectory built from stored entries only.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  applyBindings,
  bindingProblem,
  chordLabels,
  chordOfEvent,
  conflictsOf,
  fuzzyMatch,
  matchesChord,
  moveIndex,
  rankActions,
  shortcutFor,
  SHORTCUTS,
} from "../ui/state/palette_model.js";
import {
  firstLine,
  questionsOf,
  railSlot,
  showRail,
  stepQuestion,
} from "../ui/state/navigator_model.js";
import { stepDuration, totalsOf, trajectoryOf } from "../ui/state/trajectory_model.js";
import type { Entry, Part } from "../protocol/index.ts";

const key = (
  k: string,
  mods: Partial<Record<"ctrl" | "meta" | "alt" | "shift", boolean>> = {},
) => ({
  key: k,
  ctrlKey: !!mods.ctrl,
  metaKey: !!mods.meta,
  altKey: !!mods.alt,
  shiftKey: !!mods.shift,
});

Deno.test("palette: fuzzy match is an in-order subsequence, case-insensitive", () => {
  assert(fuzzyMatch("gp", "Open the Git panel"), "g…p matches");
  assertEquals(fuzzyMatch("pg", "Git"), null);
  assertEquals(fuzzyMatch("xyz", "Open the Git panel"), null);
  assertEquals(fuzzyMatch("", "anything"), { score: 0, hits: [] });
  const m = fuzzyMatch("GIT", "Open the Git panel")!;
  assertEquals(m.hits, [9, 10, 11], "prefers the word start, reports hit positions");
  assert(
    fuzzyMatch("ter", "Open the terminal")!.score > fuzzyMatch("ter", "Stop the water")!.score,
  );
  // Spaces in the query are ignored; an absurdly long query is cut, not a hang.
  assert(fuzzyMatch("new task", "New task"));
  assertEquals(fuzzyMatch("a".repeat(100_000), "a"), null);
});

Deno.test("palette: actions ranked by title, then keywords; empty query keeps order", () => {
  const actions = [
    { id: "theme", title: "Switch theme", keywords: "dark light", group: "App" },
    { id: "git", title: "Open the Git panel", group: "Task" },
    { id: "new", title: "New task", keywords: "create", group: "App" },
    { id: "term", title: "Open the terminal", keywords: "shell", group: "Task" },
  ];
  assertEquals(rankActions(actions, "").map((r) => r.action.id), ["theme", "git", "new", "term"]);
  assertEquals(rankActions(actions, "git").map((r) => r.action.id), ["git"]);
  assertEquals(rankActions(actions, "dark").map((r) => r.action.id), ["theme"], "by keyword");
  assertEquals(rankActions(actions, "shell")[0].hits, [], "a keyword hit marks nothing");
  assertEquals(rankActions(actions, "open").map((r) => r.action.id).sort(), ["git", "term"]);
  assertEquals(rankActions(actions, "zzz"), []);
});

Deno.test("palette: moving the highlight wraps", () => {
  assertEquals(moveIndex(0, -1, 5), 4);
  assertEquals(moveIndex(4, 1, 5), 0);
  assertEquals(moveIndex(2, 1, 5), 3);
  assertEquals(moveIndex(0, 1, 0), 0);
});

Deno.test("shortcuts: chords, text fields, macOS ⌘, no conflicts", () => {
  const off = { editable: false, mac: false };
  const typing = { editable: true, mac: false };
  assertEquals(shortcutFor(key("P", { ctrl: true, shift: true }), off), "palette");
  assertEquals(shortcutFor(key("P", { ctrl: true, shift: true }), typing), "palette");
  assertEquals(shortcutFor(key("p", { ctrl: true }), off), null, "Ctrl+P is the browser's print");
  assertEquals(
    shortcutFor(key("P", { meta: true, shift: true }), { editable: false, mac: true }),
    "palette",
  );
  assertEquals(
    shortcutFor(key("P", { ctrl: true, shift: true }), { editable: false, mac: true }),
    null,
  );
  assertEquals(shortcutFor(key("k", { ctrl: true }), typing), "search");
  // `?` is typed text in a field; outside one it opens the help (Shift depends on layout).
  assertEquals(shortcutFor(key("?", { shift: true }), off), "shortcuts");
  assertEquals(shortcutFor(key("?", { shift: true }), typing), null);
  assertEquals(shortcutFor(key("ArrowUp", { alt: true }), off), "prevQuestion");
  assertEquals(shortcutFor(key("ArrowDown", { alt: true }), off), "nextQuestion");
  assertEquals(shortcutFor(key("ArrowUp", { alt: true }), typing), null, "composer keeps ↑");
  assertEquals(shortcutFor(key("ArrowUp"), off), null);
  assert(!matchesChord(key("ArrowUp", { alt: true, shift: true }), "Alt+ArrowUp", false));
  assertEquals(conflictsOf(SHORTCUTS), []);
  assertEquals(
    conflictsOf([{ id: "a", keys: "Mod+Shift+P", inEditable: true }, {
      id: "b",
      keys: "Shift+Mod+p",
      inEditable: false,
    }]),
    [["a", "b"]],
  );
  assertEquals(chordLabels("Mod+Shift+P", false), ["Ctrl", "Shift", "P"]);
  assertEquals(chordLabels("Mod+Shift+P", true), ["⌘", "⇧", "P"]);
  assertEquals(chordLabels("Alt+ArrowUp", false), ["Alt", "↑"]);
  // Every shortcut with inEditable has a modifier (else it would eat typed text).
  for (const s of SHORTCUTS) {
    if (s.inEditable) assert(/Mod|Alt/.test(s.keys), `${s.id} fires while typing`);
  }
});

let n = 0;
function entry(role: Entry["role"], parts: Part[], extra: Partial<Entry> = {}): Entry {
  n++;
  return {
    id: `e${n}`,
    taskId: "t",
    pos: n,
    role,
    status: "done",
    createdAt: 1000 * n,
    updatedAt: 1000 * n + 10,
    parts,
    meta: {},
    ...extra,
  };
}
const text = (s: string): Part => ({ type: "text", text: s });

Deno.test("navigator: questions with their first line; stepping; when the rail shows", () => {
  const q1 = entry("user", [text("\n\n  Fix   the\tbug  \nsecond line")]);
  const a1 = entry("assistant", [text("ok")]);
  const q2 = entry("user", [
    { type: "text", text: "@a.ts", data: { mention: true } },
    text("x".repeat(200)),
  ]);
  const q3 = entry("user", [{ type: "image", data: {} }]);
  const qs = questionsOf([q1, a1, q2, q3]);
  assertEquals(qs.map((q) => q.id), [q1.id, q2.id, q3.id]);
  assertEquals(qs[0].line, "Fix the bug");
  assertEquals(qs[1].line.length, 90);
  assert(qs[1].line.endsWith("…"));
  assertEquals(qs[2].line, "", "no text: empty (the UI says so)");
  assertEquals(firstLine(q1, 5), "Fix …");
  const pasted = entry("user", [text("\n".repeat(5000) + "late line")]);
  assertEquals(firstLine(pasted), "", "only the head of a huge message is searched");
  assertEquals(questionsOf([q1, q2], 11).map((q) => q.n), [11, 12]);
  assertEquals(stepQuestion(qs, q2.id, -1), q1.id);
  assertEquals(stepQuestion(qs, q2.id, 1), q3.id);
  assertEquals(stepQuestion(qs, q1.id, -1), q1.id, "stays at the first");
  assertEquals(stepQuestion(qs, q3.id, 1), q3.id, "stays at the last");
  assertEquals(stepQuestion(qs, null, 1), q1.id);
  assertEquals(stepQuestion(qs, "gone", -1), q3.id);
  assertEquals(stepQuestion([], null, 1), null);
  assert(showRail(2, 864));
  assert(!showRail(1, 1200), "one question: no rail");
  assert(!showRail(5, 863), "narrow: no rail");
  assertEquals([railSlot(2), railSlot(12), railSlot(20), railSlot(200)], [24, 20, 12, 10]);
});

Deno.test("trajectory: steps from stored entries only, honest about what is missing", () => {
  const pre = entry("tool", [{ type: "tool_result", text: "x", data: { toolCallId: "old" } }]);
  const u = entry("user", [text("Refactor it")], { createdAt: 10_000 });
  const a = entry("assistant", [
    { type: "thinking", text: "hm", data: { startedAt: 10_100, endedAt: 10_600 } },
    { type: "tool_call", data: { id: "c1", name: "read_file", args: { path: "a.ts" } } },
    { type: "tool_call", data: { id: "c2", name: "exec_command", args: { command: "rm -rf /" } } },
    { type: "tool_call", data: { id: "c3", name: "agent", args: { description: "look" } } },
    { type: "tool_call", data: { id: "c4", name: "mcp__gh__issues", args: {} } },
  ], {
    meta: {
      model: "mock/chat",
      startedAt: 10_000,
      endedAt: 12_500,
      stopReason: "tool_use",
      usage: { input: 1200, output: 30, cacheRead: 0, cacheWrite: 0 },
    },
  });
  const r1 = entry("tool", [{
    type: "tool_result",
    text: "…",
    data: { toolCallId: "c1", name: "read_file", isError: false },
  }], { meta: { durationMs: 42 } });
  const r2 = entry("tool", [{
    type: "tool_result",
    text: "You rejected this call",
    data: { toolCallId: "c2", isError: true, meta: { refusal: { code: "rejected" } } },
  }], { status: "error", meta: { durationMs: 1500 } });
  const r3 = entry("tool", [{
    type: "tool_result",
    text: "boom",
    data: { toolCallId: "c3", isError: true },
  }], { status: "error" });
  const c = entry("compact", [text("Summary\nof   the  work")]);
  const a2 = entry("assistant", [text("Done")], { meta: { startedAt: 20_000, endedAt: 20_400 } });
  const err = entry("error", [text("provider down")]);
  const turns = trajectoryOf([pre, u, a, r1, r2, r3, c, a2, err]);
  assertEquals(turns.length, 2);
  assertEquals(turns[0].userId, null, "entries before the loaded questions: a turn without one");
  const t = turns[1];
  assertEquals(t.line, "Refactor it");
  assertEquals(t.steps.map((s) => s.kind), [
    "model",
    "tool",
    "tool",
    "tool",
    "tool",
    "compaction",
    "model",
    "error",
  ]);
  const [m, read, exec, sub, mcp, comp, m2] = t.steps;
  assert(m.kind === "model" && m2.kind === "model");
  assertEquals(m.durationMs, 2500);
  assertEquals(m.model, "mock/chat");
  assertEquals([m.tokensIn, m.tokensOut, m.thinkingMs, m.calls], [1200, 30, 500, 4]);
  assertEquals([m2.tokensIn, m2.tokensOut, m2.model], [null, null, ""], "not stored: not guessed");
  assert(
    read.kind === "tool" && exec.kind === "tool" && sub.kind === "tool" && mcp.kind === "tool",
  );
  assertEquals([read.family, read.outcome, read.durationMs, read.summary], [
    "read",
    "ok",
    42,
    "a.ts",
  ]);
  assertEquals([exec.family, exec.outcome, exec.refusal], ["exec", "refused", "rejected"]);
  assertEquals([sub.family, sub.outcome, sub.durationMs], ["subagent", "failed", null]);
  assertEquals([mcp.family, mcp.outcome], ["mcp", "none"], "no result and not running");
  assert(comp.kind === "compaction");
  assertEquals(comp.text, "Summary of the work");
  const tot = totalsOf(turns);
  assertEquals(tot.models, 2);
  assertEquals(tot.tools, 4);
  assertEquals([tot.failed, tot.refused, tot.subagents, tot.compactions, tot.errors], [
    1,
    1,
    1,
    1,
    1,
  ]);
  assertEquals([tot.tokensIn, tot.tokensOut, tot.unknownUsage], [1200, 30, 1]);
  // While the task runs, a call without a result is running, and the turn has no end yet.
  const live = trajectoryOf([u, a], true);
  const liveCall = live[0].steps[1];
  assert(liveCall.kind === "tool");
  assertEquals(liveCall.outcome, "running");
  assertEquals(live[0].durationMs, null);
  assertEquals(trajectoryOf([]), []);
});

Deno.test("trajectory: durations as shown", () => {
  assertEquals(stepDuration(0), "0ms");
  assertEquals(stepDuration(420), "420ms");
  assertEquals(stepDuration(4270), "4.2s");
  assertEquals(stepDuration(185_000), "3m 5s");
  assertEquals(stepDuration(3_725_000), "1h 2m");
});

Deno.test("shortcuts: rebinding records a chord and refuses bad or clashing ones", () => {
  assertEquals(chordOfEvent(key("l", { ctrl: true, shift: true }), false), "Mod+Shift+L");
  assertEquals(chordOfEvent(key("L", { meta: true, shift: true }), true), "Mod+Shift+L");
  assertEquals(chordOfEvent(key("Control", { ctrl: true }), false), null, "only a modifier");
  assertEquals(chordOfEvent(key("?", { shift: true }), false), "?", "Shift belongs to the symbol");
  assertEquals(chordOfEvent(key("ArrowLeft", { alt: true }), false), "Alt+ArrowLeft");
  assertEquals(chordOfEvent(key("Enter", { ctrl: true }), false), null);
  assertEquals(chordOfEvent(key("l", { meta: true }), false), null, "Win key on Linux: no");
  const list = SHORTCUTS;
  assertEquals(bindingProblem(list, "palette", "Mod+Shift+L"), null);
  assertEquals(bindingProblem(list, "search", "Mod+J"), { code: "fixed" });
  assertEquals(bindingProblem(list, "nope", "Mod+J"), { code: "fixed" });
  assertEquals(bindingProblem(list, "palette", "Shift+L"), { code: "needsModifier" });
  assertEquals(bindingProblem(list, "shortcuts", "L"), { code: "needsModifier" }, "typed text");
  assertEquals(bindingProblem(list, "prevQuestion", "ArrowUp"), { code: "needsModifier" });
  assertEquals(bindingProblem(list, "shortcuts", "/"), null, "a symbol outside text fields");
  assertEquals(bindingProblem(list, "palette", "Mod+C"), { code: "reserved" });
  assertEquals(bindingProblem(list, "palette", "Mod+K"), { code: "conflict", with: "search" });
  assertEquals(bindingProblem(list, "prevQuestion", "Alt+ArrowDown"), {
    code: "conflict",
    with: "nextQuestion",
  });
  assertEquals(bindingProblem(list, "palette", "Hyper+P"), { code: "invalid" });
  assertEquals(bindingProblem(list, "palette", "Mod+Enter"), { code: "invalid" });
  // Stored bindings: valid ones apply, the rest are ignored (and reported), defaults stay.
  const r = applyBindings({
    palette: "Mod+Shift+L",
    search: "Mod+J",
    nextQuestion: "Alt+ArrowUp", // clashes with prevQuestion
    bogus: "Mod+B",
    shortcuts: 42,
  });
  assertEquals(r.list.find((s) => s.id === "palette")!.keys, "Mod+Shift+L");
  assertEquals(r.list.find((s) => s.id === "search")!.keys, "Mod+K");
  assertEquals(r.list.find((s) => s.id === "nextQuestion")!.keys, "Alt+ArrowDown");
  assertEquals(r.ignored.sort(), ["bogus", "nextQuestion", "search", "shortcuts"]);
  assertEquals(conflictsOf(r.list), []);
  assertEquals(applyBindings(null).ignored, []);
  assertEquals(applyBindings([1, 2]).ignored, ["*"]);
  assertEquals(
    shortcutFor(key("L", { ctrl: true, shift: true }), { editable: true, mac: false }, r.list),
    "palette",
  );
  assertEquals(
    shortcutFor(key("P", { ctrl: true, shift: true }), { editable: true, mac: false }, r.list),
    null,
  );
});
