/**
 * The shape every tool has once defined (tools/define.ts): name, description, argument
 * schema, permission kind, placement, traits, and execute.
 */
import type { JsonSchema } from "../protocol/schema.ts";
import type { ToolPolicy } from "../protocol/domain.ts";

export type PermissionKind = "read" | "write" | "exec";

export interface ToolContext {
  /** Absolute path of the task's workspace root. */
  workspace: string;
  signal: AbortSignal;
  /** Folders file tools may touch: the workspace first, then any the user allowed. */
  roots?: string[];
  /** Paths no tool may read or list, even inside the roots (the data folder, credentials). */
  hidden?: string[];
  /**
   * The lines of the user's global git excludes file, which the search tools honour; read by
   * the main process because a sandbox worker cannot see the home folder.
   */
  ignoreGlobal?: string[];
  /** What the user answered when the approval gate asked them (ask_user_question). */
  answer?: unknown;
}

/** Where a tool runs: a permission-narrowed worker (read-only, read-write, or network only), or here. */
export type Placement = "worker-read" | "worker-write" | "worker-net" | "main";

/**
 * What a tool does beyond answering, for the runner and the UI (instead of lists of tool
 * names). Paths are the call's `path` argument.
 */
export interface ToolTraits {
  /** Writes `path`: its bytes are checkpointed before and recorded after (rewind). */
  writesPath?: boolean;
  /**
   * Writes (or removes) the paths this returns for a call's checked arguments, each
   * confined, checkpointed and recorded like `path` (a patch naming several files).
   */
  writesPaths?: (args: Record<string, unknown>) => string[];
  /** `path` must have been read, unchanged since; the verb names the action in the error. */
  needsFreshRead?: "edit" | "delete";
  /** Removes `path`: what was read of it is forgotten. */
  deletesPath?: boolean;
  /** Successful results are file changes (`meta.changesFiles`): the turn's change card. */
  changesFiles?: boolean;
  /**
   * Changes state although it needs no approval (`kind: "read"`), e.g. the memory tool: its
   * calls run one by one, in the model's order, never in a concurrent batch of reads.
   */
  sequential?: boolean;
}

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

/** Arguments checked against a tool's schema: the typed value, or an error for the model. */
export type ParsedArgs<T> = { ok: true; args: T } | { ok: false; error: string };

export interface Tool<T = Record<string, unknown>> {
  name: string;
  description: string;
  /** JSON Schema of the arguments object (what the model is told). */
  readonly parameters: JsonSchema;
  kind: PermissionKind;
  placement: Placement;
  traits: ToolTraits;
  /** A policy the tool's configuration sets (MCP servers); a task's own rule wins. */
  policy?: ToolPolicy;
  /** Checks arguments against the schema. */
  parse(args: unknown): ParsedArgs<T>;
  /** Checks, then runs: safe for any caller (tests, the sandbox worker). */
  execute(args: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** Runs with arguments `parse` accepted (the runner checked them before dispatch). */
  run(args: T, ctx: ToolContext): Promise<ToolResult>;
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
