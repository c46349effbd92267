/**
 * Diagnostics after edits from a real language server (typescript-language-server from
 * npm, installed into the data folder, run under bubblewrap): a type error edit_file
 * introduces comes back in the tool result; files no server knows cost nothing.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { LspManager } from "../server/agent/lsp/manager.ts";
import { SandboxPool } from "../tools/sandbox/pool.ts";
import { ToolRunner } from "../agent/tool_runner.ts";
import { FileTracker } from "../agent/file_tracker.ts";
import { defaultTools } from "../tools/registry.ts";
import { sandboxStatus } from "../tools/exec/bwrap.ts";

const signal = new AbortController().signal;

Deno.test("edit_file: a TypeScript type error comes back from the language server", async (t) => {
  if (!(await sandboxStatus()).available) {
    console.warn("SKIPPED: no bubblewrap sandbox, so no language server may run");
    return;
  }
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-lsp-home-" }));
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-lsp-ws-" }));
  await Deno.writeTextFile(`${ws}/a.ts`, "export const n: number = 1;\n");
  await Deno.writeTextFile(`${ws}/notes.md`, "# notes\n");
  const lsp = new LspManager(home, () => [{ path: home, dir: true }]);
  const pool = new SandboxPool();
  const runner = new ToolRunner(defaultTools(), pool);
  const rctx = {
    workspace: ws,
    roots: [ws],
    signal,
    tracker: new FileTracker(),
    afterChange: (paths: string[]) => lsp.diagnose(ws, paths),
  };
  try {
    await runner.checkAndRun({ id: "r", name: "read_file", args: { path: "a.ts" } }, rctx);
    const bad = await runner.checkAndRun({
      id: "1",
      name: "edit_file",
      args: { path: "a.ts", old_string: "= 1;", new_string: '= "one";' },
    }, rctx);
    assertEquals(bad.isError, false, bad.content);
    assertMatch(
      bad.content,
      /The language server reports 1 problem after this change:\na\.ts:1:14 error: Type 'string' is not assignable to type 'number'\./,
    );
    assertEquals((bad.meta?.diagnostics as unknown[]).length, 1);
    await t.step("fixing it clears the report", async () => {
      const fixed = await runner.checkAndRun({
        id: "2",
        name: "edit_file",
        args: { path: "a.ts", old_string: '= "one";', new_string: "= 2;" },
      }, rctx);
      assertEquals(fixed.content, "Edited a.ts: replaced 1 occurrence.");
      assertEquals(fixed.meta?.diagnostics, undefined);
    });
    await t.step("a file no server knows is not sent anywhere", async () => {
      const md = await runner.checkAndRun({
        id: "3",
        name: "write_file",
        args: { path: "notes.md", content: "# more\n" },
      }, rctx);
      assertEquals(md.isError, false);
      assert(!md.content.includes("language server"));
    });
    await t.step("attack: the server cannot read the data folder to leak it", async () => {
      await Deno.writeTextFile(
        `${home}/secret.ts`,
        'export const token = "s3cr3t-token" as const;\n',
      );
      await Deno.writeTextFile(
        `${ws}/leak.ts`,
        `import { token } from "${home}/secret.ts";\nexport const n: number = token;\n`,
      );
      await runner.checkAndRun({ id: "4", name: "read_file", args: { path: "leak.ts" } }, rctx);
      const r = await runner.checkAndRun({
        id: "5",
        name: "edit_file",
        args: { path: "leak.ts", old_string: "export const n", new_string: "export const m" },
      }, rctx);
      assert(!r.content.includes("s3cr3t"), r.content);
      assertMatch(r.content, /Cannot find module/);
    });
    await t.step("the diagnostics tool: errors and warnings of named files, confined", async () => {
      const { diagnosticsTool } = await import("../tools/diagnostics.ts");
      const ctx = {
        workspace: ws,
        roots: [ws],
        hidden: [home],
        signal,
        diagnose: (paths: string[]) => lsp.diagnose(ws, paths, true),
      };
      await Deno.writeTextFile(`${ws}/b.ts`, "export const b: string = 2;\n");
      const r = await diagnosticsTool.execute({ paths: ["b.ts"] }, ctx);
      assertMatch(r.content, /^1 problem\(s\):\nb\.ts:1:14 error: Type 'number' is not assignable/);
      const out = await diagnosticsTool.execute({ paths: ["../x.ts"] }, ctx);
      assertMatch(out.content, /outside the workspace/);
      const secret = await diagnosticsTool.execute({ paths: [`${home}/secret.ts`] }, {
        ...ctx,
        roots: [ws, home],
      });
      assertMatch(secret.content, /hidden from the agent/);
    });
    assert((await Deno.stat(`${home}/lsp/typescript`)).isDirectory, "installed in the data folder");
  } finally {
    pool.closeAll();
    await lsp.closeAll();
  }
});
