/**
 * Rewind in a git repository: tracked files unchanged from git's index are named by
 * their object id instead of being copied, a rewind reads them back from git (exact
 * bytes and modes, also after `git gc`), a repository that lost the objects is refused
 * with nothing changed, and a hostile repository's config and hooks never run.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { Store } from "../store/store.ts";
import { Checkpointer } from "../server/agent/checkpoints.ts";
import { netChanges } from "../server/agent/turn_changes.ts";
import { findRepo } from "../server/agent/git_objects.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);
const modeOf = async (p: string) => (await Deno.lstat(p)).mode! & 0o777;

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@localhost", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text.trim();
}

async function sh(cwd: string, script: string): Promise<void> {
  const out = await new Deno.Command("sh", { args: ["-c", script], cwd, stderr: "piped" }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

/** A repository with tracked (one executable) and untracked files, committed. */
async function setup(caps = {}) {
  const home = await Deno.makeTempDir({ prefix: "ra-rwgit-" });
  const ws = join(home, "ws");
  await Deno.mkdir(join(ws, "bin"), { recursive: true });
  const files: Record<string, [Uint8Array, number]> = {
    "tracked.txt": [enc("tracked before\n"), 0o644],
    "bin/run.sh": [enc("#!/bin/sh\necho run\n"), 0o755],
    "gone.txt": [enc("deleted by the command\n"), 0o644],
    "data.bin": [new Uint8Array([0, 1, 2, 255, 254, 10, 0]), 0o600],
    "untracked.sh": [enc("#!/bin/sh\necho mine\n"), 0o755],
  };
  // Files older than git's index: git (and we) can trust their stat.
  const past = new Date(Date.now() - 60_000);
  for (const [rel, [bytes, mode]] of Object.entries(files)) {
    await Deno.writeFile(join(ws, rel), bytes);
    await Deno.chmod(join(ws, rel), mode);
    await Deno.utime(join(ws, rel), past, past);
  }
  await git(ws, "init", "-q");
  await git(ws, "add", "tracked.txt", "bin/run.sh", "gone.txt");
  await git(ws, "commit", "-q", "-m", "one");
  const store = new Store(join(home, "db.sqlite"));
  const repos = store.repos!;
  repos.tasks.create({ id: "t1", title: "t", projectPath: ws });
  const cp = new Checkpointer(repos.checkpoints, join(home, "checkpoints"), caps);
  const done = async () => {
    cp.close();
    store.close();
    await Deno.remove(home, { recursive: true });
  };
  return { home, ws, files, repos, cp, done };
}

/** What the command of the tests does: every kind of change, modes included. */
const COMMAND = "echo after > tracked.txt && chmod 644 bin/run.sh && echo more >> bin/run.sh" +
  " && rm gone.txt untracked.sh && printf x >> data.bin && echo new > new.txt";

Deno.test("git rewind: tracked files come back from git's objects, exact bytes and modes", async () => {
  const s = await setup();
  try {
    const turn = { id: "u1", pos: 0 };
    const readBefore = s.cp.blobs.hashed;
    await s.cp.beforeShell("t1", turn, s.ws);
    assertEquals(s.cp.blobs.hashed - readBefore, 2, "only the two untracked files were read");
    assertEquals(s.cp.blobs.count, 2, "only the untracked files were copied");

    await sh(s.ws, COMMAND);
    const r = await s.cp.afterShell("t1", turn, s.ws);
    assertEquals(r.changed.length, 6);
    assertEquals(r.unrewindable, []);
    const rows = s.repos.checkpoints.ofTurn("t1", "u1");
    const pre = (rel: string) => rows.find((x) => x.path === join(s.ws, rel))!.preHash!;
    assertMatch(pre("tracked.txt"), /^git:[0-9a-f]{40}$/);
    assertMatch(pre("gone.txt"), /^git:/);
    assertMatch(pre("untracked.sh"), /^[0-9a-f]{64}$/);
    // The turn's change card: the version git keeps is diffed and copied into the store.
    const card = await netChanges(rows, s.ws, s.cp, 0);
    const tracked = card.files.find((f) => f.path === "tracked.txt")!;
    assertEquals([tracked.added, tracked.removed], [1, 1]);
    assertMatch(tracked.before!, /^[0-9a-f]{64}$/);
    assertEquals(await s.cp.readBlob(tracked.before!), s.files["tracked.txt"][0]);

    // The old versions are reachable only from our ref once history forgets them.
    assert((await git(s.ws, "rev-parse", "refs/reinagent/checkpoints/t1")).length === 40);
    await git(s.ws, "add", "-A");
    await git(s.ws, "commit", "-q", "--amend", "-m", "rewritten");
    await git(s.ws, "reflog", "expire", "--expire=now", "--all");
    await git(s.ws, "gc", "-q", "--prune=now");
    assertEquals(await git(s.ws, "status", "--porcelain"), "");

    const preview = await s.cp.preview("t1", 0);
    assertEquals(preview.conflicts, []);
    assertEquals(preview.unrewindable, []);
    const plan = await s.cp.apply("t1", 0);
    assertEquals(plan.remove, [join(s.ws, "new.txt")]);
    for (const [rel, [bytes, mode]] of Object.entries(s.files)) {
      assertEquals(await Deno.readFile(join(s.ws, rel)), bytes, rel);
      assertEquals(await modeOf(join(s.ws, rel)), mode, `${rel}'s mode`);
    }
    assertEquals(await exists(join(s.ws, "new.txt")), false);
    // No row names a git object any more: the ref that kept them is gone.
    const ref = await new Deno.Command("git", {
      args: ["rev-parse", "--verify", "-q", "refs/reinagent/checkpoints/t1"],
      cwd: s.ws,
      stdout: "null",
    }).output();
    assertEquals(ref.success, false);
  } finally {
    await s.done();
  }
});

Deno.test("git rewind: a repository that lost the objects is refused, nothing changed", async () => {
  const s = await setup();
  try {
    const turn = { id: "u1", pos: 0 };
    await s.cp.beforeShell("t1", turn, s.ws);
    await sh(s.ws, COMMAND);
    await s.cp.afterShell("t1", turn, s.ws);
    // Re-cloned from somewhere that never had these versions.
    await Deno.remove(join(s.ws, ".git"), { recursive: true });
    await git(s.ws, "init", "-q");
    const snapshot = async () => {
      const out: Record<string, string> = {};
      for await (const e of Deno.readDir(s.ws)) {
        if (e.isFile) {
          out[e.name] = new TextDecoder().decode(await Deno.readFile(join(s.ws, e.name)));
        }
      }
      return out;
    };
    const before = await snapshot();
    const plan = await s.cp.apply("t1", 0);
    const gone = plan.unrewindable.map((u) => u.path).sort();
    assertEquals(
      gone,
      [join(s.ws, "gone.txt"), join(s.ws, "tracked.txt"), join(s.ws, "bin/run.sh")].sort(),
    );
    assertMatch(plan.unrewindable[0].reason, /git repository's object store/);
    assertEquals(await snapshot(), before, "nothing was written");
    assertEquals(await modeOf(join(s.ws, "bin/run.sh")), 0o644);
    assertEquals(s.repos.checkpoints.ofTurn("t1", "u1").length, 6, "the rows stay");
  } finally {
    await s.done();
  }
});

Deno.test("git rewind: a hostile repository's fsmonitor, filters, hooks and signing never run", async () => {
  const s = await setup();
  try {
    const marker = join(s.home, "pwned");
    const run = `sh -c 'touch ${marker}'`;
    const hooks = join(s.ws, ".git", "evil-hooks");
    await Deno.mkdir(hooks);
    for (const h of ["reference-transaction", "post-checkout", "pre-commit", "post-index-change"]) {
      await Deno.writeTextFile(join(hooks, h), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    }
    await Deno.writeTextFile(join(s.ws, ".gitattributes"), "* filter=evil diff=evil\n");
    const config = await Deno.readTextFile(join(s.ws, ".git", "config"));
    await Deno.writeTextFile(
      join(s.ws, ".git", "config"),
      config + `[core]\n\tfsmonitor = ${run}\n\thooksPath = ${hooks}\n\tpager = ${run}\n` +
        `\tsshCommand = ${run}\n\talternateRefsCommand = ${run}\n` +
        `[filter "evil"]\n\tclean = ${run}\n\tsmudge = ${run}\n\tprocess = ${run}\n` +
        `[diff "evil"]\n\ttextconv = ${run}\n[commit]\n\tgpgSign = true\n` +
        `[gpg]\n\tprogram = ${run}\n[credential]\n\thelper = ${run}\n`,
    );
    const turn = { id: "u1", pos: 0 };
    await s.cp.beforeShell("t1", turn, s.ws);
    await sh(s.ws, COMMAND);
    const r = await s.cp.afterShell("t1", turn, s.ws);
    assertEquals(r.unrewindable, []);
    assertEquals((await s.cp.preview("t1", 0)).unrewindable, []);
    await s.cp.apply("t1", 0);
    assertEquals(await Deno.readFile(join(s.ws, "tracked.txt")), s.files["tracked.txt"][0]);
    assertEquals(await exists(marker), false, "git ran a program the repository configured");
  } finally {
    await s.done();
  }
});

Deno.test("git rewind: a big repository is prepared while the model answers; every turn is watched", async () => {
  const s = await setup({ watchFiles: 3 }); // three tracked files count as big here
  try {
    const step = async (pos: number, script: string) => {
      const turn = { id: `u${pos}`, pos };
      await s.cp.beforeShell("t1", turn, s.ws);
      await sh(s.ws, script);
      return await s.cp.afterShell("t1", turn, s.ws);
    };
    // While the model answers: the index is built and the watcher armed.
    s.cp.warm(s.ws);
    await s.cp.warming;
    assertEquals(s.cp.scans.counts, { full: 1, watched: 0 });
    assertEquals((await step(0, "echo one > tracked.txt")).changed, [join(s.ws, "tracked.txt")]);
    assertEquals(
      s.cp.compares,
      { full: 0, watched: 1 },
      "the first command was compared by the watcher",
    );
    await step(1, "echo two > tracked.txt && echo b > b.txt && chmod 700 data.bin");
    await step(2, "rm gone.txt bin/run.sh && mkdir -p sub && echo c > sub/c.txt");
    assertEquals(s.cp.scans.counts, { full: 1, watched: 3 }, "every turn's snapshot was watched");
    assertEquals(s.cp.compares, { full: 0, watched: 3 });

    await s.cp.apply("t1", 1);
    assertEquals(await Deno.readTextFile(join(s.ws, "tracked.txt")), "one\n");
    assertEquals(await exists(join(s.ws, "b.txt")), false);
    assertEquals(await exists(join(s.ws, "sub/c.txt")), false);
    assertEquals(await modeOf(join(s.ws, "data.bin")), 0o600);
    assertEquals(await Deno.readFile(join(s.ws, "bin/run.sh")), s.files["bin/run.sh"][0]);
    assertEquals(await modeOf(join(s.ws, "bin/run.sh")), 0o755);
    await s.cp.apply("t1", 0);
    for (const [rel, [bytes, mode]] of Object.entries(s.files)) {
      assertEquals(await Deno.readFile(join(s.ws, rel)), bytes, rel);
      assertEquals(await modeOf(join(s.ws, rel)), mode, `${rel}'s mode`);
    }
  } finally {
    await s.done();
  }
});

Deno.test("git rewind: a .git file pointing at another repository is not followed", async () => {
  const s = await setup();
  try {
    const other = join(s.home, "other");
    await Deno.mkdir(other);
    await Deno.writeTextFile(join(other, ".git"), `gitdir: ${join(s.ws, ".git")}\n`);
    assertEquals(findRepo(other), null);
    assertEquals(findRepo(join(s.ws, "bin")), { gitDir: join(s.ws, ".git"), top: s.ws });
  } finally {
    await s.done();
  }
});
