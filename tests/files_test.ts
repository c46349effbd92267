/**
 * The file tree and `.reinagent/.temp/` through the real ops: a
 * lazy listing (folders first, git-ignored entries marked, symlinks leading out marked
 * and refused), create / rename / delete confined to the workspace (root and `.git`
 * protected, no overwrite, path tricks refused), the temp folder's self-ignoring
 * `.gitignore` (also written by the agent's first `write_file` there) and its cleaning.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { runOp } from "../server/ops/dispatch.ts";
import { createServices } from "../server/services.ts";
import { runGit } from "../server/git/run.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import type { OpContext } from "../server/ops/context.ts";
import type { FileTreeEntry } from "../protocol/index.ts";
import { writeFile } from "../tools/write_file.ts";
import { TEMP_GITIGNORE } from "../tools/temp_dir.ts";

interface H {
  ws: string;
  outside: string;
  // deno-lint-ignore no-explicit-any
  op<T = any>(op: string, args: Record<string, unknown>): Promise<T>;
  fail(op: string, args: Record<string, unknown>): Promise<{ code: string; message: string }>;
}

async function withFiles(fn: (h: H) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "ra-files-" });
  const ws = `${home}/project`;
  const outside = `${home}/outside`;
  await Deno.mkdir(ws);
  await Deno.mkdir(outside);
  await Deno.writeTextFile(`${outside}/secret.txt`, "secret\n");
  const client: HubClient = { id: "c", topics: new Set(["tasks"]), deliver: () => {} };
  const ctx: OpContext = { ...createServices({ home, flushMs: 1 }), client };
  try {
    const made = await runOp(ctx, "tasks.create", { title: "t", projectPath: ws });
    assert(made.ok);
    const taskId = (made.result as { task: { id: string } }).task.id;
    await fn({
      ws,
      outside,
      async op(op, args) {
        const out = await runOp(ctx, op, { taskId, ...args });
        if (!out.ok) throw new Error(`${op} failed: ${out.error.code}: ${out.error.message}`);
        // deno-lint-ignore no-explicit-any
        return out.result as any;
      },
      async fail(op, args) {
        const out = await runOp(ctx, op, { taskId, ...args });
        if (out.ok) throw new Error(`${op} was expected to fail: ${JSON.stringify(out.result)}`);
        return out.error;
      },
    });
  } finally {
    ctx.hub.close();
    ctx.store.close();
    await Deno.remove(home, { recursive: true });
  }
}

const names = (entries: FileTreeEntry[]) => entries.map((e) => e.name);

Deno.test("files.list: one folder, folders first; git-ignored entries and links out marked", () =>
  withFiles(async (h) => {
    await runGit(h.ws, ["init", "-q"]);
    await Deno.writeTextFile(`${h.ws}/.gitignore`, "node_modules/\n*.log\n");
    await Deno.mkdir(`${h.ws}/src/deep`, { recursive: true });
    await Deno.mkdir(`${h.ws}/node_modules/pkg`, { recursive: true });
    await Deno.writeTextFile(`${h.ws}/src/deep/x.ts`, "x");
    await Deno.writeTextFile(`${h.ws}/b.txt`, "bb");
    await Deno.writeTextFile(`${h.ws}/debug.log`, "log");
    await Deno.symlink(h.outside, `${h.ws}/out-link`);
    await Deno.symlink(`${h.ws}/src`, `${h.ws}/src-link`);
    const root = await h.op("files.list", { path: "" });
    assertEquals(root.path, "");
    assertEquals(names(root.entries), [
      ".git",
      "node_modules",
      "src",
      "src-link",
      ".gitignore",
      "b.txt",
      "debug.log",
      "out-link",
    ]);
    const by = (n: string) => root.entries.find((e: FileTreeEntry) => e.name === n)!;
    assertEquals(by(".git").ignored, true);
    assertEquals(by("node_modules").ignored, true);
    assertEquals(by("debug.log").ignored, true);
    assertEquals(by("src").ignored, false);
    assertEquals([by("b.txt").kind, by("b.txt").size], ["file", 2]);
    assertEquals([by("out-link").kind, by("out-link").outside], ["symlink", true]);
    assertEquals([by("src-link").kind, by("src-link").dirLink], ["symlink", true]);
    // Lazy: a folder's children come when asked for.
    const src = await h.op("files.list", { path: "src" });
    assertEquals([src.path, names(src.entries)], ["src", ["deep"]]);
    assertEquals(names((await h.op("files.list", { path: "src/deep" })).entries), ["x.ts"]);
    // A link leading out is not followed; `..` and absolute paths out are refused.
    for (const p of ["out-link", "../outside", h.outside, "src/../../outside"]) {
      const e = await h.fail("files.list", { path: p });
      assertEquals(e.code, "invalid_args", p);
    }
    assertEquals((await h.fail("files.list", { path: "b.txt" })).code, "invalid_args");
    assertEquals((await h.fail("files.list", { path: "nope" })).code, "not_found");
  }));

Deno.test("files.list outside a repository dims the usual dependency folders", () =>
  withFiles(async (h) => {
    await Deno.mkdir(`${h.ws}/node_modules`);
    await Deno.mkdir(`${h.ws}/lib`);
    const root = await h.op("files.list", { path: "" });
    assertEquals(
      root.entries.map((e: FileTreeEntry) => [e.name, e.ignored]),
      [["lib", false], ["node_modules", true]],
    );
  }));

Deno.test("files create / rename / delete: inside the workspace, nothing overwritten", () =>
  withFiles(async (h) => {
    assertEquals(
      (await h.op("files.create", { path: "a/b/new.txt", kind: "file" })).path,
      "a/b/new.txt",
    );
    assertEquals(await Deno.readTextFile(`${h.ws}/a/b/new.txt`), "");
    await h.op("files.create", { path: "folder", kind: "dir" });
    assert((await Deno.stat(`${h.ws}/folder`)).isDirectory);
    assertEquals((await h.fail("files.create", { path: "folder", kind: "file" })).code, "conflict");

    await Deno.writeTextFile(`${h.ws}/a/b/new.txt`, "keep me");
    await Deno.writeTextFile(`${h.ws}/other.txt`, "other");
    assertEquals(
      (await h.fail("files.rename", { from: "a/b/new.txt", to: "other.txt" })).code,
      "conflict",
      "rename never overwrites",
    );
    assertEquals(await Deno.readTextFile(`${h.ws}/other.txt`), "other");
    assertEquals(
      (await h.op("files.rename", { from: "a/b/new.txt", to: "folder/名字 with space.txt" })).path,
      "folder/名字 with space.txt",
    );
    assertEquals(await Deno.readTextFile(`${h.ws}/folder/名字 with space.txt`), "keep me");
    assertEquals(
      (await h.fail("files.rename", { from: "a", to: "a/b/inside" })).code,
      "invalid_args",
    );

    await h.op("files.delete", { path: "a" });
    assertEquals(names((await h.op("files.list", { path: "" })).entries), ["folder", "other.txt"]);
    assertEquals((await h.fail("files.delete", { path: "a" })).code, "not_found");
  }));

Deno.test("files: the root and .git are protected; path tricks and links out refused", () =>
  withFiles(async (h) => {
    await runGit(h.ws, ["init", "-q"]);
    for (const p of ["", ".", "./", "sub/..", h.ws]) {
      if (!p) continue;
      const e = await h.fail("files.delete", { path: p });
      assertEquals(e.code, "invalid_args", JSON.stringify(p));
      assertMatch(e.message, /workspace root/);
    }
    assertEquals((await h.fail("files.rename", { from: ".", to: "x" })).code, "invalid_args");
    assertEquals((await h.fail("files.delete", { path: ".git" })).code, "invalid_args");
    assertEquals((await h.fail("files.delete", { path: ".git/config" })).code, "invalid_args");
    assert((await Deno.stat(`${h.ws}/.git/config`)).isFile);

    await Deno.symlink(h.outside, `${h.ws}/out`);
    await Deno.symlink(`${h.outside}/secret.txt`, `${h.ws}/secret-link`);
    const tries: [string, Record<string, unknown>][] = [
      ["files.create", { path: "../escape.txt", kind: "file" }],
      ["files.create", { path: "out/planted.txt", kind: "file" }],
      ["files.create", { path: `${h.outside}/abs.txt`, kind: "file" }],
      ["files.create", { path: "a\0b", kind: "file" }],
      ["files.delete", { path: "out/secret.txt" }],
      ["files.delete", { path: "secret-link" }],
      ["files.delete", { path: "../outside" }],
      ["files.rename", { from: "secret-link", to: "mine.txt" }],
      ["files.rename", { from: "out", to: "mine" }],
      ["files.create", { path: "x/..", kind: "dir" }],
    ];
    for (const [op, args] of tries) {
      const e = await h.fail(op, args);
      assertEquals(e.code, "invalid_args", `${op} ${JSON.stringify(args)}: ${e.message}`);
    }
    assertEquals(await Deno.readTextFile(`${h.outside}/secret.txt`), "secret\n");
    assertEquals([...Deno.readDirSync(h.outside)].map((e) => e.name), ["secret.txt"]);
    await Deno.stat(`${h.ws}/../escape.txt`).then(() => {
      throw new Error("escaped");
    }, () => {});
  }));

Deno.test(".reinagent/.temp: a self-ignoring .gitignore on first use; clean keeps it", () =>
  withFiles(async (h) => {
    await runGit(h.ws, ["init", "-q"]);
    const first = await h.op("files.tempDir", {});
    assertEquals(first, { path: ".reinagent/.temp", created: true });
    assertEquals((await h.op("files.tempDir", {})).created, false);
    await Deno.writeTextFile(`${h.ws}/.reinagent/.temp/try.py`, "print(1)\n");
    await Deno.mkdir(`${h.ws}/.reinagent/.temp/out`);
    const st = await runGit(h.ws, ["status", "--porcelain", "--untracked-files=all"]);
    assertEquals(st.stdout, "", "git sees nothing of the temp folder");
    const listed = await h.op("files.list", { path: ".reinagent/.temp" });
    assert(listed.entries.every((e: FileTreeEntry) => e.ignored), "dimmed in the tree");
    assertEquals(await h.op("files.cleanTemp", {}), { removed: 2 });
    assertEquals(names((await h.op("files.list", { path: ".reinagent/.temp" })).entries), [
      ".gitignore",
    ]);
  }));

Deno.test(".reinagent/.temp: the agent's first write_file there writes the .gitignore", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-temp-" }));
  try {
    await runGit(dir, ["init", "-q"]);
    const ctx = { workspace: dir, signal: new AbortController().signal };
    const r = await writeFile.execute({ path: "src/keep.ts", content: "x" }, ctx);
    assertEquals(r.isError, false);
    await Deno.stat(`${dir}/.reinagent`).then(() => {
      throw new Error("a write elsewhere makes no temp folder");
    }, () => {});
    const t = await writeFile.execute(
      { path: ".reinagent/.temp/probe.py", content: "print(1)\n" },
      ctx,
    );
    assertEquals(t.isError, false);
    assertEquals(await Deno.readTextFile(`${dir}/.reinagent/.temp/.gitignore`), TEMP_GITIGNORE);
    // A .gitignore the user changed is left alone.
    await Deno.writeTextFile(`${dir}/.reinagent/.temp/.gitignore`, "*\n# mine\n");
    await writeFile.execute({ path: ".reinagent/.temp/again.py", content: "2" }, ctx);
    assertEquals(await Deno.readTextFile(`${dir}/.reinagent/.temp/.gitignore`), "*\n# mine\n");
    const st = await runGit(dir, ["status", "--porcelain", "--untracked-files=all"]);
    assertEquals(st.stdout, "?? src/keep.ts\n", "git sees only the real file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
