/**
 * A task's own git worktree: a new branch `reinagent/<short-title>` checked out in a folder
 * under the data folder, so parallel tasks on one repository never edit the same files.
 * Everything here runs git outside the sandbox through `runGit` (no hooks, no fsmonitor, no
 * prompts); a repository whose own config names commands is refused, since the agent can
 * write the shared `.git` data.
 *
 * Finishing: merge into the base branch (fast-forward or a merge commit, never half
 * applied: conflicts are found with `git merge-tree` before anything is touched), keep the
 * branch (the worktree goes; pushed when the repository has a remote), or discard both.
 */
import { join, resolve } from "../../lib/path.ts";
import { OpError } from "../errors.ts";
import { type GitResult, runGit } from "../git/run.ts";
import { riskyLocalConfig } from "../git/repo.ts";
import type {
  WorktreeInfo,
  WorktreeLeftover,
  WorktreeMerge,
  WorktreeNotes,
  WorktreeReview,
} from "../../protocol/worktrees.ts";

/** The whole diff shown in a review, at most (the rest is said to be cut). */
const DIFF_CAP = 1024 * 1024;

/** Where worktrees live: one folder per task under the data folder. */
export const worktreesDir = (home: string): string => join(home, "worktrees");

const git = async (cwd: string, args: string[], what: string): Promise<GitResult> => {
  const r = await runGit(cwd, args);
  if (r.code !== 0) {
    throw new OpError("conflict", `${what}: ${(r.stderr || r.stdout).trim() || `exit ${r.code}`}`);
  }
  return r;
};

/** `reinagent/` and the title as a branch-name slug (ASCII, dashes, at most 40 characters). */
export function branchSlug(title: string): string {
  const slug = title.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "").slice(0, 40).replace(/-+$/, "");
  return slug || "task";
}

/** The repository's top folder and its shared git folder, or a clear refusal. */
async function repository(folder: string): Promise<{ top: string; common: string }> {
  const r = await runGit(folder, ["rev-parse", "--show-toplevel", "--git-common-dir"]);
  if (r.code !== 0) {
    throw new OpError(
      "invalid_args",
      `${folder} is not a git repository: a task can only get its own worktree in one`,
    );
  }
  const [top, common] = r.stdout.trim().split("\n");
  return { top, common: resolve(top, common) };
}

/** Problems that make a worktree unwise, said before anything is created. */
async function refusals(top: string): Promise<void> {
  const risky = await riskyLocalConfig(top);
  if (risky.length) {
    throw new OpError(
      "conflict",
      `the repository's own config names commands git would run (${risky.join(", ")}); ` +
        "remove them before giving a task its own worktree",
    );
  }
}

export interface CreateOptions {
  home: string;
  /** The project folder (a git work tree). */
  folder: string;
  /** Names the worktree folder. */
  taskId: string;
  title: string;
  /** Branch or commit to start from; default the folder's HEAD. */
  base?: string;
}

/** Creates the branch and its worktree; nothing is left behind when it fails. */
export async function createWorktree(
  o: CreateOptions,
): Promise<{ info: WorktreeInfo; notes: WorktreeNotes }> {
  const { top, common } = await repository(o.folder);
  await refusals(top);
  const head = await runGit(top, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  const baseRef = o.base ?? (head.code === 0 ? head.stdout.trim() : "");
  if (!baseRef) {
    throw new OpError(
      "conflict",
      `${top} is on a detached HEAD: name the branch the task should start from`,
    );
  }
  const commit = await runGit(top, ["rev-parse", "--verify", "--quiet", `${baseRef}^{commit}`]);
  if (commit.code !== 0) {
    throw new OpError("not_found", `no branch or commit "${baseRef}" in ${top}`);
  }
  const baseCommit = commit.stdout.trim();
  const path = join(worktreesDir(o.home), o.taskId);
  if (await exists(path)) throw new OpError("conflict", `${path} exists already`);
  let branch = `reinagent/${branchSlug(o.title)}`;
  for (let n = 2; await branchExists(top, branch); n++) {
    branch = `reinagent/${branchSlug(o.title)}-${n}`;
  }
  await git(
    top,
    ["worktree", "add", "--quiet", "-b", branch, path, baseCommit],
    "git worktree add",
  );
  const status = await runGit(top, ["status", "--porcelain", "--untracked-files=no"]);
  const attributes = await runGit(path, ["grep", "-I", "-l", "filter=lfs", "--", ".gitattributes"]);
  return {
    info: {
      repo: top,
      commonDir: common,
      path,
      branch,
      base: baseRef,
      baseCommit,
    },
    notes: {
      dirtyBase: status.code === 0 && status.stdout.trim() !== "",
      submodules: await exists(join(top, ".gitmodules")),
      lfs: attributes.code === 0 && attributes.stdout.trim() !== "",
    },
  };
}

async function branchExists(top: string, branch: string): Promise<boolean> {
  const r = await runGit(top, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]);
  return r.code === 0;
}

async function exists(p: string): Promise<boolean> {
  return await Deno.lstat(p).then(() => true, () => false);
}

/**
 * What a command in the worktree may write besides the worktree itself: git's objects,
 * the worktree's own administrative folder and the task's branch refs — not the
 * repository's config or hooks, nor other branches.
 */
export function writableGitPaths(info: WorktreeInfo): string[] {
  const name = info.path.split("/").pop()!;
  const branchDir = info.branch.split("/").slice(0, -1).join("/");
  return [
    join(info.commonDir, "objects"),
    join(info.commonDir, "worktrees", name),
    join(info.commonDir, "refs", "heads", branchDir),
    join(info.commonDir, "logs", "refs", "heads", branchDir),
  ];
}

/** Makes sure the folders {@link writableGitPaths} names exist (a bind needs its source). */
export async function prepareGitPaths(info: WorktreeInfo): Promise<void> {
  for (const p of writableGitPaths(info)) await Deno.mkdir(p, { recursive: true });
}

/** Commits whatever the worktree holds that is not committed yet; false when clean. */
async function commitPending(info: WorktreeInfo, message: string): Promise<boolean> {
  const st = await git(info.path, ["status", "--porcelain"], "git status");
  if (!st.stdout.trim()) return false;
  await git(info.path, ["add", "-A"], "git add");
  await git(info.path, [
    "-c",
    "user.name=ReinAgent",
    "-c",
    "user.email=reinagent@localhost",
    "commit",
    "--quiet",
    "--no-verify",
    "-m",
    message,
  ], "git commit");
  return true;
}

/** Branch, base and how far apart they are, with the whole diff against the base. */
export async function reviewWorktree(info: WorktreeInfo): Promise<WorktreeReview> {
  const counts = await git(
    info.path,
    ["rev-list", "--left-right", "--count", `${info.base}...HEAD`],
    "git rev-list",
  );
  const [behind, ahead] = counts.stdout.trim().split(/\s+/).map(Number);
  const mergeBase = (await git(info.path, ["merge-base", info.base, "HEAD"], "git merge-base"))
    .stdout.trim();
  const st = await git(info.path, ["status", "--porcelain"], "git status");
  const names = await git(info.path, ["diff", "--name-status", mergeBase], "git diff");
  const diff = await runGit(info.path, ["diff", "--no-ext-diff", mergeBase], {
    cap: DIFF_CAP,
  });
  // New files the agent has not committed are changes too (shown without staging them).
  const untracked = (await git(
    info.path,
    ["ls-files", "--others", "--exclude-standard", "-z"],
    "git ls-files",
  )).stdout.split("\0").filter(Boolean);
  let text = diff.stdout;
  let truncated = diff.truncated;
  for (const f of untracked.slice(0, 50)) {
    if (text.length >= DIFF_CAP) {
      truncated = true;
      break;
    }
    const d = await runGit(
      info.path,
      ["diff", "--no-index", "--no-ext-diff", "--", "/dev/null", f],
      {
        cap: DIFF_CAP - text.length,
      },
    );
    text += d.stdout;
  }
  return {
    branch: info.branch,
    base: info.base,
    ahead,
    behind,
    uncommitted: st.stdout.split("\n").filter(Boolean).length,
    files: [
      ...names.stdout.split("\n").filter(Boolean).map((l) => {
        const [status, ...rest] = l.split("\t");
        return { status, path: rest.at(-1)! };
      }),
      ...untracked.map((path) => ({ status: "A", path })),
    ],
    diff: text,
    truncated: truncated || untracked.length > 50,
  };
}

/**
 * Merges the task's branch into its base branch in the main working tree. Nothing is
 * touched unless it can go through: the base must be checked out there and clean, and a
 * conflict (found beforehand with `git merge-tree`) is listed instead of half applied.
 */
export async function mergeWorktree(info: WorktreeInfo, title: string): Promise<WorktreeMerge> {
  await commitPending(info, `ReinAgent: ${title}`);
  const head = await runGit(info.repo, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  if (head.code !== 0 || head.stdout.trim() !== info.base) {
    throw new OpError(
      "conflict",
      `the main working tree (${info.repo}) is not on ${info.base}: switch it to ${info.base} ` +
        "to merge there, or keep the branch and merge it yourself",
    );
  }
  const dirty = await git(info.repo, ["status", "--porcelain", "--untracked-files=no"], "status");
  if (dirty.stdout.trim()) {
    throw new OpError(
      "conflict",
      `${info.repo} has uncommitted changes: commit or stash them first (nothing was merged)`,
    );
  }
  const trial = await runGit(info.repo, [
    "merge-tree",
    "--write-tree",
    "--name-only",
    "--no-messages",
    info.base,
    info.branch,
  ]);
  if (trial.code === 1) {
    const conflicts = trial.stdout.split("\n").slice(1).filter(Boolean);
    return { merged: false, conflicts };
  }
  if (trial.code !== 0) throw new OpError("conflict", `git merge-tree: ${trial.stderr.trim()}`);
  const ff = await runGit(info.repo, ["merge-base", "--is-ancestor", info.base, info.branch]);
  await git(info.repo, [
    "-c",
    "user.name=ReinAgent",
    "-c",
    "user.email=reinagent@localhost",
    "merge",
    "--no-edit",
    "--no-verify",
    ...(ff.code === 0 ? ["--ff-only"] : ["--no-ff", "-m", `Merge ${info.branch}: ${title}`]),
    info.branch,
  ], "git merge");
  const commit = (await git(info.repo, ["rev-parse", "HEAD"], "git rev-parse")).stdout.trim();
  return { merged: true, how: ff.code === 0 ? "fast-forward" : "merge-commit", commit };
}

/** Removes the worktree folder (its changes committed first); the branch stays. */
export async function removeWorktree(info: WorktreeInfo, title: string): Promise<void> {
  if (await exists(info.path)) {
    await commitPending(info, `ReinAgent: ${title}`);
    await git(info.repo, ["worktree", "remove", "--force", info.path], "git worktree remove");
  }
  await runGit(info.repo, ["worktree", "prune"]);
}

/** Pushes the branch when the repository has a remote; what happened, in words. */
export async function pushBranch(info: WorktreeInfo): Promise<string> {
  const remotes = (await git(info.repo, ["remote"], "git remote")).stdout.split("\n")
    .filter(Boolean);
  if (!remotes.length) return "no remote: the branch stays local";
  const remote = remotes.includes("origin") ? "origin" : remotes[0];
  const r = await runGit(info.repo, ["push", "--quiet", "-u", remote, info.branch], {
    timeoutMs: 120_000,
  });
  return r.code === 0
    ? `pushed to ${remote}`
    : `not pushed to ${remote}: ${(r.stderr || r.stdout).trim()}`;
}

/** Removes the worktree and deletes its branch (the caller asked the user first). */
export async function discardWorktree(info: WorktreeInfo): Promise<void> {
  if (await exists(info.path)) {
    await git(info.repo, ["worktree", "remove", "--force", info.path], "git worktree remove");
  }
  await runGit(info.repo, ["worktree", "prune"]);
  if (await branchExists(info.repo, info.branch)) {
    await git(info.repo, ["branch", "-D", info.branch], "git branch -D");
  }
}

/** Worktree folders under the data folder whose task is gone (a crash, a deleted task). */
export async function leftoverWorktrees(
  home: string,
  taskExists: (id: string) => boolean,
): Promise<WorktreeLeftover[]> {
  const out: WorktreeLeftover[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(worktreesDir(home))];
  } catch {
    return out; // no worktree was ever made
  }
  for (const e of entries) {
    if (!e.isDirectory || taskExists(e.name)) continue;
    const path = join(worktreesDir(home), e.name);
    const top = await runGit(path, ["rev-parse", "--git-common-dir", "--abbrev-ref", "HEAD"]);
    const [common, branch] = top.code === 0 ? top.stdout.trim().split("\n") : [];
    out.push({
      path,
      repo: common ? resolve(path, common, "..") : null,
      branch: branch && branch !== "HEAD" ? branch : null,
    });
  }
  return out;
}

/**
 * Removes left-over worktrees: through git when the repository still knows them (their
 * branches stay), else the folder alone. What could not be removed is said, not hidden.
 */
export async function cleanLeftovers(
  leftovers: WorktreeLeftover[],
): Promise<{ removed: string[]; problems: string[] }> {
  const removed: string[] = [], problems: string[] = [];
  for (const l of leftovers) {
    try {
      if (l.repo) {
        const r = await runGit(l.repo, ["worktree", "remove", "--force", l.path]);
        if (r.code !== 0) await Deno.remove(l.path, { recursive: true });
        await runGit(l.repo, ["worktree", "prune"]);
      } else await Deno.remove(l.path, { recursive: true });
      removed.push(l.path);
    } catch (e) {
      problems.push(`${l.path}: ${(e as Error).message}`);
    }
  }
  return { removed, problems };
}
