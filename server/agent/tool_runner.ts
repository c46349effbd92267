/**
 * Runs one tool call for the loop: path rules and stale-read checks in this process,
 * checkpoint of the pre-image before any write, then the tool itself — file tools in
 * a permission-narrowed worker, others here — and bookkeeping of what it read/wrote.
 */
import type { ToolRegistry } from "../../tools/registry.ts";
import type { Placement, Tool, ToolContext, ToolResult } from "../../tools/types.ts";
import { displayPath, hiddenPath, outsideRoots, resolvePath } from "../../tools/paths.ts";
import type { SandboxPool } from "../../tools/sandbox/pool.ts";
import type { FileTracker } from "./file_tracker.ts";
import type { ToolCall } from "./loop.ts";
import type { RewindReason } from "../../protocol/index.ts";

export interface RunnerContext extends ToolContext {
  roots: string[];
  tracker: FileTracker;
  /** Records a file's bytes before a tool changes it (checkpoints); may be absent. */
  beforeWrite?(abs: string): Promise<void>;
  /** Records the file's state after a tool changed it. */
  afterWrite?(abs: string): Promise<void>;
  /** Around shell commands: snapshot before, attribute changed files after. */
  beforeShell?(): Promise<void>;
  afterShell?(): Promise<{ changed: string[]; unrewindable: RewindReason[] }>;
  /** Extra context for main-process tools (exec output streaming, etc.). */
  extra?: Record<string, unknown>;
}

const NEEDS_READ: Record<string, string> = { edit_file: "edit", delete_file: "delete" };
const WRITES_PATH = new Set(["write_file", "edit_file", "delete_file"]);

/** Where a tool runs (its own choice, else by permission kind). */
function placementOf(tool: Tool): Placement {
  return tool.placement ??
    (tool.kind === "read" ? "worker-read" : tool.kind === "write" ? "worker-write" : "main");
}

export class ToolRunner {
  constructor(private registry: ToolRegistry, private pool: SandboxPool) {}

  async run(call: ToolCall, ctx: RunnerContext): Promise<ToolResult> {
    const tool = this.registry.get(call.name);
    if (!tool) {
      const names = this.registry.specs().map((s) => s.name).join(", ");
      return { content: `Unknown tool "${call.name}". Available tools: ${names}.`, isError: true };
    }
    const path = typeof call.args.path === "string" && call.args.path
      ? resolvePath(call.args.path, ctx.workspace)
      : null;
    // File tools never reach outside the workspace (also through symlinks): refused here
    // with a code the UI can translate, before any checkpoint or worker is involved.
    const placement = placementOf(tool);
    if (path && (placement === "worker-read" || placement === "worker-write")) {
      const denied = await outsideRoots(path, ctx.roots);
      if (denied) {
        return {
          content: denied,
          isError: true,
          meta: {
            refusal: {
              code: "outside_workspace",
              params: { path: displayPath(path, ctx.workspace) },
            },
          },
        };
      }
      const hidden = await hiddenPath(path, ctx.hidden ?? [], ctx.roots);
      if (hidden) {
        return {
          content: hidden,
          isError: true,
          meta: {
            refusal: { code: "hidden_path", params: { path: displayPath(path, ctx.workspace) } },
          },
        };
      }
    }
    if (path && NEEDS_READ[tool.name]) {
      const stale = await ctx.tracker.staleness(
        path,
        displayPath(path, ctx.workspace),
        NEEDS_READ[tool.name],
      );
      if (stale) return { content: stale, isError: true };
    }
    if (path && WRITES_PATH.has(tool.name)) await ctx.beforeWrite?.(path);
    if (tool.kind === "exec") await ctx.beforeShell?.();
    const result = await this.dispatch(tool, call, ctx);
    if (result.isError && result.meta?.sandboxDenied === true && !result.meta.refusal) {
      result.meta = { ...result.meta, refusal: { code: "sandbox" } };
    }
    if (tool.kind === "exec" && ctx.afterShell) {
      const rewind = await ctx.afterShell();
      result.meta = {
        ...result.meta,
        changedFiles: rewind.changed.length,
        unrewindable: rewind.unrewindable,
      };
      if (rewind.unrewindable.length) {
        result.content +=
          `\n(Note: ${rewind.unrewindable.length} file change(s) by this command cannot be rewound: ` +
          rewind.unrewindable.map((u) => `${displayPath(u.path, ctx.workspace)} (${u.reason})`)
            .join(", ") +
          ")";
      }
    }
    const stamp = result.meta?.file as
      | { abs: string; mtimeMs: number | null; size: number }
      | undefined;
    if (!result.isError) {
      if (stamp) ctx.tracker.record(stamp);
      if (path && tool.name === "delete_file") ctx.tracker.forget(path);
      if (path && WRITES_PATH.has(tool.name)) await ctx.afterWrite?.(path);
    }
    return result;
  }

  private dispatch(tool: Tool, call: ToolCall, ctx: RunnerContext): Promise<ToolResult> {
    const placement = placementOf(tool);
    if (placement === "main") return tool.execute(call.args, { ...ctx, ...(ctx.extra ?? {}) });
    return this.pool.run(
      placement === "worker-read" ? "read" : placement === "worker-net" ? "net" : "write",
      ctx.roots,
      tool.name,
      call.args,
      ctx.workspace,
      ctx.signal,
      ctx.hidden,
    );
  }
}
