/**
 * What tools report beside their text: the structured details (`meta`) a tool result
 * carries for the UI's cards (never sent to the model), one schema per tool. The
 * TypeScript types are inferred from the schemas, so the tools that write the details
 * (`ToolResult<ToolDetails<"read_file">>`), the runner that adds to them and the UI
 * that reads them (`DetailsOf<"read_file">` in JSDoc) share one definition, and a test
 * runs every tool and checks what it wrote against its schema (unknown keys fail).
 *
 * Every key is optional: a failed call carries few or none of a tool's keys, and a
 * call refused before it ran carries only `refusal`. Nested shapes that are always
 * written whole (a diff, a file stamp) have required keys.
 *
 * Keys some tools share, added around the tool itself:
 * - `refusal` (any tool): why the call was turned down (the approval gate, a path
 *   rule, the sandbox, a restart), in a code the UI translates.
 * - `sandboxDenied` (tools in a sandbox worker): the worker's permissions refused an
 *   operation.
 * - `changesFiles`, `diagnostics` (the file-changing tools): the change card's mark,
 *   and what the language servers report in the changed files.
 * - `changedFiles`, `unrewindable` (commands): how many files the command changed, and
 *   the changes a rewind cannot put back.
 * - `file` / `stamps` (file tools): what a file looked like when it was read or
 *   written, for the stale-read check.
 */
import {
  arr,
  bool,
  type Fields,
  type Infer,
  int,
  nullable,
  num,
  obj,
  oneOf,
  record,
  type Schema,
  str,
  union,
} from "./schema.ts";
import { type Refusal, REFUSAL_CODES, REWIND_REASON_CODES, type RewindReason } from "./domain.ts";
import type { LineDiff } from "./diff.ts";
import { MEMORY_ACTIONS, MEMORY_SCOPES } from "./memory.ts";
import { SUBAGENT_STATUSES, type SubagentRun } from "./subagents.ts";

// ---------- building blocks ----------

/** Details are what a tool wrote, not input: no bounds beyond the type. */
const text = str({ max: Infinity });
const count = int({ min: 0, max: Infinity });
const integer = int({ min: -Infinity, max: Infinity });
const number = num({ min: -Infinity, max: Infinity });

/** `T` and `U` have the same keys and each is assignable to the other. */
type Same<T, U> = [T, keyof T] extends [U, keyof U] ? [U, keyof U] extends [T, keyof T] ? true
  : false
  : false;

/**
 * A schema for a type declared elsewhere in protocol/ (an interface other code uses):
 * it must infer exactly that type, so the two cannot drift apart.
 */
const schemaFor = <T>() =>
<S extends Schema<T>>(
  schema: S & (Same<T, Infer<S>> extends true ? unknown : never),
): Schema<T> => schema;

const refusal = schemaFor<Refusal>()(obj({
  code: oneOf(REFUSAL_CODES),
  "feedback?": text,
  "params?": record(union(text, number), Infinity),
}));

const rewindReason = schemaFor<RewindReason>()(obj({
  path: text,
  reason: text,
  code: oneOf(REWIND_REASON_CODES),
  "params?": record(number, Infinity),
}));

const diffLine = obj({ t: oneOf([" ", "+", "-"]), text });
const lineDiff = schemaFor<LineDiff>()(obj({
  added: count,
  removed: count,
  hunks: arr(obj({ oldStart: count, newStart: count, lines: arr(diffLine, Infinity) }), Infinity),
  truncated: bool,
  "approximate?": bool,
  "eolChanged?": bool,
}));

/** A problem a language server reports in a file. */
const diagnostic = obj({
  path: text,
  line: count,
  column: count,
  severity: oneOf(["error", "warning"]),
  message: text,
});
export type Diagnostic = Infer<typeof diagnostic>;

/** What a file tool saw or left (absolute path, modification time, size). */
const fileStamp = obj({ abs: text, mtimeMs: nullable(number), size: count });
export type FileStamp = Infer<typeof fileStamp>;

/** An image for models that take images (base64 bytes). */
const imageData = obj({ mimeType: text, data: text });

/** A command's kept output by stream, in arrival order; the omitted middle as a count. */
const execSegment = union(
  obj({ stream: oneOf(["out", "err"]), text }),
  obj({ omitted: count }),
);
export type ExecSegment = Infer<typeof execSegment>;

/** One file an apply_patch call changed. */
const patchedFile = obj({
  path: text,
  op: oneOf(["add", "update", "delete", "move"]),
  "movedFrom?": text,
  diff: lineDiff,
});
export type PatchedFile = Infer<typeof patchedFile>;

/** What the user answered to one ask_user_question question. */
const questionAnswer = obj({ question: text, answers: arr(text, Infinity) });
export type QuestionAnswer = Infer<typeof questionAnswer>;

const subagentRun = schemaFor<SubagentRun>()(obj({
  id: text,
  taskId: text,
  callId: text,
  type: text,
  description: text,
  background: bool,
  status: oneOf(SUBAGENT_STATUSES),
  model: text,
  startedAt: number,
  endedAt: nullable(number),
  steps: count,
  maxSteps: count,
  toolCalls: count,
  tokens: obj({ input: count, output: count }),
  report: nullable(text),
  error: nullable(text),
  notes: arr(text, Infinity),
}));

/** What an MCP tool's result carries besides the text. */
const mcpResult = obj({
  server: text,
  tool: text,
  /** Images the server sent that models may see (bounded in number and size). */
  images: arr(imageData, Infinity),
  /** Images left out (too large or too many). */
  imagesOmitted: count,
  links: arr(obj({ uri: text, name: text, "mimeType?": text }), Infinity),
  structured: nullable(text),
});
export type McpResultDetails = Infer<typeof mcpResult>;

// ---------- the keys around the tools ----------

/** Any tool's call may be refused. */
const details = <F extends Fields>(fields: F) => obj({ "refusal?": refusal, ...fields });

/** Tools that run in a sandbox worker. */
const WORKER = { "sandboxDenied?": bool };
/** Tools whose successful results are file changes (the `changesFiles` trait). */
const CHANGE = { "changesFiles?": bool, "diagnostics?": arr(diagnostic, 50) };
/** Shell commands (the runner's record of their file changes). */
const EXEC = { "changedFiles?": count, "unrewindable?": arr(rewindReason, Infinity) };
/** The states of a background_bash job. */
const JOB_STATUS = oneOf(["running", "exited", "stopped"]);

// ---------- the tools ----------

/**
 * Each built-in tool's details by its name; `mcp` stands for every MCP tool
 * (`mcp__<server>__<tool>`, see {@link detailsSchema}).
 */
/** Served by the editor driving the task (an ACP client's file system or terminal). */
const EDITOR = { "viaEditor?": bool };

export const TOOL_DETAILS = {
  list_dir: details({
    ...WORKER,
    "path?": text,
    "count?": count,
    "ignored?": count,
    "truncated?": bool,
  }),
  read_file: details({
    ...EDITOR,
    ...WORKER,
    "path?": text,
    "totalLines?": count,
    "from?": count,
    "to?": count,
    "truncated?": bool,
    "pdfPages?": count,
    /**
     * An image file: its type and size, whether it was sent to the model, what was sent
     * when it had to be resized (`sent`), or why it was not (`reason`).
     */
    "image?": obj({
      mimeType: oneOf(["image/png", "image/jpeg", "image/gif", "image/webp"]),
      width: count,
      height: count,
      bytes: count,
      attached: bool,
      "sent?": obj({ mimeType: text, width: count, height: count, bytes: count }),
      "reason?": text,
    }),
    "images?": arr(imageData, Infinity),
    "file?": fileStamp,
  }),
  glob: details({
    ...WORKER,
    "count?": count,
    "shown?": count,
    "truncated?": bool,
    "unreadableDirs?": count,
    "stopped?": bool,
  }),
  grep: details({
    ...WORKER,
    "matches?": count,
    "files?": count,
    "searched?": count,
    "skippedBinary?": count,
    "skippedLarge?": count,
    "unreadable?": count,
    "truncated?": bool,
    "truncatedBy?": oneOf(["limit", "output"]),
    "stopped?": bool,
  }),
  write_file: details({
    ...EDITOR,
    ...WORKER,
    ...CHANGE,
    "path?": text,
    "created?": bool,
    "diff?": lineDiff,
    "file?": fileStamp,
  }),
  edit_file: details({
    ...EDITOR,
    ...WORKER,
    ...CHANGE,
    "path?": text,
    "replacements?": count,
    "diff?": lineDiff,
    "file?": fileStamp,
  }),
  delete_file: details({ ...WORKER, ...CHANGE, "path?": text, "deleted?": bool }),
  apply_patch: details({
    ...WORKER,
    ...CHANGE,
    /** The first file the patch names. */
    "path?": text,
    "files?": arr(patchedFile, Infinity),
    "stamps?": arr(fileStamp, Infinity),
  }),
  diagnostics: details({ "diagnostics?": arr(diagnostic, 50) }),
  exec_command: details({
    ...EDITOR,
    ...EXEC,
    "exitCode?": nullable(integer),
    "signal?": nullable(text),
    "timedOut?": bool,
    /** The timeout in seconds, when it struck. */
    "timeoutS?": number,
    "stopped?": bool,
    "durationMs?": count,
    "truncated?": bool,
    "totalBytes?": count,
    "outputHeldOpen?": bool,
    /** How the command was ended on timeout or stop (a SIGKILL was needed, or not). */
    "killedWith?": oneOf(["SIGTERM", "SIGKILL"]),
    "cwd?": text,
    /** The sandbox the command really ran in (a label). */
    "sandbox?": text,
    "shell?": text,
    /** The output by stream, only when stderr had something. */
    "segments?": arr(execSegment, Infinity),
    "stderrBytes?": count,
  }),
  background_bash: details({ ...EXEC, "id?": text }),
  task_output: details({
    "id?": text,
    "status?": JOB_STATUS,
    "exitCode?": nullable(integer),
    /** The offset to read from next time. */
    "next?": count,
  }),
  task_stop: details({ ...EXEC, "id?": text, "status?": JOB_STATUS }),
  webfetch: details({
    ...WORKER,
    "url?": text,
    "finalUrl?": text,
    "status?": integer,
    "contentType?": text,
    "bytes?": count,
    "bodyTruncated?": bool,
    "truncated?": bool,
    /** Redirect hops followed (or, for too many, attempted). */
    "redirects?": count,
    "cached?": bool,
    /** The URL the address check refused (the first, or a redirect's). */
    "refusedUrl?": text,
    /** Refused as a private, loopback or metadata address (SSRF protection). */
    "blocked?": bool,
  }),
  websearch: details({
    ...WORKER,
    "query?": text,
    "count?": count,
    "found?": count,
    "filtered?": count,
    "ads?": count,
    /** The HTTP status of a search that failed. */
    "status?": integer,
  }),
  todo_write: details({
    "todos?": arr(
      obj({ content: text, status: oneOf(["pending", "in_progress", "completed"]) }),
      50,
    ),
    "done?": count,
    "total?": count,
  }),
  ask_user_question: details({ "answers?": arr(questionAnswer, Infinity) }),
  exit_plan_mode: details({ "approved?": bool }),
  agent: details({ "subagent?": subagentRun }),
  subagent_output: details({ "subagent?": subagentRun }),
  memory: details({
    "memory?": obj({
      action: oneOf(MEMORY_ACTIONS),
      "id?": text,
      "scope?": oneOf(MEMORY_SCOPES),
      "unreviewed?": bool,
    }),
  }),
  mcp: details({ "mcp?": mcpResult }),
} satisfies Record<string, Schema>;

/** The details of each tool, by name (`mcp`: any MCP tool). */
export type ToolDetailsMap = { [N in keyof typeof TOOL_DETAILS]: Infer<typeof TOOL_DETAILS[N]> };
/** A tool with details of its own (`mcp`: any MCP tool). */
export type ToolName = keyof ToolDetailsMap;
/** The details tool `N` writes. */
export type ToolDetails<N extends ToolName> = ToolDetailsMap[N];

type KeysOfEach<T> = T extends unknown ? keyof T : never;
type ValueIn<T, K extends PropertyKey> = T extends unknown
  ? K extends keyof T ? Exclude<T[K], undefined> : never
  : never;

/**
 * What a result of one of the tools `N` may carry: every key one of them writes, with
 * the types they write it with. For one tool it is that tool's details; a card that
 * shows several tools reads any of their keys, and no key none of them writes.
 */
export type DetailsOf<N extends ToolName> = {
  [K in KeysOfEach<ToolDetailsMap[N]>]?: ValueIn<ToolDetailsMap[N], K>;
};

/** The details of any tool's result (what code that handles every tool may read). */
export type AnyToolDetails = DetailsOf<ToolName>;

/** The schema of a tool's details by the tool's name; undefined for an unknown tool. */
export function detailsSchema(name: string): Schema | undefined {
  if (name.startsWith("mcp__")) return TOOL_DETAILS.mcp;
  return Object.hasOwn(TOOL_DETAILS, name) ? TOOL_DETAILS[name as ToolName] : undefined;
}
