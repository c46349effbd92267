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
}

const never = new AbortController().signal;

self.onmessage = async (e: MessageEvent<Job>) => {
  const job = e.data;
  const tool = WORKER_TOOLS[job.tool];
  let result: ToolResult;
  if (!tool) result = { content: `Tool ${job.tool} cannot run in the sandbox.`, isError: true };
  else {
    try {
      result = await tool.execute(job.args, {
        workspace: job.workspace,
        roots: job.roots,
        signal: never,
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
  self.postMessage({ id: job.id, result });
};
