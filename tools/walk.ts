/**
 * The workspace walker shared by `glob` and `grep` (their hot path).
 *
 * - Depth-first, names sorted per directory, so results are deterministic.
 * - Skips {@link SKIP_DIRS} below the walk root (an explicit root inside one of them
 *   is still walked: `path: "node_modules/react"` works), and what the ignore files say
 *   when given {@link IgnoreRules}.
 * - Never follows symlinks: a link is reported as a `symlink` entry and not entered,
 *   so a link cannot lead the search outside the workspace or into a cycle.
 * - Uses synchronous file-system calls in time slices ({@link Pacer}): on Deno each
 *   async op costs a thread-pool round trip, which made async walking 2–4× slower in
 *   measurements (scripts/bench_search.ts). Every slice ends by yielding to the event
 *   loop and checking the AbortSignal, so a walk never blocks for more than one slice.
 *
 * @example
 * ```ts
 * for await (const e of walk("/repo", { signal })) if (e.type === "file") console.log(e.path);
 * ```
 */
import { displayPath, outsideRoots, resolvePath } from "./paths.ts";
import { type Chain, IgnoreRules } from "./ignore_rules.ts";

/** Version-control metadata folders: never source a user searches, never entered. */
export const VCS_DIRS: ReadonlySet<string> = new Set([".git", ".hg", ".svn"]);

/**
 * Directory names not entered by default: the VCS folders plus the usual build and package
 * folders, which are left out even in a folder with no ignore file. `build`, `.venv`,
 * `__pycache__`, `.next` are left to the ignore files: they are often real source.
 */
export const SKIP_DIRS: ReadonlySet<string> = new Set([
  ...VCS_DIRS,
  "node_modules",
  "target",
  "dist",
]);

export type EntryType = "file" | "dir" | "symlink" | "other";

export interface WalkEntry {
  /** Path relative to the walk root, `/`-separated, never starting with `./`. */
  path: string;
  /** Last path segment. */
  name: string;
  type: EntryType;
  /** Size in bytes (lstat); only with `stat: true`. */
  size?: number;
  /** Modification time in ms since the epoch; only with `stat: true`. */
  mtime?: number;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** lstat every entry to fill `size` and `mtime` (costs one syscall per entry). */
  stat?: boolean;
  /** Also yield directory entries (they are always entered unless skipped). */
  dirs?: boolean;
  /** Names of directories to skip; default {@link SKIP_DIRS}. */
  skipDirs?: ReadonlySet<string>;
  /** Absolute paths (spelled under the walk root) never yielded nor entered: hidden ones. */
  skipPaths?: ReadonlySet<string>;
  /** The ignore files' rules: ignored entries are neither yielded nor entered. */
  ignore?: IgnoreRules;
  /**
   * Names in order within each directory (default). A consumer that orders the results
   * itself (glob: newest first) skips the sort.
   */
  sorted?: boolean;
  /** Share one pacer between the walk and the consumer's own work. */
  pacer?: Pacer;
  /** Called for a directory that could not be read (permission denied, vanished…). */
  onError?: (path: string, error: Error) => void;
}

/** Thrown (as the rejection) when the walk's signal aborts. */
export function abortError(signal: AbortSignal): Error {
  const r = signal.reason;
  return r instanceof Error ? r : new DOMException("The operation was aborted.", "AbortError");
}

/**
 * Splits synchronous work into slices of `sliceMs`: {@link tick} is cheap to call
 * often and only yields to the event loop once a slice is used up. It throws when the
 * signal has aborted.
 *
 * The yield is a real async op (an `lstat` of `yieldPath`, ~50 µs) when a path is
 * given: `setTimeout(0)` inside a loop is clamped to ≥ 1–4 ms by timer nesting, which
 * cost ~17% of a grep in profiles. Both let timers, I/O and abort events run.
 */
export class Pacer {
  private last = performance.now();
  constructor(
    readonly signal?: AbortSignal,
    readonly yieldPath?: string,
    readonly sliceMs = 12,
  ) {}

  /** Yields to the event loop if the current slice is over; throws if aborted. */
  tick(): Promise<void> | void {
    if (this.signal?.aborted) throw abortError(this.signal);
    if (performance.now() - this.last < this.sliceMs) return;
    return this.yieldNow();
  }

  async yieldNow(): Promise<void> {
    if (this.yieldPath) await Deno.lstat(this.yieldPath).catch(() => {});
    else await new Promise((r) => setTimeout(r, 0));
    this.last = performance.now();
    if (this.signal?.aborted) throw abortError(this.signal);
  }
}

/**
 * Walks `root` (absolute) depth-first and yields its entries. Throws if `root`
 * itself cannot be read; unreadable subdirectories go to `onError` and are skipped.
 */
export async function* walk(root: string, opts: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  for await (const batch of walkBatches(root, opts)) yield* batch;
}

/**
 * {@link walk} one directory at a time: each batch holds the entries of one directory.
 * The hot paths (glob, grep) use it because every `yield` of an async generator costs
 * a promise round trip — per directory instead of per file halved a 20 000-file walk.
 */
export async function* walkBatches(
  root: string,
  opts: WalkOptions = {},
): AsyncGenerator<WalkEntry[]> {
  const skip = opts.skipDirs ?? SKIP_DIRS;
  const hide = opts.skipPaths ?? new Set<string>();
  const pacer = opts.pacer ?? new Pacer(opts.signal, root);
  const base = root.endsWith("/") ? root : root + "/";
  const rules = opts.ignore;
  // Stack of relative directory paths ("" = root), processed depth-first, with the ignore
  // rules of the folder each is in.
  const stack: string[] = [""];
  const chains: (Chain | null)[] = [null];
  let first = true;
  while (stack.length) {
    const t = pacer.tick();
    if (t) await t;
    const rel = stack.pop()!;
    const parentChain = chains.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = Array.from(Deno.readDirSync(base + rel));
    } catch (e) {
      if (first) throw e;
      opts.onError?.(rel, e as Error);
      continue;
    }
    first = false;
    if (opts.sorted !== false) {
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    const prefix = rel ? rel + "/" : "";
    const chain = !rules
      ? null
      : rel
      ? rules.chainOf(base + rel, entries.map((e) => e.name), parentChain)
      : rules.rootChain(root);
    const subdirs: string[] = [];
    const batch: WalkEntry[] = [];
    for (const e of entries) {
      const type: EntryType = e.isSymlink
        ? "symlink"
        : e.isDirectory
        ? "dir"
        : e.isFile
        ? "file"
        : "other";
      const path = prefix + e.name;
      if (hide.size && hide.has(base + path)) continue;
      if (chain?.length && rules!.ignored(chain, base + path, type === "dir")) continue;
      if (type === "dir") {
        if (skip.has(e.name)) continue;
        subdirs.push(path);
        if (!opts.dirs) continue;
      }
      const entry: WalkEntry = { path, name: e.name, type };
      if (opts.stat) {
        try {
          const st = Deno.lstatSync(base + path);
          entry.size = st.size;
          entry.mtime = st.mtime?.getTime() ?? 0;
        } catch { /* vanished between readDir and lstat: report without stats */ }
      }
      batch.push(entry);
    }
    if (batch.length) yield batch;
    // Push in reverse so the alphabetically first subdirectory is walked first.
    for (let i = subdirs.length - 1; i >= 0; i--) {
      stack.push(subdirs[i]);
      chains.push(chain);
    }
  }
}

/** The sentence the search tools' descriptions share. */
export const IGNORED_NOTE = "Files and folders that .gitignore (nested ones too), .ignore or " +
  "the global git excludes leave out are skipped, as ripgrep does; `include_ignored: true` " +
  "includes them.";

/**
 * What a search starting at `start` leaves out: the ignore files' rules below the root that
 * contains it (the workspace, or another allowed folder) and {@link SKIP_DIRS}; with
 * `includeIgnored` only the VCS folders.
 */
export function searchScope(
  start: string,
  ctx: { workspace: string; roots?: string[]; ignoreGlobal?: string[] },
  includeIgnored: boolean | undefined,
): { skipDirs: ReadonlySet<string>; ignore?: IgnoreRules } {
  if (includeIgnored) return { skipDirs: VCS_DIRS };
  const top = (ctx.roots ?? [ctx.workspace])
    .filter((r) => start === r || start.startsWith(r.endsWith("/") ? r : r + "/"))
    .sort((a, b) => b.length - a.length)[0] ?? start;
  return { skipDirs: SKIP_DIRS, ignore: new IgnoreRules(top, ctx.ignoreGlobal) };
}

/** A validated search root for glob/grep, or an error text for the model. */
export type SearchRoot = { root: string; shown: string; isDir: boolean } | { error: string };

/**
 * Resolves the optional `path` argument of a search tool against the workspace and
 * checks it stays inside one of `roots` (also after resolving symlinks) and exists.
 */
export async function resolveSearchRoot(
  pathArg: unknown,
  workspace: string,
  roots: string[] = [workspace],
): Promise<SearchRoot> {
  const arg = typeof pathArg === "string" && pathArg.trim() ? pathArg : ".";
  const root = resolvePath(arg, workspace);
  const denied = outsideRoots(root, roots);
  if (denied) return { error: denied };
  const shown = displayPath(root, workspace);
  try {
    return { root, shown, isDir: (await Deno.stat(root)).isDirectory };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { error: `Path not found: ${shown}` };
    return { error: `Cannot search ${shown}: ${(e as Error).message}` };
  }
}

/** Files larger than this are skipped by content search. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** A NUL byte within this many leading bytes marks a file as binary. */
const BINARY_PROBE = 8192;

/** One read buffer for all searches (allocated on first use; reads are synchronous). */
let shared: Uint8Array | null = null;
const decoder = new TextDecoder();

/**
 * Reads a file as text, or says why it is skipped. No fstat: one read into a buffer of
 * 2 MB + 1 both fetches the file and tells whether it is too large (a short read of a
 * regular file means end of file). That saves one syscall per file (~15% of a search).
 */
export function readSearchText(abs: string): string | "large" | "binary" | "unreadable" {
  let fh: Deno.FsFile;
  try {
    fh = Deno.openSync(abs);
  } catch {
    return "unreadable";
  }
  let got = 0;
  const buf = shared ??= new Uint8Array(MAX_FILE_BYTES + 1);
  try {
    while (got < buf.length) {
      const want = buf.length - got;
      const n = fh.readSync(buf.subarray(got));
      if (n === null || n === 0) break;
      got += n;
      if (n < want) break;
    }
  } catch {
    return "unreadable";
  } finally {
    fh.close();
  }
  if (got > MAX_FILE_BYTES) return "large";
  // Native indexOf: a JS loop over the probe bytes was ~15% of a grep.
  if (buf.subarray(0, Math.min(got, BINARY_PROBE)).indexOf(0) >= 0) return "binary";
  return decoder.decode(buf.subarray(0, got));
}
