/**
 * The bundled program (scripts/build-server.ts, what `deno task start` / `serve` run):
 * it answers, runs a turn whose tool reaches the bundled sandbox worker (and one whose
 * image is resized by the bundled image worker), lists a real npm
 * MCP server's tools through the bundled SDK, and serves the UI the source tree built. The build's up-to-date stamp notices a changed input.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, startTestServer } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { patternPng } from "./helpers/images.ts";
import { reinagent } from "./helpers/cli.ts";
import { EVERYTHING, mcpPackagesAvailable } from "./helpers/mcp_servers.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { ensureServer } from "../scripts/build-server.ts";
import { stampMatches, treeStamp } from "../scripts/build/stamp.ts";
import { deferChunkImports } from "../scripts/build/lazy_chunks.ts";

const program = (entry: string, args: string[]) => reinagent(args, entry);

Deno.test("the bundled program: --version, a headless turn with a file tool, serve with the UI", async () => {
  const out = await Deno.makeTempDir({ prefix: "ra-bundle-" });
  const dir = `${out}/server`;
  assertMatch(await ensureServer({ outDir: dir, force: true }), /server built/);
  assertMatch(await ensureServer({ outDir: dir }), /server up to date/);
  const entry = `${dir}/main.js`;
  // Every lazy chunk stays lazy for Deno's loader (no literal import() of a chunk left).
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".js")) continue;
    const text = await Deno.readTextFile(`${dir}/${e.name}`);
    assertEquals(text.match(/\bimport\("\.\/[\w.-]+\.js"\)/g), null, e.name);
  }

  // What every start loads (main.js and the chunks it imports statically) loads no Node
  // module: a bundled CommonJS package puts a `node:module` helper in a shared chunk, and
  // Node's layer costs every command ~15 ms.
  const nodeImports: string[] = [];
  const seen = new Set<string>();
  const walk = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = await Deno.readTextFile(`${dir}/${file}`);
    for (
      const m of text.matchAll(/^(?:import|export)[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gm)
    ) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith("node:") && spec !== "node:sqlite") nodeImports.push(`${file}: ${spec}`);
      else if (spec.startsWith("./")) await walk(spec.slice(2));
    }
  };
  await walk("main.js");
  assertEquals(nodeImports, []);

  const v = await program(entry, ["--version"]);
  assertEquals(v.code, 0, v.stderr);
  assertMatch(v.stdout, /^reinagent \d+\.\d+\.\d+/);

  const mock = startMockLlm({ quiet: true });
  mock.register("tools", {
    turns: [
      { text: "Looking.", toolCalls: [{ name: "read_file", args: { path: "hello.txt" } }] },
      { text: "It says hi." },
    ],
  });
  mock.register("fit-vision", {
    turns: [{ toolCalls: [{ name: "read_file", args: { path: "wide.png" } }] }, { text: "Red." }],
  });
  try {
    const home = await homeWithProvider(mock.base, ["tools", "fit-vision"]);
    const project = await Deno.makeTempDir();
    await Deno.writeTextFile(`${project}/hello.txt`, "hi from the file\n");
    const r = await program(entry, [
      "run",
      "read hello.txt",
      "--home",
      home,
      "--project",
      project,
      "--model",
      "mock/tools",
    ]);
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /It says hi\./);
    // The tool ran in the bundle's worker (worker.js beside main.js) and saw the file.
    assertMatch(r.stderr, /✓ read_file: .*hi from the file/);

    // An image over the models' limit is resized by the bundle's image_worker.js.
    await Deno.writeFile(`${project}/wide.png`, patternPng(2400, 300));
    const fit = await program(entry, [
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

    // The MCP SDK as bundled: a real npm server's tools are listed through it.
    if (await mcpPackagesAvailable()) {
      const added = await program(entry, [
        "mcp",
        "add",
        "ev",
        "--home",
        home,
        "--",
        Deno.execPath(),
        "run",
        "-A",
        "--quiet",
        EVERYTHING,
        "stdio",
      ]);
      assertEquals(added.code, 0, added.stderr);
      const tested = await program(entry, ["mcp", "test", "ev", "--home", home]);
      assertEquals(tested.code, 0, tested.stdout + tested.stderr);
      assertMatch(tested.stdout, /mcp__ev__echo/);
    }
  } finally {
    await mock.close();
  }

  const s = await startTestServer({ entry });
  try {
    const res = await fetch(`${s.base}/assets/app.js`, {
      headers: { authorization: `Bearer ${s.token}`, "accept-encoding": "identity" },
    });
    assertEquals(res.status, 200);
    const served = await res.text();
    assertEquals(served, await Deno.readTextFile(`${ROOT}ui/dist/app.js`), "the UI it embeds");
  } finally {
    await s.stop();
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("build stamp: a changed, added or removed input makes the build stale", async () => {
  const dir = await Deno.makeTempDir();
  const root = new URL(`file://${dir}/`);
  await Deno.mkdir(`${dir}/src/sub`, { recursive: true });
  await Deno.writeTextFile(`${dir}/src/a.ts`, "a");
  await Deno.writeTextFile(`${dir}/src/sub/b.ts`, "b");
  await Deno.writeTextFile(`${dir}/deno.json`, "{}");
  const stamp = () => treeStamp(root, ["src"], ["deno.json", "missing.lock"]);
  const first = await stamp();
  await Deno.writeTextFile(`${dir}/.stamp`, first);
  const out = [`${dir}/src/a.ts`];
  assert(await stampMatches(`${dir}/.stamp`, await stamp(), out), "unchanged: up to date");
  assert(!await stampMatches(`${dir}/.stamp`, first, [`${dir}/gone.js`]), "an output is missing");
  await Deno.writeTextFile(`${dir}/src/sub/b.ts`, "bb");
  assert(!await stampMatches(`${dir}/.stamp`, await stamp(), out), "a changed file");
  await Deno.writeTextFile(`${dir}/.stamp`, await stamp());
  await Deno.writeTextFile(`${dir}/src/c.ts`, "c");
  assert(!await stampMatches(`${dir}/.stamp`, await stamp(), out), "an added file");
  await Deno.writeTextFile(`${dir}/.stamp`, await stamp());
  await Deno.remove(`${dir}/src/a.ts`);
  assert(!await stampMatches(`${dir}/.stamp`, await stamp(), []), "a removed file");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deferChunkImports: only imports of the build's own chunks are rewritten", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ra-lazy-" });
  await Deno.writeTextFile(`${dir}/a-1.js`, "export const a = 1;\n");
  await Deno.writeTextFile(
    `${dir}/main.js`,
    'const m = await import("./a-1.js");\nimport("node:path");\nimport("./not-here.js");\n' +
      'const text = "import(\\"./b.js\\")";\n',
  );
  assertEquals(await deferChunkImports(dir), 1);
  assertEquals(
    await Deno.readTextFile(`${dir}/main.js`),
    'const m = await import(String("./a-1.js"));\nimport("node:path");\nimport("./not-here.js");\n' +
      'const text = "import(\\"./b.js\\")";\n',
  );
  // The rewritten import still resolves against the importing file.
  const probe = `${dir}/probe.js`;
  await Deno.writeTextFile(probe, 'export const v = (await import(String("./a-1.js"))).a;\n');
  assertEquals((await import(probe)).v, 1);
});
