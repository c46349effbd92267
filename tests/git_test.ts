/**
 * The git panel's server side on real temporary repositories: status
 * groups with XY codes, the untracked file's diff as a full add, stage / unstage /
 * discard, a switch blocked by a dirty tree, branch create, commit, push to a local
 * bare remote (setting the upstream), the commit-graph layout, and hostile branch and
 * file names (spaces, a leading dash, unicode, `:(`). Identities are set per repo.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "./helpers/assert.ts";
import * as git from "../server/git/repo.ts";
import { runGit } from "../server/git/run.ts";
import { layoutGraph } from "../server/git/graph.ts";
import { parseStatusV2 } from "../server/git/status.ts";
import { localMessage } from "../server/git/message.ts";
import { type GitStatus, parseArgs, statusGroups } from "../protocol/index.ts";
import { OpError } from "../server/errors.ts";
import { runOp } from "../server/ops/dispatch.ts";
import { createServices } from "../server/services.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import type { OpContext } from "../server/ops/context.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { homeWithMockProvider } from "./helpers/mock_home.ts";

async function sh(cwd: string, ...args: string[]): Promise<string> {
  const r = await runGit(cwd, args);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** A repository with one commit of `a.txt` and `b.txt`, identity set in the repo only. */
async function repo(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "ra-git-" });
  await sh(dir, "init", "-q", "-b", "main");
  await sh(dir, "config", "user.name", "Test User");
  await sh(dir, "config", "user.email", "test@example.com");
  await sh(dir, "config", "commit.gpgsign", "false");
  await Deno.writeTextFile(`${dir}/a.txt`, "one\n");
  await Deno.writeTextFile(`${dir}/b.txt`, "two\n");
  await sh(dir, "add", "-A");
  await sh(dir, "commit", "-q", "-m", "first");
  return dir;
}

async function withRepo(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await repo();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function repoStatus(s: GitStatus) {
  if (!s.repo) throw new Error(`not a repo: ${s.message}`);
  return s;
}

const groupOf = (s: GitStatus, g: string) =>
  repoStatus(s).files.filter((f) => statusGroups(f).includes(g as never)).map((f) => f.path)
    .sort();

Deno.test("git status: staged, unstaged and untracked groups with XY codes", () =>
  withRepo(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.txt`, "one\nmore\n");
    await Deno.writeTextFile(`${dir}/b.txt`, "TWO\n");
    await sh(dir, "add", "b.txt");
    await Deno.writeTextFile(`${dir}/b.txt`, "TWO again\n");
    await Deno.mkdir(`${dir}/new dir`);
    await Deno.writeTextFile(`${dir}/new dir/c.txt`, "c\n");
    await sh(dir, "mv", "a.txt", "moved.txt");
    const s = repoStatus(await git.status(dir));
    assertEquals(s.branch, "main");
    assertEquals(s.unborn, false);
    assertEquals(groupOf(s, "staged"), ["b.txt", "moved.txt"]);
    assertEquals(groupOf(s, "unstaged"), ["b.txt", "moved.txt"]);
    assertEquals(groupOf(s, "untracked"), ["new dir/c.txt"]);
    const b = s.files.find((f) => f.path === "b.txt")!;
    assertEquals(`${b.x}${b.y}`, "MM");
    const m = s.files.find((f) => f.path === "moved.txt")!;
    assertEquals([m.x, m.origPath], ["R", "a.txt"]);
  }));

Deno.test("git status: not a repository → a plain reason, and init makes one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ra-nogit-" });
  try {
    const s = await git.status(dir);
    assertEquals(s.repo, false);
    if (!s.repo) {
      assertEquals(s.reason, "not_repo");
      assertMatch(s.message, /not a git repository/);
    }
    assertEquals(await git.init(dir), await Deno.realPath(dir));
    const after = repoStatus(await git.status(dir));
    assertEquals(after.unborn, true);
    assertEquals((await git.log(dir, 10)).commits, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("git diff: an untracked file is a full add; staged and unstaged patches differ", () =>
  withRepo(async (dir) => {
    await Deno.writeTextFile(`${dir}/fresh.txt`, "l1\nl2\nl3\n");
    const d = await git.diff(dir, "fresh.txt", false);
    assertMatch(d.patch, /^--- \/dev\/null$/m);
    assertMatch(d.patch, /^\+\+\+ b\/fresh\.txt$/m);
    assertMatch(d.patch, /^@@ -0,0 \+1,3 @@/m);
    assertEquals(d.patch.split("\n").filter((l) => /^\+l\d$/.test(l)).length, 3);

    await Deno.writeTextFile(`${dir}/a.txt`, "one\nstaged\n");
    await sh(dir, "add", "a.txt");
    await Deno.writeTextFile(`${dir}/a.txt`, "one\nstaged\nworktree\n");
    assertMatch((await git.diff(dir, "a.txt", true)).patch, /^\+staged$/m);
    const unstaged = (await git.diff(dir, "a.txt", false)).patch;
    assertMatch(unstaged, /^\+worktree$/m);
    assert(!/^\+staged$/m.test(unstaged), "the unstaged diff is against the index");
  }));

Deno.test("git stage / unstage / discard on real files (unborn repo too)", () =>
  withRepo(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.txt`, "changed\n");
    await Deno.writeTextFile(`${dir}/junk.txt`, "junk\n");
    await git.stage(dir, ["a.txt"]);
    assertEquals(groupOf(await git.status(dir), "staged"), ["a.txt"]);
    await git.unstage(dir, ["a.txt"]);
    assertEquals(groupOf(await git.status(dir), "staged"), []);
    assertEquals(groupOf(await git.status(dir), "unstaged"), ["a.txt"]);
    await git.discard(dir, ["a.txt", "junk.txt"]);
    assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "one\n");
    await assertRejects(() => Deno.stat(`${dir}/junk.txt`), "the untracked file is deleted");
    assertEquals(repoStatus(await git.status(dir)).files, []);

    const fresh = await Deno.makeTempDir({ prefix: "ra-unborn-" });
    try {
      await sh(fresh, "init", "-q");
      await Deno.writeTextFile(`${fresh}/x.txt`, "x\n");
      await git.stage(fresh, ["x.txt"]);
      assertEquals(groupOf(await git.status(fresh), "staged"), ["x.txt"]);
      await git.unstage(fresh, ["x.txt"]);
      assertEquals(groupOf(await git.status(fresh), "untracked"), ["x.txt"]);
    } finally {
      await Deno.remove(fresh, { recursive: true });
    }
  }));

Deno.test("git paths: `..`, absolute paths and NUL are refused before git runs", () =>
  withRepo(async (dir) => {
    for (const p of ["../outside", "/etc/passwd", "a\0b", "."]) {
      const e = await git.stage(dir, [p]).then(() => null, (e) => e);
      assert(e instanceof OpError && e.code === "invalid_args", `${JSON.stringify(p)}: ${e}`);
    }
  }));

Deno.test("git switch: blocked by a dirty tree with guidance; create keeps the changes", () =>
  withRepo(async (dir) => {
    await sh(dir, "branch", "other");
    await Deno.writeTextFile(`${dir}/a.txt`, "dirty\n");
    const e = await git.switchBranch(dir, "other").then(() => null, (e) => e);
    assert(e instanceof OpError && e.code === "conflict", String(e));
    assertMatch(e.message, /a\.txt/);
    assertMatch(e.message, /Commit them, stash them/);
    assertEquals(repoStatus(await git.status(dir)).branch, "main", "nothing switched");

    // Untracked files do not block.
    await sh(dir, "checkout", "-q", "--", "a.txt");
    await Deno.writeTextFile(`${dir}/untracked.txt`, "u\n");
    await git.switchBranch(dir, "other");
    assertEquals(repoStatus(await git.status(dir)).branch, "other");

    await Deno.writeTextFile(`${dir}/a.txt`, "carried\n");
    await git.createBranch(dir, "feature/x");
    const s = repoStatus(await git.status(dir));
    assertEquals(s.branch, "feature/x");
    assertEquals(groupOf(s, "unstaged"), ["a.txt"]);
    const names = (await git.branches(dir)).branches.map((b) => b.name).sort();
    assertEquals(names, ["feature/x", "main", "other"]);
    await assertRejects(() => git.switchBranch(dir, "nope"), "unknown branch");
  }));

Deno.test("git branch names: invalid and option-like names are refused by check-ref-format", () =>
  withRepo(async (dir) => {
    for (
      const bad of ["-x", "--orphan", "a..b", "a b", "x:(y", "@{-1}", "a~1", "end.lock", "a\nb"]
    ) {
      const e = await git.createBranch(dir, bad).then(() => null, (e) => e);
      assert(e instanceof OpError && e.code === "invalid_args", `${JSON.stringify(bad)}: ${e}`);
    }
    assertEquals((await git.branches(dir)).branches.map((b) => b.name), ["main"]);
    await git.createBranch(dir, "功能/ünï");
    assertEquals(repoStatus(await git.status(dir)).branch, "功能/ünï");
  }));

Deno.test("git: hostile file names (spaces, leading dash, unicode, `:(`) are literal paths", () =>
  withRepo(async (dir) => {
    const names = ["with space.txt", "-rf", "--all", "ünïcødé 文件.md", ":(glob)*", ":(top)x", "*"];
    for (const n of names) await Deno.writeTextFile(`${dir}/${n}`, `${n}\n`);
    const s = repoStatus(await git.status(dir));
    assertEquals(groupOf(s, "untracked"), [...names].sort());
    const d = await git.diff(dir, "-rf", false);
    assertMatch(d.patch, /^\+-rf$/m);
    // Staging the literal "*" stages that one file, not everything.
    await git.stage(dir, ["*"]);
    assertEquals(groupOf(await git.status(dir), "staged"), ["*"]);
    await git.stage(dir, [":(glob)*"]);
    assertEquals(groupOf(await git.status(dir), "staged"), ["*", ":(glob)*"]);
    await git.stage(dir, ["--all", "-rf", "with space.txt", "ünïcødé 文件.md"]);
    assertEquals(groupOf(await git.status(dir), "untracked"), [":(top)x"]);
    const staged = await git.diff(dir, "ünïcødé 文件.md", true);
    assertMatch(staged.patch, /ünïcødé 文件\.md/);
    await git.unstage(dir, ["-rf"]);
    assertEquals(groupOf(await git.status(dir), "untracked"), ["-rf", ":(top)x"]);
    await git.discard(dir, [":(top)x"]);
    await assertRejects(() => Deno.stat(`${dir}/:(top)x`));
    await Deno.stat(`${dir}/x`).then(() => {
      throw new Error("x was never there");
    }, () => {});
    const c = await git.commit(dir, "Add the hostile names");
    assertEquals(c.summary, "Add the hostile names");
    const files = (await sh(dir, "ls-files", "-z")).split("\0").filter(Boolean).sort();
    assertEquals(
      files,
      ["*", "--all", ":(glob)*", "a.txt", "b.txt", "with space.txt", "ünïcødé 文件.md"].sort(),
    );
  }));

Deno.test("git commit: needs staged changes; the message comes on stdin verbatim", () =>
  withRepo(async (dir) => {
    const e = await git.commit(dir, "nothing").then(() => null, (e) => e);
    assert(e instanceof OpError && e.code === "invalid_args", String(e));
    await Deno.writeTextFile(`${dir}/a.txt`, "new\n");
    await git.stage(dir, ["a.txt"]);
    const msg = 'Fix `a` $(touch pwned) "quoted"\n\nBody line; rm -rf /';
    const c = await git.commit(dir, msg);
    assertEquals(c.summary, 'Fix `a` $(touch pwned) "quoted"');
    assertEquals((await sh(dir, "log", "-1", "--format=%B")).trim(), msg);
    await assertRejects(() => Deno.stat(`${dir}/pwned`));
    assertEquals(c.hash, (await sh(dir, "rev-parse", "HEAD")).trim());
  }));

Deno.test("git push: to a local bare remote, setting the upstream the first time", () =>
  withRepo(async (dir) => {
    const bare = await Deno.makeTempDir({ prefix: "ra-bare-" });
    try {
      await sh(bare, "init", "-q", "--bare");
      await sh(dir, "remote", "add", "origin", bare);
      const first = await git.push(dir);
      assertEquals(first.setUpstream, true);
      const s = repoStatus(await git.status(dir));
      assertEquals(s.upstream, "origin/main");
      assertEquals(
        (await sh(bare, "rev-parse", "main")).trim(),
        (await sh(dir, "rev-parse", "HEAD")).trim(),
      );

      await Deno.writeTextFile(`${dir}/b.txt`, "three\n");
      await git.stage(dir, ["b.txt"]);
      await git.commit(dir, "second");
      assertEquals(repoStatus(await git.status(dir)).ahead, 1);
      const again = await git.push(dir);
      assertEquals(again.setUpstream, false);
      assertEquals(repoStatus(await git.status(dir)).ahead, 0);
      assertEquals((await sh(bare, "log", "-1", "--format=%s", "main")).trim(), "second");
    } finally {
      await Deno.remove(bare, { recursive: true });
    }
  }));

Deno.test("git push: no remote → a clear error", () =>
  withRepo(async (dir) => {
    const e = await git.push(dir).then(() => null, (e) => e);
    assert(e instanceof OpError && e.code === "not_found", String(e));
    assertMatch(e.message, /no remote/);
  }));

Deno.test("git log: a branch and its merge get two lanes that join again", () =>
  withRepo(async (dir) => {
    await sh(dir, "switch", "-q", "-c", "side");
    await Deno.writeTextFile(`${dir}/side.txt`, "s\n");
    await sh(dir, "add", "side.txt");
    await sh(dir, "commit", "-q", "-m", "on side");
    await sh(dir, "switch", "-q", "main");
    await Deno.writeTextFile(`${dir}/a.txt`, "main change\n");
    await sh(dir, "commit", "-q", "-am", "on main");
    await sh(dir, "merge", "-q", "--no-ff", "-m", "merge side", "side");
    const { commits, lanes } = await git.log(dir, 50);
    assertEquals(commits.map((c) => c.subject)[0], "merge side");
    assertEquals(commits.length, 4);
    assertEquals(lanes, 2);
    const merge = commits[0];
    assertEquals(merge.col, 0);
    assertEquals(merge.parents.length, 2);
    assertEquals(merge.lines, [{ from: 0, to: 0 }, { from: 0, to: 1 }]);
    assert(merge.refs.includes("main"), merge.refs.join());
    const first = commits[3];
    assertEquals([first.subject, first.col, first.lines], ["first", 0, []]);
  }));

Deno.test("graph layout: linear, fork, octopus and reused lanes", () => {
  const lin = layoutGraph([
    { hash: "c", parents: ["b"] },
    { hash: "b", parents: ["a"] },
    { hash: "a", parents: [] },
  ]);
  assertEquals(lin.lanes, 1);
  assertEquals(lin.rows.map((r) => r.col), [0, 0, 0]);
  assertEquals(lin.rows[2].lines, []);

  // Two branch tips sharing a parent: the second tip opens lane 1 and joins lane 0.
  const fork = layoutGraph([
    { hash: "x", parents: ["base"] },
    { hash: "y", parents: ["base"] },
    { hash: "base", parents: [] },
  ]);
  assertEquals(fork.rows.map((r) => r.col), [0, 1, 0]);
  assertEquals(fork.rows[1].lines, [{ from: 0, to: 0 }, { from: 1, to: 0 }]);

  const octo = layoutGraph([
    { hash: "m", parents: ["p1", "p2", "p3"] },
    { hash: "p3", parents: ["r"] },
    { hash: "p2", parents: ["r"] },
    { hash: "p1", parents: ["r"] },
    { hash: "r", parents: [] },
  ]);
  assertEquals(octo.rows[0].lines, [{ from: 0, to: 0 }, { from: 0, to: 1 }, { from: 0, to: 2 }]);
  assertEquals(octo.rows.map((r) => r.col), [0, 2, 1, 0, 0]);
  assertEquals(octo.lanes, 3);
});

Deno.test("status parser: porcelain v2 headers, renames, conflicts and paths with spaces", () => {
  const out = [
    "# branch.oid (initial)",
    "# branch.head feature/a b",
    "# branch.upstream origin/feature",
    "# branch.ab +2 -1",
    "1 .M N... 100644 100644 100644 abc abc a file.txt",
    "2 R. N... 100644 100644 100644 abc abc R100 new name.txt",
    "old name.txt",
    "u UU N... 100644 100644 100644 100644 a b c both.txt",
    "? what ever.bin",
    "",
  ].join("\0");
  const s = parseStatusV2(out);
  assertEquals([s.unborn, s.branch, s.upstream, s.ahead, s.behind], [
    true,
    "feature/a b",
    "origin/feature",
    2,
    1,
  ]);
  assertEquals(s.files, [
    { path: "a file.txt", x: " ", y: "M" },
    { path: "new name.txt", origPath: "old name.txt", x: "R", y: " " },
    { path: "both.txt", x: "U", y: "U" },
    { path: "what ever.bin", x: "?", y: "?" },
  ]);
  assertEquals(statusGroups(s.files[2]), ["conflict"]);
});

Deno.test("commit message: the local summary from --stat", () => {
  assertEquals(localMessage(" src/a.ts | 2 +-\n 1 file changed"), "Update a.ts");
  assertEquals(
    localMessage(" a | 1 +\n b/c.md | 3 ++\n d | 1 -\n 3 files changed"),
    "Update a, c.md and 1 more files",
  );
});

Deno.test("git ops end to end: args validated, the task's workspace, suggest without a model", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-gitops-" });
  const ws = await repo();
  const client: HubClient = { id: "c", topics: new Set(["tasks"]), deliver: () => {} };
  const ctx: OpContext = { ...createServices({ home, flushMs: 1 }), client };
  try {
    const created = await runOp(ctx, "tasks.create", { title: "t", projectPath: ws });
    assert(created.ok);
    const taskId = (created.result as { task: { id: string } }).task.id;
    assertEquals(parseArgs("git.stage", { taskId, paths: [] }).ok, false, "at least one path");
    assertEquals(parseArgs("git.diff", { taskId, path: "a" }).ok, false, "staged is required");
    await Deno.writeTextFile(`${ws}/a.txt`, "changed\n");
    await Deno.writeTextFile(`${ws}/u.txt`, "u\n");
    const st = await runOp(ctx, "git.status", { taskId });
    assert(st.ok);
    assertEquals(groupOf(st.result as GitStatus, "unstaged"), ["a.txt"]);
    assertEquals(groupOf(st.result as GitStatus, "untracked"), ["u.txt"]);
    const none = await runOp(ctx, "git.suggestMessage", { taskId });
    assert(!none.ok && none.error.code === "invalid_args", JSON.stringify(none));
    assert((await runOp(ctx, "git.stage", { taskId, paths: ["a.txt"] })).ok);
    const sug = await runOp(ctx, "git.suggestMessage", { taskId });
    assert(sug.ok);
    assertEquals(sug.result, { message: "Update a.txt", by: "local" });
    const bad = await runOp(ctx, "git.switch", { taskId, branch: "--force" });
    assert(!bad.ok && bad.error.code === "invalid_args");
    const log = await runOp(ctx, "git.log", { taskId, limit: 5 });
    assert(log.ok);
    assertEquals((log.result as { commits: unknown[] }).commits.length, 1);
  } finally {
    ctx.hub.close();
    ctx.store.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("git: a repo config with commands is refused; hooks never run from the panel", () =>
  withRepo(async (dir) => {
    // A hook the agent could have written: the panel's commit does not run it.
    await Deno.writeTextFile(`${dir}/.git/hooks/pre-commit`, `#!/bin/sh\ntouch "${dir}/hooked"\n`);
    await Deno.chmod(`${dir}/.git/hooks/pre-commit`, 0o755);
    await Deno.writeTextFile(`${dir}/a.txt`, "changed\n");
    await git.stage(dir, ["a.txt"]);
    await git.commit(dir, "no hooks");
    await assertRejects(() => Deno.stat(`${dir}/hooked`), "the hook did not run");

    for (
      const [key, value] of [
        ["core.fsmonitor", `touch ${dir}/pwned`],
        ["filter.x.clean", `touch ${dir}/pwned`],
        ["core.sshCommand", `touch ${dir}/pwned`],
        ["diff.x.textconv", `touch ${dir}/pwned`],
      ]
    ) {
      await sh(dir, "config", "--local", key, value);
      await Deno.writeTextFile(`${dir}/.gitattributes`, "* filter=x diff=x\n");
      const e = await git.status(dir).then(() => null, (e) => e);
      assert(e instanceof OpError && e.code === "conflict", `${key}: ${e}`);
      assertMatch(e.message, new RegExp(key.toLowerCase().replace(".", "\\.")));
      const d = await git.diff(dir, "a.txt", false).then(() => null, (e) => e);
      assert(d instanceof OpError, `diff with ${key}`);
      await sh(dir, "config", "--local", "--unset", key);
    }
    // Through an include, too.
    await Deno.writeTextFile(`${dir}/evil.cfg`, `[core]\n\tfsmonitor = touch ${dir}/pwned\n`);
    await sh(dir, "config", "--local", "include.path", `${dir}/evil.cfg`);
    assert(await git.status(dir).then(() => false, () => true), "an included command is refused");
    await assertRejects(() => Deno.stat(`${dir}/pwned`), "nothing ran");
  }));

Deno.test("git.suggestMessage: the task's model writes the message from the staged diff", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("committer", {
    turns: [{ text: "```\nSet x to 2 in a.txt\n\nThe value was wrong.\n```" }],
    repeatLast: true,
  });
  const home = await homeWithMockProvider(mock.base, ["committer"], {});
  const ws = await repo();
  const client: HubClient = { id: "c", topics: new Set(["tasks"]), deliver: () => {} };
  const ctx: OpContext = { ...createServices({ home, flushMs: 1 }), client };
  try {
    const created = await runOp(ctx, "tasks.create", {
      title: "t",
      projectPath: ws,
      options: { model: { providerId: "mock", modelId: "committer" } },
    });
    assert(created.ok, JSON.stringify(created));
    const taskId = (created.result as { task: { id: string } }).task.id;
    await Deno.writeTextFile(`${ws}/a.txt`, "x = 2\n");
    assert((await runOp(ctx, "git.stage", { taskId, paths: ["a.txt"] })).ok);
    const sug = await runOp(ctx, "git.suggestMessage", { taskId });
    assert(sug.ok, JSON.stringify(sug));
    assertEquals(sug.result, {
      message: "Set x to 2 in a.txt\n\nThe value was wrong.",
      by: "model",
    });
    // The model saw the staged diff, not the whole repository.
    const sent = JSON.stringify(mock.requests("committer").at(-1)?.body ?? {});
    assertMatch(sent, /\+x = 2/);
    assertMatch(sent, /a\.txt \| 2/);
  } finally {
    ctx.hub.close();
    ctx.store.close();
    await mock.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(ws, { recursive: true });
  }
});
