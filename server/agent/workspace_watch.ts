/**
 * A file-system watcher over a big workspace, so a turn's snapshot and the comparison
 * after a command look only at the paths that changed instead of lstat'ing every file
 * (20 000 lstat's cost ~250 ms here; the budget is 150 ms).
 *
 * - It watches exactly the directories the last full scan walked (not recursively:
 *   skipped folders such as node_modules cost no inotify watch).
 * - A directory that appears later is not watched: it is walked on every update until
 *   there are too many of them, then the watcher is retired (next snapshot: full scan).
 * - {@link sync} returns once every change made before it (by a command that has exited)
 *   has been seen (lib/watch.ts: with inotify it reads the kernel's queue, one system call
 *   when nothing changed; with Deno's watcher it waits for a barrier file's event). Events
 *   that have arrived are also taken every {@link TAKE_MS}, so the kernel's queue does not
 *   fill up while nobody asks.
 * - When events were lost (overflow), a watched folder moved, a barrier timed out or
 *   anything failed, the watcher is broken and the caller falls back to a full scan.
 */
import { SKIP_DIRS } from "../../tools/walk.ts";
import {
  type FolderWatch,
  holdsDatabase,
  type WatchBackend,
  watchFolders,
} from "../../lib/watch.ts";

/** New directories walked on every update before the watcher is retired. */
const MAX_UNWATCHED = 64;
/** Paths one subscription collects; beyond, it is "over" and its owner does a full scan. */
const MAX_SUB_PATHS = 5000;
/** How often events that have arrived are taken when nobody asks. */
const TAKE_MS = 250;

export class WorkspaceWatcher {
  private w: FolderWatch | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private subs = new Set<Set<string>>();
  private over = new Set<Set<string>>();
  private base: string;
  private dirs: Set<string>;
  /** Directories created since the watch began: walked by every update. */
  readonly unwatched = new Set<string>();
  broken = false;

  /** `barrierDir`: a private folder (Deno's watcher's barriers); `backend`: for tests. */
  constructor(
    readonly workspace: string,
    dirs: Set<string>,
    private barrierDir: string,
    private backend?: WatchBackend,
  ) {
    this.dirs = new Set(dirs);
    this.base = workspace.endsWith("/") ? workspace : workspace + "/";
  }

  /** Starts watching; false (and broken) when the system refuses (watch limits …). */
  start(): boolean {
    try {
      // A folder holding the data folder's database (a workspace that contains it) is
      // walked at every update instead: watching it would unlock the database.
      const held = [...this.dirs].filter(holdsDatabase);
      for (const d of held) {
        this.dirs.delete(d);
        this.unwatched.add(d);
      }
      this.w = watchFolders([...this.dirs], {
        seen: this.seen,
        barrierDir: this.barrierDir,
        backend: this.backend,
        follow: [this.workspace],
      });
    } catch {
      this.broken = true;
      return false;
    }
    this.timer = setInterval(() => this.take(), TAKE_MS);
    Deno.unrefTimer(this.timer);
    return true;
  }

  private seen = (p: string): void => {
    if (!p.startsWith(this.base) && p !== this.workspace) return;
    const rel = p.slice(this.base.length);
    if (rel.split("/").some((s) => SKIP_DIRS.has(s))) return;
    for (const s of this.subs) {
      if (s.size < MAX_SUB_PATHS) s.add(p);
      else if (!s.has(p)) {
        this.over.add(s);
        s.clear(); // bounded memory: its owner looks at everything instead
      }
    }
  };

  /** Whether `s` overflowed (its paths are incomplete: scan everything). */
  isOver(s: Set<string>): boolean {
    return this.over.has(s);
  }

  /** A set that collects every changed path from now on (until {@link unsubscribe}). */
  subscribe(): Set<string> {
    this.take(); // what arrived before belongs to the sets there were
    const s = new Set<string>();
    this.subs.add(s);
    return s;
  }

  unsubscribe(s: Set<string>): void {
    this.subs.delete(s);
    this.over.delete(s);
  }

  /** Notes a directory found by an update that the watch does not cover. */
  addUnwatched(dir: string): void {
    if (this.dirs.has(dir)) return;
    this.unwatched.add(dir);
    if (this.unwatched.size > MAX_UNWATCHED) this.break();
  }

  /** Takes the changes that have arrived; false when broken. */
  private take(): boolean {
    if (this.broken || !this.w) return false;
    if (!this.w.take()) this.break();
    return !this.broken;
  }

  /** Waits until every change made before now has been seen; false when it cannot. */
  async sync(): Promise<boolean> {
    if (this.broken || !this.w) return false;
    if (!(await this.w.sync())) this.break();
    return !this.broken;
  }

  break(): void {
    this.broken = true;
    this.close();
  }

  close(): void {
    clearInterval(this.timer);
    const w = this.w;
    this.w = null;
    try {
      w?.close();
    } catch { /* already closed */ }
  }
}
