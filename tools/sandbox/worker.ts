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
}

/** Jobs in flight, so a stop can abort a long search. */
const running = new Map<number, AbortController>();

self.onmessage = async (e: MessageEvent<Job | { cancel: number }>) => {
  if ("cancel" in e.data) {
    running.get(e.data.cancel)?.abort();
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
