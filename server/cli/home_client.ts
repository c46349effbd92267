/**
 * The op client for a command that reads or changes the data dir's state: the running
 * instance of the data dir when there is one — the one process that opens its database —
 * otherwise services in this process, holding the data dir's lock meanwhile, so that a
 * server starting now waits instead of opening the same database (and marking this
 * process's run stopped).
 */
import { localOpClient, type OpClient, runningInstance } from "./op_client.ts";
import { createServices } from "../services.ts";
import { claimHome } from "../instance/claim.ts";
import { mark } from "../../lib/trace.ts";
import type { LockRole } from "../instance/lock.ts";

/** What a command prints (on stderr) when the running instance carried it out. */
export const VIA_INSTANCE = "(carried out by the ReinAgent instance running for this data dir)";

/** How long a headless run waits, after its answer, for its task's title. */
const TITLE_GRACE_MS = 5_000;

export async function openHomeClient(
  home: string,
  role: Exclude<LockRole, "server">,
): Promise<
  | { client: OpClient; remote: boolean }
  | {
    error: string; /** The database's own problem, when that is the error. */
    storeError?: string;
  }
> {
  const running = await runningInstance(home);
  mark("home: no instance running");
  if (running) return { client: running, remote: true };
  const claim = await claimHome(home, role);
  if (claim.kind === "busy") return { error: claim.message };
  if (claim.kind === "running") {
    // A server came up meanwhile (or answers on its control endpoint only).
    const late = await runningInstance(home);
    return late ? { client: late, remote: true } : {
      error: `the running instance at ${claim.info.base} (pid ${claim.info.pid}) ` +
        "does not accept connections from here",
    };
  }
  mark("home: claimed");
  // Events reach this process's own client (the printed answer, the run's end) at the
  // next tick: batching every 30 ms is for windows over the network.
  const deps = createServices({ home, flushMs: 0 });
  mark("home: services");
  if (!deps.store.health.ok) {
    deps.store.close();
    claim.lock.release();
    const storeError = `${deps.store.health.error} (${deps.store.health.path}, left untouched)`;
    return { error: `database unavailable: ${storeError}`, storeError };
  }
  // Every command that opens the data dir this way returns to main, which exits. A headless
  // run's task gets its title first (its side request usually ends before the answer).
  const local = localOpClient(deps, {
    exiting: true,
    settleMs: role === "run" ? TITLE_GRACE_MS : 0,
  });
  return {
    client: {
      ...local,
      async close() {
        try {
          await local.close();
        } finally {
          claim.lock.release();
        }
      },
    },
    remote: false,
  };
}
