/**
 * The git panel: ops on the task's workspace repository, run by the server
 * with the `git` CLI (argument arrays, literal pathspecs, no prompts).
 *
 * - `git.status {taskId}`: branch, upstream, ahead/behind and the changed files with
 *   their XY codes; `{repo: false}` with a plain reason when the workspace is not a
 *   repository or git is missing.
 * - `git.diff {taskId, path, staged}`: one file's patch (untracked: a full add).
 * - `git.stage` / `git.unstage` / `git.discard {taskId, paths}`: discard restores
 *   tracked files from the index and deletes untracked ones (the UI confirms first).
 * - `git.branches {taskId}`, `git.switch {taskId, branch}` (refused while tracked files
 *   have changes), `git.createBranch {taskId, branch}` (switches to it, keeps changes).
 * - `git.commit {taskId, message}`, `git.suggestMessage {taskId}` (from the staged diff,
 *   by the task's model; a local summary when no model answers).
 * - `git.push {taskId}` (sets the upstream when there is none), `git.init {taskId}`.
 * - `git.log {taskId, limit?}`: commits with a commit-graph layout.
 */
import { arr, bool, int, obj, type Schema, str } from "./schema.ts";

export const GIT_LIMITS = {
  /** Files listed by `git.status`. */
  statusFiles: 2000,
  /** Characters of a patch sent by `git.diff`. */
  diffChars: 512 * 1024,
  /** Paths in one stage/unstage/discard. */
  pathsPerOp: 500,
  /** Commits of `git.log`. */
  logCommits: 500,
  messageChars: 20_000,
  branchChars: 250,
  /** Characters of the staged diff given to the model for a message. */
  suggestDiffChars: 24_000,
} as const;

const taskId = str({ min: 1, max: 80, pattern: /^[A-Za-z0-9_-]+$/ });
const path = str({ min: 1, max: 4096 });
const branch = str({ min: 1, max: GIT_LIMITS.branchChars });

export const GIT_OP_ARGS = {
  "git.status": obj({ taskId }),
  "git.diff": obj({ taskId, path, staged: bool }),
  "git.stage": obj({ taskId, paths: arr(path, GIT_LIMITS.pathsPerOp, { min: 1 }) }),
  "git.unstage": obj({ taskId, paths: arr(path, GIT_LIMITS.pathsPerOp, { min: 1 }) }),
  "git.discard": obj({ taskId, paths: arr(path, GIT_LIMITS.pathsPerOp, { min: 1 }) }),
  "git.branches": obj({ taskId }),
  "git.switch": obj({ taskId, branch }),
  "git.createBranch": obj({ taskId, branch }),
  "git.commit": obj({ taskId, message: str({ min: 1, max: GIT_LIMITS.messageChars }) }),
  "git.suggestMessage": obj({ taskId }),
  "git.push": obj({ taskId }),
  "git.init": obj({ taskId }),
  "git.log": obj({ taskId, "limit?": int({ min: 1, max: GIT_LIMITS.logCommits }) }),
} satisfies Record<string, Schema>;

/** One changed path: `x` = index (staged) column, `y` = work tree column of `git status`. */
export interface GitFileStatus {
  /** Relative to the repository's top. */
  path: string;
  /** The old path of a rename or copy. */
  origPath?: string;
  x: string;
  y: string;
}

export type GitStatus =
  | {
    repo: true;
    /** The repository's top folder (absolute). */
    root: string;
    /** Current branch; null when HEAD is detached. */
    branch: string | null;
    /** No commit yet on the branch. */
    unborn: boolean;
    upstream: string | null;
    ahead: number;
    behind: number;
    files: GitFileStatus[];
    truncated: boolean;
  }
  | { repo: false; reason: "not_repo" | "no_git"; message: string };

export interface GitBranch {
  name: string;
  current: boolean;
  upstream: string | null;
}

/** A commit of `git.log` with its place in the graph. */
export interface GitCommit {
  hash: string;
  parents: string[];
  author: string;
  /** Seconds since epoch. */
  time: number;
  subject: string;
  /** Branch and tag names pointing at it. */
  refs: string[];
  /** Lane (column) of the commit's dot. */
  col: number;
  /** Lines from this row to the next: from lane → to lane. */
  lines: { from: number; to: number }[];
}

export interface GitOpResults {
  "git.status": GitStatus;
  "git.diff": { path: string; staged: boolean; patch: string; binary: boolean; truncated: boolean };
  "git.stage": { ok: true };
  "git.unstage": { ok: true };
  "git.discard": { ok: true };
  "git.branches": { current: string | null; branches: GitBranch[] };
  "git.switch": { branch: string };
  "git.createBranch": { branch: string };
  "git.commit": { hash: string; summary: string };
  "git.suggestMessage": { message: string; by: "model" | "local" };
  "git.push": { output: string; setUpstream: boolean };
  "git.init": { root: string };
  "git.log": { commits: GitCommit[]; lanes: number; truncated: boolean };
}

/** Where a file of the status belongs in the panel (a file can be in two groups). */
export function statusGroups(
  f: GitFileStatus,
): ("staged" | "unstaged" | "untracked" | "conflict")[] {
  if (f.x === "?" && f.y === "?") return ["untracked"];
  if (f.x === "U" || f.y === "U" || (f.x === "A" && f.y === "A") || (f.x === "D" && f.y === "D")) {
    return ["conflict"];
  }
  const out: ("staged" | "unstaged")[] = [];
  if (f.x !== " " && f.x !== "!") out.push("staged");
  if (f.y !== " " && f.y !== "!") out.push("unstaged");
  return out;
}
