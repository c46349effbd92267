/**
 * A pseudo-terminal without native addons: Deno FFI on libc (Linux only, main process
 * only — never in tool workers). The shell is started through
 * `/bin/sh -c 'exec setsid -c "$@" <"$0" >"$0" 2>&1' <slave> <shell>` so it becomes a
 * session leader with the slave as its controlling tty. Reads and writes of the master run as non-blocking FFI calls (on a
 * thread), one pending read per terminal.
 */

const TIOCSWINSZ = 0x5414;
const O_RDWR = 0x2;
const O_NOCTTY = 0x100;

const SYMBOLS = {
  posix_openpt: { parameters: ["i32"], result: "i32" },
  grantpt: { parameters: ["i32"], result: "i32" },
  unlockpt: { parameters: ["i32"], result: "i32" },
  ptsname_r: { parameters: ["i32", "buffer", "usize"], result: "i32" },
  ioctl: { parameters: ["i32", "u64", "buffer"], result: "i32" },
  read: { parameters: ["i32", "buffer", "usize"], result: "isize", nonblocking: true },
  write: { parameters: ["i32", "buffer", "usize"], result: "isize", nonblocking: true },
  close: { parameters: ["i32"], result: "i32" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

let libc: Libc | null = null;
let unavailable: string | null = null;

/** Why a terminal cannot be opened here, or null when it can. */
export function ptyUnavailableReason(): string | null {
  if (libc) return null;
  if (unavailable) return unavailable;
  if (Deno.build.os !== "linux") {
    unavailable =
      `the terminal needs Linux libc pseudo-terminal calls (posix_openpt, ioctl) through Deno FFI; ${Deno.build.os} is not supported yet`;
    return unavailable;
  }
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    unavailable = "the server was started without --allow-ffi, which the terminal needs";
    return unavailable;
  }
  try {
    libc = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
    return null;
  } catch (e) {
    unavailable = `libc could not be loaded for the terminal: ${(e as Error).message}`;
    return unavailable;
  }
}

function lib(): Libc {
  const why = ptyUnavailableReason();
  if (why) throw new Error(why);
  return libc!;
}

/** Sets the window size of a terminal (the kernel sends SIGWINCH to its foreground group). */
export function setWindowSize(fd: number, cols: number, rows: number): void {
  const ws = new Uint16Array([rows, cols, 0, 0]);
  if (lib().ioctl(fd, BigInt(TIOCSWINSZ), ws) !== 0) throw new Error("ioctl(TIOCSWINSZ) failed");
}

/** Opens a master/slave pair; returns the master fd and the slave's path. */
export function openPty(): { master: number; slavePath: string } {
  const c = lib();
  const master = c.posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) throw new Error("posix_openpt failed");
  const buf = new Uint8Array(128);
  if (c.grantpt(master) !== 0 || c.unlockpt(master) !== 0 || c.ptsname_r(master, buf, 128n) !== 0) {
    c.close(master);
    throw new Error("grantpt/unlockpt/ptsname_r failed");
  }
  const slavePath = new TextDecoder().decode(buf.subarray(0, buf.indexOf(0)));
  return { master, slavePath };
}

/** One read of the master: the bytes, or null at end (the slave side is gone). */
export async function readMaster(
  fd: number,
  buf: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array | null> {
  const n = Number(await lib().read(fd, buf, BigInt(buf.length)));
  return n > 0 ? buf.slice(0, n) : null;
}

/** Writes all of `data` to the master (each call on a thread, so a full tty never blocks the loop). */
export async function writeMaster(fd: number, data: Uint8Array<ArrayBuffer>): Promise<void> {
  let off = 0;
  while (off < data.length) {
    const chunk = data.subarray(off);
    const n = Number(await lib().write(fd, chunk, BigInt(chunk.length)));
    if (n <= 0) throw new Error("write to the terminal failed");
    off += n;
  }
}

export function closeFd(fd: number): void {
  lib().close(fd);
}

/** The argv that starts `shell` as a session leader on the slave `slavePath`. */
export function sessionLeaderArgs(slavePath: string, shell: string, shellArgs: string[]): string[] {
  return ["-c", 'exec setsid -c "$@" <"$0" >"$0" 2>&1', slavePath, shell, ...shellArgs];
}
