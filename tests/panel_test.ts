/**
 * Right panel ops: `file.preview` (workspace-bound, 256 KB cap, line cap,
 * binary detection, symlinks leading out refused, clear errors), `file.diff` (a tool
 * call's stored line diff) and `about.info`.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { runOp } from "../server/ops/dispatch.ts";
import { createServices } from "../server/services.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import type { OpContext } from "../server/ops/context.ts";
import { type AboutInfo, type FilePreview, PREVIEW_LIMITS } from "../protocol/index.ts";
import { decodeText, languageOf } from "../server/ops/panel_ops.ts";

interface Harness {
  ctx: OpContext;
  home: string;
  ws: string;
  taskId: string;
  // deno-lint-ignore no-explicit-any
  op<T = any>(op: string, args: unknown): Promise<T>;
  fail(op: string, args: unknown): Promise<{ code: string; message: string }>;
  close(): Promise<void>;
}

async function harness(): Promise<Harness> {
  const home = await Deno.makeTempDir({ prefix: "ra-panel-" });
  const ws = `${home}/project`;
  await Deno.mkdir(ws);
  const client: HubClient = { id: "c", topics: new Set(["tasks"]), deliver: () => {} };
  const ctx: OpContext = { ...createServices({ home, flushMs: 1 }), client };
  const h: Harness = {
    ctx,
    home,
    ws,
    taskId: "",
    async op(op, args) {
      const out = await runOp(ctx, op, args);
      if (!out.ok) throw new Error(`${op} failed: ${out.error.code}: ${out.error.message}`);
      // deno-lint-ignore no-explicit-any
      return out.result as any;
    },
    async fail(op, args) {
      const out = await runOp(ctx, op, args);
      if (out.ok) throw new Error(`${op} was expected to fail: ${JSON.stringify(out.result)}`);
      return out.error;
    },
    async close() {
      ctx.hub.close();
      ctx.store.close();
      await Deno.remove(home, { recursive: true });
    },
  };
  h.taskId = (await h.op("tasks.create", { title: "t", projectPath: ws })).task.id;
  return h;
}

const preview = (h: Harness, path: string) =>
  h.op<FilePreview>("file.preview", { taskId: h.taskId, path });

Deno.test("file.preview: a text file with its language, size and line count", async () => {
  const h = await harness();
  try {
    await Deno.mkdir(`${h.ws}/src`);
    const text = "export const a = 1;\n// ünïcode ✓\nconsole.log(a);";
    await Deno.writeTextFile(`${h.ws}/src/a.ts`, text);
    const p = await preview(h, "src/a.ts");
    assertEquals(p.path, "src/a.ts");
    assertEquals(p.text, text);
    assertEquals(p.binary, false);
    assertEquals(p.language, "typescript");
    assertEquals(p.lines, 3);
    assertEquals(p.truncated, null);
    assertEquals(p.size, new TextEncoder().encode(text).length);
    assertEquals(p.mime, "text/plain");
    assert(typeof p.mtime === "number");
    // Absolute inside the workspace works and shows the relative path.
    const abs = await preview(h, `${h.ws}/src/a.ts`);
    assertEquals(abs.path, "src/a.ts");
    assertEquals(abs.absPath, `${h.ws}/src/a.ts`);
    // `..` that stays inside is fine.
    assertEquals((await preview(h, "src/../src/a.ts")).text, text);
    // Empty file: zero lines, not binary.
    await Deno.writeTextFile(`${h.ws}/empty.md`, "");
    const e = await preview(h, "empty.md");
    assertEquals([e.text, e.lines, e.binary, e.language], ["", 0, false, "markdown"]);
    // Trailing newline: the empty after-last line is not a line.
    await Deno.writeTextFile(`${h.ws}/two.txt`, "a\nb\n");
    assertEquals((await preview(h, "two.txt")).lines, 2);
  } finally {
    await h.close();
  }
});

Deno.test("file.preview: at most 256 KB are sent, with the real size", async () => {
  const h = await harness();
  try {
    const line = "0123456789abcdefghijklmnopqrstuvwxyz-0123456789abcdefghijklmnopqrstuvwxyz\n";
    const big = line.repeat(Math.ceil((PREVIEW_LIMITS.bytes * 1.5) / line.length));
    await Deno.writeTextFile(`${h.ws}/big.log`, big);
    const p = await preview(h, "big.log");
    assertEquals(p.truncated, "bytes");
    assertEquals(p.size, big.length);
    assertEquals(p.text!.length, PREVIEW_LIMITS.bytes);
    assert(big.startsWith(p.text!));
    // A multi-byte character cut by the cap is dropped, not turned into "binary".
    const cjk = "a" + "中".repeat(PREVIEW_LIMITS.bytes); // 1 + 3 bytes each: the cap cuts one
    await Deno.writeTextFile(`${h.ws}/cjk.txt`, cjk);
    const c = await preview(h, "cjk.txt");
    assertEquals(c.binary, false);
    assertEquals(c.truncated, "bytes");
    assertEquals(c.text!.length, 1 + Math.floor((PREVIEW_LIMITS.bytes - 1) / 3));
    // Exactly at the cap: whole file, not truncated.
    await Deno.writeTextFile(`${h.ws}/exact.txt`, "x".repeat(PREVIEW_LIMITS.bytes));
    assertEquals((await preview(h, "exact.txt")).truncated, null);
  } finally {
    await h.close();
  }
});

Deno.test("file.preview: the line limit cuts a file with many short lines", async () => {
  const h = await harness();
  try {
    const n = PREVIEW_LIMITS.lines + 500;
    const text = Array.from({ length: n }, (_, i) => `${i + 1}`).join("\n") + "\n";
    await Deno.writeTextFile(`${h.ws}/lines.txt`, text);
    const p = await preview(h, "lines.txt");
    assertEquals(p.truncated, "lines");
    assertEquals(p.lines, PREVIEW_LIMITS.lines);
    assertEquals(p.text!.split("\n").length - 1, PREVIEW_LIMITS.lines);
    assert(p.text!.endsWith(`\n${PREVIEW_LIMITS.lines}\n`));
    // One line fewer than the limit (no final newline): whole.
    const fit = Array.from({ length: PREVIEW_LIMITS.lines }, (_, i) => `${i}`).join("\n");
    await Deno.writeTextFile(`${h.ws}/fit.txt`, fit);
    const f = await preview(h, "fit.txt");
    assertEquals([f.truncated, f.lines], [null, PREVIEW_LIMITS.lines]);
  } finally {
    await h.close();
  }
});

Deno.test("file.preview: binary files (NUL bytes, invalid UTF-8) come without text", async () => {
  const h = await harness();
  try {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    await Deno.writeFile(`${h.ws}/pic.png`, png);
    const p = await preview(h, "pic.png");
    assertEquals([p.binary, p.text, p.mime, p.size, p.language], [
      true,
      null,
      "image/png",
      12,
      "",
    ]);
    await Deno.writeFile(`${h.ws}/latin1.txt`, new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const l = await preview(h, "latin1.txt");
    assertEquals([l.binary, l.text, l.mime], [true, null, "application/octet-stream"]);
    assertEquals(decodeText(new Uint8Array([0x61, 0x00, 0x62]), false), null);
    assertEquals(decodeText(new Uint8Array([0x61, 0xe4, 0xb8]), true), "a");
    assertEquals(decodeText(new Uint8Array([0x61, 0xe4, 0xb8]), false), null);
  } finally {
    await h.close();
  }
});

Deno.test("file.preview: outside the workspace and symlinks leading out are refused", async () => {
  const h = await harness();
  try {
    await Deno.writeTextFile(`${h.home}/secret.txt`, "secret");
    let e = await h.fail("file.preview", { taskId: h.taskId, path: "../secret.txt" });
    assertEquals(e.code, "invalid_args");
    assertMatch(e.message, /outside the task's workspace/);
    e = await h.fail("file.preview", { taskId: h.taskId, path: `${h.home}/secret.txt` });
    assertMatch(e.message, /outside the task's workspace/);
    e = await h.fail("file.preview", { taskId: h.taskId, path: "/etc/passwd" });
    assertMatch(e.message, /outside/);
    // A link to a file outside, and a link to a folder outside.
    await Deno.symlink(`${h.home}/secret.txt`, `${h.ws}/link.txt`);
    e = await h.fail("file.preview", { taskId: h.taskId, path: "link.txt" });
    assertEquals(e.code, "invalid_args");
    assertMatch(e.message, /link\.txt leads outside .*symlink/);
    await Deno.symlink(h.home, `${h.ws}/up`);
    e = await h.fail("file.preview", { taskId: h.taskId, path: "up/secret.txt" });
    assertMatch(e.message, /leads outside/);
    assert(!e.message.includes("secret\n"));
    // A link that stays inside is fine.
    await Deno.writeTextFile(`${h.ws}/real.txt`, "inside");
    await Deno.symlink(`${h.ws}/real.txt`, `${h.ws}/alias.txt`);
    assertEquals((await preview(h, "alias.txt")).text, "inside");
  } finally {
    await h.close();
  }
});

Deno.test("file.preview: not found, folders, unknown task and bad args give clear errors", async () => {
  const h = await harness();
  try {
    let e = await h.fail("file.preview", { taskId: h.taskId, path: "nope.txt" });
    assertEquals(e.code, "not_found");
    assertMatch(e.message, /nope\.txt does not exist in the workspace/);
    await Deno.mkdir(`${h.ws}/dir`);
    e = await h.fail("file.preview", { taskId: h.taskId, path: "dir" });
    assertEquals(e.code, "invalid_args");
    assertMatch(e.message, /dir is a folder/);
    e = await h.fail("file.preview", { taskId: "t_missing", path: "a.txt" });
    assertEquals(e.code, "not_found");
    assertMatch(e.message, /task t_missing does not exist/);
    e = await h.fail("file.preview", { taskId: h.taskId });
    assertEquals(e.code, "invalid_args");
    assertMatch(e.message, /args\.path is required/);
    e = await h.fail("file.preview", { taskId: h.taskId, path: "" });
    assertMatch(e.message, /at least 1/);
    e = await h.fail("file.preview", { taskId: h.taskId, path: 5 });
    assertMatch(e.message, /must be a string/);
    e = await h.fail("file.preview", { taskId: h.taskId, path: "a", extra: 1 });
    assertMatch(e.message, /not a known field/);
    // A workspace that is gone.
    await Deno.remove(h.ws, { recursive: true });
    e = await h.fail("file.preview", { taskId: h.taskId, path: "a.txt" });
    assertEquals(e.code, "not_found");
    assertMatch(e.message, /workspace .* does not exist/);
  } finally {
    await h.close();
  }
});

Deno.test("file.diff: the stored diff of a tool call, latest with that id and path", async () => {
  const h = await harness();
  try {
    const entries = h.ctx.store.repos!.entries;
    const diff = (added: number) => ({
      added,
      removed: 0,
      hunks: [{ oldStart: 1, newStart: 1, lines: [{ t: "+", text: `v${added}` }] }],
      truncated: false,
    });
    const tool = (id: string, callId: string, path: string, d: unknown) =>
      entries.append({
        id,
        taskId: h.taskId,
        role: "tool",
        status: "done",
        parts: [{
          type: "tool_result",
          text: "ok",
          data: { toolCallId: callId, name: "edit_file", meta: { path, diff: d } },
        }],
      });
    tool("e1", "call_1", "a.txt", diff(1));
    tool("e2", "call_1", "a.txt", diff(2)); // same id in a later turn
    tool("e3", "call_2", "b.txt", null);
    const r = await h.op("file.diff", { taskId: h.taskId, callId: "call_1", path: "a.txt" });
    assertEquals([r.path, r.tool, r.diff.added], ["a.txt", "edit_file", 2]);
    const abs = await h.op("file.diff", {
      taskId: h.taskId,
      callId: "call_1",
      path: `${h.ws}/a.txt`,
    });
    assertEquals(abs.diff.added, 2);
    let e = await h.fail("file.diff", { taskId: h.taskId, callId: "call_1", path: "other.txt" });
    assertEquals(e.code, "not_found");
    assertMatch(e.message, /no result of tool call call_1 for other\.txt/);
    e = await h.fail("file.diff", { taskId: h.taskId, callId: "call_2", path: "b.txt" });
    assertMatch(e.message, /has no line diff/);
    e = await h.fail("file.diff", { taskId: h.taskId, callId: "", path: "b.txt" });
    assertEquals(e.code, "invalid_args");
  } finally {
    await h.close();
  }
});

Deno.test("about.info: version, data dir, database and honest sandbox facts", async () => {
  const h = await harness();
  try {
    const a = await h.op<AboutInfo>("about.info", {});
    assertEquals(a.home, h.home);
    assertEquals(a.store.ok, true);
    assertEquals(a.store.path, `${h.home}/reinagent.db`);
    assertEquals(a.pid, Deno.pid);
    assertEquals(a.toolSandbox.backend, "deno-workers");
    assertEquals(a.shellSandbox.level, "workspace-write");
    assert(a.version.length > 0);
    if (a.shellSandbox.available) {
      assertEquals(a.shellSandbox.backend, "bwrap");
      assertMatch(a.shellSandbox.version ?? "", /bubblewrap \d/);
    } else {
      assertEquals(a.shellSandbox.backend, "none");
      assert((a.shellSandbox.reason ?? "").length > 0, "says why there is no sandbox");
    }
    assertEquals((await h.fail("about.info", { x: 1 })).code, "invalid_args");
  } finally {
    await h.close();
  }
});

Deno.test("about.info: the server's live RSS and its peak since start", async () => {
  const h = await harness();
  try {
    const first = (await h.op<AboutInfo>("about.info", {})).memory;
    assert(first.rssBytes > 10 * 1024 * 1024, `a Deno process is bigger: ${first.rssBytes}`);
    if (Deno.build.os === "linux") {
      assert(first.peakRssBytes !== null && first.peakRssBytes >= first.rssBytes);
      // The kernel's own count of this process agrees within a few MB.
      const hwm = Number(Deno.readTextFileSync("/proc/self/status").match(/VmHWM:\s+(\d+)/)![1]);
      assert(Math.abs(first.peakRssBytes - hwm * 1024) < 16 * 1024 * 1024);
    }
    // Live: 64 MB touched in this process show up in the next answer, and stay in the peak.
    const ballast = new Uint8Array(64 * 1024 * 1024).fill(1);
    const second = (await h.op<AboutInfo>("about.info", {})).memory;
    assert(second.rssBytes >= first.rssBytes + 48 * 1024 * 1024, "rss follows the process");
    if (second.peakRssBytes !== null) assert(second.peakRssBytes >= second.rssBytes);
    assertEquals(ballast[ballast.length - 1], 1);
  } finally {
    await h.close();
  }
});

Deno.test("languageOf: extensions and well-known names", () => {
  assertEquals(languageOf("/a/b.tsx"), "typescript");
  assertEquals(languageOf("x/Dockerfile"), "dockerfile");
  assertEquals(languageOf("README.MD"), "markdown");
  assertEquals(languageOf("noext"), "");
});
