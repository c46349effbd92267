/**
 * The watcher behind watched snapshots never loses a command's change: events are queued
 * by the kernel and read when needed (a busy server thread loses nothing), a burst larger
 * than the kernel's queue and a renamed watched folder make the comparison look at
 * everything, and the last write a command makes before it exits is in the comparison.
 * A turn's snapshot stays as it was taken while later turns update the index in place.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { Store } from "../store/store.ts";
import { Checkpointer } from "../server/agent/checkpoints.ts";
import type { WatchBackend } from "../lib/watch.ts";

const linux = Deno.build.os === "linux";

/** A workspace of `files` files in src/ (and sub/ with a few), its watcher armed. */
async function setup(files: number, watchBackend: WatchBackend) {
  const home = await Deno.makeTempDir({ prefix: "ra-cpwatch-" });
  const ws = join(home, "ws");
  Deno.mkdirSync(join(ws, "src"), { recursive: true });
  Deno.mkdirSync(join(ws, "sub"));
  for (let i = 0; i < files; i++) Deno.writeTextFileSync(join(ws, "src", `f${i}.txt`), `v${i}`);
  for (let i = 0; i < 3; i++) Deno.writeTextFileSync(join(ws, "sub", `s${i}.txt`), `s${i}`);
  const store = new Store(join(home, "db.sqlite"));
  store.repos!.tasks.create({ id: "t1", title: "t", projectPath: ws });
  const cp = new Checkpointer(store.repos!.checkpoints, join(home, "checkpoints"), {
    watchFiles: 1,
    watchBackend,
  });
  await cp.beforeShell("t1", { id: "u1" }, ws); // full: starts the watcher
  await cp.beforeShell("t1", { id: "u2" }, ws); // full: arms it
  const turn = { id: "u3", pos: 3 };
  await cp.beforeShell("t1", turn, ws);
  assertEquals(cp.scans.counts, { full: 2, watched: 1 }, "the turn's snapshot is watched");
  const done = async () => {
    cp.close();
    store.close();
    await Deno.remove(home, { recursive: true });
  };
  return { home, ws, cp, turn, done };
}

/**
 * Runs `script` in the workspace while this thread stays busy (as a server answering
 * others is), so no event is read before the command has exited.
 */
async function runBusy(s: { home: string; ws: string }, script: string): Promise<void> {
  const marker = join(s.home, "exited");
  const child = new Deno.Command("sh", {
    args: ["-c", `${script}; : > "${marker}"`],
    cwd: s.ws,
    stdout: "null",
  }).spawn();
  const until = Date.now() + 120_000; // a safety net against a hung child, not a measure
  for (;;) {
    try {
      Deno.statSync(marker);
      break;
    } catch { /* not yet */ }
    if (Date.now() > until) throw new Error("the command did not finish");
  }
  assert((await child.status).success, "the command succeeded");
}

for (const backend of ["inotify", "fs-events"] as const) {
  Deno.test({
    name:
      `a command changing thousands of files while the thread is busy: all recorded (${backend})`,
    ignore: !linux && backend === "inotify",
  }, async () => {
    const s = await setup(3000, backend);
    try {
      await runBusy(
        s,
        `for f in src/*.txt; do echo changed >> "$f"; done; echo last > sub/new.txt`,
      );
      // Other work (another process awaited) before the comparison: events that arrived
      // are handled meanwhile, as in a server doing more than this one turn.
      assert((await new Deno.Command("true").output()).success);
      const r = await s.cp.afterShell("t1", s.turn, s.ws);
      assertEquals(r.changed.length, 3001);
      assert(r.changed.includes(join(s.ws, "sub", "new.txt")), "the command's last write");
      if (backend === "inotify") {
        // Deno's watcher overflows here ("rescan") and the comparison looks at everything.
        assertEquals(s.cp.compares, { full: 0, watched: 1 }, "compared by the watcher's events");
      }
      // Rewind puts every file back.
      const plan = await s.cp.apply("t1", 3);
      assertEquals(plan.conflicts, []);
      assertEquals(plan.restore.length + plan.remove.length, 3001);
      assertEquals(Deno.readTextFileSync(join(s.ws, "src", "f2999.txt")), "v2999");
    } finally {
      await s.done();
    }
  });

  Deno.test({
    name: `a watched folder renamed: every change still recorded (${backend})`,
    ignore: !linux && backend === "inotify",
  }, async () => {
    const s = await setup(5, backend);
    try {
      await runBusy(s, "mv sub moved && echo edited > moved/s1.txt");
      const r = await s.cp.afterShell("t1", s.turn, s.ws);
      const rel = (p: string) => p.slice(s.ws.length + 1);
      assertEquals(r.changed.map(rel).sort(), [
        "moved/s0.txt",
        "moved/s1.txt",
        "moved/s2.txt",
        "sub/s0.txt",
        "sub/s1.txt",
        "sub/s2.txt",
      ]);
      if (backend === "inotify") {
        // The renamed folder's watch would go on naming its files by the old path: the
        // watcher is given up, the next snapshot scans everything and watches again.
        assertEquals(s.cp.compares, { full: 1, watched: 0 });
        await s.cp.beforeShell("t1", { id: "u4" }, s.ws);
        assertEquals(s.cp.scans.counts, { full: 3, watched: 1 });
      }
    } finally {
      await s.done();
    }
  });
}

const queued = linux ? Number(Deno.readTextFileSync("/proc/sys/fs/inotify/max_queued_events")) : 0;

Deno.test({
  name: "more changes than the kernel's event queue holds: the comparison looks at everything",
  ignore: !linux || !(queued > 0 && queued <= 100_000),
}, async () => {
  const s = await setup(5, "inotify");
  try {
    // Each new file is at least two events (created, closed after writing).
    const n = Math.ceil(queued / 2) + 500;
    await runBusy(s, `seq 1 ${n} | sed 's|^|src/n|; s|$|.txt|' | xargs touch`);
    const r = await s.cp.afterShell("t1", s.turn, s.ws);
    assertEquals(s.cp.compares, { full: 1, watched: 0 }, "the lost events were noticed");
    assertEquals(r.changed.length, n);
  } finally {
    await s.done();
  }
});

Deno.test({
  name: "an earlier turn's snapshot stays as taken while a later turn's update changes the index",
  ignore: !linux,
}, async () => {
  const s = await setup(5, "inotify");
  try {
    const src = join(s.ws, "src");
    // Turn u3's command changes files; before its comparison (a background job, say), the
    // next turn's snapshot brings the index up to date in place.
    await runBusy(s, "echo changed > src/f1.txt && rm src/f2.txt && echo new > src/f9.txt");
    await s.cp.beforeShell("t1", { id: "u4" }, s.ws);
    assertEquals(s.cp.scans.counts.watched, 2, "the later snapshot was a watched update");
    const r = await s.cp.afterShell("t1", s.turn, s.ws);
    assertEquals(s.cp.compares, { full: 0, watched: 1 });
    const rel = (p: string) => p.slice(s.ws.length + 1);
    assertEquals(r.changed.map(rel).sort(), ["src/f1.txt", "src/f2.txt", "src/f9.txt"]);
    const plan = await s.cp.apply("t1", 3);
    assertEquals(plan.conflicts, []);
    assertEquals(Deno.readTextFileSync(join(src, "f1.txt")), "v1");
    assertEquals(Deno.readTextFileSync(join(src, "f2.txt")), "v2");
    assert(!(await Deno.stat(join(src, "f9.txt")).then(() => true, () => false)));
  } finally {
    await s.done();
  }
});

Deno.test({
  name: "a workspace opened through a link is watched; a folder swapped for a link is not followed",
  ignore: !linux,
}, async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-cpwatch-" });
  const real = join(home, "real");
  const ws = join(home, "ws");
  Deno.mkdirSync(join(real, "src"), { recursive: true });
  Deno.mkdirSync(join(real, "sub"));
  Deno.mkdirSync(join(home, "outside"));
  Deno.writeTextFileSync(join(home, "outside", "o.txt"), "o");
  for (let i = 0; i < 5; i++) Deno.writeTextFileSync(join(real, "src", `f${i}.txt`), `v${i}`);
  Deno.symlinkSync(real, ws);
  const store = new Store(join(home, "db.sqlite"));
  store.repos!.tasks.create({ id: "t1", title: "t", projectPath: ws });
  const cp = new Checkpointer(store.repos!.checkpoints, join(home, "checkpoints"), {
    watchFiles: 1,
    watchBackend: "inotify",
  });
  const s = { home: join(home, "runs"), ws };
  Deno.mkdirSync(s.home);
  const sh = (script: string) =>
    runBusy(s, script).then(() => Deno.removeSync(join(s.home, "exited")));
  try {
    await cp.beforeShell("t1", { id: "u1" }, ws);
    await cp.beforeShell("t1", { id: "u2" }, ws);
    await cp.beforeShell("t1", { id: "u3" }, ws);
    assertEquals(cp.scans.counts, { full: 2, watched: 1 }, "watched through the link");
    await sh("echo changed > src/f1.txt");
    const r = await cp.afterShell("t1", { id: "u3", pos: 3 }, ws);
    assertEquals(r.changed, [join(ws, "src", "f1.txt")]);
    assertEquals(cp.compares, { full: 0, watched: 1 });
    // The folder `sub` (watched) is swapped for a link to a folder outside the workspace.
    await sh(`mv sub moved && ln -s "${join(home, "outside")}" sub`);
    await cp.afterShell("t1", { id: "u3", pos: 3 }, ws); // the watcher gives up (renamed)
    const turn = { id: "u4", pos: 4 };
    await cp.beforeShell("t1", turn, ws); // a new watcher over the folders walked before
    await sh(`echo changed > "${join(home, "outside", "o.txt")}"`);
    const r4 = await cp.afterShell("t1", turn, ws);
    assertEquals(r4.changed, [], "nothing outside the workspace is recorded");
  } finally {
    cp.close();
    store.close();
    await Deno.remove(home, { recursive: true });
  }
});
