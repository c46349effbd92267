/**
 * The file tree panel and the `.reinagent/.temp/` convention.
 * Paths are relative to the task's workspace ("" = its root).
 *
 * - `files.list {taskId, path}`: one folder's entries (lazy: the UI asks per folder);
 *   ignored ones (git's ignore rules, or the usual build/dependency folders outside a
 *   repository) are marked so the tree can dim them; a symlink leading out of the
 *   workspace is marked `outside` and cannot be opened.
 * - `files.create {taskId, path, kind}`, `files.rename {taskId, from, to}`,
 *   `files.delete {taskId, path}`: confined to the workspace; its root (and `.git`)
 *   cannot be renamed or deleted, nothing is overwritten, symlinks leading out are refused.
 * - `files.tempDir {taskId}`: `.reinagent/.temp/` created with a `.gitignore` that
 *   ignores the folder itself; `files.cleanTemp {taskId}` empties it.
 */
import { obj, oneOf, type Schema, str } from "./schema.ts";

export const FILES_LIMITS = {
  /** Entries of one folder sent by `files.list`. */
  entries: 2000,
} as const;

/** The throw-away folder for scripts (relative to the workspace). */
export const TEMP_DIR = ".reinagent/.temp";

const taskId = str({ min: 1, max: 80, pattern: /^[A-Za-z0-9_-]+$/ });
const path = str({ min: 1, max: 4096 });

export const FILES_OP_ARGS = {
  "files.list": obj({ taskId, path: str({ max: 4096 }) }),
  "files.create": obj({ taskId, path, kind: oneOf(["file", "dir"] as const) }),
  "files.rename": obj({ taskId, from: path, to: path }),
  "files.delete": obj({ taskId, path }),
  "files.tempDir": obj({ taskId }),
  "files.cleanTemp": obj({ taskId }),
} satisfies Record<string, Schema>;

export interface FileTreeEntry {
  name: string;
  /** Relative to the workspace. */
  path: string;
  kind: "file" | "dir" | "symlink";
  /** What a symlink points to when it is a folder (then it can be expanded). */
  dirLink?: boolean;
  size: number;
  ignored: boolean;
  /** A symlink that leads out of the workspace (not followed). */
  outside?: boolean;
}

export interface FilesOpResults {
  "files.list": { path: string; entries: FileTreeEntry[]; truncated: boolean };
  "files.create": { path: string };
  "files.rename": { path: string };
  "files.delete": { path: string };
  "files.tempDir": { path: string; created: boolean };
  "files.cleanTemp": { removed: number };
}
