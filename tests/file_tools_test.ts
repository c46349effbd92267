/** File tools, the stale-read rule, and the Deno-permission sandbox around them. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { writeFile } from "../tools/write_file.ts";
import { editFile } from "../tools/edit_file.ts";
import { deleteFile } from "../tools/delete_file.ts";
import { readFile } from "../tools/read_file.ts";
import { listDir } from "../tools/list_dir.ts";
import { SandboxPool, workerPermissions } from "../tools/sandbox/pool.ts";
import { ToolRunner } from "../agent/tool_runner.ts";
import { FileTracker } from "../agent/file_tracker.ts";
import { defaultTools } from "../tools/registry.ts";

const signal = new AbortController().signal;
async function ws() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-tools-" }));
  return { dir, ctx: { workspace: dir, signal } };
}

Deno.test("write_file creates parents, reports created/overwrote; refuses outside and symlinks", async () => {
  const { dir, ctx } = await ws();
  const r = await writeFile.execute({ path: "a/b/c.txt", content: "one\ntwo" }, ctx);
  assertEquals(r.isError, false);
  assertMatch(r.content, /Created a\/b\/c\.txt \(2 lines, 7 bytes\)/);
  assertEquals(await Deno.readTextFile(`${dir}/a/b/c.txt`), "one\ntwo");
  const again = await writeFile.execute({ path: "a/b/c.txt", content: "x" }, ctx);
  assertMatch(again.content, /Overwrote/);
  assertEquals(again.meta?.diff, {
    added: 1,
    removed: 2,
    truncated: false,
    hunks: [{
      oldStart: 1,
      newStart: 1,
      lines: [
        { t: "-", text: "one" },
        { t: "-", text: "two" },
        { t: "+", text: "x" },
      ],
    }],
  });
  assertEquals([again.meta?.created, "before" in again.meta!, "after" in again.meta!], [
    false,
    false,
    false,
  ]);
  assertEquals((r.meta?.diff as { added: number }).added, 2);
  assertEquals(r.meta?.created, true);
  const out = await writeFile.execute({ path: "/tmp/ra-outside-write.txt", content: "x" }, ctx);
  assert(out.isError);
  assertMatch(out.content, /outside the workspace/);
  await Deno.symlink("/etc", `${dir}/etc-link`);
  const viaLink = await writeFile.execute({ path: "etc-link/evil.conf", content: "x" }, ctx);
  assert(viaLink.isError);
  assertMatch(viaLink.content, /resolves to \/etc\/evil\.conf/);
  assertEquals(
    (await writeFile.execute({ path: "x" }, ctx)).content,
    "write_file: args.content is required. Expected: {path: string, content: string}",
  );
});

Deno.test("edit_file: exact replace, not found, ambiguous, replace_all, no-op", async () => {
  const { dir, ctx } = await ws();
  await Deno.writeTextFile(`${dir}/f.ts`, "let a = 1;\nlet b = 1;\n");
  const nf = await editFile.execute({ path: "f.ts", old_string: "let c", new_string: "x" }, ctx);
  assertMatch(nf.content, /was not found in f\.ts/);
  const amb = await editFile.execute(
    { path: "f.ts", old_string: " = 1;", new_string: " = 2;" },
    ctx,
  );
  assertMatch(amb.content, /occurs 2 times in f\.ts/);
  const one = await editFile.execute({
    path: "f.ts",
    old_string: "let a = 1;",
    new_string: "let a = $&;",
  }, ctx);
  assertEquals(one.isError, false);
  assertEquals(
    await Deno.readTextFile(`${dir}/f.ts`),
    "let a = $&;\nlet b = 1;\n",
    "replacement is literal ($& kept)",
  );
  assertEquals(one.meta?.replacements, 1);
  assertEquals(one.meta?.diff, {
    added: 1,
    removed: 1,
    truncated: false,
    hunks: [{
      oldStart: 1,
      newStart: 1,
      lines: [
        { t: "-", text: "let a = 1;" },
        { t: "+", text: "let a = $&;" },
        { t: " ", text: "let b = 1;" },
      ],
    }],
  });
  const all = await editFile.execute({
    path: "f.ts",
    old_string: "let",
    new_string: "const",
    replace_all: true,
  }, ctx);
  assertMatch(all.content, /replaced 2 occurrences/);
  assertMatch(
    (await editFile.execute({ path: "f.ts", old_string: "x", new_string: "x" }, ctx)).content,
    /identical/,
  );
  assertMatch(
    (await editFile.execute({ path: "nope.ts", old_string: "x", new_string: "y" }, ctx)).content,
    /File not found: nope\.ts/,
  );
  assertMatch(
    (await editFile.execute({ path: "f.ts", old_string: "", new_string: "y" }, ctx)).content,
    /old_string is empty/,
  );
});

Deno.test("delete_file removes regular files only", async () => {
  const { dir, ctx } = await ws();
  await Deno.writeTextFile(`${dir}/gone.txt`, "x");
  await Deno.mkdir(`${dir}/sub`);
  assertEquals((await deleteFile.execute({ path: "gone.txt" }, ctx)).isError, false);
  await Deno.stat(`${dir}/gone.txt`).then(() => assert(false), () => {});
  assertMatch((await deleteFile.execute({ path: "sub" }, ctx)).content, /not a regular file/);
  assertMatch((await deleteFile.execute({ path: "gone.txt" }, ctx)).content, /File not found/);
});

Deno.test("read_file: windows, truncation note, binary refused; list_dir dirs first", async () => {
  const { dir, ctx } = await ws();
  await Deno.writeTextFile(
    `${dir}/big.txt`,
    Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n"),
  );
  const r = await readFile.execute({ path: "big.txt" }, ctx);
  assertMatch(r.content, /truncated: showed lines 1-2000 of 3000; continue with offset 2001/);
  const w = await readFile.execute({ path: "big.txt", offset: 2999, limit: 5 }, ctx);
  assertMatch(w.content, /^\s+2999\tline 2999\n\s+3000\tline 3000$/);
  assertMatch(
    (await readFile.execute({ path: "big.txt", offset: 5000 }, ctx)).content,
    /past the end/,
  );
  await Deno.writeFile(`${dir}/bin.dat`, new Uint8Array([1, 0, 2, 3]));
  assertMatch((await readFile.execute({ path: "bin.dat" }, ctx)).content, /binary/);
  await Deno.mkdir(`${dir}/zdir`);
  const l = await listDir.execute({}, ctx);
  assertEquals(l.content.split("\n")[0], "zdir/");
  assertMatch(
    (await readFile.execute({ path: "/etc/passwd" }, ctx)).content,
    /Access denied: \/etc\/passwd is outside the workspace/,
  );
});

Deno.test("runner: edits need a prior read and fail when the file changed since", async () => {
  const { dir } = await ws();
  const pool = new SandboxPool();
  const runner = new ToolRunner(defaultTools(), pool);
  const tracker = new FileTracker();
  const rctx = { workspace: dir, roots: [dir], signal, tracker };
  try {
    await Deno.writeTextFile(`${dir}/s.txt`, "alpha\n");
    const edit = {
      id: "1",
      name: "edit_file",
      args: { path: "s.txt", old_string: "alpha", new_string: "beta" },
    };
    assertMatch(
      (await runner.checkAndRun(edit, rctx)).content,
      /You must read s\.txt with read_file before you edit it/,
    );
    assertEquals(
      (await runner.checkAndRun({ id: "2", name: "read_file", args: { path: "s.txt" } }, rctx))
        .isError,
      false,
    );
    await new Promise((r) => setTimeout(r, 20));
    await Deno.writeTextFile(`${dir}/s.txt`, "alpha changed elsewhere\n");
    assertMatch((await runner.checkAndRun(edit, rctx)).content, /changed since you last read it/);
    await runner.checkAndRun({ id: "3", name: "read_file", args: { path: "s.txt" } }, rctx);
    const ok = await runner.checkAndRun(edit, rctx);
    assertEquals(ok.isError, false, ok.content);
    assertEquals(await Deno.readTextFile(`${dir}/s.txt`), "beta changed elsewhere\n");
    // The edit's own write refreshed the stamp: a second edit needs no new read.
    const again = await runner.checkAndRun({
      id: "4",
      name: "edit_file",
      args: { path: "s.txt", old_string: "beta", new_string: "gamma" },
    }, rctx);
    assertEquals(again.isError, false, again.content);
    const del = await runner.checkAndRun(
      { id: "5", name: "delete_file", args: { path: "s.txt" } },
      rctx,
    );
    assertEquals(del.isError, false, del.content);
  } finally {
    pool.closeAll();
  }
});

Deno.test("sandbox: a file-tool worker cannot read or write outside its roots, open sockets, read env, run programs, or escalate", async () => {
  const { dir } = await ws();
  await Deno.writeTextFile(`${dir}/inside.txt`, "in");
  const outside = await Deno.makeTempFile();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("leak"),
  );
  try {
    for (const profile of ["read", "write"] as const) {
      const w = new Worker(new URL("./fixtures/escape_worker.js", import.meta.url), {
        type: "module",
        deno: { permissions: workerPermissions(profile, [dir]) },
      });
      const result = await new Promise<Record<string, string>>((resolve) => {
        w.onmessage = (e) => resolve(e.data);
        w.postMessage({ inside: `${dir}/inside.txt`, outside, port: server.addr.port });
      });
      w.terminate();
      assertEquals(result.readInside, "ALLOWED", profile);
      for (
        const k of [
          "readOutside",
          "readEtc",
          "writeOutside",
          "net",
          "socket",
          "env",
          "run",
          "escalate",
        ]
      ) {
        assert(result[k] !== "ALLOWED", `${profile}: ${k} must be denied, got ${result[k]}`);
      }
      assertEquals(result.readOutside, "NotCapable");
      assertEquals(result.socket, "NotCapable");
    }
    // The web tools' worker: network only, no file system at all.
    const w = new Worker(new URL("./fixtures/escape_worker.js", import.meta.url), {
      type: "module",
      deno: { permissions: workerPermissions("net", [dir]) },
    });
    const net = await new Promise<Record<string, string>>((resolve) => {
      w.onmessage = (e) => resolve(e.data);
      w.postMessage({ inside: `${dir}/inside.txt`, outside, port: server.addr.port });
    });
    w.terminate();
    assertEquals(net.net, "ALLOWED");
    for (
      const k of ["readInside", "readOutside", "readEtc", "writeOutside", "env", "run", "escalate"]
    ) {
      assert(net[k] !== "ALLOWED", `net: ${k} must be denied, got ${net[k]}`);
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("sandbox pool: file tools really run in the worker and outside paths are refused", async () => {
  const { dir } = await ws();
  const pool = new SandboxPool();
  try {
    const w = await pool.run(
      "write",
      [dir],
      "write_file",
      { path: "w.txt", content: "hi" },
      dir,
      signal,
    );
    assertEquals(w.isError, false, w.content);
    assertEquals(await Deno.readTextFile(`${dir}/w.txt`), "hi");
    const r = await pool.run("read", [dir], "read_file", { path: "/etc/passwd" }, dir, signal);
    assert(r.isError);
    assertMatch(r.content, /outside the workspace/);
    // A read-only worker cannot write even inside the workspace.
    const ro = await pool.run(
      "read",
      [dir],
      "write_file",
      { path: "ro.txt", content: "x" },
      dir,
      signal,
    );
    assert(ro.isError);
    assertMatch(ro.content, /Sandbox denied|NotCapable|Requires write access/);
    // webfetch runs in the network worker; loopback is refused by its SSRF rule.
    const wf = await pool.run(
      "net",
      [dir],
      "webfetch",
      { url: "http://127.0.0.1:9/" },
      dir,
      signal,
    );
    assert(wf.isError);
    assertMatch(wf.content, /127\.0\.0\.1/);
    assertEquals(pool.size, 3);
  } finally {
    pool.closeAll();
  }
});

Deno.test("sandbox pool: read tools share the write worker of their roots; a write tool never runs read-only", async () => {
  const { dir } = await ws();
  const pool = new SandboxPool();
  try {
    const r0 = await pool.run("read", [dir], "list_dir", { path: "." }, dir, signal);
    assertEquals(r0.isError, false, r0.content);
    assertEquals(pool.size, 1, "a read worker while no write worker exists");
    const w = await pool.run(
      "write",
      [dir],
      "write_file",
      { path: "a.txt", content: "hi" },
      dir,
      signal,
    );
    assertEquals(w.isError, false, w.content);
    assertEquals(pool.size, 1, "the idle read worker made way for the write worker");
    const r = await pool.run("read", [dir], "read_file", { path: "a.txt" }, dir, signal);
    assertMatch(r.content, /hi/);
    assertEquals(pool.size, 1, "the read ran in the write worker");
    // Sent under the read profile, a write tool still gets a read-only worker and is denied.
    const ro = await pool.run(
      "read",
      [dir],
      "write_file",
      { path: "b.txt", content: "x" },
      dir,
      signal,
    );
    assert(ro.isError);
    assertMatch(ro.content, /Sandbox denied|NotCapable|Requires write access/);
    assertEquals(pool.size, 2);
  } finally {
    pool.closeAll();
  }
});

Deno.test("sandbox pool: warm starts one worker ahead of the first call, which uses it; a read warm beside a write worker starts none", async () => {
  const { dir } = await ws();
  const pool = new SandboxPool();
  try {
    pool.warm("write", [dir]);
    assertEquals(pool.size, 1, "started before any call");
    pool.warm("write", [dir]);
    pool.warm("read", [dir]); // reads go to the write worker: nothing more to start
    assertEquals(pool.size, 1);
    const r = await pool.run("read", [dir], "list_dir", { path: "." }, dir, signal);
    assertEquals(r.isError, false, r.content);
    assertEquals(pool.size, 1, "the read ran in the warmed write worker");
    const other = await Deno.makeTempDir();
    pool.warm("read", [other]); // a plan-mode turn: the read-only worker only
    assertEquals(pool.size, 2);
    const denied = await pool.run(
      "read",
      [other],
      "write_file",
      { path: "b.txt", content: "x" },
      other,
      signal,
    );
    assert(denied.isError, "the warmed read worker cannot write");
    assertEquals(pool.size, 2);
  } finally {
    pool.closeAll();
  }
});

Deno.test("a worker's warm-up answers nothing, reads nothing outside its roots, and leaves it serving", async () => {
  const { dir } = await ws();
  await Deno.writeTextFile(`${dir}/a.txt`, "alpha\n");
  const worker = new Worker(new URL("../tools/sandbox/worker.ts", import.meta.url), {
    type: "module",
    deno: { permissions: workerPermissions("read", [dir]) },
  });
  const replies: { id: number; result: { content: string; isError?: boolean } }[] = [];
  const got = new Promise<void>((done) => {
    worker.onmessage = (e) => {
      replies.push(e.data);
      if (e.data.id === 7) done();
    };
  });
  try {
    // Hostile or odd warm-ups first: a folder outside the roots, not a string at all.
    worker.postMessage({ warm: "/etc" });
    worker.postMessage({ warm: { path: "/" } });
    worker.postMessage({ warm: dir });
    worker.postMessage({
      id: 7,
      tool: "read_file",
      args: { path: "a.txt" },
      workspace: dir,
      roots: [dir],
      hidden: [],
    });
    await got;
    // Only the real call was answered (a warm-up taken for a job would answer too).
    assertEquals(replies.map((r) => r.id), [7]);
    assertEquals(replies[0].result.isError ?? false, false, replies[0].result.content);
    assertMatch(replies[0].result.content, /alpha/);
  } finally {
    worker.terminate();
  }
});

Deno.test({
  name: "read_file, edit_file, write_file refuse a FIFO instead of blocking on it forever",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const { dir, ctx } = await ws();
    const made = await new Deno.Command("mkfifo", { args: [`${dir}/pipe`] }).output();
    assert(made.success, "mkfifo");
    // Without the check, opening a FIFO no one writes to never returns: the race fails.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<string>((r) => timer = setTimeout(() => r("hung"), 3000));
    try {
      for (
        const run of [
          () => readFile.execute({ path: "pipe" }, ctx),
          () => editFile.execute({ path: "pipe", old_string: "a", new_string: "b" }, ctx),
          () => writeFile.execute({ path: "pipe", content: "x" }, ctx),
        ]
      ) {
        const r = await Promise.race([run().then((x) => x.content), hung]);
        assertMatch(r, /^pipe is not a regular file \(a FIFO, socket or device\); refused\.$/);
      }
    } finally {
      clearTimeout(timer);
    }
  },
});

Deno.test("list_dir: names in code-unit order (the same in every locale), folders first", async () => {
  const { dir, ctx } = await ws();
  for (const f of ["b.txt", "B.txt", "a.txt", "_x.txt"]) {
    await Deno.writeTextFile(`${dir}/${f}`, "");
  }
  await Deno.mkdir(`${dir}/zz`);
  await Deno.mkdir(`${dir}/Zz`);
  const names = (await listDir.execute({}, ctx)).content.split("\n").map((l) => l.split(" ")[0]);
  assertEquals(names, ["Zz/", "zz/", "B.txt", "_x.txt", "a.txt", "b.txt"]);
});

Deno.test("sandbox pool: an idle worker is closed after the idle time, without Node's timers", async () => {
  const { dir } = await ws();
  const pool = new SandboxPool(40);
  const real = { set: globalThis.setTimeout, clear: globalThis.clearTimeout };
  // Deno's global timers are Node's: their first use costs ~15 ms in a headless run.
  const refuse = (() => {
    throw new Error("Node timer used");
  }) as never;
  globalThis.setTimeout = refuse;
  globalThis.clearTimeout = refuse;
  let r;
  try {
    pool.warm("read", [dir]);
    r = await pool.run("read", [dir], "list_dir", { path: "." }, dir, signal);
  } finally {
    globalThis.setTimeout = real.set;
    globalThis.clearTimeout = real.clear;
  }
  try {
    assertEquals([r.isError, pool.size], [false, 1]);
    for (let i = 0; i < 100 && pool.size > 0; i++) await new Promise((ok) => setTimeout(ok, 20));
    assertEquals(pool.size, 0, "closed once idle");
    // A new call starts a worker again.
    assertEquals((await pool.run("read", [dir], "list_dir", {}, dir, signal)).isError, false);
  } finally {
    pool.closeAll();
  }
});

Deno.test("sandbox pool: calls push one idle timeout back instead of leaving one per call pending", async () => {
  const { dir } = await ws();
  const pool = new SandboxPool(60_000);
  const realTimeout = AbortSignal.timeout;
  let armed = 0;
  AbortSignal.timeout = (ms: number) => {
    armed++;
    return realTimeout.call(AbortSignal, ms);
  };
  try {
    for (let i = 0; i < 30; i++) {
      assertEquals((await pool.run("read", [dir], "list_dir", {}, dir, signal)).isError, false);
    }
    // Each call left a 60 s timeout (and what it holds) pending until its time.
    assertEquals(armed, 1, "one pending idle timeout for 30 calls");
  } finally {
    AbortSignal.timeout = realTimeout;
    pool.closeAll();
  }
});

Deno.test("edit_file tolerates whitespace and indentation, never guesses between places", async () => {
  const { dir, ctx } = await ws();
  const src = "class A {\n    run() {\n        go(1);\n        stop();\n    }\n}\n";
  await Deno.writeTextFile(`${dir}/a.ts`, src);
  // The model copied the lines with two-space indentation: found, re-indented to four.
  const r = await editFile.execute({
    path: "a.ts",
    old_string: "  run() {\n    go(1);",
    new_string: "  run() {\n    go(2);\n    log();",
  }, ctx);
  assertEquals(r.isError, false, r.content);
  assertMatch(r.content, /matched ignoring indentation; the new text was re-indented/);
  assertEquals(
    await Deno.readTextFile(`${dir}/a.ts`),
    "class A {\n    run() {\n        go(2);\n        log();\n        stop();\n    }\n}\n",
  );
  // Trailing spaces and typographic quotes the model "fixed" on the way.
  await Deno.writeTextFile(`${dir}/b.md`, "say \u201Chi\u201D   \nend\n");
  const q = await editFile.execute({
    path: "b.md",
    old_string: 'say "hi"',
    new_string: "say hello",
  }, ctx);
  assertEquals(q.isError, false, q.content);
  assertEquals(await Deno.readTextFile(`${dir}/b.md`), "say hello\nend\n");
  // Several places once whitespace is ignored: refused, with their line numbers.
  await Deno.writeTextFile(`${dir}/c.py`, "if a:\n    x = 1\nif b:\n  x = 1\n");
  const amb = await editFile.execute(
    { path: "c.py", old_string: "x = 1 ", new_string: "x = 2" },
    ctx,
  );
  assert(amb.isError);
  assertMatch(amb.content, /matches 2 places in c\.py when indentation is ignored \(lines 2, 4\)/);
  // Exact duplicates name their lines too.
  const dup = await editFile.execute({ path: "c.py", old_string: "x = 1", new_string: "y" }, ctx);
  assertMatch(dup.content, /occurs 2 times in c\.py \(lines 2, 4\)/);
  // Nothing close enough: the closest candidates with their line numbers.
  const nf = await editFile.execute({
    path: "a.ts",
    old_string: "run() {\n  go(3);",
    new_string: "x",
  }, ctx);
  assert(nf.isError);
  assertMatch(nf.content, /not even ignoring whitespace and indentation/);
  assertMatch(nf.content, /Closest lines in the file:\n\s+2\|\s+run\(\) \{\n\s+3\|\s+go\(2\);/);
  assertEquals(
    await Deno.readTextFile(`${dir}/c.py`),
    "if a:\n    x = 1\nif b:\n  x = 1\n",
    "failed edits change nothing",
  );
  // CRLF files keep their line endings through a loose match.
  await Deno.writeTextFile(`${dir}/w.txt`, "  one\r\n  two\r\n");
  const w = await editFile.execute({ path: "w.txt", old_string: "two", new_string: "2" }, ctx);
  assertEquals(w.isError, false, w.content);
  assertEquals(await Deno.readTextFile(`${dir}/w.txt`), "  one\r\n  2\r\n");
});
