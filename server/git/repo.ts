/**
 * The git panel's operations on a work tree, each one or a few `git`
 * commands with argument arrays. Paths are relative to the repository's top and go to
 * git as `:(top,literal)` pathspecs; branch names are checked with
 * `git check-ref-format --branch` first. Failures throw OpError with git's own words.
 */
import { isAbsolute, join, normalize } from "../../lib/path.ts";
import {
  GIT_LIMITS,
  type GitBranch,
  type GitCommit,
  type GitOpResults,
  type GitStatus,
  statusGroups,
} from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { isInside, outsideRoots } from "../../tools/paths.ts";
import { GitMissingError, type GitResult, literal, runGit } from "./run.ts";
import { parseStatusV2 } from "./status.ts";
import { layoutGraph } from "./graph.ts";

/** git's message for a failed command: its stderr (or stdout), trimmed and bounded. */
function why(r: GitResult): string {
  const text = r.stderr.trim() || r.stdout.trim() || `git exited with code ${r.code}`;
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

async function must(cwd: string, args: string[], opts?: Parameters<typeof runGit>[2]) {
  const r = await runGit(cwd, args, opts);
  if (r.code !== 0) throw new OpError("conflict", why(r));
  return r;
}

/** The repository top containing `ws`, or null when it is not in a work tree. */
export async function repoRoot(ws: string): Promise<string | null> {
  const r = await runGit(ws, ["rev-parse", "--show-toplevel"]);
  return r.code === 0 ? r.stdout.trim() : null;
}

/**
 * Repository-local config keys whose value is a command git may run (status runs clean
 * filters, diff runs textconv, push runs ssh/receive-pack …). The agent can write
 * `.git/config`, and the panel's git runs outside the sandbox, so such a repository is
 * refused with the keys named instead of run.
 */
const COMMAND_KEYS = [
  /^core\.(fsmonitor|sshcommand|askpass|editor|pager|gitproxy)$/,
  /^credential\.(.+\.)?helper$/,
  /^diff\.external$/,
  /^(diff|merge)\..+\.(textconv|command|driver)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^remote\..+\.(uploadpack|receivepack|proxy)$/,
  /^gpg\.(.+\.)?program$/,
  /^sequence\.editor$/,
  /^protocol\..*allow$/,
  /^uploadpack\.packobjectshook$/,
];

/** The command-valued keys of the repository's own config (and what it includes). */
export async function riskyLocalConfig(root: string): Promise<string[]> {
  const r = await runGit(root, ["config", "--local", "--includes", "--name-only", "--list"]);
  if (r.code !== 0) return [];
  const keys = r.stdout.split("\n").map((k) => k.trim().toLowerCase()).filter(Boolean);
  return [...new Set(keys.filter((k) => COMMAND_KEYS.some((re) => re.test(k))))];
}

async function refuseRisky(root: string): Promise<void> {
  const risky = await riskyLocalConfig(root);
  if (risky.length) {
    throw new OpError(
      "conflict",
      `This repository's own config (.git/config) sets commands git would run: ${
        risky.join(", ")
      }. The agent can write that file, so the git panel does not run git here. ` +
        "Check .git/config yourself (e.g. git config --local --list in a terminal).",
    );
  }
}

async function requireRoot(ws: string): Promise<string> {
  let root: string | null;
  try {
    root = await repoRoot(ws);
  } catch (e) {
    if (e instanceof GitMissingError) throw new OpError("not_found", e.message);
    throw e;
  }
  if (!root) throw new OpError("not_found", `${ws} is not inside a git repository`);
  await refuseRisky(root);
  return root;
}

/** A path from the client: relative to the top, no NUL, no way up and out. */
export function checkRelPath(root: string, p: string): string {
  if (p.includes("\0")) throw new OpError("invalid_args", "a path must not contain NUL");
  if (isAbsolute(p)) {
    throw new OpError("invalid_args", `${p}: paths are relative to the repository`);
  }
  const abs = normalize(join(root, p));
  if (!isInside(abs, root) || abs === normalize(root)) {
    throw new OpError("invalid_args", `${p} is outside the repository ${root}`);
  }
  return p;
}

export async function status(ws: string): Promise<GitStatus> {
  let root: string | null;
  try {
    root = await repoRoot(ws);
  } catch (e) {
    if (e instanceof GitMissingError) {
      return { repo: false, reason: "no_git", message: e.message };
    }
    throw e;
  }
  if (!root) {
    return {
      repo: false,
      reason: "not_repo",
      message: `${ws} is not a git repository (nor inside one).`,
    };
  }
  await refuseRisky(root);
  const r = await must(root, [
    "status",
    "--porcelain=v2",
    "--branch",
    "-z",
    "--untracked-files=all",
  ]);
  const s = parseStatusV2(r.stdout);
  const truncated = r.truncated || s.files.length > GIT_LIMITS.statusFiles;
  return {
    repo: true,
    root,
    ...s,
    files: s.files.slice(0, GIT_LIMITS.statusFiles),
    truncated,
  };
}

export async function diff(ws: string, path: string, staged: boolean) {
  const root = await requireRoot(ws);
  checkRelPath(root, path);
  const st = await status(ws);
  const file = st.repo ? st.files.find((f) => f.path === path) : undefined;
  const cap = GIT_LIMITS.diffChars;
  let r: GitResult;
  if (file && file.x === "?" && !staged) {
    // Untracked: the whole file as an addition (exit code 1 means "differs").
    r = await runGit(root, [
      "diff",
      "--no-index",
      "--no-ext-diff",
      "--no-textconv",
      "--",
      "/dev/null",
      path,
    ], {
      cap,
    });
    if (r.code > 1) throw new OpError("conflict", why(r));
  } else {
    r = await must(
      root,
      [
        "diff",
        ...(staged ? ["--cached"] : []),
        "--no-ext-diff",
        "--no-textconv",
        "--",
        literal(path),
      ],
      { cap },
    );
  }
  const patch = r.stdout;
  return {
    path,
    staged,
    patch,
    binary: /^Binary files .* differ$/m.test(patch) && !/^@@ /m.test(patch),
    truncated: r.truncated,
  };
}

export async function stage(ws: string, paths: string[]): Promise<void> {
  const root = await requireRoot(ws);
  paths.forEach((p) => checkRelPath(root, p));
  await must(root, ["add", "-A", "--", ...paths.map(literal)]);
}

export async function unstage(ws: string, paths: string[]): Promise<void> {
  const root = await requireRoot(ws);
  paths.forEach((p) => checkRelPath(root, p));
  const st = await status(ws);
  if (st.repo && st.unborn) {
    // No HEAD to restore from: unstaging is removing from the index.
    await must(root, ["rm", "--cached", "-r", "-q", "--", ...paths.map(literal)]);
  } else {
    await must(root, ["restore", "--staged", "--", ...paths.map(literal)]);
  }
}

/** Tracked files back to their staged content; untracked files deleted. */
export async function discard(ws: string, paths: string[]): Promise<void> {
  const root = await requireRoot(ws);
  paths.forEach((p) => checkRelPath(root, p));
  const st = await status(ws);
  const files = st.repo ? st.files : [];
  const untracked = paths.filter((p) => files.some((f) => f.path === p && f.x === "?"));
  const tracked = paths.filter((p) => !untracked.includes(p));
  for (const p of untracked) {
    const denied = outsideRoots(join(root, p), [root]);
    if (denied) throw new OpError("invalid_args", denied);
  }
  if (untracked.length) await must(root, ["clean", "-f", "-q", "--", ...untracked.map(literal)]);
  if (tracked.length) await must(root, ["restore", "--worktree", "--", ...tracked.map(literal)]);
}

/** A branch name git accepts (`check-ref-format --branch`), never an option or `@{…}`. */
export async function checkBranch(cwd: string, name: string): Promise<string> {
  if (name.startsWith("-") || name.includes("@{") || /[\0\n\r]/.test(name)) {
    throw new OpError("invalid_args", `"${name}" is not a valid branch name`);
  }
  const r = await runGit(cwd, ["check-ref-format", "--branch", name]);
  if (r.code !== 0 || r.stdout.trim() !== name) {
    throw new OpError(
      "invalid_args",
      `"${name}" is not a valid branch name (git check-ref-format)`,
    );
  }
  return name;
}

export async function branches(ws: string): Promise<GitOpResults["git.branches"]> {
  const root = await requireRoot(ws);
  const r = await must(root, [
    "for-each-ref",
    "--format=%(refname)%00%(HEAD)%00%(upstream:short)",
    "refs/heads/",
  ]);
  const list: GitBranch[] = r.stdout.split("\n").filter(Boolean).map((line) => {
    const [ref, head, up] = line.split("\0");
    return { name: ref.replace(/^refs\/heads\//, ""), current: head === "*", upstream: up || null };
  });
  const st = await status(ws);
  return { current: st.repo ? st.branch : null, branches: list };
}

/** Tracked changes that a switch could carry over or clash with. */
function dirtyTracked(st: GitStatus): string[] {
  if (!st.repo) return [];
  return st.files.filter((f) => !statusGroups(f).includes("untracked")).map((f) => f.path);
}

export async function switchBranch(ws: string, name: string): Promise<void> {
  const root = await requireRoot(ws);
  await checkBranch(root, name);
  const { branches: list } = await branches(ws);
  if (!list.some((b) => b.name === name)) {
    throw new OpError("not_found", `there is no local branch "${name}"`);
  }
  const dirty = dirtyTracked(await status(ws));
  if (dirty.length) {
    const some = dirty.slice(0, 5).join(", ") + (dirty.length > 5 ? ", …" : "");
    throw new OpError(
      "conflict",
      `${dirty.length} tracked file(s) have uncommitted changes (${some}). ` +
        "Commit them, stash them (git stash) or discard them, then switch branches.",
    );
  }
  await must(root, ["switch", "--no-guess", name]);
}

export async function createBranch(ws: string, name: string): Promise<void> {
  const root = await requireRoot(ws);
  await checkBranch(root, name);
  await must(root, ["switch", "-c", name]);
}

export async function commit(ws: string, message: string): Promise<GitOpResults["git.commit"]> {
  const root = await requireRoot(ws);
  const st = await status(ws);
  if (st.repo && !st.files.some((f) => statusGroups(f).includes("staged"))) {
    throw new OpError("invalid_args", "nothing is staged: stage files before committing");
  }
  await must(root, ["commit", "-q", "--cleanup=strip", "-F", "-"], { input: message });
  const r = await must(root, ["log", "-1", "--format=%H%x00%s"]);
  const [hash, summary] = r.stdout.trim().split("\0");
  return { hash, summary };
}

export async function push(ws: string): Promise<GitOpResults["git.push"]> {
  const root = await requireRoot(ws);
  const st = await status(ws);
  if (!st.repo || !st.branch) {
    throw new OpError("conflict", "HEAD is detached: switch to a branch to push");
  }
  if (st.unborn) throw new OpError("conflict", "nothing to push yet: make a first commit");
  const opts = { timeoutMs: 120_000 };
  if (st.upstream) {
    const r = await must(root, ["push", "--porcelain"], opts);
    return { output: (r.stdout + r.stderr).trim(), setUpstream: false };
  }
  const remotes = (await must(root, ["remote"])).stdout.split("\n").filter(Boolean);
  const remote = remotes.includes("origin") ? "origin" : remotes[0];
  if (!remote) throw new OpError("not_found", "this repository has no remote to push to");
  const r = await must(
    root,
    ["push", "--porcelain", "--set-upstream", remote, `refs/heads/${st.branch}`],
    opts,
  );
  return { output: (r.stdout + r.stderr).trim(), setUpstream: true };
}

export async function init(ws: string): Promise<string> {
  const existing = await repoRoot(ws).catch((e) => {
    if (e instanceof GitMissingError) throw new OpError("not_found", e.message);
    throw e;
  });
  if (existing) return existing;
  await must(ws, ["init", "-q"]);
  return (await requireRoot(ws));
}

export async function log(ws: string, limit: number): Promise<GitOpResults["git.log"]> {
  const root = await requireRoot(ws);
  const st = await status(ws);
  if (st.repo && st.unborn) return { commits: [], lanes: 0, truncated: false };
  const r = await must(root, [
    "log",
    "--topo-order",
    `--max-count=${limit + 1}`,
    "--format=%H%x1f%P%x1f%an%x1f%at%x1f%D%x1f%s%x1e",
    "HEAD",
    "--branches",
  ]);
  const raw = r.stdout.split("\x1e").map((s) => s.replace(/^\n/, "")).filter(Boolean).map((rec) => {
    const [hash, parents, author, at, refs, subject] = rec.split("\x1f");
    return {
      hash,
      parents: parents ? parents.split(" ") : [],
      author,
      time: Number(at),
      refs: refs ? refs.split(", ").map((x) => x.replace(/^HEAD -> /, "")) : [],
      subject: subject ?? "",
    };
  });
  const truncated = raw.length > limit;
  const kept = raw.slice(0, limit);
  const { rows, lanes } = layoutGraph(kept);
  const commits: GitCommit[] = kept.map((c, i) => ({ ...c, ...rows[i] }));
  return { commits, lanes, truncated };
}

/** The staged diff (bounded) for a commit message. */
export async function stagedDiff(ws: string): Promise<{ stat: string; patch: string }> {
  const root = await requireRoot(ws);
  const stat = (await must(root, ["diff", "--cached", "--stat", "--no-ext-diff"])).stdout;
  const patch = (await must(root, ["diff", "--cached", "--no-ext-diff"], {
    cap: GIT_LIMITS.suggestDiffChars,
  })).stdout;
  return { stat, patch };
}
