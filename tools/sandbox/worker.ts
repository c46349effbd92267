/**
 * Worker entry: runs file tools with the permissions its creator granted (read/write
 * limited to the task's roots; no net, run, env, ffi). A denied operation surfaces as
 * Deno's NotCapable error and is returned as a clear tool error.
 */
/// <reference lib="deno.worker" />
import { WORKER_TOOLS } from "../worker_tools.ts";
import type { ToolResult } from "../types.ts";

interface Job {
  id: number;
  tool: string;
  args: Record<string, unknown>;
  workspace: string;
  roots: string[];
  hidden: string[];
  ignoreGlobal?: string[];
}

/** Jobs in flight, so a stop can abort a long search. */
const running = new Map<number, AbortController>();

/**
 * A name no workspace is expected to hold: the warm-up's read fails at its first file-system
 * call (were one there, what it read would stay in this worker: nothing is answered).
 */
const WARM_UP_PATH = "\u0001reinagent-warm-up";

/**
 * The first call into a new worker costs ~3.6 ms more than later ones (the code shared by
 * every tool is compiled on first use); a read of a missing file, before the first real
 * call, takes that cost while the model is still answering. It says nothing back, and the
 * worker's permissions bound it like any call.
 */
async function warmUp(root: string): Promise<void> {
  const signal = new AbortController().signal;
  await WORKER_TOOLS.read_file.execute({ path: WARM_UP_PATH }, {
    workspace: root,
    roots: [root],
    hidden: [],
    signal,
  }).catch(() => {});
}

self.onmessage = async (e: MessageEvent<Job | { cancel: number } | { warm: string }>) => {
  if ("cancel" in e.data) {
    running.get(e.data.cancel)?.abort();
    return;
  }
  if ("warm" in e.data) {
    if (typeof e.data.warm === "string") await warmUp(e.data.warm);
    return;
  }
  const job = e.data;
  const abort = new AbortController();
  running.set(job.id, abort);
  const tool = WORKER_TOOLS[job.tool];
  let result: ToolResult;
  if (!tool) result = { content: `Tool ${job.tool} cannot run in the sandbox.`, isError: true };
  else {
    try {
      // The runner checked the arguments before posting; `execute` checks them again
      // because anything holding the pool can post here (a cheap guard).
      result = await tool.execute(job.args, {
        workspace: job.workspace,
        roots: job.roots,
        hidden: job.hidden ?? [],
        ignoreGlobal: job.ignoreGlobal,
        signal: abort.signal,
      });
    } catch (err) {
      const name = (err as Error)?.name;
      const message = (err as Error)?.message ?? String(err);
      result = name === "NotCapable"
        ? {
          content: `Sandbox denied the operation: ${message}`,
          isError: true,
          meta: { sandboxDenied: true },
        }
        : { content: `${job.tool} failed: ${message}`, isError: true };
    }
  }
  running.delete(job.id);
  self.postMessage({ id: job.id, result });
};
