/**
 * One instance per data dir: before anything opens the database, the process either
 * takes the lock (and becomes the owner), or finds the server that holds it (and hands
 * over to it), or learns that a headless CLI holds it. A server that holds the lock but
 * does not answer yet is starting, and a one-shot command is about to end: each is given
 * `waitMs`.
 */
import { ensureHome, homeProblem } from "../home.ts";
import { type HomeLock, type LockRole, readLockInfo, tryLockHome } from "./lock.ts";
import { type InstanceFile, instanceInfo } from "./client.ts";
import type { InstanceInfo } from "./control.ts";

export type Claim =
  | { kind: "owner"; lock: HomeLock }
  | { kind: "running"; file: InstanceFile; info: InstanceInfo }
  | { kind: "busy"; message: string };

export async function claimHome(home: string, role: LockRole, waitMs = 10_000): Promise<Claim> {
  try {
    ensureHome(home);
    return await claimMade(home, role, waitMs);
  } catch (e) {
    throw new Error(homeProblem(home, e));
  }
}

async function claimMade(home: string, role: LockRole, waitMs: number): Promise<Claim> {
  const deadline = Date.now() + waitMs;
  while (true) {
    const lock = await tryLockHome(home, role);
    if (lock) return { kind: "owner", lock };
    const holder = await readLockInfo(home);
    // A one-shot command (`providers list`, `doctor` …) ends within moments: wait for it.
    if (holder?.role === "cli" && Date.now() <= deadline) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (holder && holder.role !== "server") {
      return {
        kind: "busy",
        message:
          `the data dir ${home} is in use by \`reinagent ${holder.role}\` (pid ${holder.pid}), ` +
          "which works without a server; try again when it ends, or start `reinagent serve` " +
          "first so that every command uses it",
      };
    }
    const running = await instanceInfo(home, 1000);
    if (running) return { kind: "running", ...running };
    if (Date.now() > deadline) {
      return {
        kind: "busy",
        message:
          `the data dir ${home} is locked by ${
            holder ? `pid ${holder.pid}` : "another process"
          }, which does not answer on its control endpoint (${waitMs / 1000} s); ` +
          "if it hangs, stop it",
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
