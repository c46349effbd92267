/**
 * Runs one checked tool call for the loop (its arguments fit the tool's schema, checked
 * once by `checkCall` before the gate saw it): path rules and stale-read checks in this
 * process, checkpoint of the pre-image before any write, then
 * the tool itself — file tools in a permission-narrowed worker, others here — and
 * bookkeeping of what it read/wrote. What a tool does is read from its traits.
 */
import type { ToolRegistry } from "../tools/registry.ts";
import type { Tool, ToolCapabilities, ToolContext, ToolResult } from "../tools/types.ts";
import { displayPath, pathRefusal, resolvePath } from "../tools/paths.ts";
import type { SandboxPool } from "../tools/sandbox/pool.ts";
import type { FileTracker } from "./file_tracker.ts";
import { checkCall, type CheckedCall, isChecked, type ToolCall } from "./tool_call.ts";
import type { RefusalCode, RewindReason } from "../protocol/index.ts";
import type { Diagnostic } from "../protocol/tool_details.ts";
import { diagnosticsText } from "../tools/diagnostics.ts";

export interface RunnerContext extends ToolContext {
  roots: string[];
  /** Folders read-only tools may also read, never write (the enabled skills' folders). */
  readRoots?: string[];
  tracker: FileTracker;
  /** Records a file's bytes before a tool changes it (checkpoints); may be absent. */
  beforeWrite?(abs: string): Promise<void>;
  /** Records the file's state after a tool changed it. */
  afterWrite?(abs: string): Promise<void>;
  /** Around shell commands: snapshot before, attribute changed files after. */
  beforeShell?(): Promise<void>;
  afterShell?(): Promise<{ changed: string[]; unrewindable: RewindReason[] }>;
  /** Problems a language server reports in files a call just changed (bounded, may be empty). */
  afterChange?(paths: string[]): Promise<Diagnostic[]>;
  /** What main-process tools are lent (commands' sandbox and output, sub-agents …). */
  capabilities?: ToolCapabilities;
}

const refused = (content: string, code: RefusalCode, path: string): ToolResult => ({
  content,
  isError: true,
  meta: { refusal: { code, params: { path } } },
});

/** The folders a tool may use: read-only tools also get the read-only roots. */
function rootsFor(tool: Tool, ctx: RunnerContext): string[] {
  return tool.placement === "worker-read" && ctx.readRoots?.length
    ? [...ctx.roots, ...ctx.readRoots]
    : ctx.roots;
}

export class ToolRunner {
  constructor(private registry: ToolRegistry, private pool: SandboxPool) {}

  /** Checks `call` against the runner's own tools, then runs it (callers outside the loop). */
  async checkAndRun(call: ToolCall, ctx: RunnerContext): Promise<ToolResult> {
    const checked = checkCall(this.registry, call);
    return isChecked(checked) ? await this.run(checked, ctx) : checked;
  }

  /** Runs a checked call (its tool known, its arguments fitting the schema). */
  async run(call: CheckedCall, ctx: RunnerContext): Promise<ToolResult> {
    const { tool, args } = call;
    const path = typeof args.path === "string" && args.path
      ? resolvePath(args.path, ctx.workspace)
      : null;
    const { traits } = tool;
    // Every file the call writes: its `path`, or the several a patch names.
    const written = traits.writesPaths
      ? traits.writesPaths(args).map((p) => resolvePath(p, ctx.workspace))
      : path && traits.writesPath
      ? [path]
      : [];
    // File tools never reach outside the workspace (also through symlinks): refused here
    // with a code the UI can translate, before any checkpoint or worker is involved.
    if (tool.placement === "worker-read" || tool.placement === "worker-write") {
      for (const p of path ? [path, ...written] : written) {
        const shown = displayPath(p, ctx.workspace);
        const refusal = pathRefusal(p, rootsFor(tool, ctx), ctx.hidden ?? []);
        if (refusal) return refused(refusal.text, refusal.code, shown);
      }
    }
    if (path && traits.needsFreshRead) {
      const shown = displayPath(path, ctx.workspace);
      const stale = await ctx.tracker.staleness(path, shown, traits.needsFreshRead);
      if (stale) return { content: stale, isError: true };
    }
    for (const p of written) await ctx.beforeWrite?.(p);
    if (tool.kind === "exec") await ctx.beforeShell?.();
    const result = await this.dispatch(tool, args, call.answer, ctx);
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
    const stamp = result.meta?.file;
    const stamps = result.meta?.stamps;
    if (!result.isError) {
      if (stamp) ctx.tracker.record(stamp);
      for (const s of stamps ?? []) ctx.tracker.record(s);
      if (path && traits.deletesPath) ctx.tracker.forget(path);
      for (const p of written) await ctx.afterWrite?.(p);
      if (traits.changesFiles && written.length && ctx.afterChange) {
        const found = await ctx.afterChange(written).catch(() => []);
        if (found.length) {
          result.content += diagnosticsText(found);
          result.meta = { ...result.meta, diagnostics: found.slice(0, 50) };
        }
      }
    }
    return result;
  }

  /** Runs checked arguments here, or posts them to the tool's sandbox worker. */
  private dispatch(
    tool: Tool,
    args: Record<string, unknown>,
    answer: unknown,
    ctx: RunnerContext,
  ): Promise<ToolResult> {
    const placement = tool.placement;
    if (placement === "main") return tool.run(args, { ...ctx, ...ctx.capabilities, answer });
    return this.pool.run(
      placement === "worker-read" ? "read" : placement === "worker-net" ? "net" : "write",
      rootsFor(tool, ctx),
      tool.name,
      args,
      ctx.workspace,
      ctx.signal,
      ctx.hidden,
    );
  }
}
