/**
 * The stat index of a workspace, persisted per workspace (like git's index): for each
 * file its mtime, ctime, size and inode with the hash of the content last read. A scan
 * lstat's every file and re-reads only those whose stat changed, so a turn's snapshot
 * of an unchanged 20 000-file workspace reads no file at all.
 *
 * Racy timestamps (git's "racy clean" problem): a file rewritten within the same
 * timestamp tick as the scan that hashed it can keep all its stat fields. Each scan
 * first touches a stamp file and takes its mtime (the file system's own clock); an entry
 * whose mtime or ctime is not older than that stamp is marked racy and is re-hashed by
 * the next scan (and by the comparison after a command) whatever its stat says.
 */
import { dirname, join } from "../../lib/path.ts";
import { Pacer, walkBatches } from "../../tools/walk.ts";
import { contentHashHex } from "../../lib/content_hash.ts";
import { sha256Hex } from "../../lib/sha256.ts";
import type { BlobStore } from "./checkpoint_blobs.ts";
import { type SnapshotFiles, SnapshotViews } from "./snapshot_files.ts";
import {
  GIT_PREFIX,
  gitBlobOid,
  type GitIndex,
  isGitHash,
  matchesIndex,
  oidOf,
} from "./git_objects.ts";

export interface IndexEntry {
  mtime: number;
  ctime: number;
  size: number;
  ino: number;
  /** Permission bits (0: not known, from an older index). */
  mode: number;
  /**
   * Hash of the content stored as a blob, or `git:<oid>` when git's object store has it
   * (see git_objects.ts); null when not stored (too large, cap).
   */
  hash: string | null;
  /** Stat taken too close to the scan's stamp to be trusted next time. */
  racy: boolean;
}

/** What one scan found for a file: the index entry and why its content was not kept. */
export interface ScanEntry extends IndexEntry {
  skipped: string | null;
}

export interface ScanOptions {
  /** Files larger than this are not read (`tooLarge`). */
  fileCap: number;
  /** Bytes of content the scan may keep in all; files beyond it get `full`. */
  budget: number;
  /** Bytes the scan may add to the store (its cap); files beyond it get `full`. */
  room: number;
  skip: { tooLarge: string; full: string; unreadable: string };
  signal?: AbortSignal;
  /** Called about every 250 ms once a scan has run `progressAfterMs` (files seen, bytes read). */
  onProgress?: (p: { files: number; bytes: number }) => void;
  /** Default 1000: a quick scan reports nothing. */
  progressAfterMs?: number;
  /**
   * Git's index when the workspace is in a repository: a file it describes exactly is
   * named by its object id and neither read nor stored (nor counted against the caps).
   */
  git?: GitIndex | null;
}

const VERSION = 1;
/** Bounds what a corrupt or hostile index file can make us allocate. */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;

/**
 * Whether the stat is the one recorded. The mode is compared too: Deno's ctime has whole
 * seconds only, so a chmod in the same second as the snapshot shows in nothing else.
 */
export function sameStat(e: IndexEntry, st: Deno.FileInfo): boolean {
  return e.size === st.size && e.mtime === (st.mtime?.getTime() ?? 0) &&
    e.ctime === (st.ctime?.getTime() ?? 0) && e.ino === (st.ino ?? 0) &&
    (e.mode === 0 || e.mode === modeOf(st));
}

/** Whether a stat taken now can be trusted later (see the module comment). */
export function isRacy(st: Deno.FileInfo, stamp: number): boolean {
  return (st.mtime?.getTime() ?? 0) >= stamp || (st.ctime?.getTime() ?? 0) >= stamp;
}

/**
 * The content hash of `abs` now (counted like a blob read), or null if unreadable; of
 * the same kind as `like` (a git object id when it is one).
 */
export function hashNow(abs: string, blobs: BlobStore, like?: string | null): string | null {
  try {
    blobs.hashed++;
    const bytes = Deno.readFileSync(abs);
    return isGitHash(like) ? GIT_PREFIX + gitBlobOid(bytes) : contentHashHex(bytes);
  } catch {
    return null;
  }
}

/** Permission bits of a stat. */
export const modeOf = (st: Deno.FileInfo): number => (st.mode ?? 0) & 0o7777;

export class WorkspaceIndex {
  /** The entries (with why the last scan did not keep a file's content). */
  entries = new Map<string, ScanEntry>();
  lastUsed = Date.now();
  private dirty = false;

  constructor(readonly workspace: string, readonly file: string) {}

  /** Loads the persisted index; a missing, corrupt or foreign file gives an empty one. */
  static load(workspace: string, file: string): WorkspaceIndex {
    const idx = new WorkspaceIndex(workspace, file);
    const base = workspace.endsWith("/") ? workspace : workspace + "/";
    for (const [rel, e] of readIndexFile(file, workspace)) {
      idx.entries.set(base + rel, { ...e, skipped: null });
    }
    return idx;
  }

  /** The hashes an index file names (for the garbage collector; any workspace). */
  static *hashesInFile(file: string): Generator<string> {
    for (const [, e] of readIndexFile(file, null)) if (e.hash) yield e.hash;
  }

  private savedAt = 0;

  /**
   * Writes at most every 30 s (a watched update changes a few entries; writing ~3 MB for
   * them cost more than the update). Losing unsaved entries is safe: their files' stat
   * then differs from the saved one, so they are read again.
   */
  saveSoon(): void {
    if (Date.now() - this.savedAt >= 30_000) this.save();
  }

  /** Writes the index (temp file + rename) when it changed. */
  save(): void {
    if (!this.dirty) return;
    this.savedAt = Date.now();
    const base = this.workspace.endsWith("/") ? this.workspace : this.workspace + "/";
    const rows = [];
    for (const [abs, e] of this.entries) {
      rows.push([
        abs.slice(base.length),
        e.mtime,
        e.ctime,
        e.size,
        e.ino,
        e.hash,
        e.racy ? 1 : 0,
        e.mode,
      ]);
    }
    const tmp = `${this.file}.${crypto.randomUUID()}.tmp`;
    Deno.writeTextFileSync(
      tmp,
      JSON.stringify({ version: VERSION, workspace: this.workspace, entries: rows }),
    );
    Deno.renameSync(tmp, this.file);
    this.dirty = false;
  }

  /** Every content hash the index names (kept by the garbage collector). */
  *hashes(): Generator<string> {
    for (const e of this.entries.values()) if (e.hash) yield e.hash;
  }

  /** The file system's clock now, from a stamp file beside the index. */
  stamp(): number {
    const p = `${this.file}.stamp`;
    Deno.writeTextFileSync(p, String(Date.now()));
    return Deno.lstatSync(p).mtime?.getTime() ?? Date.now();
  }

  /** Directories the last full scan walked (what a watcher watches); null before one. */
  dirs: Set<string> | null = null;

  /**
   * Brings the index up to date with the workspace and returns what the scan saw:
   * unchanged files keep their hash without being read; new, changed and racy files
   * are read and stored in `blobs`.
   */
  async scan(blobs: BlobStore, o: ScanOptions): Promise<SnapshotFiles<ScanEntry>> {
    const v = this.visitor(blobs, o);
    const base = this.workspace.endsWith("/") ? this.workspace : this.workspace + "/";
    const pacer = new Pacer(o.signal, this.workspace);
    const dirs = new Set<string>([this.workspace]);
    for await (
      const batch of walkBatches(this.workspace, { signal: o.signal, pacer, dirs: true })
    ) {
      for (const e of batch) {
        if (e.type === "dir") dirs.add(base + e.path);
        if (e.type === "file") v.visit(base + e.path);
      }
    }
    for (const abs of this.entries.keys()) {
      if (!v.out.has(abs)) this.forget(abs);
    }
    this.dirs = dirs;
    this.save();
    return this.remember(v, o);
  }

  /**
   * The last scan's or update's result and what it was made under. An update under the
   * same conditions starts from it and looks only at changed and special entries
   * instead of going through every entry (20 000 of them cost more than the rest of a
   * watched turn). Private: callers get views of it (snapshot_files.ts), which their
   * comparisons change; an update keeps in them what it changes.
   */
  private last: {
    out: Map<string, ScanEntry>;
    git: GitIndex | null;
    fileCap: number;
    skip: string;
    /** Entries every update looks at again: racy, or content not kept though it could be. */
    special: Set<string>;
    /** Bytes of kept content the result names (counted against a scan's budget). */
    kept: number;
    /** The views callers were given of `out`. */
    views: SnapshotViews<ScanEntry>;
  } | null = null;

  /** `special`: carried over, with only `looked` (the paths an update visited) re-checked. */
  private remember(
    v: ReturnType<WorkspaceIndex["visitor"]>,
    o: ScanOptions,
    carried?: { special: Set<string>; looked: Iterable<string>; views: SnapshotViews<ScanEntry> },
  ): SnapshotFiles<ScanEntry> {
    const special = carried?.special ?? new Set<string>();
    if (carried) {
      for (const abs of carried.looked) {
        const e = v.out.get(abs);
        if (e && isSpecial(e, o.fileCap)) special.add(abs);
        else special.delete(abs);
      }
    } else for (const [abs, e] of v.out) if (isSpecial(e, o.fileCap)) special.add(abs);
    const views = carried?.views ?? new SnapshotViews<ScanEntry>();
    this.last = {
      out: v.out,
      git: o.git ?? null,
      fileCap: o.fileCap,
      skip: JSON.stringify(o.skip),
      special,
      kept: v.used(),
      views,
    };
    return views.take(v.out);
  }

  /**
   * Like {@link scan}, but only `changed` paths (from a watcher: files, directories to
   * walk, removed paths) and the entries that need it (racy, not stored) are looked at;
   * every other entry is taken as it is. `onDir` hears of directories found on the way.
   */
  async update(
    blobs: BlobStore,
    o: ScanOptions,
    changed: Iterable<string>,
    onDir: (dir: string) => void,
  ): Promise<SnapshotFiles<ScanEntry>> {
    const last = this.last;
    const incremental = last !== null && last.git === (o.git ?? null) &&
      last.fileCap === o.fileCap && last.skip === JSON.stringify(o.skip);
    this.last = null; // until this update is done (a failure leaves no half result)
    const v = incremental ? this.visitor(blobs, o, last) : this.visitor(blobs, o);
    const pacer = new Pacer(o.signal, this.workspace);
    const recheck = new Set<string>();
    /** Paths gone or walked: entries at or under them not found again are dropped. */
    const under = new Set<string>();
    const found = new Set<string>();
    for (const p of changed) {
      let st: Deno.FileInfo | null = null;
      try {
        st = Deno.lstatSync(p);
      } catch { /* removed */ }
      if (st?.isFile) recheck.add(p);
      else if (st?.isDirectory) {
        onDir(p);
        const base = p.endsWith("/") ? p : p + "/";
        for await (const batch of walkBatches(p, { signal: o.signal, pacer, dirs: true })) {
          for (const e of batch) {
            if (e.type === "dir") onDir(base + e.path);
            if (e.type === "file") found.add(base + e.path);
          }
        }
        under.add(p);
      } else under.add(p); // gone (or no longer a regular file): it and anything under it
    }
    for (const f of found) recheck.add(f);
    if (under.size) {
      for (const abs of [...this.entries.keys()]) {
        if (!found.has(abs) && !recheck.has(abs) && atOrUnder(abs, under, this.workspace)) {
          this.forget(abs);
          if (incremental) {
            v.drop(abs);
            last.special.delete(abs);
          }
        }
      }
    }
    if (incremental) {
      const looked = [...recheck, ...last.special];
      for (const abs of looked) v.visit(abs, true);
      this.saveSoon();
      return this.remember(v, o, { special: last.special, looked, views: last.views });
    }
    // In memory only (no yield per entry: an async yield costs more than the whole loop).
    for (const [abs, e] of this.entries) {
      if (
        recheck.has(abs) || e.racy || (e.hash === null && e.size <= o.fileCap) ||
        (isGitHash(e.hash) && o.git?.entries.get(abs)?.oid !== oidOf(e.hash))
      ) v.visit(abs);
      else v.reuse(abs, e);
    }
    for (const abs of recheck) if (!v.out.has(abs)) v.visit(abs);
    this.saveSoon();
    return this.remember(v, o);
  }

  private forget(abs: string): void {
    if (this.entries.delete(abs)) this.dirty = true;
  }

  /** Looks at one file for a scan: reuses its hash when the stat allows, else reads it. */
  private visitor(
    blobs: BlobStore,
    o: ScanOptions,
    from?: { out: Map<string, ScanEntry>; kept: number; views: SnapshotViews<ScanEntry> },
  ) {
    this.lastUsed = Date.now();
    const stamp = this.stamp();
    const out = from?.out ?? new Map<string, ScanEntry>();
    const t0 = performance.now();
    const after = o.progressAfterMs ?? 1000;
    let lastReport = -Infinity, bytes = 0, budget = o.budget - (from?.kept ?? 0), room = o.room;
    /** Changes the result (which the views of an earlier one share: they keep theirs). */
    const put = (abs: string, e: ScanEntry) => {
      from?.views.keep(abs);
      out.set(abs, e);
    };
    /** A result entry goes (its kept bytes no longer count). */
    const drop = (abs: string) => {
      const e = out.get(abs);
      if (e?.hash && !isGitHash(e.hash) && e.size <= o.fileCap) budget += e.size;
      from?.views.keep(abs);
      out.delete(abs);
    };
    const progress = () => {
      const now = performance.now();
      if (o.onProgress && now - t0 >= after && now - lastReport > 250) {
        lastReport = now;
        o.onProgress({ files: out.size, bytes });
      }
    };
    /** An entry the watcher says is unchanged: only the per-scan caps are applied. */
    const reuse = (abs: string, e: ScanEntry) => {
      if (isGitHash(e.hash)) put(abs, e.skipped === null ? e : { ...e, skipped: null });
      else if (e.size > o.fileCap) {
        put(abs, e.skipped === o.skip.tooLarge ? e : { ...e, skipped: o.skip.tooLarge });
      } else if (e.hash) {
        // Shared with the index and other snapshots (its stat and hash are facts).
        blobs.touch(e.hash);
        budget -= e.size;
        put(abs, e.skipped === null ? e : { ...e, skipped: null });
      } else put(abs, { ...e, skipped: o.skip.full });
    };
    /** `again`: the result may already hold the file (an incremental update). */
    const visit = (abs: string, again = false) => {
      if (again) drop(abs);
      let st: Deno.FileInfo;
      try {
        st = Deno.lstatSync(abs);
      } catch {
        this.forget(abs); // vanished since the directory was read
        return;
      }
      if (!st.isFile) return this.forget(abs);
      const old = this.entries.get(abs);
      let hash: string | null = null;
      let skipped: string | null = null;
      const g = o.git?.entries.get(abs);
      if (g && matchesIndex(g, st, o.git!.mtime)) hash = GIT_PREFIX + g.oid;
      else if (st.size > o.fileCap) skipped = o.skip.tooLarge;
      else if (old?.hash && !isGitHash(old.hash) && !old.racy && sameStat(old, st)) {
        hash = old.hash;
        blobs.touch(hash);
        budget -= st.size;
      } else if (st.size > budget || st.size > room) skipped = o.skip.full;
      else {
        try {
          hash = blobs.putFile(abs);
          budget -= st.size;
          room -= st.size;
          bytes += st.size;
        } catch {
          skipped = o.skip.unreadable;
        }
      }
      const entry: ScanEntry = {
        mtime: st.mtime?.getTime() ?? 0,
        ctime: st.ctime?.getTime() ?? 0,
        size: st.size,
        ino: st.ino ?? 0,
        mode: modeOf(st),
        hash,
        racy: hash !== null && isRacy(st, stamp),
        skipped,
      };
      put(abs, entry);
      if (
        !old || old.hash !== hash || old.racy !== entry.racy || !sameStat(old, st) ||
        old.mode !== entry.mode
      ) {
        this.dirty = true;
      }
      this.entries.set(abs, entry);
      progress();
    };
    return { out, visit, reuse, drop, used: () => o.budget - budget };
  }
}

/** Whether every update looks at the entry again (see `WorkspaceIndex.last`). */
function isSpecial(e: ScanEntry, fileCap: number): boolean {
  return e.racy || (e.hash === null && e.size <= fileCap);
}

/** The entries of an index file (of `workspace`, unless null); none when unusable. */
function readIndexFile(file: string, workspace: string | null): [string, IndexEntry][] {
  const out: [string, IndexEntry][] = [];
  try {
    if (Deno.statSync(file).size > MAX_INDEX_BYTES) return out;
    const data = JSON.parse(Deno.readTextFileSync(file));
    if (data?.version !== VERSION || !Array.isArray(data.entries)) return out;
    if (workspace !== null && data.workspace !== workspace) return out;
    for (const r of data.entries) {
      if (
        !Array.isArray(r) || typeof r[0] !== "string" || r[0].startsWith("/") ||
        r[0].split("/").includes("..")
      ) {
        continue;
      }
      const [rel, mtime, ctime, size, ino, hash, racy, mode = 0] = r;
      if (![mtime, ctime, size, ino, mode].every(Number.isFinite)) continue;
      if (
        hash !== null &&
        !(typeof hash === "string" && /^(?:[0-9a-f]{64}|git:[0-9a-f]{40})$/.test(hash))
      ) continue;
      out.push([rel, { mtime, ctime, size, ino, mode, hash, racy: racy === 1 }]);
    }
  } catch { /* no index yet, or unreadable: the next scan rebuilds it */ }
  return out;
}

/** Where a workspace's index lives under the checkpoint store. */
export function indexFileOf(indexDir: string, workspace: string): string {
  return join(indexDir, `${sha256Hex(workspace).slice(0, 32)}.json`);
}

/** Whether `abs` is one of `paths` or inside one (checked by its ancestors: O(depth)). */
export function atOrUnder(abs: string, paths: Set<string>, root: string): boolean {
  for (let p = abs; p.length >= root.length; p = dirname(p)) {
    if (paths.has(p)) return true;
    if (p === "/" || p === ".") break;
  }
  return false;
}
