/**
 * The file tree: one folder at a time, folders first; entries ignored by
 * git (or, outside a repository, the usual dependency/build folders) are marked for
 * dimming, symlinks leading out of the workspace are marked and never followed.
 * Create / rename / delete never overwrite and stay inside the workspace.
 */
import { dirname, join, relative } from "../../lib/path.ts";
import { FILES_LIMITS, type FileTreeEntry, TEMP_DIR } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import { isInside } from "../../tools/paths.ts";
import { runGit } from "../git/run.ts";
import { confine, confineChangeable } from "./confine.ts";
import { ensureTempIgnore } from "../../tools/temp_dir.ts";

/** Dimmed outside a repository (and `.git` always). */
const USUAL_IGNORED = new Set([
  ".git",
  "node_modules",
  "dist",
  "build",
  "target",
  ".venv",
  "venv",
  "__pycache__",
  ".cache",
  ".next",
]);

/** Which of `rels` (relative to `cwd`; folders end in "/") git ignores; null = not a repo. */
async function gitIgnored(cwd: string, rels: string[]): Promise<Set<string> | null> {
  if (!rels.length) return new Set();
  try {
    const r = await runGit(cwd, ["check-ignore", "-z", "--stdin"], {
      input: rels.join("\0") + "\0",
    });
    // 0 = some ignored, 1 = none; 128 = not a repository (or another failure).
    if (r.code > 1) return null;
    return new Set(r.stdout.split("\0").filter(Boolean));
  } catch {
    return null;
  }
}

export async function listDir(
  ws: string,
  input: string,
): Promise<{ path: string; entries: FileTreeEntry[]; truncated: boolean }> {
  const dir = confine(ws, input);
  const raw: { name: string; info: Deno.FileInfo; target: Deno.FileInfo | null; out: boolean }[] =
    [];
  let truncated = false;
  try {
    for await (const e of Deno.readDir(dir.abs)) {
      if (raw.length >= FILES_LIMITS.entries) {
        truncated = true;
        break;
      }
      const abs = join(dir.abs, e.name);
      const info = await Deno.lstat(abs).catch(() => null);
      if (!info) continue;
      let target: Deno.FileInfo | null = null;
      let out = false;
      if (info.isSymlink) {
        const real = await Deno.realPath(abs).catch(() => null);
        const realWs = await Deno.realPath(ws).catch(() => ws);
        out = real !== null && !isInside(real, realWs);
        if (real && !out) target = await Deno.stat(abs).catch(() => null);
      }
      raw.push({ name: e.name, info, target, out });
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new OpError("not_found", `${dir.rel} does not exist`);
    }
    if (e instanceof Error && /Not a directory/i.test(e.message)) {
      throw new OpError("invalid_args", `${dir.rel} is not a folder`);
    }
    throw e;
  }
  const isDir = (r: typeof raw[number]) => r.info.isDirectory || !!r.target?.isDirectory;
  const relOf = (name: string) => relative(ws, join(dir.abs, name));
  // git sees a symlink as a file (a trailing slash on it is a fatal error).
  const asked = (r: typeof raw[number]) => (r.info.isDirectory ? `${r.name}/` : r.name);
  const ignored = await gitIgnored(dir.abs, raw.map(asked));
  const entries: FileTreeEntry[] = raw.map((r) => {
    const folder = isDir(r);
    const ig = r.name === ".git" ||
      (ignored ? ignored.has(asked(r)) : USUAL_IGNORED.has(r.name));
    return {
      name: r.name,
      path: relOf(r.name),
      kind: r.info.isSymlink ? "symlink" : folder ? "dir" : "file",
      ...(r.info.isSymlink && folder ? { dirLink: true } : {}),
      size: r.info.isFile ? r.info.size : 0,
      ignored: ig,
      ...(r.out ? { outside: true } : {}),
    };
  });
  const rank = (e: FileTreeEntry) => (e.kind === "dir" || e.dirLink ? 0 : 1);
  entries.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  return { path: dir.rel === "." ? "" : dir.rel, entries, truncated };
}

async function exists(abs: string): Promise<boolean> {
  try {
    await Deno.lstat(abs);
    return true;
  } catch {
    return false;
  }
}

/** A name segment a user could mean: not empty, ".", ".." or with a slash. */
function checkNew(rel: string): void {
  const base = rel.slice(rel.lastIndexOf("/") + 1);
  if (!base || base === "." || base === "..") {
    throw new OpError("invalid_args", `"${rel}" is not a usable file name`);
  }
}

export async function createEntry(ws: string, input: string, kind: "file" | "dir") {
  const c = confineChangeable(ws, input);
  checkNew(c.rel);
  if (await exists(c.abs)) throw new OpError("conflict", `${c.rel} already exists`);
  await Deno.mkdir(dirname(c.abs), { recursive: true });
  if (kind === "dir") await Deno.mkdir(c.abs);
  else await Deno.writeFile(c.abs, new Uint8Array(), { createNew: true });
  return { path: c.rel };
}

export async function renameEntry(ws: string, from: string, to: string) {
  const a = confineChangeable(ws, from);
  const b = confineChangeable(ws, to);
  checkNew(b.rel);
  if (!(await exists(a.abs))) throw new OpError("not_found", `${a.rel} does not exist`);
  if (await exists(b.abs)) throw new OpError("conflict", `${b.rel} already exists`);
  if (isInside(b.abs, a.abs)) {
    throw new OpError("invalid_args", `${a.rel} cannot be moved into itself`);
  }
  await Deno.mkdir(dirname(b.abs), { recursive: true });
  await Deno.rename(a.abs, b.abs);
  return { path: b.rel };
}

export async function deleteEntry(ws: string, input: string) {
  const c = confineChangeable(ws, input);
  if (!(await exists(c.abs))) throw new OpError("not_found", `${c.rel} does not exist`);
  // A symlink is removed itself (its target stays).
  await Deno.remove(c.abs, { recursive: true });
  return { path: c.rel };
}

/** `.reinagent/.temp/` with a `.gitignore` that ignores the folder itself. */
export async function ensureTempDir(ws: string): Promise<{ path: string; created: boolean }> {
  const c = confine(ws, TEMP_DIR);
  const created = !(await exists(c.abs));
  await ensureTempIgnore(join(c.abs, ".gitignore"), ws);
  return { path: TEMP_DIR, created };
}

/** Empties `.reinagent/.temp/` (keeps its `.gitignore`). */
export async function cleanTempDir(ws: string): Promise<{ removed: number }> {
  const c = confine(ws, TEMP_DIR);
  let removed = 0;
  try {
    for await (const e of Deno.readDir(c.abs)) {
      if (e.name === ".gitignore") continue;
      await Deno.remove(join(c.abs, e.name), { recursive: true });
      removed++;
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return { removed };
}
