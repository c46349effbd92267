/** The shape every tool has: schema, permission kind, limits, and execute. */

export type PermissionKind = "read" | "write" | "exec";

export interface ToolContext {
  /** Absolute path of the task's workspace root. */
  workspace: string;
  signal: AbortSignal;
  /** Folders file tools may touch: the workspace first, then any the user allowed. */
  roots?: string[];
  /** Paths no tool may read or list, even inside the roots (the data folder, credentials). */
  hidden?: string[];
}

/** Where a tool runs: a permission-narrowed worker (read-only, read-write, or network only), or here. */
export type Placement = "worker-read" | "worker-write" | "worker-net" | "main";

/** What a file tool saw or left, so the main process can track stale reads. */
export interface FileStamp {
  abs: string;
  mtimeMs: number | null;
  size: number;
}

export interface ToolResult {
  /** Text returned to the model. */
  content: string;
  isError: boolean;
  /** Structured details for the UI card (never sent to the model). */
  meta?: Record<string, unknown>;
}

export interface Tool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  kind: PermissionKind;
  /** Default: "worker-read" for read tools, "worker-write" for write tools. */
  placement?: Placement;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

/** An error result with a message written for the model to recover from. */
export const fail = (content: string, meta?: Record<string, unknown>): ToolResult => ({
  content,
  isError: true,
  meta,
});
export const ok = (content: string, meta?: Record<string, unknown>): ToolResult => ({
  content,
  isError: false,
  meta,
});
