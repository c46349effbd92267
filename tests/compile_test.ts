/**
 * The build stays honest. `scripts/compile.ts` refuses a DENORT_BIN
 * that is the `deno` CLI (deno compile takes it, "succeeds", and the binary prints
 * `deno 2.9.6` for `--version`) or that fits another OS/CPU, and checks what a host
 * build answers. And the program runs from a copy of exactly the files the binary
 * embeds (scripts/compile/graph.ts), in an empty folder, with the source tree denied:
 * `--version`, a headless turn through the OpenAI adapter and the sandbox worker (both
 * loaded lazily), one whose image the image worker resizes with its lazy codecs, and `serve` with its health check, app shell and the lazy MCP SDK.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { denoDir, ROOT } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { patternPng } from "./helpers/images.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { baseBinaryProblem } from "../scripts/compile/base_binary.ts";
import { compiledBinaryProblem } from "../scripts/compile/verify_output.ts";
import { executableKind, targetKind } from "../scripts/compile/executable_kind.ts";
import { COMPILE_FLAGS, copyModuleGraph, INCLUDES } from "../scripts/compile/graph.ts";
import { VERSION } from "../server/version.ts";

const dec = new TextDecoder();
const HOST_ARCH = Deno.build.arch;
const OTHER_ARCH = HOST_ARCH === "x86_64" ? "aarch64" : "x86_64";
const POSIX = Deno.build.os !== "windows";

/** A 64-byte little-endian ELF header for `arch` (enough for the header check). */
function elfHeader(arch: "x86_64" | "aarch64"): Uint8Array {
  const b = new Uint8Array(64);
  b.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
  b[18] = arch === "x86_64" ? 0x3e : 0xb7;
  return b;
}

Deno.test("executableKind reads ELF, Mach-O and PE headers, and nothing else", () => {
  assertEquals(executableKind(elfHeader("x86_64")), { os: "linux", arch: "x86_64" });
  assertEquals(executableKind(elfHeader("aarch64")), { os: "linux", arch: "aarch64" });
  const macho = new Uint8Array([0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0, 0, 0x01]);
  assertEquals(executableKind(macho), { os: "darwin", arch: "aarch64" });
  assertEquals(executableKind(new Uint8Array([0xca, 0xfe, 0xba, 0xbe])), {
    os: "darwin",
    arch: null,
  });
  const pe = new Uint8Array(0x100);
  pe.set([0x4d, 0x5a]);
  pe[0x3c] = 0x80;
  pe.set([0x50, 0x45, 0, 0, 0x64, 0x86], 0x80);
  assertEquals(executableKind(pe), { os: "windows", arch: "x86_64" });
  assertEquals(executableKind(new TextEncoder().encode('#!/bin/sh\nexec deno "$@"\n')), null);
  assertEquals(executableKind(new Uint8Array(0)), null);
  assertEquals(targetKind("aarch64-apple-darwin"), { os: "darwin", arch: "aarch64" });
  assertEquals(targetKind("x86_64-pc-windows-msvc"), { os: "windows", arch: "x86_64" });
  assertEquals(targetKind("riscv64-unknown-linux-gnu"), null);
});

Deno.test("compile.ts refuses DENORT_BIN=deno before building, and builds nothing", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "ra-compile-out-" });
  try {
    const r = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}scripts/compile.ts`, "--out-dir", outDir],
      env: { DENORT_BIN: Deno.execPath(), NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = dec.decode(r.stdout) + dec.decode(r.stderr);
    assertEquals(r.code, 1, out);
    assertMatch(out, /DENORT_BIN=.* is the deno CLI that runs this build/);
    assert(!out.includes("deno compile"), `deno compile must not run:\n${out}`);
    assertEquals([...Deno.readDirSync(outDir)], []);
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test({
  name: "a copy of deno under another name is refused by what it prints for --version",
  ignore: !POSIX,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "ra-denort-" });
    try {
      const fake = `${dir}/denort`;
      await Deno.copyFile(Deno.execPath(), fake);
      const problem = await baseBinaryProblem(fake, "");
      assertMatch(problem ?? "", /is the deno CLI \(its --version prints "deno \d+\.\d+\.\d+/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("a base for another OS or CPU is refused; one that fits and is not deno passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ra-denort-" });
  try {
    const other = `${dir}/denort-other`;
    await Deno.writeFile(other, elfHeader(OTHER_ARCH));
    const wrongCpu = await baseBinaryProblem(other, `${HOST_ARCH}-unknown-linux-gnu`);
    assertMatch(wrongCpu ?? "", new RegExp(`linux ${OTHER_ARCH} executable, but target`));
    // Not runnable here, so only its header speaks: it fits its own target.
    assertEquals(await baseBinaryProblem(other, `${OTHER_ARCH}-unknown-linux-gnu`), null);
    const wrongOs = await baseBinaryProblem(other, `${OTHER_ARCH}-apple-darwin`);
    assertMatch(wrongOs ?? "", /needs a darwin/);

    const script = `${dir}/wrapper`;
    await Deno.writeTextFile(script, `#!/bin/sh\nexec deno "$@"\n`);
    assertMatch(await baseBinaryProblem(script, "") ?? "", /is not an executable/);
    assertMatch(await baseBinaryProblem(`${dir}/missing`, "") ?? "", /cannot be read/);

    // A real executable of this machine that is not deno (what a denort looks like here).
    if (Deno.build.os === "linux") {
      const trueBin = ["/usr/bin/true", "/bin/true"].find((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      });
      if (trueBin) assertEquals(await baseBinaryProblem(trueBin, ""), null);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "a built binary must answer `reinagent <version>`; deno's answer is caught",
  ignore: !POSIX,
  fn: async () => {
    const asDeno = await compiledBinaryProblem(Deno.execPath(), VERSION);
    assertMatch(asDeno ?? "", /printed "deno \d+\.\d+\.\d+.*" \(exit 0\), not "reinagent /);
    const dir = await Deno.makeTempDir({ prefix: "ra-built-" });
    try {
      const good = `${dir}/reinagent`;
      await Deno.writeTextFile(good, `#!/bin/sh\necho "reinagent ${VERSION}"\n`);
      await Deno.chmod(good, 0o755);
      assertEquals(await compiledBinaryProblem(good, VERSION), null);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** `new Worker(new URL("…", import.meta.url))` in a module: entry points the graph misses. */
const WORKER_URL = /new\s+Worker\(\s*new\s+URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url/g;

Deno.test("the program runs from a copy of the binary's files with the source tree denied", async () => {
  const app = await Deno.makeTempDir({ prefix: "ra-graph-" });
  const cwd = await Deno.makeTempDir({ prefix: "ra-graph-cwd-" });
  const mock = startMockLlm({ quiet: true });
  mock.register("tools", {
    turns: [
      { text: "Looking.", toolCalls: [{ name: "list_dir", args: { path: "." } }] },
      { text: "It has **hello.txt**." },
    ],
  });
  mock.register("fit-vision", {
    turns: [{ toolCalls: [{ name: "read_file", args: { path: "wide.png" } }] }, { text: "Red." }],
  });
  let server: Deno.ChildProcess | undefined;
  try {
    const files = await copyModuleGraph(ROOT, app);
    assert(files.includes("ui/dist/app.js"), "the UI bundle is in the graph");
    assert(files.includes("agent/providers/openai_chat.ts"), "lazy adapters are in the graph");

    // Every worker started by URL must be in INCLUDES, or the binary cannot start it.
    for (const rel of files.filter((f) => /\.(ts|js)$/.test(f))) {
      const src = await Deno.readTextFile(`${app}/${rel}`);
      for (const m of src.matchAll(WORKER_URL)) {
        const target = new URL(m[1], `file:///${rel}`).pathname.slice(1);
        assert(INCLUDES.includes(target), `${rel} starts worker ${target}, not in INCLUDES`);
      }
    }

    const flags = [
      "run",
      "--cached-only",
      "--config",
      `${app}/deno.json`,
      ...COMPILE_FLAGS,
      `--deny-read=${ROOT}`,
      `${app}/main.ts`,
    ];
    const env = { NO_COLOR: "1", DENO_DIR: denoDir() };
    const cli = async (args: string[]) => {
      const r = await new Deno.Command(Deno.execPath(), {
        args: [...flags, ...args],
        cwd,
        env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      return { code: r.code, stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr) };
    };

    const version = await cli(["--version"]);
    assertEquals([version.code, version.stdout.trim()], [0, `reinagent ${VERSION}`]);

    const home = await homeWithProvider(mock.base, ["tools", "fit-vision"]);
    const project = await Deno.makeTempDir({ prefix: "ra-graph-project-" });
    await Deno.writeTextFile(`${project}/hello.txt`, "hi");
    const run = await cli([
      "run",
      "what is here?",
      "--home",
      home,
      "--project",
      project,
      "--model",
      "mock/tools",
    ]);
    assertEquals(run.code, 0, run.stderr);
    assertMatch(run.stderr, /✓ list_dir: hello\.txt/); // ran in the sandbox worker
    assertMatch(run.stdout, /It has \*\*hello\.txt\*\*\./);

    // An image over the models' limit is resized by the image worker and its lazily
    // imported codecs, both in the copy.
    await Deno.writeFile(`${project}/wide.png`, patternPng(2400, 300));
    const fit = await cli([
      "run",
      "what colour?",
      "--home",
      home,
      "--project",
      project,
      "--model",
      "mock/fit-vision",
    ]);
    assertEquals(fit.code, 0, fit.stderr);
    // Every request (the title's too): the turn's second one carries the tool result.
    const sent = mock.requests("fit-vision").map((q) => JSON.stringify(q.body)).join("\n");
    assertMatch(sent, /to 2000×250 px \(PNG/);

    server = new Deno.Command(Deno.execPath(), {
      args: [...flags, "serve", "--port", "0", "--home", home],
      cwd,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let out = "";
    const pump = async (s: ReadableStream<Uint8Array>) => {
      for await (const c of s) out += dec.decode(c, { stream: true });
    };
    const pumps = Promise.all([pump(server.stdout), pump(server.stderr)]);
    const deadline = Date.now() + 15_000;
    let m: RegExpMatchArray | null;
    while (!(m = out.match(/running at (http:\/\/\S+)/))) {
      assert(Date.now() < deadline, `serve did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const url = new URL(m[1]);
    const auth = { authorization: `Bearer ${url.searchParams.get("token")}` };
    const get = (path: string) => fetch(`${url.origin}${path}`, { headers: auth });

    const health = await (await get("/api/health")).json();
    assertEquals([health.ok, health.version], [true, VERSION]);
    const shell = await get("/");
    assertEquals(shell.status, 200);
    const html = await shell.text();
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((s) => s[1]);
    // xterm.js is a bundle of its own, imported by the page when a terminal first shows.
    const xterm = html.match(/name="reinagent-terminal-js" content="([^"]+)"/)?.[1];
    assert(scripts.length > 0 && xterm, html.slice(0, 400));
    for (const src of [...scripts, xterm]) {
      const r = await get(src);
      assertEquals(r.status, 200, src);
      assert((await r.text()).length > 10_000, `${src} is the real bundle`);
    }
    const mcp = await fetch(`${url.origin}/mcp`, {
      method: "POST",
      headers: {
        ...auth,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "compile-test", version: "0" },
        },
      }),
    });
    const body = await mcp.text();
    assertEquals(mcp.status, 200, body);
    assertMatch(body, /"serverInfo"/); // the lazily loaded MCP SDK answered

    server.kill("SIGTERM");
    await server.status;
    await pumps;
    server = undefined;
    assert(!/PermissionDenied|NotCapable|Requires read access/.test(out), out);
  } finally {
    if (server) {
      server.kill("SIGKILL");
      await server.status;
    }
    await mock.close();
    await Deno.remove(app, { recursive: true });
    await Deno.remove(cwd, { recursive: true });
  }
});
