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

import {
  arr,
  bool,
  type Infer,
  int,
  json,
  nullable,
  obj,
  oneOf,
  parse,
  type Schema,
  str,
} from "./schema.ts";
import { PROVIDER_OP_ARGS, type ProviderOpResults } from "./providers.ts";
import { PROJECT_OP_ARGS, type ProjectOpResults } from "./projects.ts";
import {
  attachmentIds,
  COMPOSER_OP_ARGS,
  type ComposerOpResults,
  type QueuedMessage,
} from "./composer.ts";
import { HISTORY_OP_ARGS, type HistoryOpResults } from "./history.ts";
import { SEARCH_OP_ARGS, type SearchOpResults } from "./search.ts";
import { PANEL_OP_ARGS, type PanelOpResults } from "./panel.ts";
import { SAFETY_OP_ARGS, type SafetyOpResults } from "./safety.ts";
import { COMMAND_OP_ARGS, type CommandOpResults, type CommandReply } from "./commands.ts";
import { MENTION_OP_ARGS, type MentionOpResults } from "./mentions.ts";
import { COMPACTION_OP_ARGS, type CompactionOpResults } from "./compaction.ts";
import { PREVIEW_OP_ARGS, type PreviewOpResults } from "./preview.ts";
import { JOB_OP_ARGS, type JobOpResults } from "./jobs.ts";
import { SUBAGENT_OP_ARGS, type SubagentOpResults } from "./subagents.ts";
import { MCP_OP_ARGS, type McpOpResults } from "./mcp_servers.ts";
import { TERMINAL_OP_ARGS, type TerminalOpResults, type TermMsg } from "./terminal.ts";
import { REMOTE_OP_ARGS, type RemoteOpResults } from "./remote.ts";
import { GIT_OP_ARGS, type GitOpResults } from "./git.ts";
import { FILES_OP_ARGS, type FilesOpResults } from "./files.ts";
import { NOTIFY_OP_ARGS, type NotifyOpResults } from "./notify.ts";
import { SKILL_OP_ARGS, type SkillOpResults } from "./skills.ts";
import { ENHANCE_OP_ARGS, type EnhanceOpResults } from "./enhance.ts";
import { ASSISTANT_OP_ARGS, assistantIdSchema, type AssistantOpResults } from "./assistants.ts";
import { MEMORY_OP_ARGS, type MemoryOpResults } from "./memory.ts";
import { CARRY_OP_ARGS, type CarryOpResults } from "./carry.ts";
import { AUTOMATION_OP_ARGS, type AutomationOpResults } from "./automations.ts";
import { USAGE_OP_ARGS, type UsageOpResults } from "./usage.ts";
import { HOOK_OP_ARGS, type HookOpResults } from "./hooks.ts";
import { NOTES_OP_ARGS, type NotesOpResults } from "./notes.ts";
import { PLUGIN_OP_ARGS, type PluginOpResults } from "./plugins.ts";
import { NET_OP_ARGS, type NetOpResults } from "./net.ts";
import { RULES_OP_ARGS, ruleSchema, type RulesOpResults } from "./permission_rules.ts";
import { UPDATE_OP_ARGS, type UpdateOpResults } from "./update.ts";
import { WORKTREE_OP_ARGS, type WorktreeNotes, type WorktreeOpResults } from "./worktrees.ts";
import { EDITOR_OP_ARGS, type EditorAskMsg, type EditorOpResults } from "./editor.ts";

export * from "./providers.ts";
export * from "./projects.ts";
export * from "./composer.ts";
export * from "./history.ts";
export * from "./search.ts";
export * from "./panel.ts";
export * from "./safety.ts";
export * from "./commands.ts";
export * from "./mentions.ts";
export * from "./compaction.ts";
export * from "./preview.ts";
export * from "./jobs.ts";
export * from "./subagents.ts";
export * from "./mcp_servers.ts";
export * from "./terminal.ts";
export * from "./remote.ts";
export * from "./git.ts";
export * from "./files.ts";
export * from "./notify.ts";
export * from "./skills.ts";
export * from "./enhance.ts";
export * from "./assistants.ts";
export * from "./memory.ts";
export * from "./carry.ts";
export * from "./automations.ts";
export * from "./usage.ts";
export * from "./pricing.ts";
export * from "./worktrees.ts";
export * from "./hooks.ts";
export * from "./notes.ts";
export * from "./plugins.ts";
export * from "./net.ts";
export * from "./permission_rules.ts";
export * from "./update.ts";
export * from "./task_state.ts";
export * from "./changes.ts";
export * from "./editor.ts";

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
  /** Live output of one command streamed to clients, in characters (the result keeps head + tail). */
  liveOutputChars: 64 * 1024,
} as const;

export * from "./domain.ts";
import type {
  Entry,
  PendingApproval,
  RewindPlan,
  RunState,
  StoreHealth,
  TaskSummary,
} from "./domain.ts";
import { TOOL_POLICIES } from "./domain.ts";
import type { TopicEvent } from "./topics.ts";
import { APPROVAL_MODES, EFFORT_LEVELS, SANDBOX_LEVELS } from "./constants.ts";

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
  "needs_confirmation", // allowed, but only when asked again with the confirmation the message names
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
/** A pushed event: `data` is the payload of `topic` (see `TopicMap`). */
export type EvtMsg = TopicEvent;
export interface HelloMsg {
  t: "hello";
  epoch: string;
  seq: number;
  version: string;
  protocol: number;
  store: StoreHealth;
}
export type ServerMsg = ResMsg | EvtMsg | HelloMsg | TermMsg | EditorAskMsg;

// ---------- events ----------

// Topics and their payloads: `topics.ts`.
export * from "./topics.ts";

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
/**
 * What a headless run sets on its task (`reinagent run --max-turns`, `--append-system-prompt`,
 * `--allowed-tools` / `--disallowed-tools` as task rules): kept in the task's settings.
 */
const HEADLESS_OPTIONS = {
  "maxSteps?": int({ min: 1, max: 10_000 }),
  "appendSystemPrompt?": str({ max: 20_000 }),
  "rules?": arr(ruleSchema, 200),
};
const options = obj({
  "model?": nullable(modelRef),
  "effort?": nullable(oneOf(EFFORT_LEVELS)),
  "approval?": nullable(oneOf(APPROVAL_MODES)),
  /** The new task's assistant (absent = the global default); its bindings apply once. */
  "assistant?": assistantIdSchema,
  ...HEADLESS_OPTIONS,
});
const kvKey = str({ min: 4, max: LIMITS.kvKeyChars, pattern: /^ui\.[a-z0-9_.:-]+$/ });

/** Argument schema of every op. An op missing here is rejected as `unknown_op`. */
export const OP_ARGS = {
  /** `ids`: only these tasks (those that exist), e.g. the one a headless run just ran. */
  "tasks.list": obj({ "ids?": arr(taskId, 100) }),
  /** Creates a task; with `message` the first user entry is appended atomically. */
  "tasks.create": obj({
    "title?": title,
    "projectPath?": nullable(path),
    "message?": messageText,
    /** Uploaded attachments of the first message (ids from POST /api/uploads). */
    "attachments?": attachmentIds,
    "options?": options,
    /**
     * Work in a worktree of its own on a new branch `reinagent/<short-title>` (the project
     * must be a git repository); `base` names the branch to start from (default its HEAD).
     */
    "worktree?": obj({ "base?": str({ min: 1, max: 200, pattern: /^[^\s~^:?*\[\\]+$/ }) }),
  }),
  "tasks.rename": obj({ id: taskId, title }),
  "tasks.pin": obj({ id: taskId, pinned: bool }),
  /**
   * A task in a worktree of its own: its worktree folder goes too (what it had not
   * committed is committed to its branch first; the branch stays) unless `keepWorktree`.
   */
  "tasks.delete": obj({ id: taskId, "keepWorktree?": bool }),
  "tasks.markRead": obj({ id: taskId }),
  /** Snapshot of a task (latest entries) and live `task:<id>` events from then on. */
  "task.subscribe": obj({ id: taskId }),
  "task.unsubscribe": obj({ id: taskId }),
  /** Appends a user message and starts the agent. */
  /** While the task runs, the message is queued instead (sent when the run completes). */
  /** A known `/command` is expanded or performed (protocol/commands.ts); `@path` attaches files. */
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
    /** The task's shell sandbox level (null = the system setting of now). */
    "sandbox?": nullable(oneOf(SANDBOX_LEVELS)),
    ...HEADLESS_OPTIONS,
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
    /** With "always": allow only what this rule covers (`exec_command(npm test *)`). */
    "rule?": str({ min: 1, max: 500 }),
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
  /** Removes one of the task's rules by pattern ("Always allow npm test *"). */
  "task.removeRule": obj({ id: taskId, rule: str({ min: 1, max: 500 }) }),
  ...PROVIDER_OP_ARGS,
  ...PROJECT_OP_ARGS,
  ...COMPOSER_OP_ARGS,
  ...HISTORY_OP_ARGS,
  ...SEARCH_OP_ARGS,
  ...PANEL_OP_ARGS,
  ...SAFETY_OP_ARGS,
  ...COMMAND_OP_ARGS,
  ...MENTION_OP_ARGS,
  ...COMPACTION_OP_ARGS,
  ...PREVIEW_OP_ARGS,
  ...JOB_OP_ARGS,
  ...SUBAGENT_OP_ARGS,
  ...MCP_OP_ARGS,
  ...TERMINAL_OP_ARGS,
  ...REMOTE_OP_ARGS,
  ...GIT_OP_ARGS,
  ...FILES_OP_ARGS,
  ...NOTIFY_OP_ARGS,
  ...SKILL_OP_ARGS,
  ...ENHANCE_OP_ARGS,
  ...ASSISTANT_OP_ARGS,
  ...MEMORY_OP_ARGS,
  ...CARRY_OP_ARGS,
  ...AUTOMATION_OP_ARGS,
  ...USAGE_OP_ARGS,
  ...HOOK_OP_ARGS,
  ...NOTES_OP_ARGS,
  ...PLUGIN_OP_ARGS,
  ...NET_OP_ARGS,
  ...RULES_OP_ARGS,
  ...UPDATE_OP_ARGS,
  ...WORKTREE_OP_ARGS,
  ...EDITOR_OP_ARGS,
} satisfies Record<string, Schema>;

export type OpName = keyof typeof OP_ARGS;

/** Args of each op, as its schema accepts them (a handler gets exactly these). */
export type OpArgs = { [K in OpName]: Infer<typeof OP_ARGS[K]> };

/** Results of each op, for typed clients. */
export interface OpResults
  extends
    ProviderOpResults,
    ProjectOpResults,
    ComposerOpResults,
    HistoryOpResults,
    SearchOpResults,
    PanelOpResults,
    SafetyOpResults,
    CommandOpResults,
    MentionOpResults,
    CompactionOpResults,
    PreviewOpResults,
    JobOpResults,
    SubagentOpResults,
    McpOpResults,
    TerminalOpResults,
    RemoteOpResults,
    GitOpResults,
    FilesOpResults,
    NotifyOpResults,
    SkillOpResults,
    EnhanceOpResults,
    AssistantOpResults,
    MemoryOpResults,
    CarryOpResults,
    AutomationOpResults,
    UsageOpResults,
    HookOpResults,
    NotesOpResults,
    PluginOpResults,
    NetOpResults,
    RulesOpResults,
    UpdateOpResults,
    WorktreeOpResults,
    EditorOpResults {
  "tasks.list": { tasks: TaskSummary[]; seq: number };
  /** `command`: what a slash command did (e.g. `/goal` creates the task without a message). */
  "tasks.create": {
    task: TaskSummary;
    entry: Entry | null;
    command?: CommandReply;
    /** What a new worktree starts with that the user should know. */
    worktreeNotes?: WorktreeNotes;
  };
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
  "task.send": { entry: Entry | null; queued: QueuedMessage | null; command?: CommandReply };
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
  "task.removeRule": { task: TaskSummary };
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

/** An op's args typed as its schema says (absent args are `{}`), or the problems found. */
export function parseArgs<K extends OpName>(
  op: K,
  args: unknown,
): { ok: true; value: OpArgs[K] } | { ok: false; problems: string[] } {
  // Indexing OP_ARGS with a generic key loses the per-op type; OpArgs[K] restores it.
  return parse(OP_ARGS[op] as Schema<OpArgs[K]>, args ?? {});
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
