/** apply_patch: the Codex patch format, all-or-nothing writes, confinement and rewind. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { applyPatch } from "../tools/apply_patch.ts";
import { parsePatch, patchPaths } from "../tools/patch/parse.ts";
import { SandboxPool } from "../tools/sandbox/pool.ts";
import { ToolRunner } from "../agent/tool_runner.ts";
import { FileTracker } from "../agent/file_tracker.ts";
import { defaultTools } from "../tools/registry.ts";

const signal = new AbortController().signal;
async function ws() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-patch-" }));
  return { dir, ctx: { workspace: dir, signal } };
}
const read = (p: string) => Deno.readTextFile(p);
const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

const THREE = `*** Begin Patch
*** Add File: src/new.ts
+export const two = 2;
*** Update File: src/main.ts
@@ function main() {
   const a = 1;
-  return a;
+  return a + two;
 }
*** Delete File: old.txt
*** End Patch`;

async function seedThree(dir: string) {
  await Deno.mkdir(`${dir}/src`);
  await Deno.writeTextFile(
    `${dir}/src/main.ts`,
    "import x from 'x';\n\nfunction main() {\n  const a = 1;\n  return a;\n}\n",
  );
  await Deno.writeTextFile(`${dir}/old.txt`, "bye\n");
}

Deno.test("apply_patch: adds, updates and deletes three files in one call, with diffs", async () => {
  const { dir, ctx } = await ws();
  await seedThree(dir);
  const r = await applyPatch.execute({ input: THREE }, ctx);
  assertEquals(r.isError, false, r.content);
  assertEquals(
    r.content,
    "Success. Updated the following files:\nA src/new.ts\nM src/main.ts\nD old.txt",
  );
  assertEquals(await read(`${dir}/src/new.ts`), "export const two = 2;\n");
  assertEquals(
    await read(`${dir}/src/main.ts`),
    "import x from 'x';\n\nfunction main() {\n  const a = 1;\n  return a + two;\n}\n",
  );
  assertEquals(await exists(`${dir}/old.txt`), false);
  const files = r.meta?.files as {
    path: string;
    op: string;
    diff: { added: number; removed: number };
  }[];
  assertEquals(files.map((f) => [f.path, f.op, f.diff.added, f.diff.removed]), [
    ["src/new.ts", "add", 1, 0],
    ["src/main.ts", "update", 1, 1],
    ["old.txt", "delete", 0, 1],
  ]);
  assertEquals(r.meta?.changesFiles, true);
});

Deno.test("apply_patch: one failing chunk leaves all three files untouched, naming the closest lines", async () => {
  const { dir, ctx } = await ws();
  await seedThree(dir);
  const before = await read(`${dir}/src/main.ts`);
  const bad = THREE.replace("-  return a;", "-  return b;");
  const r = await applyPatch.execute({ input: bad }, ctx);
  assert(r.isError);
  assertMatch(r.content, /Chunk 1 of src\/main\.ts: these lines were not found/);
  assertMatch(r.content, /Closest lines in the file:\n\s+4\| {3}const a = 1;/);
  assertMatch(r.content, /No file was changed\.$/);
  assertEquals(await exists(`${dir}/src/new.ts`), false, "the added file was not written");
  assertEquals(await read(`${dir}/src/main.ts`), before);
  assertEquals(await read(`${dir}/old.txt`), "bye\n", "the deleted file is still there");
});

Deno.test("apply_patch: moves, several chunks, end of file, indentation drift and CRLF", async () => {
  const { dir, ctx } = await ws();
  await Deno.writeTextFile(
    `${dir}/a.py`,
    "def f():\n    x = 1\n    y = 2\n    return x\n\n\ndef g():\n    return 0\n",
  );
  await Deno.writeTextFile(`${dir}/w.txt`, "one\r\ntwo\r\n");
  const r = await applyPatch.execute({
    input: `*** Begin Patch
*** Update File: a.py
*** Move to: lib/b.py
@@ def f():
-  x = 1
+  x = 10
@@
 def g():
-    return 0
+    return 1
*** End of File
*** Update File: w.txt
-two
+TWO
*** End Patch`,
  }, ctx);
  assertEquals(r.isError, false, r.content);
  assertEquals(await exists(`${dir}/a.py`), false);
  assertEquals(
    await read(`${dir}/lib/b.py`),
    "def f():\n    x = 10\n    y = 2\n    return x\n\n\ndef g():\n    return 1\n",
    "the model's two-space indentation was mapped onto the file's four",
  );
  assertEquals(await read(`${dir}/w.txt`), "one\r\nTWO\r\n");
  assertMatch(r.content, /R a\.py -> lib\/b\.py/);
});

Deno.test("apply_patch: malformed patches are refused with the line at fault", async () => {
  const { ctx } = await ws();
  for (
    const [input, msg] of [
      ["no envelope", /first line of the patch must be '\*\*\* Begin Patch'/],
      ["*** Begin Patch\n*** Add File: a\n+x", /last line/],
      ["*** Begin Patch\n*** Frobnicate: a\n*** End Patch", /line 2: expected/],
      ["*** Begin Patch\n*** Add File: a\nx\n*** End Patch", /line 3: every line of an added file/],
      ["*** Begin Patch\n*** Update File: a\n*** End Patch", /has no changes/],
    ] as const
  ) {
    const r = await applyPatch.execute({ input }, ctx);
    assert(r.isError);
    assertMatch(r.content, msg);
  }
  // A heredoc around the patch, as models write it for a shell, is tolerated.
  const p = parsePatch(
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF",
  );
  assertEquals(p.ok && p.ops, [{ type: "delete", path: "x" }]);
  assertEquals(
    patchPaths("*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch"),
    ["a", "b"],
  );
});

Deno.test("apply_patch attacks: ../, absolute paths, symlinks out, the data folder — nothing written", async () => {
  const { dir } = await ws();
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-patch-out-" }));
  const data = `${dir}/.data`;
  await Deno.mkdir(data);
  await Deno.writeTextFile(`${data}/token`, "secret\n");
  await Deno.writeTextFile(`${outside}/victim.txt`, "safe\n");
  await Deno.writeTextFile(`${dir}/ok.txt`, "ok\n");
  await Deno.symlink(outside, `${dir}/out-link`);
  await Deno.symlink(`${outside}/victim.txt`, `${dir}/victim-link.txt`);
  const pool = new SandboxPool();
  const runner = new ToolRunner(defaultTools(), pool);
  const rctx = { workspace: dir, roots: [dir], hidden: [data], signal, tracker: new FileTracker() };
  // Each patch first makes a harmless change, so a partial write would show.
  const harmless = "*** Update File: ok.txt\n-ok\n+changed\n";
  const attacks = [
    `*** Add File: ../escape.txt\n+x\n`,
    `*** Add File: ${outside}/abs.txt\n+x\n`,
    `*** Update File: out-link/victim.txt\n-safe\n+owned\n`,
    `*** Update File: victim-link.txt\n-safe\n+owned\n`,
    `*** Delete File: out-link/victim.txt\n`,
    `*** Update File: ok.txt\n*** Move to: ../moved.txt\n`,
    `*** Add File: .data/token\n+stolen\n`,
    `*** Delete File: .data/token\n`,
  ];
  try {
    for (const [i, attack] of attacks.entries()) {
      const input = `*** Begin Patch\n${harmless}${attack}*** End Patch`;
      const r = await runner.checkAndRun(
        { id: String(i), name: "apply_patch", args: { input } },
        rctx,
      );
      assert(r.isError, `attack ${i} was refused: ${attack}`);
      assertMatch(r.content, /outside the workspace|hidden from the agent|symbolic link/);
      // Straight to the tool too (no runner in front): the worker's own checks hold.
      const direct = await applyPatch.execute({ input }, {
        workspace: dir,
        roots: [dir],
        hidden: [data],
        signal,
      });
      assert(direct.isError, `attack ${i} refused by the tool itself`);
    }
    assertEquals(await read(`${dir}/ok.txt`), "ok\n");
    assertEquals(await read(`${outside}/victim.txt`), "safe\n");
    assertEquals(await read(`${data}/token`), "secret\n");
    assertEquals(await exists(`${outside}/abs.txt`), false);
    assertEquals(await exists(`${dir}/../escape.txt`), false);
  } finally {
    pool.closeAll();
  }
});

Deno.test("apply_patch through the runner: every file is checkpointed before and recorded after", async () => {
  const { dir } = await ws();
  await seedThree(dir);
  const pool = new SandboxPool();
  const runner = new ToolRunner(defaultTools(), pool);
  const before: string[] = [], after: string[] = [];
  const rctx = {
    workspace: dir,
    roots: [dir],
    signal,
    tracker: new FileTracker(),
    beforeWrite: (abs: string) => Promise.resolve(void before.push(abs.slice(dir.length + 1))),
    afterWrite: (abs: string) => Promise.resolve(void after.push(abs.slice(dir.length + 1))),
  };
  try {
    const r = await runner.checkAndRun(
      { id: "1", name: "apply_patch", args: { input: THREE } },
      rctx,
    );
    assertEquals(r.isError, false, r.content);
    assertEquals(before, ["src/new.ts", "src/main.ts", "old.txt"]);
    assertEquals(after, before);
    // A failed patch is checkpointed (harmless) but never recorded as written.
    after.length = 0;
    const bad = await runner.checkAndRun({
      id: "2",
      name: "apply_patch",
      args: { input: "*** Begin Patch\n*** Delete File: nope.txt\n*** End Patch" },
    }, rctx);
    assert(bad.isError);
    assertEquals(after, []);
  } finally {
    pool.closeAll();
  }
});

Deno.test("apply_patch in a turn is rewound like other edits: all three files come back", async () => {
  const { mockProvider } = await import("./helpers/seed.ts");
  const { startMockLlm } = await import("../scripts/mock-llm.ts");
  const { createServices } = await import("../server/services.ts");
  const { runOp } = await import("../server/ops/dispatch.ts");
  const home = await Deno.makeTempDir({ prefix: "ra-patch-rw-" });
  const dir = `${home}/DefaultProject`;
  await Deno.mkdir(dir);
  await seedThree(dir);
  const main = await read(`${dir}/src/main.ts`);
  const mock = startMockLlm({ quiet: true });
  mock.register("patcher", {
    turns: [{ toolCalls: [{ name: "apply_patch", args: { input: THREE } }] }, { text: "done" }],
  });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["patcher"]));
  const client = { id: "t", topics: new Set<string>(), deliver: () => {} };
  try {
    const { task, entry } = deps.tasks!.create({
      title: "patch",
      message: "patch it",
      options: { model: { providerId: "mock", modelId: "patcher" }, approval: "full" },
    });
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    const result = deps.store.repos!.entries.latest(task.id, 20).find((e) =>
      e.role === "tool" && e.parts[0]?.data?.name === "apply_patch"
    )!;
    assertEquals(result.parts[0].data?.isError, false, result.parts[0].text);
    assertEquals(await exists(`${dir}/old.txt`), false);
    const r = await runOp({ ...deps, client }, "task.rewind", { id: task.id, entryId: entry!.id });
    assert(r.ok, JSON.stringify(r));
    assertEquals(await read(`${dir}/src/main.ts`), main);
    assertEquals(await read(`${dir}/old.txt`), "bye\n");
    assertEquals(await exists(`${dir}/src/new.ts`), false);
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
  }
});

Deno.test("apply_patch meets the hooks that guard edits (Edit, Write, MultiEdit matchers)", async () => {
  const { HookSession } = await import("../server/agent/hooks/engine.ts");
  assertEquals(HookSession.toolNames("apply_patch"), ["apply_patch", "Edit", "Write", "MultiEdit"]);
  assertEquals(HookSession.toolNames("edit_file"), ["edit_file", "Edit"]);
});
