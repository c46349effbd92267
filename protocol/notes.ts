/**
 * Notes: notebooks are folders under `<data dir>/notebooks/`, notes are the
 * `.md` files in them — the files are the source of truth (edit them with any editor).
 * Names are checked (no path separators, no leading dot, no control characters); a file
 * that is too big or not UTF-8 is reported and never overwritten.
 *
 * Ops:
 * - `notes.list {}` → the notebooks (the `default` one is made on first use).
 * - `notes.createNotebook {name}`, `notes.renameNotebook {name, to}` (not `default`),
 *   `notes.deleteNotebook {name}` (moved to the trash).
 * - `notes.notes {notebook}` → its notes (no bodies) and the files that are not notes.
 * - `notes.read {notebook, note}` → the body and its `version` (a hash of the file).
 * - `notes.create {notebook, name?, body?}` → a new note (a free name made from `name`).
 * - `notes.save {notebook, note, body, baseVersion}` → written only when the file is still
 *   at `baseVersion` (the version the editor loaded); otherwise `conflict`, nothing written.
 * - `notes.rename {notebook, note, to}`, `notes.delete {notebook, note}` (to the trash).
 * - `notes.assist {text, action, taskId?, model?}` → the model's summary / corrected text /
 *   continuation (a side request, {@link NOTES_LIMITS.assistTimeoutMs}).
 * - `notes.organise {taskId, notebook}` → the task's conversation organised by the model
 *   into a new note of `notebook`.
 *
 * `notes.list` subscribes the client to {@link NOTES_TOPIC}.
 */
import { nullable, obj, oneOf, type Schema, str } from "./schema.ts";

export const NOTES_TOPIC = "notes";
/** Pushed when a notebook or note changed (another client, an organise). */
export interface NotesEvent {
  kind: "changed";
  notebook: string | null;
  note: string | null;
  /** The note's version after a save (a client holding it need not read again). */
  version?: string;
}

export const NOTES_LIMITS = {
  nameChars: 80,
  /** Largest note body accepted (characters) and file read (bytes, UTF-8). */
  bodyChars: 200_000,
  fileBytes: 512 * 1024,
  notesPerNotebook: 1000,
  notebooks: 200,
  previewChars: 160,
  /** Longest text sent to an assist action. */
  assistChars: 40_000,
  resultChars: 80_000,
  assistTimeoutMs: 60_000,
  /** Characters of a conversation sent to be organised (its end is kept). */
  organiseChars: 60_000,
  /** The editor saves this long after the last keystroke. */
  autosaveMs: 1000,
} as const;

/**
 * A notebook or note name: letters of any script, digits, space and `-_.,()&+'`; no
 * leading dot or space, no trailing dot or space, no separators.
 */
export const NOTE_NAME = /^(?![. ])[\p{L}\p{N} _\-.,()&+']{1,80}(?<![. ])$/u;

export const DEFAULT_NOTEBOOK = "default";

export const ASSIST_ACTIONS = ["summarise", "grammar", "continue"] as const;
export type AssistAction = typeof ASSIST_ACTIONS[number];

export interface NotebookInfo {
  name: string;
  notes: number;
}

export interface NoteSummary {
  name: string;
  /** The first heading, else the name. */
  title: string;
  preview: string;
  /** Bytes on disk. */
  size: number;
  updatedAt: number;
}

/** A file that is not a readable note: listed, never overwritten. */
export interface NoteProblem {
  file: string;
  error: string;
}

export interface NoteDoc {
  notebook: string;
  name: string;
  body: string;
  /** Hash of the file's bytes: a save must name it (see `notes.save`). */
  version: string;
  updatedAt: number;
}

const name = str({ min: 1, max: NOTES_LIMITS.nameChars, pattern: NOTE_NAME });
const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const modelRef = obj({
  providerId: str({ min: 1, max: 64 }),
  modelId: str({ min: 1, max: 200 }),
});
const version = str({ min: 1, max: 80, pattern: /^[a-f0-9]+$/ });

export const NOTES_OP_ARGS = {
  "notes.list": obj({}),
  "notes.createNotebook": obj({ name }),
  "notes.renameNotebook": obj({ name, to: name }),
  "notes.deleteNotebook": obj({ name }),
  "notes.notes": obj({ notebook: name }),
  "notes.read": obj({ notebook: name, note: name }),
  "notes.create": obj({
    notebook: name,
    "name?": name,
    "body?": str({ max: NOTES_LIMITS.bodyChars }),
  }),
  "notes.save": obj({
    notebook: name,
    note: name,
    body: str({ max: NOTES_LIMITS.bodyChars }),
    baseVersion: version,
  }),
  "notes.rename": obj({ notebook: name, note: name, to: name }),
  "notes.delete": obj({ notebook: name, note: name }),
  "notes.assist": obj({
    text: str({ min: 1, max: NOTES_LIMITS.assistChars }),
    action: oneOf(ASSIST_ACTIONS),
    "taskId?": nullable(taskId),
    "model?": nullable(modelRef),
  }),
  "notes.organise": obj({ taskId, notebook: name }),
} satisfies Record<string, Schema>;

export interface NotebooksView {
  /** The notebooks folder on disk. */
  root: string;
  notebooks: NotebookInfo[];
  problems: NoteProblem[];
}

export interface NotebookView {
  notebook: string;
  dir: string;
  notes: NoteSummary[];
  problems: NoteProblem[];
}

export interface NotesOpResults {
  "notes.list": NotebooksView;
  "notes.createNotebook": NotebooksView;
  "notes.renameNotebook": NotebooksView;
  "notes.deleteNotebook": NotebooksView;
  "notes.notes": NotebookView;
  "notes.read": NoteDoc;
  "notes.create": NoteDoc;
  "notes.save": { version: string; updatedAt: number };
  "notes.rename": NotebookView;
  "notes.delete": NotebookView;
  "notes.assist": { text: string; model: string };
  "notes.organise": NoteDoc;
}
