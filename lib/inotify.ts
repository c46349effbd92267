/**
 * Linux inotify through Deno FFI on libc, read only when asked ({@link Inotify.drain}).
 *
 * The kernel queues an event inside the system call that made the change, so once a
 * process has exited a drain sees every change it made that inotify reports: no barrier
 * file, no round trip, one system call when nothing changed. (inotify, like every watcher
 * built on it, misses writes through a shared memory mapping after the file was closed,
 * and changes made through a hard link in a folder it does not watch.) Events wait in the kernel's queue (up to
 * `fs.inotify.max_queued_events`), which says so when it had to drop any
 * (`IN_Q_OVERFLOW`). Nothing is opened per event (Deno's watcher opens the files behind
 * its events; see watch.ts).
 */

const IN_NONBLOCK = 0o4000;
const IN_CLOEXEC = 0o2000000;
const IN_MODIFY = 0x2;
const IN_ATTRIB = 0x4;
const IN_CLOSE_WRITE = 0x8;
const IN_MOVED_FROM = 0x40;
const IN_MOVED_TO = 0x80;
const IN_CREATE = 0x100;
const IN_DELETE = 0x200;
const IN_DELETE_SELF = 0x400;
const IN_MOVE_SELF = 0x800;
const IN_UNMOUNT = 0x2000;
const IN_Q_OVERFLOW = 0x4000;
const IN_ONLYDIR = 0x1000000;
const IN_DONT_FOLLOW = 0x2000000;
const FIONREAD = 0x541b;

/** Everything that changes a file's content, mode, name or existence (folders only). */
const MASK = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE |
  IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

const SYMBOLS = {
  inotify_init1: { parameters: ["i32"], result: "i32" },
  inotify_add_watch: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  ioctl: { parameters: ["i32", "u64", "buffer"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  close: { parameters: ["i32"], result: "i32" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

let libc: Libc | null = null;
let unavailable: string | null = null;

/** Why inotify cannot be used here (not Linux, no FFI permission, no libc), or null. */
export function inotifyUnavailable(): string | null {
  if (libc || unavailable) return unavailable;
  if (Deno.build.os !== "linux") return (unavailable = `not on ${Deno.build.os}`);
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    return (unavailable = "no FFI permission");
  }
  try {
    libc = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
  } catch (e) {
    unavailable = `libc could not be loaded: ${(e as Error).message}`;
  }
  return unavailable;
}

/** What a drain found wrong: events were lost, or a watched folder itself moved or went. */
export type DrainTrouble = "overflow" | "moved" | "error";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** An inotify instance over folders (not recursive). */
export class Inotify {
  private fd: number;
  private lib: Libc;
  private dirs = new Map<number, string>();
  private buf = new Uint8Array(64 * 1024);
  private avail = new Int32Array(1);

  /**
   * Throws when inotify is unavailable or a folder cannot be watched (watch limit, a
   * symbolic link not in `follow` …).
   */
  constructor(dirs: Iterable<string>, follow: ReadonlySet<string> = new Set()) {
    const why = inotifyUnavailable();
    if (why) throw new Error(`inotify is unavailable: ${why}`);
    this.lib = libc!;
    this.fd = this.lib.inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (this.fd < 0) throw new Error("inotify_init1 failed (too many instances?)");
    try {
      for (const d of dirs) {
        const mask = follow.has(d) ? MASK : MASK | IN_DONT_FOLLOW;
        const wd = this.lib.inotify_add_watch(this.fd, enc.encode(d + "\0"), mask);
        if (wd >= 0) this.dirs.set(wd, d);
        else if (exists(d)) throw new Error(`cannot watch ${d} (inotify watch limit?)`);
        // A folder gone before it was watched: whoever reads it next finds it gone.
      }
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /**
   * Hands every queued event's path to `seen` (the folder's own path for events on the
   * folder). Returns null, or the trouble that makes the events incomplete from now on.
   */
  drain(seen: (path: string) => void): DrainTrouble | null {
    if (this.fd < 0) return "error";
    for (;;) {
      if (this.lib.ioctl(this.fd, BigInt(FIONREAD), this.avail) !== 0) return "error";
      if (this.avail[0] === 0) return null;
      if (this.avail[0] > this.buf.length) this.buf = new Uint8Array(this.avail[0]);
      const n = Number(this.lib.read(this.fd, this.buf, BigInt(this.buf.length)));
      if (n <= 0) return "error";
      const view = new DataView(this.buf.buffer, 0, n);
      for (let off = 0; off + 16 <= n;) {
        const wd = view.getInt32(off, true);
        const mask = view.getUint32(off + 4, true);
        const len = view.getUint32(off + 12, true);
        const nameBytes = this.buf.subarray(off + 16, off + 16 + len);
        off += 16 + len;
        if (mask & IN_Q_OVERFLOW) return "overflow";
        const dir = this.dirs.get(wd);
        if (dir === undefined) continue; // a watch already removed
        // A watched folder renamed keeps reporting under its old path: not to be trusted.
        if (mask & (IN_MOVE_SELF | IN_UNMOUNT)) return "moved";
        if (mask & IN_DELETE_SELF) this.dirs.delete(wd);
        const end = nameBytes.indexOf(0);
        const name = dec.decode(end >= 0 ? nameBytes.subarray(0, end) : nameBytes);
        seen(!name ? dir : dir.endsWith("/") ? dir + name : `${dir}/${name}`);
      }
    }
  }

  close(): void {
    if (this.fd >= 0) this.lib.close(this.fd);
    this.fd = -1;
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
