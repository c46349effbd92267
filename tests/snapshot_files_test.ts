/**
 * A snapshot's files are a view of the index's result, not a copy: it reads as the result
 * did when it was taken, whatever the index changes later, and its owner's own changes stay
 * in it.
 */
import { assertEquals } from "./helpers/assert.ts";
import { SnapshotViews } from "../server/agent/snapshot_files.ts";
import type { ScanEntry } from "../server/agent/stat_index.ts";

const entry = (size: number): ScanEntry => ({
  mtime: 1,
  ctime: 1,
  size,
  ino: size,
  mode: 0o644,
  hash: null,
  racy: false,
  skipped: null,
});

Deno.test("a snapshot view keeps what it saw while the base changes, and its own changes", () => {
  const base = new Map([["a", entry(1)], ["b", entry(2)], ["c", entry(3)]]);
  const views = new SnapshotViews<ScanEntry>();
  const first = views.take(base);
  // The index changes its result in place, telling the views first.
  const change = (abs: string, e: ScanEntry | null) => {
    views.keep(abs);
    if (e) base.set(abs, e);
    else base.delete(abs);
  };
  change("a", entry(10));
  change("b", null);
  change("d", entry(4));
  const second = views.take(base);
  // The first view's owner records what it looked at.
  first.set("c", entry(30));
  first.delete("a");
  change("c", entry(300));
  const sizes = (v: typeof first) => [...v].map(([k, e]) => `${k}${e.size}`).sort();
  assertEquals(sizes(first), ["b2", "c30"]);
  assertEquals(first.size, 2);
  assertEquals(first.get("a"), undefined);
  assertEquals(first.get("d"), undefined);
  assertEquals(sizes(second), ["a10", "c3", "d4"]);
  assertEquals(second.size, 3);
  assertEquals([...second.values()].length, 3);
  // Released, a view is not kept up any more (its owner no longer reads it).
  second.release();
  change("d", null);
  assertEquals(second.get("d"), undefined);
  assertEquals(first.get("d"), undefined);
});
