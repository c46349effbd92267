/**
 * How an MCP tool of the workbench is declared: a name, a description, its arguments
 * as a protocol schema (the same builder the ops use: one source for the JSON Schema
 * the client sees and for the validation), and what it does for a session.
 */
import { doc, type Infer, type Schema, str } from "../../../protocol/schema.ts";
import type { OpPort } from "./op_port.ts";
import { McpOpError } from "./op_port.ts";

/** One MCP session's view: its op access and the task it works on. */
export interface McpSession {
  readonly ops: OpPort;
  /** The task a call without `taskId` acts on (set by create_task, switch_task, send_message). */
  currentTask: string | null;
  /** Set by start_draft: the next send_message without a task creates one in this folder. */
  draft: { projectPath: string | null } | null;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  args: Schema;
  /** Only reads: safe to call at any time (the MCP `readOnlyHint`). */
  readOnly: boolean;
  run(session: McpSession, args: unknown, signal: AbortSignal): Promise<unknown>;
}

/** Ties a tool's handler to the type its schema accepts. */
export function defineMcpTool<S extends Schema>(def: {
  name: string;
  title: string;
  description: string;
  args: S;
  readOnly?: boolean;
  run(session: McpSession, args: Infer<S>, signal: AbortSignal): Promise<unknown>;
}): McpTool {
  return {
    ...def,
    readOnly: def.readOnly ?? false,
    // Args were checked against `def.args` before a handler runs (mcp_server.ts).
    run: (s, a, signal) => def.run(s, a as Infer<S>, signal),
  };
}

export const TASK_ID_RE = /^[A-Za-z0-9_-]+$/;

/** An optional task id: the session's current task when left out. */
export const taskIdArg = doc(
  str({ min: 1, max: 64, pattern: TASK_ID_RE }),
  "Task id (from list_tasks or create_task). Defaults to the session's current task.",
);

/** The task a call acts on, or a clear error when none is named or current. */
export function resolveTask(s: McpSession, taskId: string | undefined): string {
  const id = taskId ?? s.currentTask;
  if (!id) {
    throw new McpOpError(
      "invalid_args",
      "no task given: pass taskId, or call create_task or switch_task first",
    );
  }
  return id;
}
