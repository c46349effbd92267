/**
 * The domain shapes every layer shares: tasks and their settings, timeline entries and
 * their parts, approvals and refusals, rewind plans, run state, store health. Pure
 * types and constants; imports only the constants.
 */

import type { WorktreeInfo } from "./worktrees.ts";
import type { RunEnd } from "./task_state.ts";
import {
  APPROVAL_MODES,
  type ApprovalMode,
  type Effort,
  EFFORT_LEVELS,
  SANDBOX_LEVELS,
  type SandboxLevelName,
} from "./constants.ts";
export { APPROVAL_MODES, EFFORT_LEVELS, SANDBOX_LEVELS };
export {
  DEFAULT_APPROVAL,
  DEMO_PROVIDER_ID,
  effectiveEffort,
  offeredLevels,
  STEP_BUDGET,
  UNDECLARED_LEVELS,
} from "./constants.ts";
export type { ApprovalMode, Effort };

export interface ModelRef {
  providerId: string;
  modelId: string;
}

/**
 * Per-task choices. A new task gets every option written in (what the user picked, else
 * the system default of that moment), so a later change of a default never changes how an
 * existing task runs; null is only seen in rows made before that (the store binds them).
 */
export interface TaskSettings {
  model: ModelRef | null;
  effort: Effort | null;
  approval: ApprovalMode | null;
  /** The shell-command sandbox level the task runs with (absent = the system setting). */
  sandbox?: SandboxLevelName;
  /** Set once the user renamed the task: automatic titles no longer apply. */
  titleLocked?: boolean;
  /** Per-tool overrides of the approval mode ("Always allow" adds `allow`). */
  toolPolicies?: Record<string, ToolPolicy>;
  /** The step budget of each turn, instead of the effort's (`reinagent run --max-turns`). */
  maxSteps?: number;
  /** Appended to the system prompt of every turn (`reinagent run --append-system-prompt`). */
  appendSystemPrompt?: string;
  /** Rules by pattern for this task (`exec_command(npm test *)` allow), see permission_rules.ts. */
  rules?: { rule: string; policy: ToolPolicy }[];
  /** The user agreed that this task's commands run without a sandbox (asked once). */
  unsandboxedOk?: boolean;
  /** Set with `/goal`: injected into every turn's reminder while not paused. */
  goal?: TaskGoal | null;
  /** The task's assistant (protocol/assistants.ts); absent = the global default. */
  assistantId?: string;
  /** MCP servers bound by the assistant: only their tools are offered (null/absent = all). */
  mcpServers?: string[] | null;
  /** The task works in a worktree of its own (its `projectPath` is that folder). */
  worktree?: WorktreeInfo;
}

/** A task's goal (`/goal <text>`); a paused goal is kept but not pursued. */
export interface TaskGoal {
  text: string;
  paused: boolean;
  setAt: number;
}

/** The sandbox level is off, bubblewrap is unavailable, or commands run in the editor's terminal. */
export type UnsandboxedWhy = "off" | "unavailable" | "editor";

export const TOOL_POLICIES = ["allow", "ask", "deny"] as const;
export type ToolPolicy = typeof TOOL_POLICIES[number];

/** A tool call waiting for the user's decision, visible to every client. */
export interface PendingApproval {
  id: string;
  taskId: string;
  taskTitle: string;
  call: { id: string; name: string; args: Record<string, unknown> };
  /**
   * read | write | exec (a tool call), plan (exit_plan_mode), question (ask_user_question),
   * unsandboxed (once per task in full mode: commands would run without a sandbox)
   */
  kind: string;
  /** Set for commands that would run without a sandbox: the level is off, or bwrap is unavailable. */
  unsandboxed?: UnsandboxedWhy;
  /** One line for the card, e.g. `write_file src/a.ts (12 lines)`. */
  summary: string;
  createdAt: number;
  /** False for approvals left from before a restart (offered for recovery). */
  live: boolean;
  /**
   * Set when a sub-agent of the task made the call: its run, type and description, and
   * the parent's `agent` call that started it.
   */
  subagent?: { runId: string; type: string; description: string; callId: string };
}

/**
 * Why a tool call was refused (approval gate, sandbox, restart), in the tool result's
 * `data.meta.refusal`; the model reads the English text, the UI translates the code.
 */
export const REFUSAL_CODES = [
  "plan_mode", // plan mode is read-only
  "policy_deny", // the task's tool policy denies the tool
  "rejected", // the user rejected the call (feedback?)
  "mode_changed", // the approval mode changed while it waited (params.mode)
  "plan_rejected", // the user did not approve the plan (feedback?)
  "not_plan_mode", // exit_plan_mode outside plan mode
  "plan_empty",
  "plan_too_long", // params.length, params.max
  "questions_invalid", // params.problem (English, from the validator)
  "questions_skipped",
  "stopped", // the run was stopped while the call waited
  "interrupted", // the app restarted while the call waited
  "task_gone",
  "outside_workspace", // params.path
  "sandbox", // the sandbox denied an operation
  "hidden_path", // params.path: inside ReinAgent's data folder or a credential folder
  "unsandboxed", // commands would run without a sandbox and the user did not agree
  "hook_blocked", // params.event, params.reason: a configured hook refused the call
  "rule_deny", // params.rule, params.scope: a permission rule by pattern denies the call
] as const;
export type RefusalCode = typeof REFUSAL_CODES[number];
export interface Refusal {
  code: RefusalCode;
  feedback?: string;
  params?: Record<string, string | number>;
}

/** Why a file cannot be rewound (conflict or unrewindable); the UI translates the code. */
export const REWIND_REASON_CODES = [
  "changed", // changed outside the agent since
  "symlink", // is now a symbolic link
  "too_large", // params.mb: larger than the per-file cap
  "task_full", // params.mb: the task's checkpoint space is full
  "not_regular", // not a regular file
  "snapshot_full", // the shell snapshot's cap was reached
  "other", // `reason` only
] as const;
export type RewindReasonCode = typeof REWIND_REASON_CODES[number];
export interface RewindReason {
  path: string;
  /** English, for the CLI and the API. */
  reason: string;
  code: RewindReasonCode;
  params?: Record<string, number>;
}

/** Rewind preview/result: paths are shown relative to the workspace when inside it. */
export interface RewindPlan {
  restore: string[];
  remove: string[];
  conflicts: RewindReason[];
  unrewindable: RewindReason[];
  /** Shell commands are covered by workspace snapshots; say what that means (English). */
  note: string;
  /** The note as a code + params for the UI (`shell_snapshot`, params.mb = per-file cap). */
  noteCode: "shell_snapshot";
  noteParams: Record<string, number>;
}

/** Topic `approvals`: the full list of pending approvals, after every change. */
export type ApprovalsEvent = { kind: "list"; approvals: PendingApproval[] };

/** A live agent run of a task (absent when idle). */
export interface RunState {
  startedAt: number;
  step: number;
  /** `compacting`: the conversation is being summarised. */
  phase: "model" | "tools" | "compacting";
  /** Shown as "Reconnecting… n/10 · error" while a request is being retried. */
  retry:
    | { attempt: number; max: number; delayMs: number; message: string; category: string }
    | null;
  /**
   * While a long rewind snapshot is taken before a command (a big workspace seen for the
   * first time): files scanned and bytes stored so far. Absent or null otherwise.
   */
  snapshot?: { files: number; bytes: number } | null;
}

export type EntryRole = "user" | "assistant" | "tool" | "system" | "compact" | "error";
export type EntryStatus = "done" | "streaming" | "stopped" | "error";
/**
 * Whether a run is active (`waiting`: it waits for an approval). How the last run ended
 * is `TaskSummary.lastRun`; `taskState()` makes the one word every surface shows.
 * (`error` was written by older versions; it reads as a failed last run.)
 */
export type TaskStatus = "idle" | "running" | "waiting" | "error";

/** One content block of an entry (text, thinking, tool call, tool result, image, file). */
export interface Part {
  type: "text" | "thinking" | "tool_call" | "tool_result" | "image" | "file";
  text?: string;
  data?: Record<string, unknown>;
}

/** One timeline entry (a message) of a task. */
export interface Entry {
  id: string;
  taskId: string;
  /** Position in the task's timeline; strictly increasing. */
  pos: number;
  role: EntryRole;
  status: EntryStatus;
  createdAt: number;
  updatedAt: number;
  parts: Part[];
  meta: Record<string, unknown>;
}

/** A task (conversation) as listed in the sidebar. */
export interface TaskSummary {
  id: string;
  title: string;
  projectPath: string | null;
  pinned: boolean;
  status: TaskStatus;
  /** How the last run ended; null = it never ran. */
  lastRun: RunEnd | null;
  /** Messages in the steering queue (sent when a run completes; after a stop or an error they wait for you). */
  queued: number;
  unread: boolean;
  createdAt: number;
  updatedAt: number;
  entryCount: number;
  settings: TaskSettings;
}

/** Health of the persistent store, shown as a banner when not ok. */
export interface StoreHealth {
  ok: boolean;
  path: string;
  error?: string;
}
