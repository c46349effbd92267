/**
 * The one way this program watches folders, and the folders it must never watch.
 *
 * Deno's watcher opens the file behind each event to compare it with the watched paths.
 * On Linux and macOS, closing any descriptor of a file drops every POSIX lock the process
 * holds on that file — SQLite's included. A watched folder holding a live database
 * therefore unlocks it at every change of its files; the next process to close its own
 * connection then believes it is the last one and deletes the write-ahead log under the
 * server, which goes on writing into a file nobody else sees (and that a crash loses).
 * So a folder that holds a database opened by this process is refused here, and files
 * there are watched by polling their metadata instead ({@link pollFile}).
 */
import { dirname, resolve } from "./path.ts";

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

/** `Deno.watchFs` over folders (not recursive), refusing any that holds a database. */
export function watchFolders(dirs: string[]): Deno.FsWatcher {
  const bad = dirs.filter(holdsDatabase);
  if (bad.length) {
    throw new WatchRefused(`refusing to watch ${bad.join(", ")}: it holds a live database`);
  }
  return Deno.watchFs(dirs, { recursive: false });
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
