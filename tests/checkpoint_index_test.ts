/**
 * The incremental rewind snapshot: the persisted stat index re-reads only
 * changed files, racy timestamps and inode changes are caught, content is stored once,
 * and the garbage collector removes exactly the blobs nothing names (with a cap).
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { Store } from "../store/store.ts";
import { Checkpointer } from "../server/agent/checkpoints.ts";
import { BlobStore } from "../server/agent/checkpoint_blobs.ts";
import { indexFileOf, WorkspaceIndex } from "../server/agent/stat_index.ts";
import { sha256Hex } from "../lib/sha256.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const SKIP = { tooLarge: "too large", full: "full", unreadable: "unreadable" };
const scanOpts = { fileCap: 1 << 20, budget: 1 << 30, room: 1 << 30, skip: SKIP };

async function setup(caps = {}) {
  const home = await Deno.makeTempDir({ prefix: "ra-cpidx-" });
  const ws = join(home, "ws");
  await Deno.mkdir(join(ws, "src"), { recursive: true });
  const store = new Store(join(home, "db.sqlite"));
  const repos = store.repos!;
  repos.tasks.create({ id: "t1", title: "t", projectPath: ws });
  const cp = new Checkpointer(repos.checkpoints, join(home, "checkpoints"), caps);
  cp.blobs.graceMs = 0; // collect what was just put
  const done = async () => {
    cp.close();
    store.close();
    await Deno.remove(home, { recursive: true });
  };
  return { home, ws, store, repos, cp, done };
}

/**
 * Timestamps settle: waits until the file system's clock (as the index reads it, in ms)
 * has moved past a file written now, so the files written before are older than the
 * stamp of any later scan: not racy for it. `dir` is on the same file system, not scanned.
 */
async function settle(dir: string): Promise<void> {
  const probe = join(dir, "settle-probe");
  const mtime = async (text: string) => {
    await Deno.writeTextFile(probe, text);
    return (await Deno.stat(probe)).mtime!.getTime();
  };
  const written = await mtime("a");
  const deadline = Date.now() + 5000;
  while (await mtime("b") <= written) {
    if (Date.now() > deadline) throw new Error("the file system's clock did not move");
    await new Promise((r) => setTimeout(r, 5));
  }
}

Deno.test("stat index: a later snapshot reads only changed files, also after a restart", async () => {
  const s = await setup();
  try {
    for (let i = 0; i < 30; i++) await Deno.writeTextFile(join(s.ws, "src", `f${i}.ts`), `v${i}`);
    await settle(s.home);
    await s.cp.beforeShell("t1", { id: "u1" }, s.ws);
    assertEquals(s.cp.blobs.hashed, 30, "the first snapshot reads every file once");
    await s.cp.beforeShell("t1", { id: "u2" }, s.ws);
    assertEquals(s.cp.blobs.hashed, 30, "nothing changed: nothing read");
    await Deno.writeTextFile(join(s.ws, "src", "f3.ts"), "changed, longer");
    await Deno.writeTextFile(join(s.ws, "src", "new.ts"), "new");
    await s.cp.beforeShell("t1", { id: "u3" }, s.ws);
    assertEquals(s.cp.blobs.hashed, 32, "only the changed and the new file are read");
    // The same content in two files is stored once.
    await Deno.writeTextFile(join(s.ws, "src", "copy.ts"), "v1");
    const count = s.cp.blobs.count;
    await s.cp.beforeShell("t1", { id: "u4" }, s.ws);
    assertEquals(s.cp.blobs.count, count, "a copy of stored content adds no blob");
    // A new process (same store): the persisted index is used.
    await settle(s.home);
    await s.cp.beforeShell("t1", { id: "u5" }, s.ws); // clears the racy marks of u3/u4
    const again = new Checkpointer(s.repos.checkpoints, join(s.home, "checkpoints"));
    await again.beforeShell("t1", { id: "u6" }, s.ws);
    assertEquals(again.blobs.hashed, 0, "after a restart, unchanged files are not read");
    again.close();
    // Rewind still restores a shell change against the index-based snapshot.
    const turn = { id: "u7", pos: 7 };
    await s.cp.beforeShell("t1", turn, s.ws);
    await Deno.writeTextFile(join(s.ws, "src", "f5.ts"), "by a command");
    const r = await s.cp.afterShell("t1", turn, s.ws);
    assertEquals(r.changed, [join(s.ws, "src", "f5.ts")]);
    await s.cp.apply("t1", 7);
    assertEquals(await Deno.readTextFile(join(s.ws, "src", "f5.ts")), "v5");
  } finally {
    await s.done();
  }
});

Deno.test("stat index: an unreadable or corrupt index file is rebuilt, never trusted", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-cpidx-" });
  try {
    const ws = join(home, "ws");
    await Deno.mkdir(ws);
    await Deno.writeTextFile(join(ws, "a.txt"), "a");
    const file = indexFileOf(home, ws);
    for (const text of ["{not json", JSON.stringify({ version: 1, workspace: "/other" })]) {
      await Deno.writeTextFile(file, text);
      const idx = WorkspaceIndex.load(ws, file);
      assertEquals(idx.entries.size, 0);
    }
    const rows = [["../../etc/passwd", 1, 1, 1, 1, null, 0], ["/abs", 1, 1, 1, 1, null, 0]];
    await Deno.writeTextFile(file, JSON.stringify({ version: 1, workspace: ws, entries: rows }));
    assertEquals(WorkspaceIndex.load(ws, file).entries.size, 0, "path tricks are dropped");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("racy timestamps: a file changed in the same tick as the scan is re-hashed next time", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-cpracy-" });
  try {
    const ws = join(home, "ws");
    await Deno.mkdir(ws);
    const blobs = new BlobStore(join(home, "blobs"));
    const abs = join(ws, "a.txt");
    const old = join(ws, "old.txt");
    await Deno.writeTextFile(old, "settled");
    await settle(home);
    await Deno.writeTextFile(abs, "aaaa");
    const idx = new WorkspaceIndex(ws, join(home, "idx.json"));
    // The file's mtime is not older than the scan's stamp: racy.
    Deno.utimeSync(abs, new Date(), new Date(Date.now() + 60_000));
    let seen = await idx.scan(blobs, scanOpts);
    assertEquals(seen.get(abs)!.racy, true);
    assertEquals(seen.get(old)!.racy, false);
    // Rewritten with the same size and, as on a coarse clock, the very same stat.
    await Deno.writeTextFile(abs, "bbbb");
    const st = Deno.lstatSync(abs);
    const same = {
      mtime: st.mtime!.getTime(),
      ctime: st.ctime!.getTime(),
      size: st.size,
      ino: st.ino ?? 0,
      mode: 0o644,
      hash: sha256Hex(enc("aaaa")),
      skipped: null,
    };
    idx.entries.set(abs, { ...same, racy: true });
    const before = blobs.hashed;
    seen = await idx.scan(blobs, scanOpts);
    assertEquals(seen.get(abs)!.hash, sha256Hex(enc("bbbb")), "the racy entry was re-hashed");
    assertEquals(blobs.hashed - before, 1, "only the racy file was read");
    // The same stat without the racy mark is trusted (which is why the mark matters).
    idx.entries.set(abs, { ...same, racy: false });
    seen = await idx.scan(blobs, scanOpts);
    assertEquals(seen.get(abs)!.hash, sha256Hex(enc("aaaa")));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("inode change: a file replaced by another with the same size and times is re-read", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-cpino-" });
  try {
    const ws = join(home, "ws");
    await Deno.mkdir(ws);
    const blobs = new BlobStore(join(home, "blobs"));
    const abs = join(ws, "a.txt");
    await Deno.writeTextFile(abs, "one1");
    await settle(home);
    const idx = new WorkspaceIndex(ws, join(home, "idx.json"));
    await idx.scan(blobs, scanOpts);
    const was = idx.entries.get(abs)!;
    assertEquals(was.racy, false);
    // Replace it (new inode) and pretend every other field stayed the same.
    await Deno.writeTextFile(`${abs}.new`, "two2");
    await Deno.rename(`${abs}.new`, abs);
    const st = Deno.lstatSync(abs);
    assert(st.ino !== was.ino, "rename gives a new inode");
    idx.entries.set(abs, {
      ...was,
      mtime: st.mtime!.getTime(),
      ctime: st.ctime!.getTime(),
      size: st.size,
    });
    const seen = await idx.scan(blobs, scanOpts);
    assertEquals(seen.get(abs)!.hash, sha256Hex(enc("two2")));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("GC removes unreferenced blobs, keeps those of rewindable turns and indexes", async () => {
  const s = await setup();
  try {
    const has = (text: string) => s.cp.blobs.has(sha256Hex(enc(text)));
    await Deno.writeTextFile(join(s.ws, "a.txt"), "in the index");
    await Deno.writeTextFile(join(s.ws, "b.txt"), "pre-image of a tool write");
    const turn = { id: "u1", pos: 1 };
    await s.cp.beforeWrite("t1", turn, join(s.ws, "b.txt"));
    await Deno.writeTextFile(join(s.ws, "b.txt"), "after the write");
    await s.cp.keepBlob(enc("named by nothing"));
    await s.cp.beforeShell("t1", turn, s.ws);
    let r = await s.cp.collect();
    assertEquals(r.removed, 1);
    assert(!has("named by nothing"), "unreferenced: removed");
    assert(has("pre-image of a tool write"), "a rewindable turn's pre-image: kept");
    assert(has("in the index") && has("after the write"), "the index's blobs: kept");
    // The task goes: its rows go, and so does the pre-image only they named.
    s.repos.tasks.delete("t1");
    s.cp.forgetTask("t1");
    r = await s.cp.collect();
    assert(!has("pre-image of a tool write"));
    assert(has("in the index"));
    // Removed for good: a new process does not see them again.
    const again = new BlobStore(join(s.home, "checkpoints", "blobs"));
    assert(!again.has(sha256Hex(enc("named by nothing"))));
    assert(again.has(sha256Hex(enc("in the index"))));
    assertEquals(again.readSync(sha256Hex(enc("in the index"))), enc("in the index"));
  } finally {
    await s.done();
  }
});

Deno.test("GC compacts packs: a mostly dead pack is rewritten and the store shrinks", async () => {
  const s = await setup();
  try {
    const big = (n: number) => enc(String(n).repeat(10_000));
    for (let i = 0; i < 10; i++) await s.cp.keepBlob(big(i));
    await Deno.writeTextFile(join(s.ws, "keep.txt"), "x".repeat(5000));
    await s.cp.beforeShell("t1", { id: "u1" }, s.ws);
    const before = s.cp.storeInfo().bytes;
    const r = await s.cp.collect();
    assertEquals(r.removed, 10);
    const after = s.cp.storeInfo().bytes;
    assert(after < before / 4, `${after} < ${before} / 4`);
    assert(s.cp.blobs.has(sha256Hex(enc("x".repeat(5000)))));
    // Written after the collection: still readable, and so after a restart.
    const h = await s.cp.keepBlob(enc("later"));
    s.cp.close();
    assertEquals(new BlobStore(join(s.home, "checkpoints", "blobs")).readSync(h), enc("later"));
  } finally {
    await s.done();
  }
});

Deno.test("the store cap: snapshots stop keeping new content; GC drops old indexes", async () => {
  const s = await setup({ store: 4000 });
  try {
    for (let i = 0; i < 10; i++) {
      await Deno.writeTextFile(join(s.ws, "src", `f${i}.txt`), String(i).repeat(1000));
    }
    const turn = { id: "u1", pos: 1 };
    await s.cp.beforeShell("t1", turn, s.ws);
    assert(s.cp.storeInfo().bytes <= 4000, `${s.cp.storeInfo().bytes} ≤ the cap`);
    assertEquals(s.cp.storeInfo().capBytes, 4000);
    // A file the cap left out is not rewindable, and says why.
    await Deno.writeTextFile(join(s.ws, "src", "f9.txt"), "changed");
    const r = await s.cp.afterShell("t1", turn, s.ws);
    assertEquals(r.unrewindable.map((u) => u.code), ["snapshot_full"]);
    // Another process with a lower cap: the indexes over it are dropped and collected.
    const small = new Checkpointer(s.repos.checkpoints, join(s.home, "checkpoints"), {
      store: 1000,
    });
    const gc = await small.collect();
    assertEquals(gc.droppedIndexes, 1);
    assert(gc.bytes <= 1000, `${gc.bytes} ≤ 1000 after collecting`);
    small.close();
  } finally {
    await s.done();
  }
});

Deno.test("about.info shows the checkpoint store's size and cap", async () => {
  const { createServices } = await import("../server/services.ts");
  const { runOp } = await import("../server/ops/dispatch.ts");
  const home = await Deno.makeTempDir({ prefix: "ra-cpabout-" });
  const deps = createServices({ home, flushMs: 5 });
  try {
    await deps.runs!.checkpoints.keepBlob(enc("twelve bytes"));
    const client = { id: "t", topics: new Set<string>(), deliver: () => {} };
    const r = await runOp({ ...deps, client }, "about.info", {});
    assert(r.ok);
    const info = r.result as { checkpoints: { bytes: number; blobs: number; capBytes: number } };
    assertEquals(info.checkpoints, { bytes: 12, blobs: 1, capBytes: 2 * 1024 ** 3 });
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a long scan reports its progress (files, bytes)", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-cpprog-" });
  try {
    const ws = join(home, "ws");
    await Deno.mkdir(ws);
    for (let i = 0; i < 5; i++) await Deno.writeTextFile(join(ws, `f${i}`), "12345");
    const seen: { files: number; bytes: number }[] = [];
    const idx = new WorkspaceIndex(ws, join(home, "idx.json"));
    await idx.scan(new BlobStore(join(home, "blobs")), {
      ...scanOpts,
      progressAfterMs: 0,
      onProgress: (p) => seen.push(p),
    });
    assertEquals(seen[0], { files: 1, bytes: 5 });
    seen.length = 0;
    await idx.scan(new BlobStore(join(home, "blobs")), {
      ...scanOpts,
      onProgress: (p) => seen.push(p),
    });
    assertEquals(seen, [], "a quick scan reports nothing");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("watched workspace: later snapshots and comparisons look only at what changed", async () => {
  const s = await setup({ watchFiles: 1 });
  try {
    const src = join(s.ws, "src");
    for (let i = 0; i < 20; i++) await Deno.writeTextFile(join(src, `f${i}.ts`), `v${i}`);
    await Deno.mkdir(join(s.ws, "node_modules", "x"), { recursive: true });
    await settle(s.home);
    await s.cp.beforeShell("t1", { id: "u1" }, s.ws); // full; starts the watcher
    await s.cp.beforeShell("t1", { id: "u2" }, s.ws); // full; arms it
    assertEquals(s.cp.scans.counts, { full: 2, watched: 0 });
    const read = s.cp.blobs.hashed;
    await s.cp.beforeShell("t1", { id: "u3" }, s.ws);
    assertEquals(s.cp.scans.counts.watched, 1, "the third snapshot is a watched update");
    assertEquals(s.cp.blobs.hashed, read, "nothing changed: nothing read");
    // A command (a real child process) edits, creates a folder, deletes and renames.
    const turn = { id: "u4", pos: 4 };
    await s.cp.beforeShell("t1", turn, s.ws);
    const sh = (cmd: string) =>
      new Deno.Command("sh", { args: ["-c", cmd], cwd: s.ws }).output().then((o) => {
        assert(o.success, new TextDecoder().decode(o.stderr));
      });
    await sh(
      "echo edited > src/f1.ts && mkdir -p src/new/deep && echo n > src/new/deep/n.ts && " +
        "rm src/f2.ts && mv src/f3.ts src/f3b.ts && echo skip > node_modules/x/i.js",
    );
    const r = await s.cp.afterShell("t1", turn, s.ws);
    const rel = (p: string) => p.slice(s.ws.length + 1);
    assertEquals(
      r.changed.map(rel).sort(),
      ["src/f1.ts", "src/f2.ts", "src/f3.ts", "src/f3b.ts", "src/new/deep/n.ts"],
    );
    assertEquals(s.cp.scans.counts.watched, 2, "the turn's snapshot was watched too");
    assertEquals(s.cp.compares, { full: 0, watched: 1 }, "so was the comparison");
    // A second command writes into the folder the first one made (not watched itself).
    await sh("echo m > src/new/deep/m.ts && echo n2 > src/new/deep/n.ts");
    const r2 = await s.cp.afterShell("t1", turn, s.ws);
    assertEquals(r2.changed.map(rel).sort(), ["src/new/deep/m.ts", "src/new/deep/n.ts"]);
    // A folder removed as a whole: every file in it is a deletion.
    await sh("rm -rf src/new && echo again > src/new.ts");
    const r3 = await s.cp.afterShell("t1", turn, s.ws);
    assertEquals(r3.changed.map(rel).sort(), [
      "src/new.ts",
      "src/new/deep/m.ts",
      "src/new/deep/n.ts",
    ]);
    // The next turn's snapshot sees the same, reading only the new and changed files.
    const before = s.cp.blobs.hashed;
    await s.cp.beforeShell("t1", { id: "u5" }, s.ws);
    assertEquals(s.cp.blobs.hashed - before, 3, "f1, f3b and new.ts read; nothing else");
    // And rewind puts it all back.
    const plan = await s.cp.apply("t1", 4);
    assertEquals(plan.conflicts, []);
    assertEquals(await Deno.readTextFile(join(src, "f1.ts")), "v1");
    assertEquals(await Deno.readTextFile(join(src, "f2.ts")), "v2");
    assertEquals(await Deno.readTextFile(join(src, "f3.ts")), "v3");
    assert(!(await Deno.stat(join(src, "f3b.ts")).then(() => true, () => false)));
    // A watched update writes its index lazily; closing writes it.
    s.cp.close();
    const file = indexFileOf(join(s.home, "checkpoints", "index"), s.ws);
    const rows = JSON.parse(await Deno.readTextFile(file)).entries as [string][];
    assert(rows.some((r) => r[0] === "src/new.ts"), "the index knows the file u5 saw");
  } finally {
    await s.done();
  }
});

Deno.test("GC keeps a blob just put (its row may not be written yet)", async () => {
  const s = await setup();
  try {
    s.cp.blobs.graceMs = 60_000;
    const h = await s.cp.keepBlob(enc("just now"));
    assertEquals((await s.cp.collect()).removed, 0);
    assert(s.cp.blobs.has(h));
    s.cp.blobs.graceMs = 0;
    assertEquals((await s.cp.collect()).removed, 1);
  } finally {
    await s.done();
  }
});

Deno.test("GC with no grace collects a blob put in the same millisecond (the GC compaction test failed when it was)", async () => {
  const s = await setup();
  const now = Date.now;
  try {
    const t = now();
    Date.now = () => t;
    await s.cp.keepBlob(enc("put just now"));
    const r = await s.cp.collect();
    assertEquals(r.removed, 1);
  } finally {
    Date.now = now;
    await s.done();
  }
});
