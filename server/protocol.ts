/**
 * Every message exchanged between a client (desktop window, browser tab, phone) and
 * the server over the `/ws` WebSocket. Pure types, limits and argument schemas: the
 * UI imports this file and nothing else from `server/`.
 *
 * Envelopes:
 * - client → server `{t:"req", id, op, args}`
 * - server → client `{t:"res", id, ok:true, result}` or `{t:"res", id, ok:false, error}`
 * - server → client `{t:"evt", topic, seq, data}` (pushed; `seq` grows by one per event
 *   across all topics within one server process, identified by `epoch`)
 * - server → client `{t:"hello", epoch, seq, version}` once, right after connecting.
 */

import { arr, bool, int, json, nullable, obj, oneOf, type Schema, str } from "./schema.ts";
import { PROVIDER_OP_ARGS, type ProviderOpResults } from "./protocol_providers.ts";
import { PROJECT_OP_ARGS, type ProjectOpResults } from "./protocol_projects.ts";
import {
  attachmentIds,
  COMPOSER_OP_ARGS,
  type ComposerOpResults,
  type QueuedMessage,
} from "./protocol_composer.ts";
import { HISTORY_OP_ARGS, type HistoryOpResults } from "./protocol_history.ts";
import { SEARCH_OP_ARGS, type SearchOpResults } from "./protocol_search.ts";
import { PANEL_OP_ARGS, type PanelOpResults } from "./protocol_panel.ts";
import { SAFETY_OP_ARGS, type SafetyOpResults } from "./protocol_safety.ts";
import type { RunEnd } from "./protocol_task_state.ts";

export * from "./protocol_providers.ts";
export * from "./protocol_projects.ts";
export * from "./protocol_composer.ts";
export * from "./protocol_history.ts";
export * from "./protocol_search.ts";
export * from "./protocol_panel.ts";
export * from "./protocol_safety.ts";
export * from "./protocol_task_state.ts";
export * from "./protocol_changes.ts";

export const PROTOCOL_VERSION = 1;

/** Limits shared by server validation and the UI. */
export const LIMITS = {
  /** Largest accepted WebSocket frame from a client, in bytes. */
  frameBytes: 1_048_576,
  /** Longest user message text, in characters. */
  messageChars: 200_000,
  titleChars: 200,
  pathChars: 4096,
  kvKeyChars: 64,
  kvValueBytes: 65_536,
  /** Entries returned by `task.subscribe` (latest N). */
  entryPage: 500,
} as const;

// ---------- domain shapes ----------

import {
  APPROVAL_MODES,
  type ApprovalMode,
  type Effort,
  EFFORT_LEVELS,
  SANDBOX_LEVELS,
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

/** Per-task choices (SPEC §3.5); null = use the system default. */
export interface TaskSettings {
  model: ModelRef | null;
  effort: Effort | null;
  approval: ApprovalMode | null;
  /** Set once the user renamed the task: automatic titles no longer apply. */
  titleLocked?: boolean;
  /** Per-tool overrides of the approval mode ("Always allow" adds `allow`). */
  toolPolicies?: Record<string, ToolPolicy>;
  /** The user agreed that this task's commands run without a sandbox (asked once). */
  unsandboxedOk?: boolean;
}

export type UnsandboxedWhy = "off" | "unavailable";

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
  phase: "model" | "tools";
  /** Shown as "Reconnecting… n/10 · error" while a request is being retried. */
  retry:
    | { attempt: number; max: number; delayMs: number; message: string; category: string }
    | null;
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

// ---------- errors ----------

export const ERROR_CODES = [
  "bad_request", // malformed envelope or JSON
  "invalid_args", // args failed validation
  "unknown_op",
  "not_found",
  "too_large",
  "store_unavailable", // the database could not be opened; nothing is written
  "busy", // the task is running
  "conflict", // e.g. a rewind found files changed outside the agent; nothing was written
  "upstream", // a provider or remote service failed (message has the real error)
  "internal",
] as const;
export type ErrorCode = typeof ERROR_CODES[number];

export interface ProtocolError {
  code: ErrorCode;
  message: string;
}

// ---------- envelopes ----------

export interface ReqMsg {
  t: "req";
  id: number;
  op: string;
  args?: unknown;
}
export type ResMsg =
  | { t: "res"; id: number; ok: true; result: unknown }
  | { t: "res"; id: number; ok: false; error: ProtocolError };
export interface EvtMsg {
  t: "evt";
  topic: string;
  seq: number;
  data: unknown;
}
export interface HelloMsg {
  t: "hello";
  epoch: string;
  seq: number;
  version: string;
  protocol: number;
  store: StoreHealth;
}
export type ServerMsg = ResMsg | EvtMsg | HelloMsg;

// ---------- events ----------

/** Topic `tasks`: the task list changed. */
export type TasksEvent =
  | { kind: "upsert"; task: TaskSummary }
  | { kind: "delete"; id: string };

/** Topic `task:<id>`: a task's timeline changed. */
export type TaskEvent =
  /** Insert or replace a whole entry (by id; ordered by pos). */
  | { kind: "entry"; entry: Entry }
  /** Append streamed text to part `index` of an entry (creating the part if new). */
  | { kind: "delta"; entryId: string; index: number; type: "text" | "thinking"; text: string }
  | { kind: "run"; run: RunState | null }
  /** Live output of a running command (tool call `callId`), appended in order; `stream`
   * absent means stdout (older servers). */
  | { kind: "output"; callId: string; text: string; stream?: "out" | "err" }
  /**
   * The timeline was cut (edit & resend, retry): every entry with `pos > afterPos` is
   * gone; `total` is the task's new entry count.
   */
  | { kind: "truncate"; afterPos: number; total: number }
  /** The task's steering queue changed (the whole queue, in order). */
  | { kind: "queue"; queue: QueuedMessage[] }
  | { kind: "deleted" };

export const taskTopic = (id: string): string => `task:${id}`;

// ---------- ops ----------

const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const title = str({ min: 1, max: LIMITS.titleChars });
/** A message may be empty when it has attachments (checked by the op). */
const messageText = str({ max: LIMITS.messageChars });
const path = str({ min: 1, max: LIMITS.pathChars });
/** Clients may only touch UI preferences; server-owned settings have their own ops. */
const modelRef = obj({
  providerId: str({ min: 1, max: 64 }),
  modelId: str({ min: 1, max: 200 }),
});
const options = obj({
  "model?": nullable(modelRef),
  "effort?": nullable(oneOf(EFFORT_LEVELS)),
  "approval?": nullable(oneOf(APPROVAL_MODES)),
});
const kvKey = str({ min: 4, max: LIMITS.kvKeyChars, pattern: /^ui\.[a-z0-9_.:-]+$/ });

/** Argument schema of every op. An op missing here is rejected as `unknown_op`. */
export const OP_ARGS = {
  "tasks.list": obj({}),
  /** Creates a task; with `message` the first user entry is appended atomically. */
  "tasks.create": obj({
    "title?": title,
    "projectPath?": nullable(path),
    "message?": messageText,
    /** Uploaded attachments of the first message (ids from POST /api/uploads). */
    "attachments?": attachmentIds,
    "options?": options,
  }),
  "tasks.rename": obj({ id: taskId, title }),
  "tasks.pin": obj({ id: taskId, pinned: bool }),
  "tasks.delete": obj({ id: taskId }),
  "tasks.markRead": obj({ id: taskId }),
  /** Snapshot of a task (latest entries) and live `task:<id>` events from then on. */
  "task.subscribe": obj({ id: taskId }),
  "task.unsubscribe": obj({ id: taskId }),
  /** Appends a user message and starts the agent. */
  /** While the task runs, the message is queued instead (sent when the run completes). */
  "task.send": obj({ id: taskId, text: messageText, "attachments?": attachmentIds }),
  /** Aborts the running turn (provider stream, tools) within 1 s. */
  "task.stop": obj({ id: taskId }),
  /** Runs the agent again on the current history (after max steps, an error, a stop). */
  "task.continue": obj({ id: taskId }),
  "task.setOptions": obj({
    id: taskId,
    "model?": nullable(modelRef),
    "effort?": nullable(oneOf(EFFORT_LEVELS)),
    "approval?": nullable(oneOf(APPROVAL_MODES)),
  }),
  /**
   * Replays events missed since `afterSeq` of server `epoch` for the given topics.
   * `replayed: false` means the gap is unknown and the client must re-fetch snapshots.
   */
  "events.resume": obj({
    epoch: str({ min: 1, max: 64 }),
    afterSeq: int({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    topics: arr(str({ min: 1, max: 80 }), 64),
  }),
  "kv.get": obj({ key: kvKey }),
  "kv.set": obj({ key: kvKey, value: json(LIMITS.kvValueBytes) }),
  "server.info": obj({}),
  "approvals.list": obj({}),
  /** Answers a live approval: allow once, always allow this tool in this task, or reject. */
  "approval.decide": obj({
    id: str({ min: 1, max: 80 }),
    decision: oneOf(["allow", "always", "reject"]),
    "feedback?": str({ max: 4000 }),
    /** For ask_user_question: per question, the chosen labels or free text. */
    "answers?": arr(obj({ question: str({ max: 2000 }), answers: arr(str({ max: 4000 }), 8) }), 4),
  }),
  /** The banner's Allow all / Reject all over every live approval. */
  "approvals.decideAll": obj({ decision: oneOf(["allow", "reject"]) }),
  /**
   * An approval left from before a restart: continue the task (the call counts as
   * interrupted), allow the call and continue, reject it, or just dismiss it.
   */
  "approval.recover": obj({
    id: str({ min: 1, max: 80 }),
    action: oneOf(["continue", "allow", "reject", "ignore"]),
  }),
  /** What "Rewind code to before this turn" would do (entryId = the turn's user message). */
  "task.rewindPreview": obj({ id: taskId, entryId: str({ min: 1, max: 64 }) }),
  /** Applies the rewind all-or-nothing; fails with `conflict` and writes nothing on a conflict. */
  "task.rewind": obj({ id: taskId, entryId: str({ min: 1, max: 64 }) }),
  "task.setToolPolicy": obj({
    id: taskId,
    tool: str({ min: 1, max: 120 }),
    policy: nullable(oneOf(TOOL_POLICIES)),
  }),
  ...PROVIDER_OP_ARGS,
  ...PROJECT_OP_ARGS,
  ...COMPOSER_OP_ARGS,
  ...HISTORY_OP_ARGS,
  ...SEARCH_OP_ARGS,
  ...PANEL_OP_ARGS,
  ...SAFETY_OP_ARGS,
} satisfies Record<string, Schema>;

export type OpName = keyof typeof OP_ARGS;

/** Results of each op, for typed clients. */
export interface OpResults
  extends
    ProviderOpResults,
    ProjectOpResults,
    ComposerOpResults,
    HistoryOpResults,
    SearchOpResults,
    PanelOpResults,
    SafetyOpResults {
  "tasks.list": { tasks: TaskSummary[]; seq: number };
  "tasks.create": { task: TaskSummary; entry: Entry | null };
  "tasks.rename": { task: TaskSummary };
  "tasks.pin": { task: TaskSummary };
  "tasks.delete": { id: string };
  "tasks.markRead": { task: TaskSummary };
  "task.subscribe": {
    task: TaskSummary;
    entries: Entry[];
    total: number;
    seq: number;
    run: RunState | null;
    /** The steering queue: messages waiting for the run to complete. */
    queue: QueuedMessage[];
  };
  "task.unsubscribe": { id: string };
  /** `entry` when sent, `queued` when the task was running. */
  "task.send": { entry: Entry | null; queued: QueuedMessage | null };
  "task.stop": { id: string; stopped: boolean };
  "task.continue": { id: string };
  "task.setOptions": { task: TaskSummary };
  "events.resume": { replayed: boolean; seq: number };
  "kv.get": { key: string; value: unknown };
  "kv.set": { key: string };
  "approvals.list": { approvals: PendingApproval[] };
  "approval.decide": { id: string };
  "approvals.decideAll": { count: number };
  "approval.recover": { id: string };
  "task.setToolPolicy": { task: TaskSummary };
  "task.rewindPreview": RewindPlan;
  "task.rewind": RewindPlan;
  "server.info": {
    version: string;
    home: string;
    store: StoreHealth;
    clients: number;
    pid: number;
  };
}

export const isOpName = (op: string): op is OpName => Object.hasOwn(OP_ARGS, op);

/** Validates an op's args; returns the problems found (empty when valid). */
export function validateArgs(op: OpName, args: unknown): string[] {
  return (OP_ARGS[op] as Schema).check(args ?? {}, "args");
}

/** Parses a raw client frame into a request or a typed error (never throws). */
export function parseRequest(raw: string): { req: ReqMsg } | { id: number; error: ProtocolError } {
  if (raw.length > LIMITS.frameBytes) {
    return {
      id: 0,
      error: { code: "too_large", message: `frame exceeds ${LIMITS.frameBytes} bytes` },
    };
  }
  let msg: unknown;
  try {
    msg = JSON.parse(raw);
  } catch (e) {
    return {
      id: 0,
      error: { code: "bad_request", message: `invalid JSON: ${(e as Error).message}` },
    };
  }
  const m = msg as Partial<ReqMsg>;
  const id = typeof m?.id === "number" && Number.isSafeInteger(m.id) ? m.id : 0;
  if (typeof msg !== "object" || msg === null || m.t !== "req") {
    return { id, error: { code: "bad_request", message: 'expected {t:"req", id, op, args}' } };
  }
  if (id <= 0) {
    return { id: 0, error: { code: "bad_request", message: "id must be a positive integer" } };
  }
  if (typeof m.op !== "string") {
    return { id, error: { code: "bad_request", message: "op must be a string" } };
  }
  return { req: m as ReqMsg };
}
