/**
 * Garbage collection of the checkpoint store: a blob is kept while a rewindable turn,
 * a turn's recorded net change, a workspace's stat index or a live turn snapshot names
 * it; everything else is removed. Runs after start-up and after tasks are deleted or
 * truncated (debounced, never more than one at a time, in time slices). Over the cap,
 * the stat indexes of all but the most recently used workspace are dropped first (their
 * next snapshot reads their files again), then collected.
 */
import { join } from "../../lib/path.ts";
import { Pacer } from "../../tools/walk.ts";
import type { BlobStore } from "./checkpoint_blobs.ts";
import { WorkspaceIndex } from "./stat_index.ts";

export interface GcSources {
  blobs: BlobStore;
  indexDir: string;
  /** Hashes the database names (rows of rewindable turns, net-change records). */
  referenced(): Set<string>;
  /** The indexes in memory (they may be newer than their files). */
  indexes(): Iterable<WorkspaceIndex>;
  /** Hashes of the turn snapshots held in memory. */
  snapshotHashes(): Iterable<string>;
  /** Forgets the in-memory indexes except `keep`'s (and those being scanned). */
  dropIndexes(keep: string | null): void;
  /** The most recently used workspace, whose index survives the cap. */
  newestWorkspace(): string | null;
  cap: number;
}

export interface GcResult {
  removed: number;
  freed: number;
  bytes: number;
  droppedIndexes: number;
}

export class CheckpointGc {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<GcResult> | null = null;
  private again = false;
  /** The last collection's result (shown in Settings → About). */
  last: GcResult | null = null;

  constructor(private s: GcSources) {}

  /** Collects in `delayMs` (debounced); the timer never keeps the process alive. */
  schedule(delayMs = 1000): void {
    if (this.timer !== null) return;
    const timer = setTimeout(() => {
      this.timer = null;
      this.run().catch(() => {/* the store was closed or is unreadable: next time */});
    }, delayMs);
    Deno.unrefTimer(timer);
    this.timer = timer;
  }

  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One collection now (joins the one under way, then runs once more). */
  async run(): Promise<GcResult> {
    if (this.running) {
      this.again = true;
      return await this.running;
    }
    this.running = this.collect();
    try {
      return await this.running;
    } finally {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.schedule(0);
      }
    }
  }

  private async collect(): Promise<GcResult> {
    const { blobs } = this.s;
    let droppedIndexes = 0;
    if (blobs.bytes > this.s.cap) droppedIndexes = this.dropOldIndexes();
    const live = this.s.referenced();
    for (const idx of this.s.indexes()) for (const h of idx.hashes()) live.add(h);
    for (const h of this.s.snapshotHashes()) live.add(h);
    const inMemory = new Set([...this.s.indexes()].map((i) => i.file));
    for (const file of this.indexFiles()) {
      if (inMemory.has(file)) continue;
      for (const h of WorkspaceIndex.hashesInFile(file)) live.add(h);
    }
    const pacer = new Pacer(undefined, this.s.indexDir);
    const r = await blobs.collect(live, () => pacer.tick());
    this.last = { ...r, bytes: blobs.bytes, droppedIndexes };
    return this.last;
  }

  private indexFiles(): string[] {
    try {
      return [...Deno.readDirSync(this.s.indexDir)]
        .filter((e) => e.isFile && e.name.endsWith(".json"))
        .map((e) => join(this.s.indexDir, e.name));
    } catch {
      return [];
    }
  }

  /** Over the cap: removes every index but the newest workspace's. */
  private dropOldIndexes(): number {
    this.s.dropIndexes(this.s.newestWorkspace());
    const keep = new Set([...this.s.indexes()].map((i) => i.file));
    let n = 0;
    for (const file of this.indexFiles()) {
      if (keep.has(file)) continue;
      try {
        Deno.removeSync(file);
        n++;
      } catch { /* already gone */ }
    }
    return n;
  }
}
