/**
 * Isolated tasks: a task that works in its own git worktree and branch, created from the
 * project's HEAD (or a named branch) under the data folder. The task's `projectPath` is the
 * worktree folder, so its tools, shell, terminal, rewind and git panel all work there;
 * `settings.worktree` names the repository it came from (the sidebar lists it under that
 * project) and how to finish: merge into the base, keep the branch, or discard.
 */
import { obj, oneOf, type Schema, str } from "./schema.ts";

export interface WorktreeInfo {
  /** The repository's main working tree (the project folder). */
  repo: string;
  /** The repository's shared git folder (objects, refs). */
  commonDir: string;
  /** The task's worktree folder (under `<data dir>/worktrees/`). */
  path: string;
  /** `reinagent/<short-title>`. */
  branch: string;
  /** The branch (or commit) it started from, and merges back into. */
  base: string;
  baseCommit: string;
}

/** What a new worktree starts with that the user should know (not errors). */
export interface WorktreeNotes {
  /** The main working tree had uncommitted changes: they are not in the new worktree. */
  dirtyBase: boolean;
  /** Submodules are not checked out in the worktree. */
  submodules: boolean;
  /** Files tracked with Git LFS: present as pointers unless `git lfs` is installed. */
  lfs: boolean;
}

export interface WorktreeReview {
  branch: string;
  base: string;
  /** Commits on the task's branch not in the base, and the other way round. */
  ahead: number;
  behind: number;
  /** Changed files not committed yet in the worktree. */
  uncommitted: number;
  files: { path: string; status: string }[];
  /** The whole diff against where the branch left the base (untracked files included). */
  diff: string;
  truncated: boolean;
}

/** A worktree folder under the data folder that no task owns. */
export interface WorktreeLeftover {
  path: string;
  /** The repository it belongs to and its branch, when git still knows them. */
  repo: string | null;
  branch: string | null;
}

export type WorktreeMerge =
  | { merged: true; how: "fast-forward" | "merge-commit"; commit: string }
  | { merged: false; conflicts: string[] };

const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });

export const WORKTREE_OP_ARGS = {
  /** Branch, ahead/behind and the whole diff against the base. */
  "worktree.review": obj({ id: taskId }),
  /** Merges into the base branch, or lists the conflicts and changes nothing. */
  "worktree.merge": obj({ id: taskId }),
  /**
   * Finishes the task: `keep` removes the worktree and keeps the branch (pushed when the
   * repository has a remote); `discard` removes both.
   */
  "worktree.finish": obj({ id: taskId, action: oneOf(["keep", "discard"] as const) }),
  /** Worktree folders no task owns (left by a crash): listed, and removed on request. */
  "worktrees.leftovers": obj({}),
  "worktrees.cleanLeftovers": obj({}),
} satisfies Record<string, Schema>;

export interface WorktreeOpResults {
  "worktree.review": WorktreeReview;
  "worktree.merge": WorktreeMerge;
  "worktree.finish": { action: "keep" | "discard"; pushed: string | null };
  "worktrees.leftovers": { leftovers: WorktreeLeftover[] };
  "worktrees.cleanLeftovers": { removed: string[]; problems: string[] };
}
