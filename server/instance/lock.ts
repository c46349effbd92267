/**
 * The data dir's owner lock (`<home>/instance.lock`): an OS advisory lock held for the
 * life of the process that owns the database (a server, or a headless CLI working in
 * process). The kernel drops it when that process dies, however it dies, so a lock left
 * by a dead pid is simply taken over; the file's text (who holds it) is for messages.
 * The file is never deleted (deleting a locked file lets two processes lock two files).
 */
import { join } from "../../lib/path.ts";
import { VERSION } from "../version.ts";

export const lockPath = (home: string) => join(home, "instance.lock");

/** What owns the data dir: a server (answers on its control endpoint) or a CLI. */
export type LockRole =
  | "server"
  | "run"
  | "tasks"
  | "export"
  | "import"
  | "backup"
  | "restore"
  | "cli";

export interface LockInfo {
  pid: number;
  role: LockRole;
  startedAt: number;
  version: string;
}

export interface HomeLock {
  readonly info: LockInfo;
  /** The holder before us that died without releasing (a stale lock taken over). */
  readonly tookOverFrom: LockInfo | null;
  release(): void;
}

export function parseLockInfo(text: string): LockInfo | null {
  try {
    const v = JSON.parse(text);
    if (
      Number.isInteger(v?.pid) && v.pid > 0 &&
      ["server", "run", "tasks", "export", "import", "backup", "restore", "cli"].includes(v.role) &&
      typeof v.startedAt === "number"
    ) return { pid: v.pid, role: v.role, startedAt: v.startedAt, version: String(v.version) };
  } catch { /* empty or partly written */ }
  return null;
}

/** Who holds the lock, as its file says (null: unreadable, empty or being written). */
export async function readLockInfo(home: string): Promise<LockInfo | null> {
  try {
    return parseLockInfo(await Deno.readTextFile(lockPath(home)));
  } catch {
    return null;
  }
}

/** Takes the lock if no live process holds it; `null` when one does. */
export async function tryLockHome(home: string, role: LockRole): Promise<HomeLock | null> {
  const file = await Deno.open(lockPath(home), {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
  if (!(await file.tryLock(true))) {
    file.close();
    return null;
  }
  // Text left in the file means its holder ended without releasing: it crashed or was killed.
  const buf = new Uint8Array(4096);
  const n = (await file.read(buf)) ?? 0;
  const previous = parseLockInfo(new TextDecoder().decode(buf.subarray(0, n)));
  const info: LockInfo = { pid: Deno.pid, role, startedAt: Date.now(), version: VERSION };
  await file.truncate(0);
  await file.seek(0, Deno.SeekMode.Start);
  const bytes = new TextEncoder().encode(JSON.stringify(info));
  for (let done = 0; done < bytes.length;) done += await file.write(bytes.subarray(done));
  let released = false;
  return {
    info,
    tookOverFrom: previous && previous.pid !== Deno.pid ? previous : null,
    release() {
      if (released) return;
      released = true;
      try {
        file.truncateSync(0); // a clean end leaves nothing that looks stale
        file.unlockSync();
      } finally {
        file.close();
      }
    },
  };
}
