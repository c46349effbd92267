/** UI tool-card and approval logic (pure modules) and the tools/approvals strings. */
import { assert, assertEquals } from "./helpers/assert.ts";
import type { Entry, PendingApproval } from "../protocol/index.ts";
import { lineDiff } from "../protocol/diff.ts";
import {
  callStatus,
  changePreview,
  diffOf,
  diffRows,
  execRewindNotes,
  exitBadge,
  partialArgs,
  patchFilesOf,
  patchTargets,
  resultMeta,
  shortUrl,
  skippedNotes,
  splitExecOutput,
  toolKind,
} from "../ui/state/tool_model.js";
import { groupByTask, liveIndex, normalise } from "../ui/state/approval_model.js";
import { appendLive, execEnding, execFailed, resultSegments } from "../ui/state/exec_model.js";
import toolsEn from "../ui/i18n/tools.en-US.js";
import toolsZh from "../ui/i18n/tools.zh-CN.js";
import { DICTS, loadLang, tn } from "../ui/i18n/index.js";
import { lang } from "../ui/state/prefs.js";

// Chinese is loaded on demand in the app; these checks read it.
await loadLang("zh-CN");

const toolEntry = (isError: boolean, meta: Record<string, unknown> = {}, name?: string): Entry => ({
  id: "r1",
  taskId: "t",
  pos: 2,
  role: "tool",
  status: isError ? "error" : "done",
  createdAt: 0,
  updatedAt: 0,
  parts: [{
    type: "tool_result",
    text: "x",
    data: { toolCallId: "c", isError, meta, ...(name ? { name } : {}) },
  }],
  meta: {},
});

/** Details as a stored result may hold them (older versions, damage): any shape. */
const stored = <T>(v: unknown) => v as T;

Deno.test("toolKind and callStatus", () => {
  assertEquals(
    ["read_file", "list_dir", "edit_file", "exec_command", "grep", "websearch", "mcp__x__y"].map(
      toolKind,
    ),
    ["read", "list", "change", "exec", "search", "web", "other"],
  );
  assertEquals(toolKind("constructor"), "other", "no prototype keys");
  assertEquals(callStatus(undefined, true), "running");
  assertEquals(callStatus(undefined, true, true), "waiting");
  assertEquals(callStatus(undefined, false), "none");
  assertEquals(callStatus(toolEntry(false), true, true), "done", "a result wins");
  assertEquals(callStatus(toolEntry(true), false), "failed");
  assertEquals(
    callStatus(toolEntry(true, { refusal: { code: "rejected", message: "no" } }), false),
    "refused",
    "turned down is not failed",
  );
  assertEquals(resultMeta(toolEntry(false, { path: "a" })), { path: "a" });
  assertEquals(resultMeta(undefined), {});
});

Deno.test("resultMeta: the details of the tools asked for, typed by theirs", () => {
  const read = toolEntry(false, { path: "a", totalLines: 3 }, "read_file");
  assertEquals(resultMeta(read, ["read_file", "list_dir"]).totalLines, 3);
  assertEquals(resultMeta(read, ["exec_command"]), {}, "another tool's result has none of these");
  const mcp = toolEntry(false, { mcp: { server: "s" } }, "mcp__s__t");
  assertEquals(resultMeta(mcp, ["mcp"]).mcp?.server, "s", "mcp stands for every MCP tool");
  // Stored results without a name (older versions) are read as the caller's tools.
  assertEquals(resultMeta(toolEntry(false, { count: 2 }), ["list_dir"]).count, 2);
  // Reading a key the tools never write does not compile.
  // @ts-expect-error: read_file writes no `exitCode`
  assertEquals(resultMeta(read, ["read_file"]).exitCode, undefined);
  // @ts-expect-error: neither glob nor grep writes `path`
  assertEquals(resultMeta(read, ["glob", "grep"]).path, undefined);
  // @ts-expect-error: not a tool
  resultMeta(read, ["read_files"]);
});

Deno.test("diffRows numbers the server's diff lines and separates hunks", () => {
  const base = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n") + "\n";
  const d = lineDiff(base, base.replace("l2\n", "").replace("l15\n", "l15\nnew\n"));
  assert(diffOf({ diff: d }) !== null);
  assertEquals(diffOf(stored({ diff: { hunks: "no" } })), null);
  const rows = diffRows(d.hunks);
  const show = rows.map((r) => r.t === "gap" ? "…" : `${r.old ?? "-"}:${r.new ?? "-"}${r.t}`);
  assertEquals(show, [
    "1:1 ",
    "2:-" + "-",
    "3:2 ",
    "4:3 ",
    "5:4 ",
    "…",
    "13:12 ",
    "14:13 ",
    "15:14 ",
    "-:15+",
    "16:16 ",
    "17:17 ",
    "18:18 ",
  ]);
});

Deno.test("splitExecOutput and exitBadge", () => {
  assertEquals(splitExecOutput("a\n\nb\n\nExit code: 3"), { output: "a\n\nb", notes: [] });
  assertEquals(splitExecOutput("No output.\n\nExit code: 0"), { output: "", notes: [] });
  assertEquals(
    splitExecOutput("x\n\nTimed out after 1 s; stopped.\n(background processes kept …)"),
    { output: "x", notes: ["(background processes kept …)"] },
  );
  assertEquals(splitExecOutput("cwd nope does not exist."), {
    output: "cwd nope does not exist.",
    notes: [],
  });
  assertEquals(exitBadge({ exitCode: 0 })?.tone, "ok");
  assertEquals(exitBadge({ exitCode: 2 }), {
    key: "tool.exit",
    params: { code: 2 },
    tone: "bad",
  });
  assertEquals(exitBadge({ exitCode: null, signal: "SIGKILL" })?.key, "tool.signal");
  assertEquals(exitBadge({ exitCode: null, timedOut: true })?.key, "tool.timedOut");
  assertEquals(exitBadge({}), null);
});

Deno.test("changePreview: write content, edit lines with shared context, cap", () => {
  assertEquals(changePreview("write_file", { content: "a\nb\n" }), {
    lines: [{ t: "+", text: "a" }, { t: "+", text: "b" }],
    more: 0,
  });
  const edit = changePreview("edit_file", { old_string: "x\ny\nz", new_string: "x\nY\nz" });
  assertEquals(edit?.lines.map((l) => l.t + l.text), [" x", "-y", "+Y", " z"]);
  const del = changePreview("edit_file", { old_string: "gone", new_string: "" });
  assertEquals(del?.lines.map((l) => l.t + l.text), ["-gone"]);
  const big = changePreview("write_file", { content: "l\n".repeat(100) }, 40);
  assertEquals([big?.lines.length, big?.more], [40, 60]);
  assertEquals(changePreview("exec_command", { command: "ls" }), null);
  const patch = changePreview("apply_patch", {
    input: "*** Begin Patch\n*** Update File: a\n@@\n x\n-y\n+Y\n*** End Patch",
  });
  assertEquals(patch?.lines.map((l) => l.t + l.text), [
    " *** Begin Patch",
    " *** Update File: a",
    " @@",
    " x",
    "-y",
    "+Y",
    " *** End Patch",
  ]);
  assertEquals(partialArgs('{"path":"a \\"b\\".md","content":"x \\"path\\": \\"no\\"'), {
    path: 'a "b".md',
  });
  assertEquals(partialArgs('{"command": "ls -la'), {}, "an unfinished string is not taken");
  assertEquals(partialArgs('{"pattern":"**/*.ts","path":"src"}'), {
    path: "src",
    pattern: "**/*.ts",
  });
  assertEquals(shortUrl("https://example.com/a"), "example.com/a");
  assertEquals(shortUrl("https://e.com/" + "x".repeat(200), 20).length, 20);
  assertEquals(skippedNotes({ skippedBinary: 2, skippedLarge: 0, unreadable: 1 }), [
    ["tool.skippedBinary", 2],
    ["tool.skippedUnreadable", 1],
  ]);
});

Deno.test("approvals: bad entries dropped, ordered, live ones indexed and grouped", () => {
  const a = (id: string, taskId: string, callId: string, createdAt: number, live = true) =>
    ({
      id,
      taskId,
      taskTitle: taskId,
      call: { id: callId, name: "write_file", args: { path: "p" } },
      kind: "write",
      summary: "s",
      createdAt,
      live,
    }) as PendingApproval;
  const list = normalise([
    a("a2", "t2", "call_1", 20),
    { id: 5 },
    null,
    a("a1", "t1", "call_1", 10),
    a("a3", "t1", "call_2", 30),
    a("old", "t3", "call_1", 5, false),
  ]);
  assertEquals(list.map((x) => x.id), ["old", "a1", "a2", "a3"]);
  const idx = liveIndex(list);
  assertEquals([...idx.keys()], ["t1:call_1", "t2:call_1", "t1:call_2"]);
  const groups = groupByTask(list);
  assertEquals([...groups.keys()], ["t1", "t2"], "recoverable ones are not waiting");
  assertEquals(groups.get("t1")!.map((x) => x.id), ["a1", "a3"]);
  assertEquals(normalise("nope"), []);
});

Deno.test("tools strings: same keys in both languages, used placeholders, plural forms", () => {
  const en = Object.keys(toolsEn).filter((k) => !k.endsWith(".one")).sort();
  assertEquals(Object.keys(toolsZh).sort(), en, "zh-CN has exactly the base keys of en-US");
  for (const k of Object.keys(toolsEn)) {
    if (k.endsWith(".one")) assert(k.slice(0, -4) in toolsEn, `${k} has no base form`);
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    if (k in toolsZh) {
      assertEquals(
        names((toolsZh as Record<string, string>)[k]),
        names((toolsEn as Record<string, string>)[k]),
        k,
      );
    }
  }
  for (const k of Object.keys(toolsEn)) assert(k in DICTS["en-US"], `${k} not merged`);
  const before = lang.value;
  try {
    lang.value = "en-US";
    assertEquals([tn("tool.files", 1), tn("tool.files", 3)], ["1 file", "3 files"]);
    assertEquals(tn("tool.matches", 1, { files: tn("tool.files", 1) }), "1 match in 1 file");
    lang.value = "zh-CN";
    assertEquals([tn("tool.files", 1), tn("tool.files", 3)], ["1 个文件", "3 个文件"]);
  } finally {
    lang.value = before;
  }
});

Deno.test("execRewindNotes: the English note gives way to the coded list", () => {
  const notes = ["(background processes kept …)", "(Note: 1 file change(s) by this command …)"];
  assertEquals(execRewindNotes(notes, {}), { notes, unrewindable: [] });
  const u = [
    { path: "big.bin", reason: "larger than 2 MB", code: "too_large" as const, params: { mb: 2 } },
  ];
  assertEquals(execRewindNotes(notes, { unrewindable: u }), {
    notes: ["(background processes kept …)"],
    unrewindable: u,
  });
});

Deno.test("exec card model: what failed, how it ended, stderr segments, live pieces", () => {
  assertEquals(execFailed({ exitCode: 0 }), false);
  assertEquals(execFailed({}), false, "no run (refused): the card's own status decides");
  for (const m of [{ exitCode: 1 }, { signal: "SIGSEGV" }, { timedOut: true }, { stopped: true }]) {
    assertEquals(execFailed(m), true, JSON.stringify(m));
  }
  assertEquals(execEnding({ exitCode: 3 }), null);
  assertEquals(execEnding({ timedOut: true, timeoutS: 5 }), {
    key: "tool.end.timedOut",
    params: { s: 5 },
    sigkill: false,
    tone: "warn",
  });
  assertEquals(
    execEnding({ timedOut: true, killedWith: "SIGKILL" })?.key,
    "tool.end.timedOutPlain",
  );
  assertEquals(execEnding({ timedOut: true, killedWith: "SIGKILL" })?.sigkill, true);
  assertEquals(execEnding({ stopped: true, killedWith: "SIGTERM" }), {
    key: "tool.end.stopped",
    sigkill: false,
    tone: "warn",
  });
  assertEquals(execEnding({ signal: "SIGKILL" })?.params, { signal: "SIGKILL" });
  assertEquals(execEnding({ signal: "SIGKILL" })?.tone, "bad");
  assertEquals(toolsEn["tool.end.sigkill"], "It ignored SIGTERM, so SIGKILL was needed.");
  // meta.segments: only well-formed pieces survive; none means "all stdout"
  assertEquals(resultSegments({}), null);
  assertEquals(
    resultSegments(stored({
      segments: [{ stream: "err", text: "e" }, { omitted: 9 }, { stream: "x", text: "?" }, null],
    })),
    [{ stream: "err", text: "e" }, { omitted: 9 }],
  );
  // live pieces join per stream and keep only the newest `cap` characters
  let live = appendLive([], undefined as unknown as string, "ab", 5);
  live = appendLive(live, "out", "c", 5);
  live = appendLive(live, "err", "de", 5);
  assertEquals(live, [{ stream: "out", text: "abc" }, { stream: "err", text: "de" }]);
  assertEquals(appendLive(live, "out", "fg", 5), [
    { stream: "out", text: "c" },
    { stream: "err", text: "de" },
    { stream: "out", text: "fg" },
  ]);
});

Deno.test("apply_patch card: the files a patch names and the diffs its result lists", () => {
  assertEquals(
    patchTargets("*** Begin Patch\n*** Add File: a.ts\n+x\n*** Delete File: b.ts\n*** Upd"),
    ["a.ts", "b.ts"],
  );
  assertEquals(patchTargets(undefined), []);
  const diff = lineDiff("a\n", "b\n");
  assertEquals(
    patchFilesOf(stored({ files: [{ path: "a", op: "update", diff }, { path: "bad" }, null] })),
    [{ path: "a", op: "update", diff }],
  );
  assertEquals(patchFilesOf({}), []);
});
