/**
 * Slash commands, shared by the server (which expands them when a message
 * is sent, so desktop, phone, CLI and MCP behave alike) and the UI (the `/` menu).
 * Pure: parsing, templates, the goal's sub-commands, limits, the op schemas.
 *
 * - A message is a command when it starts with `/name` (optionally after blanks) and
 *   `name` is a known command; `/home/x`, `/ x` or an unknown `/word` stay plain text.
 * - `commands.list {id? | projectPath?}`: built-ins and the custom commands of the
 *   workspace and the user (`.reinagent/commands/*.md`, `.claude/commands/*.md`), with
 *   the files that could not be used (`problems`) — reported, never silently skipped.
 * - `task.setGoal {id, text?, paused?}`: the goal chip's pause / resume / clear.
 *
 * @example
 * parseSlash("/plan fix the build"); // {name: "plan", args: "fix the build"}
 * parseSlash("/home/me/notes.txt"); // null (a path, not a command)
 * expandTemplate("Review $1 for $2", 'a.ts "null checks"'); // "Review a.ts for null checks"
 */
import { bool, nullable, obj, type Schema, str } from "./schema.ts";
import type { TaskSummary } from "./domain.ts";

export const COMMAND_LIMITS = {
  /** Longest command name. */
  nameChars: 40,
  /** Largest custom command file, in bytes. */
  fileBytes: 32 * 1024,
  /** Command files read per folder (the rest is reported). */
  filesPerDir: 200,
  /** Longest description shown in the menu. */
  descriptionChars: 300,
  /** Longest goal text. */
  goalChars: 4000,
} as const;

/** A command name: letters, digits, `_ . : -`, starting with a letter or digit. */
export const COMMAND_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,39}$/;

/** Built-in command names, in menu order (see server/commands). */
export const BUILTIN_COMMAND_NAMES = [
  "clear",
  "compact",
  "init",
  "plan",
  "goal",
  "cost",
  "model",
  "resume",
  "undo",
  "review",
  "help",
] as const;

/** Where a command comes from: built in, the workspace, or the user's data folder / ~/.claude. */
export type CommandSource = "builtin" | "workspace" | "user" | "mcp";

/** One entry of the `/` menu. */
export interface CommandInfo {
  name: string;
  /** English description (built-ins are translated by the UI from their name). */
  description: string;
  source: CommandSource;
  /** e.g. `[task]`, shown after the name. */
  argHint?: string;
  /** The file a custom command was read from. */
  path?: string;
}

/** A custom command file that could not be used, and why (English). */
export interface CommandProblem {
  path: string;
  message: string;
}

/** What a command answered without the model (for `/help`, `/goal`, `/plan`, `/clear`). */
export interface CommandReply {
  name: string;
  /** True when a message went to the model (a run started or the message was queued). */
  ran: boolean;
  /** What happened, for translation by the UI (see `REPLY_CODES`). */
  code: ReplyCode;
  params?: Record<string, string | number>;
  /** The same in English, for the CLI and the API. */
  text: string;
}

export const REPLY_CODES = [
  "help",
  "goalShow",
  "goalShowPaused",
  "goalNone",
  "goalSet",
  "goalPaused",
  "goalResumed",
  "goalCleared",
  "planOn",
  "cleared",
  "compacted",
  "compactNothing",
  "cost",
  "costNone",
  "costUnknown",
  "modelShow",
  "modelSet",
  "modelUnknown",
  "undoPreview",
  "undoDone",
  "undoNothing",
  "resumeList",
  "resumeNone",
] as const;
export type ReplyCode = typeof REPLY_CODES[number];

/** A `system` entry with this `meta.kind` marks a `/clear`: nothing before it is sent. */
export const CLEAR_KIND = "clear";

export const isClearMarker = (e: { role: string; meta?: Record<string, unknown> }): boolean =>
  e.role === "system" && e.meta?.kind === CLEAR_KIND;

/** `meta.command` of a user entry sent as a prompt command (`/init`, a custom one). */
export interface CommandUse {
  name: string;
  args: string;
  /** What the model receives instead of the typed text. */
  prompt: string;
}

/**
 * The command a message starts with: `/name` then blanks or the end. Null for plain
 * text, including paths (`/usr/bin`), a lone `/` and names that are not valid.
 */
export function parseSlash(text: string): { name: string; args: string } | null {
  const m = /^\s*\/([^\s/]+)(?:$|\s+([\s\S]*)$)/.exec(text);
  if (!m || !COMMAND_NAME_RE.test(m[1])) return null;
  return { name: m[1].toLowerCase(), args: (m[2] ?? "").trim() };
}

/**
 * The `/` menu's query: the partial name when the caret is in the first word of a
 * message that starts with `/` (`"/in|"` → `"in"`); null otherwise.
 */
export function slashQuery(text: string, caret: number): string | null {
  const head = text.slice(0, caret);
  const m = /^\s*\/([^\s/]*)$/.exec(head);
  if (!m) return null;
  // The rest of the first word must not continue into a path (`/usr|/bin`).
  if (/^[^\s]*\//.test(text.slice(caret))) return null;
  return m[1];
}

/** Splits arguments like a shell: blanks separate, `"…"` and `'…'` group. */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of args.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/**
 * Fills a custom command's body: `$ARGUMENTS` = all arguments, `$1`…`$9` = one each
 * (empty when missing). A body without placeholders gets the arguments appended on a
 * line of their own, so they are never silently dropped.
 */
export function expandTemplate(body: string, args: string): string {
  const words = splitArgs(args);
  let used = false;
  const out = body.replace(/\$ARGUMENTS\b|\$([1-9])(?!\d)/g, (_m, n?: string) => {
    used = true;
    return n ? words[Number(n) - 1] ?? "" : args;
  });
  return !used && args ? `${out.trimEnd()}\n\n${args}` : out;
}

/** `/goal` arguments: show, set a text, or pause / resume / clear (the whole argument only). */
export type GoalAction =
  | { kind: "show" }
  | { kind: "set"; text: string }
  | { kind: "pause" | "resume" | "clear" };

export function parseGoalArgs(args: string): GoalAction {
  const a = args.trim();
  if (!a) return { kind: "show" };
  const word = a.toLowerCase();
  // "clear the build cache" is a goal, not `clear`: only the bare word is a sub-command.
  if (word === "pause" || word === "resume" || word === "clear") return { kind: word };
  return { kind: "set", text: a };
}

/** Ranks commands for the menu: names starting with the query, then containing it. */
export function filterCommands<T extends { name: string }>(list: T[], query: string): T[] {
  const q = query.toLowerCase();
  if (!q) return list;
  const starts = list.filter((c) => c.name.toLowerCase().startsWith(q));
  const has = list.filter((c) =>
    !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q)
  );
  return [...starts, ...has];
}

const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
/** A project folder (null = the default workspace), for views without a task. */
const projectPath = nullable(str({ min: 1, max: 4096 }));

export const COMMAND_OP_ARGS = {
  /** The `/` menu of a task's workspace (`id`) or of the new-task draft (`projectPath`). */
  "commands.list": obj({ "id?": taskId, "projectPath?": projectPath }),
  /**
   * Sets (`text`), clears (`text: null`) or pauses / resumes (`paused`) a task's goal;
   * injected into every turn's reminder while not paused.
   */
  "task.setGoal": obj({
    id: taskId,
    "text?": nullable(str({ min: 1, max: COMMAND_LIMITS.goalChars })),
    "paused?": bool,
  }),
} satisfies Record<string, Schema>;

export interface CommandOpResults {
  "commands.list": { commands: CommandInfo[]; problems: CommandProblem[] };
  "task.setGoal": { task: TaskSummary };
}
