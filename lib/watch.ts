/**
 * The one way this program watches folders, and the folders it must never watch.
 *
 * Deno's watcher opens the file behind each event to compare it with the watched paths.
 * On Linux and macOS, closing any descriptor of a file drops every POSIX lock the process
 * holds on that file — SQLite's included. A watched folder holding a live database
 * therefore unlocks it at every change of its files; the next process to close its own
 * connection then believes it is the last one and deletes the write-ahead log under the
 * server, which goes on writing into a file nobody else sees (and that a crash loses).
 * So a folder that holds a database opened by this process is refused here (also by the
 * inotify backend, which opens nothing: the refusal does not depend on the backend), and
 * files there are watched by polling their metadata instead ({@link pollFile}).
 *
 * On Linux folders are watched with inotify itself (inotify.ts): a sync is one system
 * call instead of a barrier file's round trip through Deno's watcher thread, and a command
 * that changes a thousand files while the server is busy no longer overflows the watch
 * (Deno's watcher reported "rescan" for it). Elsewhere Deno's watcher is used.
 */
import { dirname, join, resolve } from "./path.ts";
import { Inotify, inotifyUnavailable } from "./inotify.ts";

const databaseFiles = new Set<string>();
const databaseFolders = new Set<string>();

/**
 * Called by the store when it opens a database: its folder is never watched, and nothing
 * else in this process opens the file again.
 */
export function markDatabaseOpen(dbFile: string): void {
  databaseFiles.add(resolve(dbFile));
  databaseFolders.add(resolve(dirname(dbFile)));
}

/** Whether this process has opened the database at `dbFile` (it is never forgotten). */
export function isDatabaseOpen(dbFile: string): boolean {
  return databaseFiles.has(resolve(dbFile));
}

/** Whether `dir` holds a database this process has open. */
export function holdsDatabase(dir: string): boolean {
  return databaseFolders.has(resolve(dir));
}

/** Error for a watch of a database's folder: a caller's bug, never a user's. */
export class WatchRefused extends Error {}

/** inotify itself (Linux), or Deno's watcher (everywhere). */
export type WatchBackend = "inotify" | "fs-events";

/** Changes in watched folders (not recursive). */
export interface FolderWatch {
  /**
   * Hands over the changes that have arrived so far (cheap: for a timer). False once
   * changes were lost: the watch is then closed and useless.
   */
  take(): boolean;
  /**
   * Resolves once every change made before the call (by a process that has exited, say)
   * has been handed over; false when that cannot be known (changes lost, a barrier that
   * did not come back): the watch is then closed and useless.
   */
  sync(): Promise<boolean>;
  close(): void;
}

export interface WatchOptions {
  /** Hears the path of each change: a file or folder in a watched folder, or the folder. */
  seen: (path: string) => void;
  /** A private folder for the barrier files of Deno's watcher (created when needed). */
  barrierDir: string;
  /** Default: inotify where it can be used, else Deno's watcher. */
  backend?: WatchBackend;
  /**
   * Watched folders that may be symbolic links to a folder (a workspace as its user named
   * it). inotify refuses any other link: a folder swapped for a link after it was walked
   * must not bring files from elsewhere into the watch.
   */
  follow?: string[];
}

/**
 * Watches folders (not recursively), refusing any that holds a database; throws when the
 * system refuses (watch limits …).
 */
export function watchFolders(dirs: string[], o: WatchOptions): FolderWatch {
  const bad = dirs.filter(holdsDatabase);
  if (bad.length) {
    throw new WatchRefused(`refusing to watch ${bad.join(", ")}: it holds a live database`);
  }
  const backend = o.backend ?? (inotifyUnavailable() === null ? "inotify" : "fs-events");
  return backend === "inotify"
    ? new InotifyWatch(dirs, o.seen, new Set(o.follow))
    : new FsEventsWatch(dirs, o.seen, o.barrierDir);
}

/**
 * The kernel's queue, read when asked: a sync is one system call when nothing changed
 * (see inotify.ts for why every change made before it is in it).
 */
class InotifyWatch implements FolderWatch {
  private ino: Inotify;
  private lost = false;

  constructor(dirs: string[], private seen: (path: string) => void, follow: Set<string>) {
    this.ino = new Inotify(dirs, follow);
  }

  take(): boolean {
    if (!this.lost && this.ino.drain(this.seen) !== null) {
      this.lost = true;
      this.ino.close();
    }
    return !this.lost;
  }

  sync(): Promise<boolean> {
    return Promise.resolve(this.take());
  }

  close(): void {
    this.lost = true;
    this.ino.close();
  }
}

/** How long a barrier may take to come back before the watch is given up. */
const BARRIER_MS = 500;

/**
 * Deno's watcher, where inotify cannot be used. Its events come from another thread, so a
 * sync is a barrier: a uniquely named file made in a private folder, and its event
 * awaited; events of one watcher come in order, so every change made before the barrier
 * has been handed over when it comes back. An overflow ("rescan") means changes were lost.
 */
class FsEventsWatch implements FolderWatch {
  private w: Deno.FsWatcher | null;
  private waiters = new Map<string, () => void>();
  private barriers = 0;
  private lost = false;
  private prefix: string;

  constructor(dirs: string[], private seen: (path: string) => void, private barrierDir: string) {
    Deno.mkdirSync(barrierDir, { recursive: true });
    this.prefix = join(barrierDir, "b");
    // The barrier's folder first: Deno compares each event's path with the watched folders
    // in their order, opening and resolving both, so a barrier is matched at once instead
    // of after every folder of a big workspace (~10 ms for 1 400 folders).
    this.w = Deno.watchFs([barrierDir, ...dirs], { recursive: false });
    this.pump(this.w).catch(() => this.close());
  }

  private async pump(w: Deno.FsWatcher): Promise<void> {
    for await (const e of w) {
      if (e.flag === "rescan") this.close();
      for (const p of e.paths) {
        if (p.startsWith(this.prefix)) this.waiters.get(p)?.();
        else this.seen(p);
      }
    }
    this.close(); // closed under us, or by close()
  }

  take(): boolean {
    return !this.lost;
  }

  async sync(): Promise<boolean> {
    if (this.lost || !this.w) return false;
    const p = `${this.prefix}${++this.barriers}-${crypto.randomUUID().slice(0, 8)}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const back = new Promise<boolean>((resolve) => {
      this.waiters.set(p, () => resolve(true));
      timer = setTimeout(() => resolve(false), BARRIER_MS);
    });
    try {
      Deno.writeTextFileSync(p, "");
      if (!(await back)) this.close();
      return !this.lost;
    } catch {
      this.close();
      return false;
    } finally {
      clearTimeout(timer);
      this.waiters.delete(p);
      try {
        Deno.removeSync(p);
      } catch { /* already gone */ }
    }
  }

  /** Ends the watch; a sync under way then answers false. */
  close(): void {
    this.lost = true;
    const w = this.w;
    this.w = null;
    try {
      w?.close();
    } catch { /* already closed */ }
    for (const f of this.waiters.values()) f();
  }
}

export interface FilePoll {
  close(): void;
}

/**
 * Calls `changed` when the file at `path` appears, disappears or changes (size, mtime or
 * inode: an editor's atomic rename is a new inode), checking every `intervalMs` with
 * `stat`, which opens nothing. The timer does not keep the process alive.
 */
export function pollFile(path: string, changed: () => void, intervalMs = 1000): FilePoll {
  const sig = () => {
    try {
      const s = Deno.statSync(path);
      return `${s.ino}:${s.size}:${s.mtime?.getTime()}`;
    } catch {
      return "absent";
    }
  };
  let last = sig();
  const timer = setInterval(() => {
    const now = sig();
    if (now === last) return;
    last = now;
    changed();
  }, intervalMs);
  Deno.unrefTimer(timer);
  return { close: () => clearInterval(timer) };
}
