/**
 * Git's object store as a source of checkpoint content. In a git repository most files
 * are tracked and unchanged from git's index, so their bytes are already in `.git`: a
 * snapshot records their object ids (read from the index file, which is parsed here and
 * never handed to git) instead of copying them, and a rewind reads them back with
 * `git cat-file --batch`.
 *
 * The agent can write anything under `.git/` (config, hooks, refs, the index), and these
 * git commands run outside the sandbox. So git runs only as plumbing that executes no
 * configured program: an empty environment, no system or global config, hooks pointed at
 * /dev/null, no fsmonitor, no replace objects, no pager, no prompts; and every byte read
 * back is checked against the object id it was asked for. The index is parsed with
 * bounds checks and any format not understood makes the caller fall back to copying.
 */
import { dirname, join } from "../../lib/path.ts";
import { sha1Hex } from "../../lib/sha1.ts";

/** The prefix of a checkpoint hash that names a git blob instead of a kept blob. */
export const GIT_PREFIX = "git:";
const OID = /^[0-9a-f]{40}$/;

export const isGitHash = (h: string | null | undefined): h is string =>
  !!h && h.startsWith(GIT_PREFIX);

export const oidOf = (h: string): string => h.slice(GIT_PREFIX.length);

/** Git's id of a blob with these bytes (SHA-1 over the "blob <size>\0" header and them). */
export function gitBlobOid(bytes: Uint8Array): string {
  return sha1Hex(new TextEncoder().encode(`blob ${bytes.length}\0`), bytes);
}

/** One stage-0 regular file of git's index. */
export interface GitIndexEntry {
  oid: string;
  mode: number;
  mtime: number;
  ctime: number;
  /** Low 32 bits, as git stores them. */
  size: number;
  ino: number;
}

export interface GitIndex {
  /** By absolute path. */
  entries: Map<string, GitIndexEntry>;
  /** The index file's mtime: entries not older than it may be racily clean. */
  mtime: number;
}

export interface GitRepo {
  gitDir: string;
  top: string;
}

/** The repository `path` is in (its `.git` folder or gitfile), or null. */
export function findRepo(path: string): GitRepo | null {
  for (let d = path;; d = dirname(d)) {
    const dot = join(d, ".git");
    let st: Deno.FileInfo | null = null;
    try {
      st = Deno.lstatSync(dot);
    } catch { /* not here */ }
    if (st?.isDirectory) return { gitDir: dot, top: d };
    if (st?.isFile) {
      try {
        const m = /^gitdir: (.+)$/m.exec(Deno.readTextFileSync(dot).slice(0, 4096));
        if (m) {
          const g = m[1].trim();
          const gitDir = g.startsWith("/") ? g : join(d, g);
          if (ownGitDir(gitDir.replace(/\/+$/, ""), d)) return { gitDir, top: d };
        }
      } catch { /* unreadable */ }
      return null;
    }
    if (d === "/" || dirname(d) === d) return null;
  }
}

/**
 * Whether a gitfile's target is the git folder of the work tree `top`: a worktree's
 * (whose `gitdir` file names `top`'s `.git` back) or a submodule's inside the folder of a
 * repository `top` lies in. The agent writes the gitfile and must not point our git
 * commands at another repository of the user's.
 */
function ownGitDir(gitDir: string, top: string): boolean {
  if (gitDir.split("/").some((p) => p === ".." || p === ".")) return false;
  if (/\/\.git\/worktrees\/[^/]+$/.test(gitDir)) {
    try {
      return Deno.readTextFileSync(join(gitDir, "gitdir")).trim() === join(top, ".git");
    } catch {
      return false;
    }
  }
  const m = /^(.*)\/\.git\/modules\/.+$/.exec(gitDir);
  return !!m && (top + "/").startsWith(m[1] + "/");
}

const cache = new Map<string, { key: string; index: GitIndex | null }>();

/**
 * Git's index of `repo` (cached while the file's stat is unchanged); null when there is
 * none or its format is not one this reads (split index, SHA-256 repositories, damage).
 */
export function readGitIndex(repo: GitRepo): GitIndex | null {
  const file = join(repo.gitDir, "index");
  let st: Deno.FileInfo;
  try {
    st = Deno.statSync(file);
  } catch {
    return null;
  }
  const key = `${st.size}:${st.mtime?.getTime()}:${st.ctime?.getTime()}:${st.ino}`;
  const hit = cache.get(file);
  if (hit?.key === key) return hit.index;
  let index: GitIndex | null = null;
  try {
    if (st.size <= 512 * 1024 * 1024 && !sha256Repo(repo.gitDir)) {
      index = parseIndex(Deno.readFileSync(file), repo.top, st.mtime?.getTime() ?? 0);
    }
  } catch {
    index = null;
  }
  cache.set(file, { key, index });
  if (cache.size > 8) cache.delete(cache.keys().next().value!);
  return index;
}

function sha256Repo(gitDir: string): boolean {
  try {
    const cfg = Deno.readTextFileSync(join(gitDir, "config"));
    return /objectformat\s*=\s*sha256/i.test(cfg);
  } catch {
    return false;
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** Absolute, empty, `.` or `..` components: never joined onto the workspace. */
const BAD_PATH = /^\/|\/\/|(^|\/)\.\.?(\/|$)|\/$|^$/;

/** Parses index versions 2–4 (throws on anything malformed). */
export function parseIndex(buf: Uint8Array, top: string, mtime: number): GitIndex | null {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const need = (at: number, n: number) => {
    if (at + n > buf.length) throw new Error("truncated index");
  };
  need(0, 12);
  if (new TextDecoder().decode(buf.subarray(0, 4)) !== "DIRC") return null;
  const version = dv.getUint32(4);
  if (version < 2 || version > 4) return null;
  const count = dv.getUint32(8);
  const base = top.endsWith("/") ? top : top + "/";
  const dec = new TextDecoder("utf-8", { fatal: true });
  const entries = new Map<string, GitIndexEntry>();
  let at = 12;
  let prev: Uint8Array = new Uint8Array();
  for (let i = 0; i < count; i++) {
    const start = at;
    need(at, 62);
    const ctime = dv.getUint32(at) * 1000 + Math.floor(dv.getUint32(at + 4) / 1e6);
    const mtime = dv.getUint32(at + 8) * 1000 + Math.floor(dv.getUint32(at + 12) / 1e6);
    const ino = dv.getUint32(at + 20);
    const mode = dv.getUint32(at + 24);
    const size = dv.getUint32(at + 36);
    let oid = "";
    for (let k = 0; k < 20; k++) oid += HEX[buf[at + 40 + k]];
    const flags = dv.getUint16(at + 60);
    at += 62;
    let extended = 0;
    if (flags & 0x4000) {
      if (version < 3) throw new Error("extended flags in a version 2 index");
      need(at, 2);
      extended = dv.getUint16(at);
      at += 2;
    }
    let name: Uint8Array;
    if (version === 4) {
      let c = buf[at++], strip = c & 127;
      while (c & 128) {
        need(at, 1);
        c = buf[at++];
        strip = ((strip + 1) << 7) + (c & 127);
      }
      if (strip > prev.length) throw new Error("bad path prefix");
      const end = buf.indexOf(0, at);
      if (end < 0) throw new Error("unterminated path");
      const rest = buf.subarray(at, end);
      name = new Uint8Array(prev.length - strip + rest.length);
      name.set(prev.subarray(0, prev.length - strip));
      name.set(rest, prev.length - strip);
      at = end + 1;
    } else {
      const end = buf.indexOf(0, at);
      if (end < 0) throw new Error("unterminated path");
      name = buf.subarray(at, end);
      // Padded with 1–8 NULs to a multiple of 8 bytes from the entry's start.
      at = start + ((end - start + 8) & ~7);
      need(at, 0);
    }
    prev = name;
    const stage = (flags >> 12) & 3;
    // Skip-worktree and intent-to-add entries do not describe the file on disk.
    if (stage !== 0 || (extended & 0x6000)) continue;
    if ((mode & 0o170000) !== 0o100000) continue; // symlinks, submodules, sparse dirs
    const rel = dec.decode(name);
    if (BAD_PATH.test(rel)) continue;
    entries.set(base + rel, { oid, mode, mtime, ctime, size, ino });
  }
  // A split index keeps most entries in another file: not read here.
  while (at + 8 <= buf.length - 20) {
    const sig = new TextDecoder().decode(buf.subarray(at, at + 4));
    if (sig === "link") return null;
    at += 8 + dv.getUint32(at + 4);
  }
  return { entries, mtime };
}

/** Whether `st` is the file git's index describes (git's own stat check, racy-safe). */
export function matchesIndex(e: GitIndexEntry, st: Deno.FileInfo, indexMtime: number): boolean {
  const mtime = st.mtime?.getTime() ?? -1;
  return e.mtime < indexMtime && e.mtime === mtime &&
    sameSecond(e.ctime, st.ctime?.getTime() ?? -1) && e.size === st.size % 2 ** 32 &&
    e.ino === (st.ino ?? 0) % 2 ** 32 && e.mode === gitModeOf(st.mode ?? 0o644);
}

/** Deno gives ctime in whole seconds: compared at that precision. */
const sameSecond = (a: number, b: number) => Math.floor(a / 1000) === Math.floor(b / 1000);

/** The mode git records for a regular file with these permission bits. */
export const gitModeOf = (mode: number): number => (mode & 0o100) ? 0o100755 : 0o100644;

/** Arguments and environment that keep a hostile repository from running anything. */
function gitCommand(gitDir: string, args: string[], stdin: boolean): Deno.Command {
  return new Deno.Command("git", {
    args: [
      "--no-pager",
      "--no-replace-objects",
      `--git-dir=${gitDir}`,
      "-c",
      "core.hooksPath=/dev/null",
      "-c",
      "core.fsmonitor=false",
      "-c",
      "gc.auto=0",
      "-c",
      "maintenance.auto=false",
      ...args,
    ],
    cwd: gitDir,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: "/nonexistent",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_ATTR_NOSYSTEM: "1",
      GIT_NO_REPLACE_OBJECTS: "1",
      GIT_TERMINAL_PROMPT: "0",
      GIT_OPTIONAL_LOCKS: "0",
      GIT_PAGER: "cat",
      LC_ALL: "C",
    },
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** Runs git with `input` on stdin; the whole stdout (bytes) and the exit code. */
export async function runGitPlumbing(
  gitDir: string,
  args: string[],
  input?: Uint8Array,
  timeoutMs = 60_000,
): Promise<{ code: number; out: Uint8Array; err: string }> {
  let child: Deno.ChildProcess;
  try {
    child = gitCommand(gitDir, args, input !== undefined).spawn();
  } catch {
    return { code: -1, out: new Uint8Array(), err: "git is not installed" };
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, timeoutMs);
  try {
    const write = input === undefined ? Promise.resolve() : (async () => {
      const w = child.stdin.getWriter();
      await w.write(input).catch(() => {});
      await w.close().catch(() => {});
    })();
    const [out, err, status] = await Promise.all([
      new Response(child.stdout).arrayBuffer(),
      new Response(child.stderr).text(),
      child.status,
      write,
    ]);
    return { code: status.success ? 0 : status.code || 128, out: new Uint8Array(out), err };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The blobs `oids` from the repository, each checked against its id; ids git does not
 * have (or gives other bytes for) are absent from the map.
 */
export async function readGitBlobs(
  gitDir: string,
  oids: Iterable<string>,
): Promise<Map<string, Uint8Array>> {
  const want = [...new Set(oids)].filter((o) => OID.test(o));
  const out = new Map<string, Uint8Array>();
  if (!want.length) return out;
  const r = await runGitPlumbing(
    gitDir,
    ["cat-file", "--batch"],
    new TextEncoder().encode(want.join("\n") + "\n"),
  );
  if (r.code !== 0) return out;
  const buf = r.out;
  let at = 0;
  for (const oid of want) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) break;
    const head = new TextDecoder().decode(buf.subarray(at, nl)).split(" ");
    at = nl + 1;
    if (head.length !== 3) continue; // "<oid> missing"
    const size = Number(head[2]);
    if (!Number.isSafeInteger(size) || at + size > buf.length) break;
    const bytes = buf.slice(at, at + size);
    at += size + 1;
    if (head[0] === oid && head[1] === "blob" && gitBlobOid(bytes) === oid) out.set(oid, bytes);
  }
  return out;
}

/** Which of `oids` the repository does not have as blobs. */
export async function missingGitBlobs(
  gitDir: string,
  oids: Iterable<string>,
): Promise<Set<string>> {
  const want = [...new Set(oids)];
  const missing = new Set(want);
  const ok = want.filter((o) => OID.test(o));
  if (!ok.length) return missing;
  const r = await runGitPlumbing(
    gitDir,
    ["cat-file", "--batch-check"],
    new TextEncoder().encode(ok.join("\n") + "\n"),
  );
  if (r.code !== 0) return missing;
  for (const line of new TextDecoder().decode(r.out).split("\n")) {
    const [oid, type] = line.split(" ");
    if (type === "blob") missing.delete(oid);
  }
  return missing;
}

/**
 * Keeps `oids` reachable (so `git gc` does not prune them) with a ref of our own pointing
 * at a tree that names them. Neither the index, HEAD nor the working tree is touched.
 * Returns false when git refused (the objects then stay only as reachable as they were).
 */
export async function pinGitBlobs(
  gitDir: string,
  ref: string,
  oids: Iterable<string>,
): Promise<boolean> {
  const list = [...new Set(oids)].filter((o) => OID.test(o)).sort();
  if (!/^refs\/reinagent\/checkpoints\/[A-Za-z0-9_-]+$/.test(ref)) return false;
  if (!list.length) {
    const r = await runGitPlumbing(gitDir, ["update-ref", "-d", ref]);
    return r.code === 0;
  }
  const lines = list.map((o) => `100644 blob ${o}\t${o}\n`).join("");
  const tree = await runGitPlumbing(gitDir, ["mktree"], new TextEncoder().encode(lines));
  const id = new TextDecoder().decode(tree.out).trim();
  if (tree.code !== 0 || !OID.test(id)) return false;
  const r = await runGitPlumbing(gitDir, ["update-ref", ref, id]);
  return r.code === 0;
}

/** The ref that keeps a task's checkpointed blobs reachable. */
export function pinRefOf(taskId: string): string {
  const safe = taskId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100) || "task";
  return `refs/reinagent/checkpoints/${safe}`;
}
