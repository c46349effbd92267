/**
 * Pure pieces of the timeline history UI: virtual layout and range, truncation and
 * paging merges, the file-changes summary and compaction entries in a turn.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { DEFAULT_TURN_PX, layoutOf, rangeOf } from "../ui/components/timeline/virtual.js";
import {
  analyseTurn,
  fileChanges,
  groupTurns,
  mergeOlder,
  netFileChanges,
  truncateAfter,
} from "../ui/state/timeline_model.js";
import type { Entry, Part } from "../protocol/index.ts";
import { rewindResultText } from "../ui/components/timeline/RewindBand.js";
import { clientText } from "../ui/components/format.js";
import { lang } from "../ui/state/prefs.js";
import { loadLang } from "../ui/i18n/index.js";

// The Chinese strings load on demand, as in the app.
await loadLang("zh-CN");

let n = 0;
function entry(role: Entry["role"], parts: Part[], extra: Partial<Entry> = {}): Entry {
  n++;
  return {
    id: `e${n}`,
    taskId: "t",
    pos: n,
    role,
    status: "done",
    createdAt: n * 1000,
    updatedAt: n * 1000,
    parts,
    meta: {},
    ...extra,
  };
}
const text = (t: string): Part => ({ type: "text", text: t });
const call = (id: string, name: string, args: Record<string, unknown> = {}): Part => ({
  type: "tool_call",
  data: { id, name, args },
});
const result = (id: string, name: string, meta: Record<string, unknown>, isError = false) =>
  entry("tool", [{
    type: "tool_result",
    text: "ok",
    data: { toolCallId: id, name, isError, meta },
  }], {
    status: isError ? "error" : "done",
  });

Deno.test("virtual: offsets use measured heights and the mean for the rest", () => {
  const turns = groupTurns([
    entry("user", [text("a")]),
    entry("user", [text("b")]),
    entry("user", [text("c")]),
  ]);
  const fresh = layoutOf(turns, new Map());
  assertEquals([...fresh.offsets], [0, DEFAULT_TURN_PX, 2 * DEFAULT_TURN_PX, 3 * DEFAULT_TURN_PX]);
  const l = layoutOf(turns, new Map([[turns[0].id, 100], [turns[2].id, 300]]));
  assertEquals([...l.offsets], [0, 100, 300, 600]);
  assertEquals(l.total, 600);
  assertEquals(l.index.get(turns[1].id), 1);
});

Deno.test("virtual: the range covers the viewport plus overscan, never empty", () => {
  const offsets = new Float64Array([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
  assertEquals(rangeOf(offsets, 0, 150, 0), { start: 0, end: 2 });
  assertEquals(rangeOf(offsets, 450, 100, 0), { start: 4, end: 6 });
  assertEquals(rangeOf(offsets, 450, 100, 120), { start: 3, end: 7 });
  assertEquals(rangeOf(offsets, 5000, 100, 0), { start: 9, end: 10 }, "past the end: the last");
  assertEquals(rangeOf(offsets, -300, 100, 0), { start: 0, end: 1 }, "above: the first");
  assertEquals(rangeOf(new Float64Array([0]), 0, 100, 100), { start: 0, end: 0 });
});

Deno.test("history model: truncate after a position, merge an older page once", () => {
  const list = [1, 2, 3, 4, 5].map((i) => ({ ...entry("user", [text(String(i))]), pos: i }));
  assertEquals(truncateAfter(list, 3).map((e) => e.pos), [1, 2, 3]);
  assert(truncateAfter(list, 9) === list, "unchanged list kept");
  assertEquals(truncateAfter(list, 0), []);
  const tail = list.slice(3);
  const merged = mergeOlder(tail, list.slice(1, 5));
  assertEquals(merged.map((e) => e.pos), [2, 3, 4, 5], "overlap skipped, order kept");
  assert(mergeOlder(tail, []) === tail);
});

Deno.test("file changes: summed per path, latest call, failures and reads left out", () => {
  const u = entry("user", [text("go")]);
  const a1 = entry("assistant", [
    call("c1", "write_file", { path: "a.txt" }),
    call("c2", "read_file", { path: "b.txt" }),
  ]);
  const r1 = result("c1", "write_file", {
    path: "a.txt",
    created: true,
    diff: { added: 3, removed: 0, hunks: [] },
  });
  const r2 = result("c2", "read_file", { path: "b.txt" });
  const a2 = entry("assistant", [
    call("c3", "edit_file", { path: "a.txt" }),
    call("c4", "edit_file", { path: "c.txt" }),
    call("c5", "delete_file", { path: "d.txt" }),
  ]);
  const r3 = result("c3", "edit_file", {
    path: "a.txt",
    diff: { added: 1, removed: 2, hunks: [] },
  });
  const r4 = result("c4", "edit_file", { path: "c.txt" }, true);
  const r5 = result("c5", "delete_file", { path: "d.txt", deleted: true });
  const a3 = entry("assistant", [text("done")]);
  const [turn] = groupTurns([u, a1, r1, r2, a2, r3, r4, r5, a3]);
  const fc = fileChanges(analyseTurn(turn, false));
  assertEquals(fc.files, [
    { path: "a.txt", added: 4, removed: 2, callId: "c3", created: true, deleted: false },
    { path: "d.txt", added: 0, removed: 0, callId: "c5", created: false, deleted: true },
  ]);
  assertEquals([fc.added, fc.removed], [4, 2]);
});

Deno.test("file changes: the server's net record of the turn wins over summing the calls", () => {
  assertEquals(netFileChanges(entry("user", [text("no record")])), null);
  assertEquals(netFileChanges(null), null);
  const u = entry("user", [text("go")], {
    meta: {
      changes: {
        files: [
          { path: "a.txt", added: 4, removed: 0, created: true, deleted: false },
          {
            path: "img.png",
            added: null,
            removed: null,
            created: false,
            deleted: false,
            note: "binary",
          },
        ],
        added: 4,
        removed: 0,
        more: 2,
        at: 5,
        rewound: { entryId: "r1", at: 9 },
      },
    },
  });
  const net = netFileChanges(u)!;
  assertEquals(net.turnId, u.id);
  assertEquals(net.files, [
    { path: "a.txt", added: 4, removed: 0, callId: "", created: true, deleted: false },
    {
      path: "img.png",
      added: null,
      removed: null,
      callId: "",
      created: false,
      deleted: false,
      note: "binary",
    },
  ]);
  assertEquals([net.added, net.removed, net.more], [4, 0, 2]);
  assertEquals(net.rewound, { entryId: "r1", at: 9 });
});

Deno.test("compaction: a band, not a process item, and the answer before it stays final", () => {
  const u = entry("user", [text("go")]);
  const a = entry("assistant", [text("the answer")]);
  const c = entry("compact", [text("summary")]);
  const [turn] = groupTurns([u, a, c]);
  const view = analyseTurn(turn, false);
  assertEquals(view.compactions.map((e) => e.id), [c.id]);
  assertEquals(view.final?.entry.id, a.id);
  assertEquals(view.status, "done");
  assert(!view.process.some((p) => p.entry.id === c.id));
});

Deno.test("rewind band: a record after the answer is a band, not the turn's work", () => {
  const u = entry("user", [text("go")], { createdAt: 1000 });
  const a = entry("assistant", [text("All done.")], { createdAt: 2000, updatedAt: 3000 });
  const rw = entry("system", [text("Code rewound …")], {
    createdAt: 600_000,
    updatedAt: 600_000,
    meta: { kind: "rewind", rewind: { turnId: u.id, restored: ["a"], removed: [] } },
  });
  const [turn] = groupTurns([u, a, rw]);
  const view = analyseTurn(turn, false);
  assertEquals(view.rewinds.map((e) => e.id), [rw.id]);
  assertEquals(view.final?.entry.id, a.id, "the answer stays the final answer");
  assertEquals(view.status, "done");
  assertEquals(view.endedAt, 3000, "the rewind's time is not work time");
  assertEquals(view.process.length, 0);
});

Deno.test("rewind words: the result and who, in both languages", () => {
  const before = lang.value;
  try {
    lang.value = "en-US";
    assertEquals(rewindResultText(2, 1), "Restored 2 files, removed 1 new file.");
    assertEquals(rewindResultText(1, 0), "Restored 1 file.");
    assertEquals(rewindResultText(0, 3), "Removed 3 new files.");
    assertEquals(rewindResultText(0, 0), "Nothing needed to change.");
    assertEquals(
      clientText({ kind: "phone", browser: "Chrome", os: "Android" }),
      "Phone (Chrome, Android)",
    );
    assertEquals(clientText({ kind: "cli", browser: "", os: "" }), "Command line");
    lang.value = "zh-CN";
    assertEquals(rewindResultText(2, 1), "已恢复 2 个文件，删除了 1 个新文件。");
    assertEquals(
      clientText({ kind: "desktop", browser: "Firefox", os: "Linux" }),
      "桌面（Firefox, Linux）",
    );
  } finally {
    lang.value = before;
  }
});
