/**
 * A file-system watcher over a big workspace, so a turn's snapshot and the comparison
 * after a command look only at the paths that changed instead of lstat'ing every file
 * (20 000 lstat's cost ~250 ms here; the budget is 150 ms).
 *
 * - It watches exactly the directories the last full scan walked (not recursively:
 *   skipped folders such as node_modules cost no inotify watch), plus a private folder
 *   of the checkpoint store for the barrier.
 * - A directory that appears later is not watched: it is walked on every update until
 *   there are too many of them, then the watcher is retired (next snapshot: full scan).
 * - {@link sync} is the barrier: it creates a uniquely named file in the private folder
 *   and waits for its event. Events of one watcher come in order, so every change made
 *   before the barrier (by a command that has exited) has been seen when it returns.
 * - On overflow ("rescan"), an error or a barrier timeout the watcher is broken and the
 *   caller falls back to a full scan.
 */
import { join } from "../../lib/path.ts";
import { SKIP_DIRS } from "../../tools/walk.ts";
import { holdsDatabase, watchFolders } from "../../lib/watch.ts";

/** New directories walked on every update before the watcher is retired. */
const MAX_UNWATCHED = 64;
/** Paths one subscription collects; beyond, it is "over" and its owner does a full scan. */
const MAX_SUB_PATHS = 5000;

export class WorkspaceWatcher {
  private w: Deno.FsWatcher | null = null;
  private subs = new Set<Set<string>>();
  private over = new Set<Set<string>>();
  private waiters = new Map<string, () => void>();
  private barrier = 0;
  private base: string;
  private dirs: Set<string>;
  /** Directories created since the watch began: walked by every update. */
  readonly unwatched = new Set<string>();
  broken = false;

  constructor(
    readonly workspace: string,
    dirs: Set<string>,
    private privDir: string,
  ) {
    this.dirs = new Set(dirs);
    this.base = workspace.endsWith("/") ? workspace : workspace + "/";
  }

  /** Starts watching; false (and broken) when the system refuses (watch limits …). */
  start(): boolean {
    try {
      Deno.mkdirSync(this.privDir, { recursive: true });
      // A folder holding the data folder's database (a workspace that contains it) is
      // walked at every update instead: watching it would unlock the database.
      const held = [...this.dirs].filter(holdsDatabase);
      for (const d of held) {
        this.dirs.delete(d);
        this.unwatched.add(d);
      }
      this.w = watchFolders([...this.dirs, this.privDir]);
    } catch {
      this.broken = true;
      return false;
    }
    this.pump(this.w).catch(() => this.break());
    return true;
  }

  private async pump(w: Deno.FsWatcher): Promise<void> {
    for await (const e of w) {
      if (e.flag === "rescan") this.break();
      for (const p of e.paths) this.seen(p);
    }
    if (!this.broken) this.break(); // closed under us
  }

  private seen(p: string): void {
    if (p.startsWith(this.privDir)) {
      this.waiters.get(p)?.();
      return;
    }
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
  }

  /** Whether `s` overflowed (its paths are incomplete: scan everything). */
  isOver(s: Set<string>): boolean {
    return this.over.has(s);
  }

  /** A set that collects every changed path from now on (until {@link unsubscribe}). */
  subscribe(): Set<string> {
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

  /** Waits until every change made before now has been seen; false when it cannot. */
  async sync(timeoutMs = 500): Promise<boolean> {
    if (this.broken || !this.w) return false;
    const p = join(this.privDir, `b${++this.barrier}-${crypto.randomUUID().slice(0, 8)}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = new Promise<boolean>((resolve) => {
      this.waiters.set(p, () => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      Deno.writeTextFileSync(p, "");
      const ok = await seen;
      if (!ok) this.break();
      return ok && !this.broken;
    } catch {
      this.break();
      return false;
    } finally {
      clearTimeout(timer);
      this.waiters.delete(p);
      try {
        Deno.removeSync(p);
      } catch { /* already gone */ }
    }
  }

  break(): void {
    this.broken = true;
    this.close();
  }

  close(): void {
    const w = this.w;
    this.w = null;
    try {
      w?.close();
    } catch { /* already closed */ }
    for (const f of this.waiters.values()) f();
  }
}
