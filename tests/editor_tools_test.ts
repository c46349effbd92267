/**
 * The editor bridge and the editor's versions of the file tools and exec_command, in
 * process: a request reaches only the attached client and only its answer counts; a
 * client that leaves fails what it owed and its task falls back to the built-ins; a
 * command that times out or is stopped is killed and released in the editor; a hostile
 * editor's odd answers are refused; paths are confined before the editor is asked.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { EditorBridge } from "../server/sessions/editor_bridge.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import { type EditorAccess, editorTools } from "../tools/editor.ts";
import type { EditorAskMsg, EditorMethod } from "../protocol/editor.ts";
import type { Tool, ToolContext } from "../tools/types.ts";
import { defaultTools } from "../tools/registry.ts";

async function rejectsWith(p: Promise<unknown>, re: RegExp): Promise<void> {
  try {
    await p;
  } catch (e) {
    return assertMatch((e as Error).message, re);
  }
  throw new Error(`expected a rejection matching ${re}`);
}

function wsClient(id: string) {
  const frames: EditorAskMsg[] = [];
  const client: HubClient = {
    id,
    topics: new Set(),
    deliver: () => {},
    raw: { send: (f) => void frames.push(JSON.parse(f)), buffered: () => 0 },
  };
  return { client, frames };
}

Deno.test("editor bridge: only the attached client is asked, and only its answer counts", async () => {
  const bridge = new EditorBridge();
  const editor = wsClient("editor");
  const other = wsClient("other");
  assertEquals(bridge.access("t1"), null);
  bridge.attach("t1", editor.client, { read: true, write: false, terminal: false }, "Zed");
  const ed = bridge.access("t1")!;
  assertEquals(ed.caps, { read: true, write: false, terminal: false });
  const asked = ed.request("fs/read_text_file", { path: "/w/a.txt" }, new AbortController().signal);
  assertEquals(editor.frames.length, 1);
  assertEquals(other.frames.length, 0);
  const [msg] = editor.frames;
  assertEquals([msg.t, msg.taskId, msg.method, msg.params], [
    "editor",
    "t1",
    "fs/read_text_file",
    { path: "/w/a.txt" },
  ]);
  // Another client cannot answer for the editor, nor can anyone answer twice.
  assertEquals(bridge.reply("other", msg.id, { result: { content: "forged" } }), false);
  assertEquals(bridge.reply("editor", msg.id, { result: { content: "buffer" } }), true);
  assertEquals(await asked, { content: "buffer" });
  assertEquals(bridge.reply("editor", msg.id, { result: { content: "again" } }), false);
  // An error answer rejects with the editor's words.
  const failing = ed.request("fs/read_text_file", { path: "/w/b" }, new AbortController().signal);
  bridge.reply("editor", editor.frames[1].id, { error: "no such buffer" });
  await rejectsWith(failing, /no such buffer/);
  // Another client cannot detach the editor; the editor leaving fails what it owes.
  bridge.detach("t1", "other");
  const owed = ed.request("fs/read_text_file", { path: "/w/c" }, new AbortController().signal);
  bridge.dropClient("editor");
  await rejectsWith(owed, /the editor disconnected/);
  assertEquals(bridge.access("t1"), null, "the task falls back to the built-in tools");
  await rejectsWith(
    ed.request("fs/read_text_file", { path: "/w/d" }, new AbortController().signal),
    /no longer connected/,
  );
  // An in-process client (no socket) cannot speak for an editor.
  assert((() => {
    try {
      bridge.attach("t2", { id: "cli", topics: new Set(), deliver: () => {} }, {
        read: true,
        write: true,
        terminal: true,
      });
      return false;
    } catch {
      return true;
    }
  })());
});

Deno.test("editor bridge: a stopped request is forgotten, its late answer ignored", async () => {
  const bridge = new EditorBridge();
  const editor = wsClient("editor");
  bridge.attach("t1", editor.client, { read: false, write: false, terminal: true });
  const stop = new AbortController();
  const waiting = bridge.access("t1")!.request(
    "terminal/wait_for_exit",
    { terminalId: "x" },
    stop.signal,
  );
  stop.abort();
  await rejectsWith(waiting, /./);
  assertEquals(bridge.reply("editor", editor.frames[0].id, { result: { exitCode: 0 } }), false);
});

/** A scripted editor: answers by method, records every call. */
function fakeEditor(
  answers: Partial<Record<EditorMethod, (p: Record<string, unknown>, s: AbortSignal) => unknown>>,
  caps = { read: true, write: true, terminal: true },
) {
  const calls: { method: EditorMethod; params: Record<string, unknown> }[] = [];
  const access: EditorAccess = {
    caps,
    async request(method, params, signal) {
      calls.push({ method, params });
      const fn = answers[method];
      if (!fn) throw new Error(`unexpected ${method}`);
      return await fn(params, signal);
    },
  };
  return { access, calls };
}

const toolOf = (name: string, caps = { read: true, write: true, terminal: true }) =>
  editorTools(caps).find((t) => t.name === name)! as Tool;

async function workspace() {
  const ws = await Deno.makeTempDir({ prefix: "ra-editor-tools-" });
  await Deno.writeTextFile(`${ws}/a.txt`, "on disk\n");
  return ws;
}

const ctxOf = (ws: string, editor: EditorAccess, signal = new AbortController().signal) =>
  ({ workspace: ws, roots: [ws], hidden: [], signal, editor }) as ToolContext;

Deno.test("editor exec_command: a timeout or a stop kills and releases the editor's terminal", async () => {
  const ws = await workspace();
  try {
    const never = (_p: unknown, s: AbortSignal) =>
      new Promise((_, reject) => s.addEventListener("abort", () => reject(s.reason)));
    const { access, calls } = fakeEditor({
      "terminal/create": () => ({ terminalId: "t-1" }),
      "terminal/wait_for_exit": never,
      "terminal/kill": () => ({}),
      "terminal/output": () => ({ output: "partial\n", truncated: false, exitStatus: null }),
      "terminal/release": () => ({}),
    });
    const exec = toolOf("exec_command");
    const timedOut = await exec.execute({ command: "sleep 100", timeout: 0.2 }, ctxOf(ws, access));
    assertEquals(timedOut.isError, true);
    assertMatch(timedOut.content, /partial\n\nTimed out after 0\.2 s/);
    assertEquals(calls.map((c) => c.method), [
      "terminal/create",
      "terminal/wait_for_exit",
      "terminal/kill",
      "terminal/output",
      "terminal/release",
    ]);
    assertEquals(timedOut.meta?.sandbox, "none: the editor's terminal");

    calls.length = 0;
    const stop = new AbortController();
    const running = exec.execute({ command: "sleep 100" }, ctxOf(ws, access, stop.signal));
    while (!calls.some((c) => c.method === "terminal/wait_for_exit")) {
      await new Promise((r) => setTimeout(r, 5));
    }
    stop.abort();
    const stopped = await running;
    assertMatch(stopped.content, /Stopped by the user\./);
    assert(calls.some((c) => c.method === "terminal/kill"));
    assertEquals(calls.at(-1)!.method, "terminal/release");
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("editor tools: a hostile editor's answers are refused; paths confined first", async () => {
  const ws = await workspace();
  const outside = await Deno.makeTempDir({ prefix: "ra-editor-out-" });
  try {
    await Deno.symlink(outside, `${ws}/out`);
    const { access, calls } = fakeEditor({
      "fs/read_text_file": () => ({ content: { not: "text" } }),
      "terminal/create": () => ({ terminalId: 42 }),
      "fs/write_text_file": () => ({}),
    });
    const read = await toolOf("read_file").execute({ path: "a.txt" }, ctxOf(ws, access));
    assertMatch(read.content, /The editor could not read a\.txt: the editor sent no text/);
    const exec = await toolOf("exec_command").execute({ command: "ls" }, ctxOf(ws, access));
    assertMatch(exec.content, /could not start the command: the editor sent no terminal id/);
    calls.length = 0;
    for (
      const [name, args] of [
        ["read_file", { path: "/etc/hostname" }],
        ["read_file", { path: "out/x" }],
        ["write_file", { path: "../escape.txt", content: "x" }],
        ["write_file", { path: "out/y", content: "x" }],
        ["exec_command", { command: "ls", cwd: "out" }],
        ["exec_command", { command: "ls", cwd: "/" }],
      ] as const
    ) {
      const r = await toolOf(name).execute(args, ctxOf(ws, access));
      assertEquals(r.isError, true, name);
      assertMatch(r.content, /Access denied/, `${name} ${JSON.stringify(args)}`);
      assertEquals(
        (r.meta?.refusal as { code: string }).code,
        "outside_workspace",
      );
    }
    assertEquals(calls, [], "the editor was never asked");
    // A hidden path inside the workspace is refused the same way.
    await Deno.mkdir(`${ws}/.secrets`);
    const hidden = await toolOf("read_file").execute(
      { path: ".secrets/key" },
      { ...ctxOf(ws, access), hidden: [`${ws}/.secrets`] } as ToolContext,
    );
    assertEquals((hidden.meta?.refusal as { code: string }).code, "hidden_path");
    assertEquals(calls, []);
  } finally {
    await Deno.remove(ws, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("editor tools keep the built-ins' names, schemas, kinds and traits", () => {
  const builtins = defaultTools();
  for (const t of editorTools({ read: true, write: true, terminal: true })) {
    const b = builtins.get(t.name)!;
    assertEquals(
      [t.description, t.parameters, t.kind, t.traits],
      [b.description, b.parameters, b.kind, b.traits],
    );
    assertEquals(t.placement, "main");
  }
  assertEquals(editorTools({ read: true, write: false, terminal: false }).map((t) => t.name), [
    "read_file",
  ]);
  assertEquals(editorTools({ read: false, write: false, terminal: false }), []);
});
