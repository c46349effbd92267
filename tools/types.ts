/**
 * The shape every tool has once defined (tools/define.ts): name, description, argument
 * schema, permission kind, placement, traits, and execute.
 */
import type { JsonSchema } from "../protocol/schema.ts";
import type { ToolPolicy } from "../protocol/domain.ts";
import type { SandboxLevelName } from "../protocol/constants.ts";
import type { MemoryScope } from "../protocol/memory.ts";
import type {
  AnyToolDetails,
  Diagnostic,
  FileStamp,
  ToolDetails,
} from "../protocol/tool_details.ts";
import type { EnvPolicy } from "./exec/env_policy.ts";
import type { MemoryFiles } from "../store/memory/files.ts";
import type { EditorCaps, EditorMethod } from "../protocol/editor.ts";

export type PermissionKind = "read" | "write" | "exec";

/** Which output stream a command's bytes came from. */
export type StreamName = "out" | "err";

/**
 * Receives a command's live output as it arrives; returning false says no more is wanted
 * (the command then stops decoding for the listener).
 */
export type OutputListener = (text: string, stream: StreamName) => boolean | void;

/** Whose background commands these are, and how their later changes are recorded. */
export interface JobOwner {
  taskId: string;
  /** Records the files changed since the last look, for the turn that started the job. */
  recapture(): Promise<unknown>;
}

export type AgentArgs = {
  description: string;
  prompt: string;
  subagent_type: string;
  run_in_background?: boolean;
};

export type OutputArgs = {
  id: string;
  wait?: boolean;
};

/** What a run lends the `agent` tools of one call (absent inside a sub-agent). */
export interface SubagentControl {
  start(args: AgentArgs, signal: AbortSignal): Promise<ToolResult<ToolDetails<"agent">>>;
  output(
    args: OutputArgs,
    signal: AbortSignal,
  ): Promise<ToolResult<ToolDetails<"subagent_output">>>;
}

/** What a run lends the memory tool for one turn. */
export interface MemoryAccess {
  files: MemoryFiles;
  /** The task's project folder (its bucket). */
  projectPath: string;
  /** The user's latest message asks to remember, forget or change memories. */
  userAsked: boolean;
  /** Memories changed in this turn so far (shared by the turn's calls). */
  writes: { n: number };
  /** Tells the Memory pages that a bucket changed. */
  changed?(scope: MemoryScope, projectPath: string | null): void;
}

/** The editor a task's tools use (the server's bridge to the editor's client). */
export interface EditorAccess {
  caps: EditorCaps;
  /** Runs an ACP client method in the editor; rejects with the editor's error. */
  request(method: EditorMethod, params: Record<string, unknown>, signal: AbortSignal): Promise<
    unknown
  >;
}

/** Asks the language servers what they report for some files now. */
export type Diagnose = (paths: string[]) => Promise<Diagnostic[]>;

/**
 * What the main process lends the tools that run in it, each a typed field: shell
 * commands their sandbox and live output, the `agent`, `memory` and `diagnostics` tools
 * their service. A sandbox worker's calls get none of them.
 */
export interface ToolCapabilities {
  /** Live output for the UI. */
  onOutput?: OutputListener;
  /** Sandbox level of commands; default workspace-write. */
  sandbox?: SandboxLevelName;
  /** Network inside the sandbox; default true (ignored when the level is `off`). */
  network?: boolean;
  /** The user's configured shell; default $SHELL, /bin/bash, /bin/sh. */
  shell?: string;
  /** What a command's environment must not contain. */
  envPolicy?: EnvPolicy;
  /** Paths masked from main-process tools: the file tools' list and other tasks' attachments. */
  hidden?: string[];
  /** Paths inside hidden ones that stay readable to commands (this task's attachments). */
  visible?: string[];
  /**
   * Git folders a task in a worktree of its own writes besides the worktree (objects, its
   * branch's refs): writable like the workspace, for commands only.
   */
  gitRoots?: string[];
  /** Background commands belong to this task. */
  jobOwner?: JobOwner;
  subagents?: SubagentControl;
  memory?: MemoryAccess;
  diagnose?: Diagnose;
  /** The editor that serves this task's files and terminal (an ACP client), if one does. */
  editor?: EditorAccess;
}

export interface ToolContext extends ToolCapabilities {
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
export type { FileStamp };

/**
 * A tool's answer. `D` is the type of its details: a tool's own
 * (`ToolDetails<"read_file">`, see protocol/tool_details.ts), or, where any tool's
 * result is handled, every key some tool writes.
 */
export interface ToolResult<D = AnyToolDetails> {
  /** Text returned to the model. */
  content: string;
  isError: boolean;
  /** Structured details for the UI card (never sent to the model). */
  meta?: D;
  /**
   * An image too large for the models that the main process fits before the result is
   * kept (read_file runs in a worker that cannot); never stored or sent as it is.
   */
  imageToFit?: Uint8Array;
}

/** Arguments checked against a tool's schema: the typed value, or an error for the model. */
export type ParsedArgs<T> = { ok: true; args: T } | { ok: false; error: string };

export interface Tool<T = Record<string, unknown>, D = AnyToolDetails> {
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
  execute(args: unknown, ctx: ToolContext): Promise<ToolResult<D>>;
  /** Runs with arguments `parse` accepted (the runner checked them before dispatch). */
  run(args: T, ctx: ToolContext): Promise<ToolResult<D>>;
}

/**
 * An error result with a message written for the model to recover from. The details'
 * type comes from where the result goes (a tool's `execute` returns its own), never
 * from `meta` itself, so a key the tool's details lack is an error here.
 */
export const fail = <D = AnyToolDetails>(content: string, meta?: NoInfer<D>): ToolResult<D> => ({
  content,
  isError: true,
  meta,
});
/** A successful result; its details are typed like {@link fail}'s. */
export const ok = <D = AnyToolDetails>(content: string, meta?: NoInfer<D>): ToolResult<D> => ({
  content,
  isError: false,
  meta,
});
