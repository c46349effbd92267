/**
 * Protocol ops for Right panel: file preview and diffs; about information.
 * Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 *
 * - `file.preview {taskId, path}`: a file of the task's workspace (relative to it, or
 *   absolute inside it). Refused outside the workspace, also through symlinks. At most
 *   {@link PREVIEW_LIMITS.bytes} bytes and {@link PREVIEW_LIMITS.lines} lines are sent
 *   (`truncated` says which limit cut it); a file with NUL bytes or invalid UTF-8 is
 *   `binary` and comes without text. A missing file that a rewind removed comes back
 *   with `removed` (who, when) instead of a `not_found` error.
 * - `file.diff {taskId, callId, path}`: the line diff a write/edit tool call produced,
 *   looked up in the stored timeline (for a panel opened when the entry is not loaded).
 *   `file.diff {taskId, turnId, path}`: the NET diff of the file over the turn of user
 *   entry `turnId` (before the turn → after it), from the checkpoint's kept versions.
 * - `about.info {}`: version, data dir, database, sandboxes, process.
 */
import { obj, type Schema, str } from "./schema.ts";
import type { StoreHealth } from "./domain.ts";
import type { ClientInfo, TurnFileChange } from "./changes.ts";

export const PREVIEW_LIMITS = {
  /** Bytes of a file sent for preview (at most 256 KB). */
  bytes: 256 * 1024,
  /** Lines of a file sent for preview. */
  lines: 10_000,
} as const;

export const PANEL_OP_ARGS = {
  "file.preview": obj({
    taskId: str({ min: 1, max: 80 }),
    path: str({ min: 1, max: 4096 }),
  }),
  "file.diff": obj({
    taskId: str({ min: 1, max: 80 }),
    /** One of callId (a tool call's diff) and turnId (a turn's net diff) is needed. */
    "callId?": str({ min: 1, max: 200 }),
    "turnId?": str({ min: 1, max: 64 }),
    path: str({ max: 4096 }),
  }),
  "about.info": obj({}),
} satisfies Record<string, Schema>;

export interface FilePreview {
  /** As shown to the user: relative to the workspace. */
  path: string;
  /** Absolute path on the server. */
  absPath: string;
  /** Real size on disk, in bytes. */
  size: number;
  /** Last modification (ms since epoch), null when unknown. */
  mtime: number | null;
  binary: boolean;
  /** Highlighter language from the extension ("" = plain text). */
  language: string;
  /** A media type guess (from the first bytes or the extension). */
  mime: string;
  /** The text shown; null for a binary file. */
  text: string | null;
  /** Lines in `text`. */
  lines: number;
  /** What cut the text short, or null when it is the whole file. */
  truncated: "bytes" | "lines" | null;
  /**
   * The file does not exist because a rewind removed it (the rewind entry, when, who,
   * and the turn it rewound to before); `text` is null then.
   */
  removed?: { entryId: string; at: number; by: ClientInfo; turnText: string };
}

/** A stored line diff (same shape as `tools/diff.ts` LineDiff). */
export interface PanelDiff {
  added: number;
  removed: number;
  hunks: { oldStart: number; newStart: number; lines: { t: " " | "+" | "-"; text: string }[] }[];
  truncated: boolean;
  approximate?: boolean;
  eolChanged?: boolean;
}

export interface AboutInfo {
  version: string;
  /** The data dir. */
  home: string;
  store: StoreHealth;
  pid: number;
  clients: number;
  /** e.g. "linux x86_64". */
  platform: string;
  deno: string;
  /** How shell commands are sandboxed. */
  shellSandbox: {
    backend: "bwrap" | "none";
    available: boolean;
    path: string | null;
    /** e.g. "bubblewrap 0.8.0". */
    version: string | null;
    networkIsolation: boolean | null;
    /** Why it is unavailable / limited. */
    reason: string | null;
    /** The configured level and network (null when the database is unavailable). */
    level: string | null;
    network: boolean | null;
  };
  /** How the file tools are sandboxed. */
  toolSandbox: { backend: "deno-workers"; detail: string };
  /**
   * The rewind checkpoint store (blobs of every task and workspace): its size on disk,
   * how many blobs and its cap (garbage-collected); null when the database is unavailable.
   */
  checkpoints: { bytes: number; blobs: number; capBytes: number } | null;
  /** The server process's resident memory now and its peak since start (null: unknown). */
  memory: { rssBytes: number; peakRssBytes: number | null };
}

export interface PanelOpResults {
  "file.preview": FilePreview;
  /** `tool` is "turn" for a turn's net diff, which also has `change` (created, deleted …). */
  "file.diff": { path: string; tool: string; diff: PanelDiff; change?: TurnFileChange };
  "about.info": AboutInfo;
}
