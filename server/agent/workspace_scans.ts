/**
 * Scans of workspaces for turn snapshots: one stat index per workspace (a few kept in
 * memory, the rest on disk), one scan of a workspace at a time, and — for workspaces of
 * at least `watchFiles` files — a watcher, so that later scans look only at the paths
 * that changed (see workspace_watch.ts).
 *
 * A watcher is trusted ("armed") only once it ran during a whole full scan: then every
 * change after that scan's reads is in its set. One started after a scan (the very first
 * of a workspace) is armed by the next full scan.
 */
import { dirname, join } from "../../lib/path.ts";
import type { BlobStore } from "./checkpoint_blobs.ts";
import { indexFileOf, type ScanEntry, type ScanOptions, WorkspaceIndex } from "./stat_index.ts";
import type { SnapshotFiles } from "./snapshot_files.ts";
import { WorkspaceWatcher } from "./workspace_watch.ts";
import type { WatchBackend } from "../../lib/watch.ts";
import { SKIP_DIRS } from "../../tools/walk.ts";

/** Workspace indexes kept in memory (each ~300 bytes per file). */
const INDEXES_IN_MEMORY = 4;

interface Watch {
  w: WorkspaceWatcher;
  armed: boolean;
  /** What changed since the index was last brought up to date. */
  sub: Set<string>;
}

/** A turn's snapshot: the files and, when watched, what changed since it was taken. */
export interface TakenSnapshot {
  files: SnapshotFiles<ScanEntry>;
  watcher: WorkspaceWatcher | null;
  sub: Set<string> | null;
}

export class WorkspaceScans {
  private indexes = new Map<string, WorkspaceIndex>();
  private watches = new Map<string, Watch>();
  private scans = new Map<string, Promise<unknown>>();
  /** Full scans and watched updates done (tests and the bench check which ran). */
  counts = { full: 0, watched: 0 };

  constructor(
    private blobs: BlobStore,
    readonly indexDir: string,
    private watchFiles: number,
    private watchBackend?: WatchBackend,
  ) {}

  /** The workspace's stat index (loaded from disk on first use, a few kept in memory). */
  indexOf(workspace: string): WorkspaceIndex {
    let idx = this.indexes.get(workspace);
    if (idx) {
      this.indexes.delete(workspace); // re-insert: the map's order is the LRU order
      this.indexes.set(workspace, idx);
      return idx;
    }
    Deno.mkdirSync(this.indexDir, { recursive: true });
    idx = WorkspaceIndex.load(workspace, indexFileOf(this.indexDir, workspace));
    this.indexes.set(workspace, idx);
    if (this.indexes.size > INDEXES_IN_MEMORY) {
      const [old] = this.indexes.keys();
      this.indexes.get(old)?.save();
      this.indexes.delete(old);
      this.unwatch(old);
    }
    return idx;
  }

  inMemory(): Iterable<WorkspaceIndex> {
    return this.indexes.values();
  }

  newest(): string | null {
    return [...this.indexes.keys()].pop() ?? null;
  }

  /** Forgets the in-memory indexes except `keep`'s and those being scanned. */
  drop(keep: string | null): void {
    for (const ws of [...this.indexes.keys()]) {
      if (ws !== keep && !this.scans.has(ws)) {
        this.indexes.get(ws)?.save();
        this.indexes.delete(ws);
        this.unwatch(ws);
      }
    }
  }

  /** Whether the workspace's watcher is trusted: its next snapshot looks at changes only. */
  ready(workspace: string): boolean {
    const w = this.watches.get(workspace);
    return !!w?.armed && !w.w.broken;
  }

  /** Runs `f` after the workspace's scan under way (one scan of a workspace at a time). */
  serial<T>(workspace: string, f: () => Promise<T>): Promise<T> {
    const prev = this.scans.get(workspace) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(f);
    this.scans.set(workspace, next);
    next.finally(() => {
      if (this.scans.get(workspace) === next) this.scans.delete(workspace);
    }).catch(() => {});
    return next;
  }

  /** Takes a snapshot of the workspace (call inside {@link serial}). */
  async snapshot(workspace: string, o: ScanOptions): Promise<TakenSnapshot> {
    const idx = this.indexOf(workspace);
    let watch = this.watches.get(workspace) ?? null;
    if (watch?.w.broken) {
      this.unwatch(workspace);
      watch = null;
    }
    // Subscribed before anything is looked at: nothing after this point is missed.
    let sub = watch?.w.subscribe() ?? null;
    if (watch?.armed && await watch.w.sync() && !watch.w.isOver(watch.sub)) {
      const changed = watch.sub;
      watch.sub = watch.w.subscribe();
      watch.w.unsubscribe(changed);
      const w = watch.w;
      const files = await idx.update(
        this.blobs,
        o,
        [...changed, ...w.unwatched],
        (d) => w.addUnwatched(d),
      );
      this.counts.watched++;
      return { files, watcher: w, sub };
    }
    if (watch) {
      // Running but not armed (or its barrier failed): this full scan arms it.
      watch.w.unsubscribe(watch.sub);
      watch.sub = watch.w.subscribe();
    } else if (idx.entries.size >= this.watchFiles) {
      watch = this.watch(workspace, idx.dirs ?? dirsOf(workspace, idx.entries.keys()));
      sub = watch?.w.subscribe() ?? null;
    } else if (o.git && o.git.entries.size >= this.watchFiles) {
      // A big repository's first scan: git's index tells its folders, so the watcher
      // starts now, this scan arms it, and already the first command is compared by it.
      const dirs = dirsOf(workspace, o.git.entries.keys());
      if (dirs.size > 1) {
        watch = this.watch(workspace, dirs);
        sub = watch?.w.subscribe() ?? null;
      }
    }
    const files = await idx.scan(this.blobs, o);
    this.counts.full++;
    if (watch && !watch.w.broken) {
      for (const d of idx.dirs ?? []) watch.w.addUnwatched(d);
      watch.armed = true;
    } else if (files.size >= this.watchFiles && idx.dirs) {
      this.watch(workspace, idx.dirs); // armed by the next full scan
    }
    return { files, watcher: watch?.w ?? null, sub };
  }

  private watch(workspace: string, dirs: Set<string>): Watch | null {
    const w = new WorkspaceWatcher(
      workspace,
      dirs,
      join(this.indexDir, "barrier"),
      this.watchBackend,
    );
    if (!w.start()) return null;
    const watch = { w, armed: false, sub: w.subscribe() };
    this.watches.set(workspace, watch);
    return watch;
  }

  private unwatch(workspace: string): void {
    this.watches.get(workspace)?.w.close();
    this.watches.delete(workspace);
  }

  /** Shutdown: watchers closed, indexes written. */
  close(): void {
    for (const ws of [...this.watches.keys()]) this.unwatch(ws);
    for (const idx of this.indexes.values()) {
      try {
        idx.save();
      } catch { /* the store is gone (tests) or read-only: the next scan rebuilds */ }
    }
  }
}

/**
 * The directories of these files inside `workspace` that a scan walks (a watcher's start
 * before a scan): none in a folder the walk skips.
 */
function dirsOf(workspace: string, files: Iterable<string>): Set<string> {
  const out = new Set<string>([workspace]);
  const base = workspace.endsWith("/") ? workspace : workspace + "/";
  for (const abs of files) {
    if (!abs.startsWith(base)) continue;
    if (abs.slice(base.length).split("/").some((p) => SKIP_DIRS.has(p))) continue;
    for (let d = dirname(abs); d.length > workspace.length && !out.has(d); d = dirname(d)) {
      out.add(d);
    }
  }
  return out;
}
