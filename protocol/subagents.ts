/**
 * Sub-agents: what a run of the `agent` tool looks like to every layer,
 * the limits the server enforces, and the ops the UI uses to show them.
 *
 * - `subagents.list {taskId}`: the task's sub-agent runs, newest first (the composer's
 *   background badge shows the running background ones).
 * - `subagent.transcript {taskId, runId}`: one run and its stored transcript (entries
 *   of the same shape as a task's timeline), for the read-only replay.
 * - `subagent.stop {taskId, runId}`: stops one running sub-agent.
 *
 * Live changes of a run arrive on the parent task's topic as `{kind: "subagent", run}`.
 */
import { obj, type Schema, str } from "./schema.ts";
import type { Entry, PendingApproval } from "./domain.ts";

export const SUBAGENT_LIMITS = {
  /** Steps of a sub-agent's loop unless the parent's budget is smaller. */
  defaultSteps: 25,
  descriptionChars: 200,
  promptChars: 50_000,
  typeChars: 64,
  /** Sub-agents of one task running at once (foreground and background). */
  activePerTask: 4,
  /** Longest `subagent_output {wait: true}` before it answers "still running". */
  waitMs: 10 * 60 * 1000,
  /** Entries of a transcript sent to the UI. */
  transcriptEntries: 2000,
  /** User definition files read per folder, and the size of one. */
  filesPerDir: 64,
  fileBytes: 32 * 1024,
} as const;

export const SUBAGENT_STATUSES = [
  "running",
  "done",
  "maxSteps",
  "stopped",
  "failed",
  "interrupted",
] as const;
export type SubagentStatus = typeof SUBAGENT_STATUSES[number];

/** One run of a sub-agent (the `agent` tool), as stored and shown. */
export interface SubagentRun {
  id: string;
  taskId: string;
  /** The parent's `agent` tool call. */
  callId: string;
  type: string;
  description: string;
  background: boolean;
  status: SubagentStatus;
  /** `provider/model` it ran with. */
  model: string;
  startedAt: number;
  endedAt: number | null;
  /** Model calls so far, and the cap. */
  steps: number;
  maxSteps: number;
  toolCalls: number;
  tokens: { input: number; output: number };
  /** The final report (the last assistant text), once ended. */
  report: string | null;
  /** Why it failed, when it did. */
  error: string | null;
  /**
   * What did not go as the definition says (English, also in the report's header):
   * tool names that match no tool, a model that is not `provider/model`.
   */
  notes: string[];
}

/** Where an approval comes from when a sub-agent asked (shown on the approval card). */
export type SubagentOrigin = NonNullable<PendingApproval["subagent"]>;

const id = str({ min: 1, max: 80, pattern: /^[A-Za-z0-9_-]+$/ });

export const SUBAGENT_OP_ARGS = {
  "subagents.list": obj({ taskId: id }),
  "subagent.transcript": obj({ taskId: id, runId: id }),
  "subagent.stop": obj({ taskId: id, runId: id }),
} satisfies Record<string, Schema>;

export interface SubagentOpResults {
  "subagents.list": { runs: SubagentRun[] };
  "subagent.transcript": { run: SubagentRun; entries: Entry[]; truncated: boolean };
  "subagent.stop": { stopped: boolean };
}
