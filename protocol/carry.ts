/**
 * Carrying history between machines and tools and the
 * configuration backup: the export file's shape, what an import reports, the
 * sources of foreign sessions, the backup document and the ops.
 *
 * Ops: `carry.export {taskIds?|all, format}` (the file's text), `carry.import {upload?|path?}`
 * (a ReinAgent JSON export), `carry.sources {}` (sessions found per foreign tool),
 * `carry.importFrom {source, path?}`, `backup.export {includeKeys?}`,
 * `backup.restore {upload?|path?|text?}`, `backup.webdav {action, url, …}`.
 */
import { arr, bool, obj, oneOf, type Schema, str } from "./schema.ts";
import { ATTACHMENT_ID_RE } from "./composer.ts";
import type { Entry } from "./domain.ts";

/** The `kind` and version of a ReinAgent export file; newer versions are refused. */
export const EXPORT_KIND = "reinagent-export";
export const EXPORT_VERSION = 1;
export const BACKUP_KIND = "reinagent-backup";
export const BACKUP_VERSION = 1;

export const CARRY_LIMITS = {
  /** Largest export file an import reads, in bytes. */
  bundleBytes: 100 * 1024 * 1024,
  /** Largest attachment carried in an export (bytes before base64). */
  attachmentBytes: 20 * 1024 * 1024,
  /** Largest session file of another tool that is read, in bytes. */
  sessionBytes: 64 * 1024 * 1024,
  /** Sessions one `carry.importFrom` reads at most. */
  sessions: 5000,
  /** Entries of one imported task. */
  entries: 100_000,
  /** Largest backup document, in bytes. */
  backupBytes: 8 * 1024 * 1024,
  /** Problems listed in a report (the rest are counted). */
  problems: 50,
} as const;

/** Tools whose on-disk sessions can be imported. */
export const FOREIGN_SOURCES = ["claude-code", "codex", "opencode", "pi"] as const;
export type ForeignSource = typeof FOREIGN_SOURCES[number];

export const EXPORT_FORMATS = ["md", "json"] as const;
export type ExportFormat = typeof EXPORT_FORMATS[number];

/** An attachment's bytes inside an export. */
export interface ExportedAttachment {
  id: string;
  name: string;
  mime: string;
  size: number;
  createdAt: number;
  /** The bytes, base64. */
  data: string;
}

/** One task in an export: its row, its whole timeline and the attachments it shows. */
export interface ExportedTask {
  id: string;
  title: string;
  projectPath: string | null;
  pinned: boolean;
  lastRun: string | null;
  settings: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  entries: Entry[];
  attachments: ExportedAttachment[];
  /** Where an imported foreign session came from (absent for ReinAgent's own tasks). */
  origin?: { source: ForeignSource; sessionId: string; file: string };
}

/** A ReinAgent export file (JSON). */
export interface ExportBundle {
  kind: typeof EXPORT_KIND;
  version: number;
  exportedAt: number;
  app: { name: "ReinAgent"; version: string };
  tasks: ExportedTask[];
}

/** What an import did; a second import of the same data reports only `skipped`. */
export interface ImportReport {
  tasksCreated: number;
  /** Tasks that existed and got entries they lacked. */
  tasksUpdated: number;
  /** Tasks (or sessions) that were already imported as they are. */
  tasksSkipped: number;
  entriesAdded: number;
  attachmentsAdded: number;
  /** Sessions/files read (foreign imports). */
  filesRead: number;
  /** Problems found, e.g. `session.jsonl:12: not JSON` (the rest was imported). */
  problems: string[];
  /** Problems beyond the listed ones. */
  moreProblems: number;
  /** Ids of the tasks created or updated. */
  taskIds: string[];
}

/** Sessions of one foreign tool found on this machine. */
export interface ForeignSourceInfo {
  source: ForeignSource;
  label: string;
  /** Where it looks (the tool's default folder, or the given path). */
  path: string;
  exists: boolean;
  sessions: number;
}

/** The configuration backup: a manifest plus one section per kind of setting. */
export interface BackupDoc {
  manifest: {
    kind: typeof BACKUP_KIND;
    version: number;
    createdAt: number;
    app: { name: "ReinAgent"; version: string };
    /** Whether provider keys and MCP secrets are included. */
    includesKeys: boolean;
    /** Items per section, as written. */
    sections: Record<string, number>;
  };
  settings: Record<string, unknown>;
  providers: Record<string, unknown>[];
  mcpServers: Record<string, unknown>[];
  projects: { path: string; name: string }[];
}

export interface BackupRestoreReport {
  settings: number;
  providers: number;
  mcpServers: number;
  projects: number;
  /** Items left as they were (e.g. a project whose folder does not exist here). */
  skipped: string[];
  /** The backup of the configuration before the restore (in `<home>/backups`). */
  savedBefore: string;
}

const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const uploadId = str({ min: 33, max: 33, pattern: ATTACHMENT_ID_RE });
const filePath = str({ min: 1, max: 4096 });
const webdavUrl = str({ min: 8, max: 2048, pattern: /^https?:\/\/\S+$/ });

export const CARRY_OP_ARGS = {
  "carry.export": obj({
    "taskIds?": arr(taskId, 10_000, { min: 1 }),
    "all?": bool,
    format: oneOf(EXPORT_FORMATS),
  }),
  /** An uploaded export file (POST /api/uploads) or a path on the server's machine. */
  "carry.import": obj({ "upload?": uploadId, "path?": filePath }),
  "carry.sources": obj({}),
  "carry.importFrom": obj({ source: oneOf(FOREIGN_SOURCES), "path?": filePath }),
  "backup.export": obj({ "includeKeys?": bool }),
  "backup.restore": obj({
    "upload?": uploadId,
    "path?": filePath,
    "text?": str({ max: CARRY_LIMITS.backupBytes }),
  }),
  /** Uploads a backup to (or restores one from) a WebDAV URL of a file. */
  "backup.webdav": obj({
    action: oneOf(["upload", "restore"]),
    url: webdavUrl,
    "username?": str({ max: 256 }),
    "password?": str({ max: 1024 }),
    "includeKeys?": bool,
  }),
} satisfies Record<string, Schema>;

export interface CarryOpResults {
  "carry.export": { fileName: string; mime: string; content: string; tasks: number };
  "carry.import": ImportReport;
  "carry.sources": { sources: ForeignSourceInfo[] };
  "carry.importFrom": ImportReport;
  "backup.export": { fileName: string; content: string; includesKeys: boolean };
  "backup.restore": BackupRestoreReport;
  "backup.webdav": { action: "upload" | "restore"; bytes: number; restored?: BackupRestoreReport };
}
