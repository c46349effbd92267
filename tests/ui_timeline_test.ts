/** UI timeline logic: delta application and coalescing, turn grouping and analysis. */
import { assert, assertEquals } from "./helpers/assert.ts";
import type { Entry, Part } from "../protocol/index.ts";
import {
  analyseTurn,
  applyDeltas,
  argSummary,
  durationParts,
  groupTurns,
  queueDelta,
  upsertInto,
} from "../ui/state/timeline_model.js";
import {
  applyTimelineEvent,
  entries,
  flushDeltas,
  liveOutput,
  resetTimeline,
  runState,
} from "../ui/state/timeline.js";
import { effect } from "@preact/signals";

let pos = 0;
function entry(role: Entry["role"], parts: Part[], extra: Partial<Entry> = {}): Entry {
  pos++;
  return {
    id: `e${pos}`,
    taskId: "t1",
    pos,
    role,
    status: "done",
    createdAt: 1000 * pos,
    updatedAt: 1000 * pos,
    parts,
    meta: {},
    ...extra,
  };
}
const text = (t: string): Part => ({ type: "text", text: t });
const call = (id: string, name: string, args: Record<string, unknown>): Part => ({
  type: "tool_call",
  data: { id, name, args },
});
const result = (id: string, name: string, content: string, isError = false) =>
  entry("tool", [{ type: "tool_result", text: content, data: { toolCallId: id, name, isError } }], {
    status: isError ? "error" : "done",
  });

Deno.test("queueDelta merges consecutive deltas of the same part only", () => {
  const list: { entryId: string; index: number; type: "text" | "thinking"; text: string }[] = [];
  queueDelta(list, { entryId: "a", index: 0, type: "thinking", text: "x" });
  queueDelta(list, { entryId: "a", index: 0, type: "thinking", text: "y" });
  queueDelta(list, { entryId: "a", index: 1, type: "text", text: "z" });
  queueDelta(list, { entryId: "a", index: 1, type: "text", text: "w" });
  assertEquals(list.map((d) => [d.index, d.text]), [[0, "xy"], [1, "zw"]]);
});

Deno.test("applyDeltas appends, creates parts, closes thinking, keeps others untouched", () => {
  const a = entry("assistant", [], { status: "streaming" });
  const other = entry("user", [text("hi")]);
  const list = [other, a];
  const out = applyDeltas(list, [
    { entryId: a.id, index: 0, type: "thinking", text: "hmm" },
    { entryId: a.id, index: 0, type: "thinking", text: "…" },
    { entryId: a.id, index: 1, type: "text", text: "Hello" },
    { entryId: "unknown", index: 0, type: "text", text: "dropped" },
  ], 5000);
  assert(out !== list, "a new array");
  assert(out[0] === other, "untouched entries keep their identity");
  assert(out[1] !== a && a.parts.length === 0, "the input entry is not mutated");
  assertEquals(out[1].parts, [
    { type: "thinking", text: "hmm…", data: { startedAt: 5000, endedAt: 5000 } },
    { type: "text", text: "Hello" },
  ]);
  const again = applyDeltas(
    out,
    [{ entryId: a.id, index: 1, type: "text", text: ", world" }],
    6000,
  );
  assertEquals(again[1].parts[1].text, "Hello, world");
  assert(again[1].parts[0] === out[1].parts[0], "unchanged parts are shared");
  assert(applyDeltas(out, [], 0) === out, "no deltas, same array");
});

Deno.test("upsertInto replaces by id and inserts by pos", () => {
  const a = entry("user", [text("a")]);
  const c = entry("assistant", [text("c")]);
  const b = { ...entry("assistant", [text("b")]), pos: a.pos + 0.5 };
  let r = upsertInto([a, c], b);
  assertEquals(r.list.map((e) => e.id), [a.id, b.id, c.id]);
  assert(r.added);
  r = upsertInto(r.list, { ...c, parts: [text("c2")] });
  assert(!r.added);
  assertEquals(r.list[2].parts[0].text, "c2");
});

Deno.test("timeline state: deltas are applied once per frame, in order with other events", async () => {
  const a = entry("assistant", [], { status: "streaming" });
  resetTimeline({ entries: [a], total: 1, run: null });
  let renders = 0;
  const stop = effect(() => {
    entries.value;
    renders++;
  });
  renders = 0;
  for (let i = 0; i < 200; i++) {
    applyTimelineEvent({ kind: "delta", entryId: a.id, index: 0, type: "text", text: "x" });
  }
  assertEquals(renders, 0, "nothing applied before the frame");
  await new Promise((r) => setTimeout(r, 40)); // no rAF in Deno: the timer fallback
  assertEquals(renders, 1, "200 deltas, one update");
  assertEquals(entries.value[0].parts[0].text, "x".repeat(200));
  // An entry event first applies the buffered deltas, so the newer entry wins.
  applyTimelineEvent({ kind: "delta", entryId: a.id, index: 0, type: "text", text: "STALE" });
  const done = { ...a, status: "done" as const, parts: [text("final")] };
  applyTimelineEvent({ kind: "entry", entry: done });
  assertEquals(entries.value[0].parts, [text("final")]);
  await new Promise((r) => setTimeout(r, 40));
  assertEquals(entries.value[0].parts, [text("final")], "no stale delta applied later");
  const run = { startedAt: 1, step: 1, phase: "model" as const, retry: null };
  applyTimelineEvent({ kind: "run", run });
  assertEquals(runState.value, run);
  assertEquals(applyTimelineEvent({ kind: "deleted" }), false);
  resetTimeline(null);
  assertEquals([entries.value.length, runState.value], [0, null]);
  flushDeltas();
  stop();
});

Deno.test("groupTurns: a user entry and everything up to the next one", () => {
  const sys = entry("system", [text("note")]);
  const u1 = entry("user", [text("q1")]);
  const a1 = entry("assistant", [text("a1")]);
  const u2 = entry("user", [text("q2")]);
  const turns = groupTurns([sys, u1, a1, u2]);
  assertEquals(turns.map((t) => [t.user?.id ?? null, t.items.map((e) => e.id)]), [
    [null, [sys.id]],
    [u1.id, [a1.id]],
    [u2.id, []],
  ]);
});

Deno.test("analyseTurn: process in order, tool results matched, final answer outside", () => {
  const u = entry("user", [text("list it")]);
  const a1 = entry("assistant", [
    { type: "thinking", text: "plan", data: { startedAt: 1, endedAt: 2 } },
    text("Listing."),
    call("c1", "list_dir", { path: "." }),
  ]);
  const r1 = result("c1", "list_dir", "a.txt 1 B");
  const a2 = entry("assistant", [
    { type: "thinking", text: "ok", data: {} },
    text("Here is **it**."),
    text(" More."),
  ], { meta: { endedAt: 99_000 } });
  const [turn] = groupTurns([u, a1, r1, a2]);
  const live = analyseTurn(turn, true);
  assertEquals(live.status, "working");
  assertEquals(live.final, null, "no final answer while live");
  assertEquals(live.process.map((p) => p.kind), ["assistant", "assistant"]);

  const v = analyseTurn(turn, false);
  assertEquals(v.status, "done");
  assertEquals(v.final?.entry.id, a2.id);
  assertEquals(v.final?.parts, [1, 2]);
  const [p1, p2] = v.process;
  assert(p1.kind === "assistant" && p2.kind === "assistant");
  assertEquals(p1.parts, [0, 1, 2]);
  assertEquals(p1.results, { c1: r1 });
  assertEquals(p2.parts, [0], "only the thinking of the last entry stays in the process");
  assertEquals([v.startedAt, v.endedAt], [u.createdAt, 99_000]);
});

Deno.test("analyseTurn: a reused call id matches the latest earlier open call", () => {
  // Some providers number calls per response ("call_1" every time).
  const u = entry("user", [text("go")]);
  const a1 = entry("assistant", [call("call_1", "write_file", { path: "n.md" })]);
  const r1 = result("call_1", "write_file", "Created n.md");
  const a2 = entry("assistant", [call("call_1", "read_file", { path: "n.md" })]);
  const r2 = result("call_1", "read_file", "1\tx");
  const a3 = entry("assistant", [call("call_1", "edit_file", { path: "n.md" })]);
  const v = analyseTurn(groupTurns([u, a1, r1, a2, r2, a3])[0], true);
  const kinds = v.process.map((p) => p.kind === "assistant" ? p.results : p.kind);
  assertEquals(kinds, [{ call_1: r1 }, { call_1: r2 }, {}], "the edit has no result yet");
  const late = result("call_1", "edit_file", "Edited");
  const extra = result("call_1", "grep", "nobody asked");
  const w = analyseTurn(groupTurns([u, a1, r1, a2, r2, a3, late, extra])[0], false);
  assertEquals(w.process.map((p) => p.kind === "assistant" ? p.results.call_1?.id : p.kind), [
    r1.id,
    r2.id,
    late.id,
    "orphan",
  ]);
});

Deno.test("analyseTurn: stopped, errors, max steps, orphan results", () => {
  const u = entry("user", [text("go")]);
  const stopped = entry("assistant", [text("partial")], { status: "stopped" });
  assertEquals(analyseTurn(groupTurns([u, stopped])[0], false).status, "stopped");

  const u2 = entry("user", [text("go")]);
  const failed = entry("assistant", [], { status: "error" });
  const err = entry("error", [text("HTTP 401")], { status: "error", meta: { error: {} } });
  const ve = analyseTurn(groupTurns([u2, failed, err])[0], false);
  assertEquals([ve.status, ve.errors.map((e) => e.id), ve.process.length], ["error", [err.id], 0]);

  const u3 = entry("user", [text("go")]);
  const a = entry("assistant", [call("c9", "read_file", { path: "x" })], {
    meta: { truncatedBy: "maxSteps" },
  });
  const r = result("c9", "read_file", "x");
  const orphan = result("zz", "grep", "lost");
  const vm = analyseTurn(groupTurns([u3, a, r, orphan])[0], false);
  assertEquals([vm.maxSteps, vm.status], [true, "done"]);
  assertEquals(vm.process.map((p) => p.kind), ["assistant", "orphan"]);

  // Tool results with no answer after them (stop during tools): stopped.
  const u4 = entry("user", [text("go")]);
  const a4 = entry("assistant", [call("c4", "list_dir", {})]);
  const r4 = result("c4", "list_dir", "The user stopped the run", true);
  assertEquals(analyseTurn(groupTurns([u4, a4, r4])[0], false).status, "stopped");
  // A call that never got a result (the server restarted while it waited): stopped.
  const u5 = entry("user", [text("go")]);
  const a5 = entry("assistant", [text("Writing."), call("c5", "write_file", { path: "a" })]);
  assertEquals(analyseTurn(groupTurns([u5, a5])[0], false).status, "stopped");
});

Deno.test("argSummary and durationParts", () => {
  assertEquals(argSummary({ path: "." }), ".");
  assertEquals(argSummary({ path: "notes.md", limit: 40 }), "notes.md");
  assertEquals(argSummary({ command: "ls\n  -la" }), "ls -la");
  assertEquals(argSummary({ limit: 3 }), '{"limit":3}');
  assertEquals(argSummary({}), "");
  assertEquals(argSummary(null), "");
  assertEquals(argSummary({ path: "x".repeat(300) }, 10), "xxxxxxxxx…");
  assertEquals(durationParts(228_000), { h: 0, m: 3, s: 48 });
  assertEquals(durationParts(3_723_000), { h: 1, m: 2, s: 3 });
  assertEquals(durationParts(-5), { h: 0, m: 0, s: 0 });
});

Deno.test("live command output accumulates per call and is cleared with the timeline", () => {
  resetTimeline({ entries: [], total: 0, run: null });
  applyTimelineEvent({ kind: "output", callId: "c1", text: "first\n" });
  applyTimelineEvent({ kind: "output", callId: "c2", text: "other" });
  applyTimelineEvent({ kind: "output", callId: "c1", text: "second\n" });
  assertEquals(liveOutput.value.get("c1"), [{ stream: "out", text: "first\nsecond\n" }]);
  assertEquals(liveOutput.value.get("c2"), [{ stream: "out", text: "other" }]);
  // stderr pieces stay apart, in arrival order
  applyTimelineEvent({ kind: "output", callId: "c2", stream: "err", text: "oops\n" });
  applyTimelineEvent({ kind: "output", callId: "c2", stream: "out", text: "more" });
  assertEquals(liveOutput.value.get("c2"), [
    { stream: "out", text: "other" },
    { stream: "err", text: "oops\n" },
    { stream: "out", text: "more" },
  ]);
  applyTimelineEvent({ kind: "output", callId: "c1", text: "x".repeat(70_000) });
  const c1 = liveOutput.value.get("c1")!;
  assertEquals(c1.length, 1, "the oldest piece is dropped first");
  assertEquals((c1[0] as { text: string }).text.length, 64 * 1024, "bounded");
  resetTimeline(null);
  assertEquals(liveOutput.value.size, 0);
});
