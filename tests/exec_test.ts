import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import {
  execCommand,
  type ExecContext,
  runCommand,
  type RunOptions,
} from "../tools/exec/exec_command.ts";
import { HEAD_BYTES, OutputBuffer, pumpBytes, TAIL_BYTES } from "../tools/exec/output.ts";
import { describeSandbox, probeBwrap, sandboxStatus } from "../tools/exec/bwrap.ts";
import { processAlive } from "../tools/exec/process.ts";
import type { ToolResult } from "../tools/types.ts";

const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-exec-" }));
await Deno.mkdir(join(ws, "sub"));
await Deno.writeTextFile(join(ws, "hello.txt"), "hello from the workspace\n");
globalThis.addEventListener("unload", () => Deno.removeSync(ws, { recursive: true }));

/** Runs exec_command without a sandbox unless the test asks for one. */
function exec(
  args: Record<string, unknown>,
  extra: Partial<ExecContext> = {},
): Promise<ToolResult> {
  const ctx: ExecContext = {
    workspace: ws,
    signal: new AbortController().signal,
    sandbox: "off",
    ...extra,
  };
  return execCommand.execute(args, ctx);
}
const body = (r: ToolResult) => r.content.slice(0, r.content.lastIndexOf("\n\n"));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("exit codes are reported; non-zero exit is a result, not a tool error", async () => {
  const r = await exec({ command: "echo out; exit 7" });
  assertEquals(r.content, "out\n\nExit code: 7");
  assertEquals(r.isError, false);
  assertEquals(r.meta?.exitCode, 7);
  assertEquals(r.meta?.sandbox, "off");
  assertEquals((await exec({ command: "true" })).meta?.exitCode, 0);
  const sig = await exec({ command: "kill -SEGV $$" });
  assertEquals(sig.meta?.signal, "SIGSEGV");
  assertMatch(sig.content, /Killed by signal SIGSEGV\.$/);
});

Deno.test("stdout and stderr are merged in arrival order; empty output says so", async () => {
  const r = await exec({ command: "echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three" });
  assertEquals(body(r), "one\ntwo\nthree");
  const none = await exec({ command: "true" });
  assertEquals(none.content, "No output.\n\nExit code: 0");
});

Deno.test("UTF-8 split at every byte boundary across chunks decodes correctly", async () => {
  const text = "中文テスト🎉é";
  const bytes = new TextEncoder().encode(text);
  // unit level: every split position of one stream
  // (a plain stream, and a byte stream read with BYOB like a child's pipe)
  const byteStream = (chunks: Uint8Array[]) =>
    new ReadableStream({
      type: "bytes",
      pull(c) {
        const next = chunks.shift();
        if (next) return c.enqueue(next);
        c.close();
        c.byobRequest?.respond(0); // a pending BYOB read ends only this way
      },
    });
  for (let i = 1; i < bytes.length; i++) {
    for (
      const stream of [
        ReadableStream.from([bytes.slice(0, i), bytes.slice(i)]),
        byteStream([bytes.slice(0, i), bytes.slice(i)]),
      ]
    ) {
      let got = "";
      await pumpBytes(stream, (b) => got += new TextDecoder().decode(b)).done;
      assertEquals(got, text, `split at byte ${i}`);
    }
  }
  // process level: a child writing one byte per write with pauses in between
  const script = [...bytes].map((b) => `printf '\\${b.toString(8).padStart(3, "0")}'`)
    .join("; sleep 0.01; ");
  const chunks: string[] = [];
  const r = await exec({ command: script }, { onOutput: (t) => void chunks.push(t) });
  assertEquals(body(r), text);
  assert(chunks.length > 1, "output arrived in several chunks");
  assertEquals(chunks.join(""), text, "onOutput streamed the same text");
  // invalid bytes become U+FFFD, valid text around them survives
  const bad = await exec({ command: "printf 'a\\377b\\344\\270'" });
  assertEquals(body(bad), "a\uFFFDb\uFFFD");
});

Deno.test("huge output keeps head and tail with an exact omitted-bytes marker", async () => {
  const r = await exec({ command: "seq 1 200000" });
  const full = Array.from({ length: 200000 }, (_, i) => `${i + 1}\n`).join("");
  const out = body(r);
  const m = out.match(/\n\[… (\d+) bytes omitted …\]\n/);
  assert(m, "marker present");
  const head = out.slice(0, m.index! + 1);
  const tail = out.slice(m.index! + m[0].length) + "\n";
  assert(full.startsWith(head) && full.endsWith(tail));
  assert(head.length <= HEAD_BYTES && head.length > HEAD_BYTES - 1100, `head ${head.length}`);
  assert(tail.length <= TAIL_BYTES && tail.length > TAIL_BYTES - 1100, `tail ${tail.length}`);
  assertEquals(Number(m[1]), full.length - head.length - tail.length);
  assert(tail.endsWith("199999\n200000\n"));
  assertEquals(r.meta?.truncated, true);
  assertEquals(r.meta?.totalBytes, full.length);
});

Deno.test("output buffer: multi-byte text is never cut inside a character", () => {
  const b = new OutputBuffer(10, 10);
  b.push(new TextEncoder().encode("中".repeat(20))); // 60 bytes, 3 per char
  const { text, omittedBytes, totalBytes } = b.result();
  assertEquals(totalBytes, 60);
  assertEquals(text, `中中中\n[… ${60 - 9 - 9} bytes omitted …]\n中中中`);
  assertEquals(omittedBytes, 42);
});

Deno.test("output buffer: streams keep arrival order; a chatty two-stream command stays bounded", () => {
  const enc = new TextEncoder();
  const small = new OutputBuffer(16, 16);
  small.push(enc.encode("out1\n"), "out");
  small.push(enc.encode("err1\n"), "err");
  small.push(enc.encode("out2\n"), "out");
  assertEquals(small.result().segments, [
    { stream: "out", text: "out1\n" },
    { stream: "err", text: "err1\n" },
    { stream: "out", text: "out2\n" },
  ]);
  // 200 000 switches between the streams: the switch list is forgotten behind the tail.
  const b = new OutputBuffer(8, 8);
  for (let i = 0; i < 100_000; i++) {
    b.push(enc.encode("o"), "out");
    b.push(enc.encode("e"), "err");
  }
  const marks = (b as unknown as { marks: unknown[] }).marks.length;
  assert(marks < 8 + 8 + 2100, `${marks} stream switches kept`);
  const r = b.result();
  assertEquals(r.text, `oeoeoeoe\n[… ${200_000 - 16} bytes omitted …]\noeoeoeoe`);
  assertEquals(r.segments.length, 8 + 1 + 8);
  assertEquals(r.segments[8], { omitted: 200_000 - 16 });
  assertEquals(r.segments.at(-1), { stream: "err", text: "e" });
  assertEquals(b.bytes, { out: 100_000, err: 100_000 });
});

const run = (command: string, extra: Partial<RunOptions> = {}) =>
  runCommand({
    command,
    cwd: ws,
    workspace: ws,
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    sandbox: "off",
    network: true,
    ...extra,
  });

Deno.test("stderr is kept apart for the UI: segments in arrival order, live pieces say their stream", async () => {
  const live: [string, string][] = [];
  const r = await exec({
    command: "echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2; exit 3",
  }, {
    onOutput: (text, stream) => void live.push([stream, text]),
  });
  assertEquals(body(r), "out1\nerr1\nout2", "the model reads the merged text, unmarked");
  assertEquals(r.isError, false);
  assertEquals(r.meta?.exitCode, 3);
  assertEquals(r.meta?.stderrBytes, 5);
  assertEquals(r.meta?.segments, [
    { stream: "out", text: "out1\n" },
    { stream: "err", text: "err1\n" },
    { stream: "out", text: "out2\n" },
  ]);
  assertEquals(live, [["out", "out1\n"], ["err", "err1\n"], ["out", "out2\n"]]);
  // stdout only: no segments (the output text is all of it)
  assertEquals((await exec({ command: "echo hi" })).meta?.segments, undefined);
  // a huge stderr keeps head + tail there too, with the gap between
  const big = await exec({ command: "echo start; seq 1 100000 >&2; echo end" });
  const segs = big.meta?.segments as { stream?: string; text?: string; omitted?: number }[];
  assertEquals(segs[0], { stream: "out", text: "start\n" });
  assertEquals(segs[1].stream, "err");
  assertEquals(
    segs[2].omitted,
    big.meta?.totalBytes as number - 6 - 4 - segs[1].text!.length - segs[3].text!.length,
  );
  assertEquals(segs.at(-1), { stream: "out", text: "end\n" });
});

Deno.test("a live listener that had enough (returns false) is not given text again", async () => {
  let calls = 0, bytes = 0;
  const r = await run("yes | head -c 5000000", {
    onOutput: () => (++calls, false),
    onBytes: (b) => void (bytes += b.length),
  });
  assertEquals(calls, 1);
  assertEquals(bytes, 5_000_000, "raw bytes still flow to onBytes");
  assertEquals(r.totalBytes, 5_000_000);
});

Deno.test("timeout kills the whole process group, grandchildren included", async () => {
  const t0 = performance.now();
  const r = await exec({ command: "sleep 100 & echo $!; sleep 100", timeout: 0.5 });
  assert(performance.now() - t0 < 3000, "returned promptly");
  const pid = Number(body(r));
  assert(pid > 0, r.content);
  assertEquals(r.isError, true);
  assertEquals(r.meta?.timedOut, true);
  assertEquals(r.meta?.timeoutS, 0.5);
  assertMatch(r.content, /Timed out after 0\.5 s; the command and its children were stopped\.$/);
  await sleep(100);
  assert(!processAlive(pid), `grandchild ${pid} must be gone`);
});

Deno.test("a child ignoring SIGTERM gets SIGKILL after the 2 s grace", async () => {
  const t0 = performance.now();
  const r = await exec({ command: "(trap '' TERM; exec sleep 100) & echo $!; wait", timeout: 0.5 });
  const took = performance.now() - t0;
  const pid = Number(body(r));
  assert(pid > 0, r.content);
  assert(took >= 2400 && took < 6000, `took ${took} ms`);
  assertEquals(r.meta?.killedWith, "SIGKILL");
  assertMatch(r.content, /\(SIGKILL was needed\)\.$/);
  await sleep(100);
  assert(!processAlive(pid), `TERM-ignoring grandchild ${pid} must be gone`);
});

Deno.test("abort via the signal stops the command within 1 s", async () => {
  const ac = new AbortController();
  const p = exec({ command: "sleep 100" }, { signal: ac.signal });
  await sleep(300);
  const t0 = performance.now();
  ac.abort();
  const r = await p;
  assert(performance.now() - t0 < 1000, `stopped in ${performance.now() - t0} ms`);
  assertEquals(r.meta?.stopped, true);
  assertEquals(r.isError, true);
  assertMatch(r.content, /^No output\.\n\nStopped by the user\.$/);
});

Deno.test("a background job holding the output open does not hang the call", async () => {
  const t0 = performance.now();
  const r = await exec({ command: "sleep 30 & echo $!" });
  const pid = Number(r.content.split("\n")[0]);
  try {
    assert(performance.now() - t0 < 2500, "returned about 1 s after the shell exited");
    assertEquals(r.meta?.exitCode, 0);
    assertEquals(r.meta?.outputHeldOpen, true);
    assertMatch(r.content, /background processes kept the output open/);
    assert(processAlive(pid), "without a sandbox, a deliberate `&` job keeps running");
  } finally {
    Deno.kill(pid, "SIGKILL");
  }
});

Deno.test("cwd: default workspace, relative to it, errors for missing or file", async () => {
  assertEquals(body(await exec({ command: "pwd -P" })), ws);
  const sub = await exec({ command: "pwd -P", cwd: "sub" });
  assertEquals(body(sub), join(ws, "sub"));
  assertEquals(sub.meta?.cwd, "sub");
  assertEquals(body(await exec({ command: "pwd -P", cwd: join(ws, "sub") })), join(ws, "sub"));
  assertMatch((await exec({ command: "pwd", cwd: "nope" })).content, /cwd nope does not exist/);
  assertMatch((await exec({ command: "pwd", cwd: "hello.txt" })).content, /not a directory/);
});

Deno.test("bad arguments get clear errors", async () => {
  for (const timeout of [0, -1, 601, "10", Infinity]) {
    const r = await exec({ command: "true", timeout });
    assert(r.isError && /timeout must be/.test(r.content), `${timeout}: ${r.content}`);
  }
  assert((await exec({ command: "" })).isError);
  assert((await exec({ command: "true", cwd: 5 })).isError);
});

Deno.test("no sandbox available: meta says so honestly, command still runs", async () => {
  const none = { backend: "none" as const, available: false, reason: "bwrap not found on PATH" };
  assertEquals(describeSandbox("workspace-write", true, none), {
    use: false,
    label: "none (bwrap unavailable: bwrap not found on PATH)",
  });
  assertEquals(describeSandbox("off", false, null), { use: false, label: "off" });
  const r = await runCommand({
    command: "echo ran",
    cwd: ws,
    workspace: ws,
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    sandbox: "read-only",
    network: false,
    status: none,
  });
  assertEquals(r.output, "ran\n");
  assertEquals(r.sandbox, "none (bwrap unavailable: bwrap not found on PATH)");
  const missing = await probeBwrap("/nonexistent/bwrap");
  assertEquals(missing.available, false);
  assert(missing.reason && missing.reason.length > 0);
});

// ---- bubblewrap: run when it works here, otherwise skip loudly ----

const status = await sandboxStatus();
const requireBwrap = Deno.env.get("REINAGENT_REQUIRE_BWRAP") === "1";
if (!status.available) {
  const msg = `bwrap sandbox tests SKIPPED: ${status.reason}`;
  if (requireBwrap) throw new Error(`${msg} (REINAGENT_REQUIRE_BWRAP=1)`);
  console.log(`\n%c${msg}\n`, "color: yellow; font-weight: bold");
}
const bw = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name: `bwrap: ${name}`, ignore: !status.available, fn });

bw("read-only level can read but not write the workspace", async () => {
  const r = await exec({ command: "cat hello.txt; echo x > new.txt" }, { sandbox: "read-only" });
  assertMatch(r.content, /^hello from the workspace\n.*Read-only file system/s);
  assertEquals(r.meta?.sandbox, "bwrap (read-only, network on)");
  assert(!(await Deno.stat(join(ws, "new.txt")).catch(() => null)), "new.txt not created");
});

bw("workspace-write can write the workspace but not $HOME, /etc or the host /tmp", async () => {
  const tag = `ra-bwrap-probe-${crypto.randomUUID()}`;
  const home = Deno.env.get("HOME") ?? "/root";
  const cmd =
    `echo ok > ${tag}.txt && echo wrote; echo x > ${home}/${tag}; echo x > /etc/${tag}; ` +
    `echo x > /tmp/${tag} && echo tmp-ok`;
  const r = await exec({ command: cmd }, { sandbox: "workspace-write" });
  assertEquals(r.meta?.sandbox, "bwrap (workspace-write, network on)");
  assertMatch(r.content, /^wrote\n/);
  assertEquals(await Deno.readTextFile(join(ws, `${tag}.txt`)), "ok\n");
  assertEquals((r.content.match(/Read-only file system/g) ?? []).length, 2, r.content);
  assertMatch(r.content, /tmp-ok/, "/tmp inside is a private writable tmpfs");
  for (const p of [`${home}/${tag}`, `/etc/${tag}`, `/tmp/${tag}`]) {
    assert(!(await Deno.stat(p).catch(() => null)), `${p} must not exist on the host`);
  }
});

bw("network off blocks a connection to a 127.0.0.1 server; network on reaches it", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    for await (const conn of listener) conn.close();
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  const cmd = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONNECTED || echo REFUSED`;
  try {
    const on = await exec({ command: cmd }, {
      sandbox: "workspace-write",
      network: true,
      shell: "/bin/bash",
    });
    assertMatch(on.content, /^CONNECTED/, on.content);
    const off = await exec({ command: cmd }, {
      sandbox: "workspace-write",
      network: false,
      shell: "/bin/bash",
    });
    assertMatch(off.content, /REFUSED/, off.content);
    assert(!off.content.includes("CONNECTED"));
    assertEquals(off.meta?.sandbox, "bwrap (workspace-write, network off)");
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});

bw("timeout inside the sandbox kills background jobs too", async () => {
  const marker = join(ws, "late-marker");
  const r = await exec(
    { command: `(sleep 1.5; echo late > ${marker}) & sleep 100`, timeout: 0.5 },
    { sandbox: "workspace-write" },
  );
  assertEquals(r.meta?.timedOut, true);
  await sleep(2000);
  assert(!(await Deno.stat(marker).catch(() => null)), "the background job was killed");
});

bw("folders the user allowed besides the workspace are writable too", async () => {
  const extra = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-exec-extra-" }));
  const r = await exec(
    { command: `echo hi > ${extra}/f.txt && echo done` },
    { sandbox: "workspace-write", roots: [ws, extra, "/nonexistent-root"] },
  );
  assertMatch(r.content, /^done\n/, r.content);
  assertEquals(await Deno.readTextFile(`${extra}/f.txt`), "hi\n");
  await Deno.remove(extra, { recursive: true });
});
