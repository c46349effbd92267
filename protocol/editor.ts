/**
 * An editor's file system and terminal, offered to a task's tools. A client that speaks
 * for an editor (`reinagent acp`, when the editor's ACP capabilities include them) says
 * so with `editor.attach`; from then on the task's file reads and writes and its
 * commands go to that client as `{t: "editor"}` messages carrying an ACP method, and
 * it answers each with `editor.reply`. Paths are checked (inside the workspace, not
 * hidden) by the server before anything is asked.
 */
import { bool, int, json, obj, oneOf, type Schema, str } from "./schema.ts";

/** The ACP client methods the server may ask an editor client to run. */
export const EDITOR_METHODS = [
  "fs/read_text_file",
  "fs/write_text_file",
  "terminal/create",
  "terminal/output",
  "terminal/wait_for_exit",
  "terminal/release",
  "terminal/kill",
] as const;
export type EditorMethod = typeof EDITOR_METHODS[number];

/** What an editor offers a task's tools. */
export interface EditorCaps {
  read: boolean;
  write: boolean;
  terminal: boolean;
}

export const EDITOR_LIMITS = {
  /** Largest answer an editor client sends back (a whole frame is 1 MiB). */
  replyBytes: 1_000_000,
} as const;

/** Server → the editor's client: run `method` for task `taskId` (its ACP session). */
export interface EditorAskMsg {
  t: "editor";
  id: number;
  taskId: string;
  method: EditorMethod;
  params: Record<string, unknown>;
}

const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });

export const EDITOR_OP_ARGS = {
  /** This client is the editor of task `id`: its file tools and commands go through it. */
  "editor.attach": obj({
    id: taskId,
    read: bool,
    write: bool,
    terminal: bool,
    "name?": str({ max: 80 }),
  }),
  "editor.detach": obj({ id: taskId }),
  /** The answer to an `{t: "editor"}` message: its result, or the editor's error. */
  "editor.reply": obj({
    id: int({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    outcome: oneOf(["ok", "error"]),
    "result?": json(EDITOR_LIMITS.replyBytes),
    "error?": str({ max: 2000 }),
  }),
} satisfies Record<string, Schema>;

export interface EditorOpResults {
  "editor.attach": { id: string };
  "editor.detach": { id: string };
  "editor.reply": { id: number };
}
