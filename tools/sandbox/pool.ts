/**
 * Permission-narrowed workers for file tools, one per (profile, roots) and reused.
 * `read` workers may read the roots; `write` workers may read and write them; `net`
 * workers (web tools) get the network only. None gets run, env, sys, ffi or import. Idle workers are closed.
 * Needs `--unstable-worker-options` and must run with `--no-prompt` (a denied
 * operation would otherwise ask on the terminal).
 */
import type { ToolResult } from "../types.ts";
import { WORKER_TOOLS } from "../worker_tools.ts";
import { globalExcludes, IGNORE_AWARE_TOOLS } from "../ignore_global.ts";
import { IdleTimer } from "../../lib/light_timer.ts";

export type Profile = "read" | "write" | "net";

interface Slot {
  key: string;
  worker: Worker;
  pending: Map<number, (r: ToolResult) => void>;
  /** Closes the worker once it has been idle for the pool's idle time. */
  idle: IdleTimer;
}

const IDLE_MS = 60_000;

/**
 * The worker's entry: beside this module in the source tree, or the bundle's `worker.js`
 * (scripts/build-server.ts lays every chunk and entry flat in one folder).
 */
const WORKER_URL = new URL(
  import.meta.url.endsWith(".js") ? "./worker.js" : "./worker.ts",
  import.meta.url,
);

/** The only permissions a file-tool worker gets. */
export function workerPermissions(profile: Profile, roots: string[]): Deno.PermissionOptionsObject {
  if (profile === "net") {
    // Web tools: the network and nothing else (SSRF rules are enforced in the tool).
    return {
      read: false,
      write: false,
      net: true,
      run: false,
      env: false,
      sys: false,
      ffi: false,
      import: false,
    };
  }
  return {
    read: roots,
    write: profile === "write" ? roots : false,
    net: false,
    run: false,
    env: false,
    sys: false,
    ffi: false,
    import: false,
  };
}

const STOPPED = "Stopped by the user before the tool finished.";

export class SandboxPool {
  private slots = new Map<string, Slot>();
  private nextId = 1;

  constructor(private idleMs = IDLE_MS) {}

  async run(
    profile: Profile,
    roots: string[],
    tool: string,
    args: Record<string, unknown>,
    workspace: string,
    signal: AbortSignal,
    hidden: string[] = [],
  ): Promise<ToolResult> {
    const key = `${profile}\0${roots.join("\0")}`;
    const ignoreGlobal = IGNORE_AWARE_TOOLS.has(tool) ? await globalExcludes() : undefined;
    if (signal.aborted) return { content: STOPPED, isError: true };
    // A read tool (by its own placement, whatever the caller says) may run in the write
    // worker of the same roots: read tools hold no write calls and their paths are
    // checked before dispatch, and one isolate fewer is ~15 MB
    // (the soak's peak). A read worker is only started while no write worker exists.
    const readTool = WORKER_TOOLS[tool]?.placement === "worker-read";
    const writer = profile === "read" && readTool
      ? this.slots.get(`write\0${roots.join("\0")}`)
      : undefined;
    const slot = writer ?? this.slots.get(key) ?? this.spawn(key, profile, roots);
    slot.idle.cancel();
    const id = this.nextId++;
    return new Promise<ToolResult>((resolve) => {
      const onAbort = () => {
        slot.pending.delete(id);
        slot.worker.postMessage({ cancel: id }); // let a long search stop too
        resolve({ content: STOPPED, isError: true });
      };
      signal.addEventListener("abort", onAbort, { once: true });
      slot.pending.set(id, (r) => {
        signal.removeEventListener("abort", onAbort);
        resolve(r);
      });
      slot.worker.postMessage({ id, tool, args, workspace, roots, hidden, ignoreGlobal });
    }).finally(() => {
      if (slot.pending.size === 0) slot.idle.touch();
    });
  }

  /**
   * Starts the worker of (profile, roots) ahead of its first call (a turn's start, while
   * the model answers), so that call does not wait for the worker's module graph, and has
   * it warm up (see the worker) in that wait too.
   */
  warm(profile: Profile, roots: string[]): void {
    const key = `${profile}\0${roots.join("\0")}`;
    // Reads already go to a write worker of the same roots.
    if (
      this.slots.has(key) || (profile === "read" && this.slots.has(`write\0${roots.join("\0")}`))
    ) {
      return;
    }
    const slot = this.spawn(key, profile, roots);
    slot.idle.touch();
    if (profile !== "net") slot.worker.postMessage({ warm: roots[0] });
  }

  private spawn(key: string, profile: Profile, roots: string[]): Slot {
    const worker = new Worker(WORKER_URL, {
      type: "module",
      deno: { permissions: workerPermissions(profile, roots) },
    });
    const slot: Slot = {
      key,
      worker,
      pending: new Map(),
      idle: new IdleTimer(this.idleMs, () => {
        // A worker replaced under the same key keeps its own timer.
        if (this.slots.get(key) === slot && slot.pending.size === 0) this.close(key);
      }),
    };
    worker.onmessage = (e: MessageEvent<{ id: number; result: ToolResult }>) => {
      const done = slot.pending.get(e.data.id);
      slot.pending.delete(e.data.id);
      done?.(e.data.result);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      for (const done of slot.pending.values()) {
        done({ content: `Sandbox worker crashed: ${e.message}`, isError: true });
      }
      slot.pending.clear();
      this.close(key);
    };
    this.slots.set(key, slot);
    if (profile === "write") {
      // Reads go to this worker from now on: an idle read worker of the same roots goes.
      const reader = `read\0${roots.join("\0")}`;
      if (this.slots.get(reader)?.pending.size === 0) this.close(reader);
    }
    return slot;
  }

  private close(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    slot.idle.cancel();
    slot.worker.terminate();
    this.slots.delete(key);
  }

  closeAll(): void {
    for (const key of [...this.slots.keys()]) this.close(key);
  }

  get size(): number {
    return this.slots.size;
  }
}
