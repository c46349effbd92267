/**
 * Checkpoints & rewind. Before a tool writes or deletes a file, its bytes are kept
 * (content-addressed) for the turn. Shell commands are covered too: before a turn's
 * first command the workspace is snapshotted (files ≤ 2 MB, bounded), and after each
 * command the changed files are recorded against that snapshot. Rewind previews, then
 * applies all-or-nothing with a hash check per file (fail-closed), puts back each file's
 * permission bits with its bytes, and never follows symlinks.
 *
 * Snapshots are incremental: a persisted stat index per workspace means only changed
 * files are read (stat_index.ts), a big workspace is watched so only changed paths are
 * even looked at (workspace_scans.ts, workspace_watch.ts), blobs are stored once in packs
 * (checkpoint_blobs.ts) and collected when nothing names them (checkpoint_gc.ts). In a
 * git repository, tracked files unchanged from git's index are not copied at all: their
 * object ids are recorded and a rewind reads them back from git (git_objects.ts); a
 * workspace without git needs none of it.
 */
import { dirname, join } from "../../lib/path.ts";
import type { CheckpointRepo, CheckpointRow } from "../../store/checkpoints.ts";
import { contentHash, hashReadyFor, loadNativeHash } from "../../lib/content_hash.ts";
import { Pacer, walk } from "../../tools/walk.ts";
import { BlobStore } from "./checkpoint_blobs.ts";
import { type TakenSnapshot, WorkspaceScans } from "./workspace_scans.ts";
import { CheckpointGc, type GcResult } from "./checkpoint_gc.ts";
import { atOrUnder, hashNow, isRacy, modeOf, sameStat, type ScanEntry } from "./stat_index.ts";
import {
  findRepo,
  gitBlobOid,
  type GitIndex,
  isGitHash,
  missingGitBlobs,
  oidOf,
  pinGitBlobs,
  pinRefOf,
  readGitBlobs,
  readGitIndex,
} from "./git_objects.ts";
import type { RewindReason } from "../../protocol/index.ts";
import type { WatchBackend } from "../../lib/watch.ts";

export const BLOB_CAP = 32 * 1024 * 1024;
export const TASK_CAP = 512 * 1024 * 1024;
export const SHELL_FILE_CAP = 2 * 1024 * 1024;

export interface RewindPreview {
  restore: string[];
  remove: string[];
  conflicts: RewindReason[];
  /** Changes whose earlier content was not kept (too large, cap, symlink). */
  unrewindable: RewindReason[];
}

const MB = 1048576;

/**
 * The English texts of skipped checkpoints (stored with each row, shown by the CLI)
 * and how they map to the codes the UI translates.
 */
export const SKIP_TEXT = {
  tooLarge: (bytes: number) => `larger than ${bytes / MB} MB`,
  taskFull: (bytes: number) => `the task's checkpoint space (${bytes / MB} MB) is full`,
  notRegular: "not a regular file",
  snapshotFull: "the snapshot cap was reached",
  unreadable: "could not be read",
};
/** A file whose earlier content git was to keep, and no longer has. */
const GIT_GONE = "its earlier content was in the git repository's object store, which no " +
  "longer has it (garbage-collected, or the repository was replaced)";
const CONFLICT_TEXT = {
  changed: "changed outside the agent since",
  symlink: "is now a symbolic link",
};

/** A stored reason (this file's own texts, also from older rows) as a code + params. */
export function reasonOf(path: string, reason: string): RewindReason {
  let m: RegExpExecArray | null;
  if ((m = /^larger than ([\d.]+) MB$/.exec(reason))) {
    return { path, reason, code: "too_large", params: { mb: Number(m[1]) } };
  }
  if ((m = /^the task's checkpoint space \(([\d.]+) MB\) is full$/.exec(reason))) {
    return { path, reason, code: "task_full", params: { mb: Number(m[1]) } };
  }
  if (reason === SKIP_TEXT.notRegular) return { path, reason, code: "not_regular" };
  if (reason === SKIP_TEXT.snapshotFull) return { path, reason, code: "snapshot_full" };
  if (reason === CONFLICT_TEXT.changed) return { path, reason, code: "changed" };
  if (reason === CONFLICT_TEXT.symlink) return { path, reason, code: "symlink" };
  return { path, reason, code: "other" };
}

type Snapshot = TakenSnapshot;

/** Default cap of the whole checkpoint store (blobs of every task and workspace). */
export const STORE_CAP = 2 * 1024 * 1024 * 1024;
/** Turn snapshots kept (running turns and their background jobs need theirs). */
const SNAPSHOTS_KEPT = 50;

export interface CheckpointCaps {
  blob: number;
  task: number;
  shellFile: number;
  /** The whole store: snapshots stop keeping new content beyond it; GC evicts indexes. */
  store: number;
  /** Workspaces of at least this many files are watched (see workspace_watch.ts). */
  watchFiles: number;
  /** The watcher's kind (default: the best here; tests run each). */
  watchBackend?: WatchBackend;
}

export class Checkpointer {
  /** Per task+turn: the workspace snapshot used to attribute shell changes. */
  private snapshots = new Map<string, Snapshot>();
  /** Per task+turn: the comparison under way (a background job's and a command's may meet). */
  private comparing = new Map<string, Promise<unknown>>();
  /** Comparisons after commands, by kind (tests and the bench check which ran). */
  compares = { full: 0, watched: 0 };
  /** Per workspace: its stat index, the scan under way and its watcher. */
  readonly scans: WorkspaceScans;
  readonly blobs: BlobStore;
  readonly indexDir: string;
  private gc: CheckpointGc;
  readonly caps: CheckpointCaps;

  /** `dir`: the checkpoint store (`blobs/` and `index/` inside it). */
  constructor(
    private repo: CheckpointRepo,
    readonly dir: string,
    caps: Partial<CheckpointCaps> = {},
  ) {
    this.caps = {
      blob: BLOB_CAP,
      task: TASK_CAP,
      shellFile: SHELL_FILE_CAP,
      store: STORE_CAP,
      watchFiles: 2000,
      ...caps,
    };
    this.blobs = new BlobStore(join(dir, "blobs"));
    this.indexDir = join(dir, "index");
    this.scans = new WorkspaceScans(
      this.blobs,
      this.indexDir,
      this.caps.watchFiles,
      this.caps.watchBackend,
    );
    this.gc = new CheckpointGc({
      blobs: this.blobs,
      indexDir: this.indexDir,
      cap: this.caps.store,
      referenced: () => this.repo.referencedHashes(),
      indexes: () => this.scans.inMemory(),
      snapshotHashes: () => this.snapshotHashes(),
      dropIndexes: (keep) => this.scans.drop(keep),
      newestWorkspace: () => this.scans.newest(),
    });
    const back = this.recoverRewind();
    if (back.length) {
      console.error(`a rewind interrupted by a crash was undone: ${back.join(", ")} put back`);
    }
  }

  /** Removes blobs nothing needs any more (see checkpoint_gc.ts); `delayMs` debounces. */
  collectSoon(delayMs = 1000): void {
    this.gc.schedule(delayMs);
  }

  /** One collection now (tests, the About page's numbers). */
  collect(): Promise<GcResult> {
    return this.gc.run();
  }

  /** The store's size and cap (Settings → About). */
  storeInfo(): { bytes: number; blobs: number; capBytes: number } {
    return { bytes: this.blobs.bytes, blobs: this.blobs.count, capBytes: this.caps.store };
  }

  /** Shutdown: no collection pending, the pack being written closed. */
  close(): void {
    this.gc.close();
    this.scans.close();
    this.blobs.closePack();
  }

  private dropSnapshot(key: string): void {
    const s = this.snapshots.get(key);
    if (s?.sub) s.watcher?.unsubscribe(s.sub);
    s?.files.release();
    this.snapshots.delete(key);
  }

  private *snapshotHashes(): Generator<string> {
    for (const s of this.snapshots.values()) {
      for (const e of s.files.values()) if (e.hash) yield e.hash;
    }
  }

  /**
   * The bytes kept under `hash`, or null when they are not (or no longer) kept. A git
   * object id is looked up in the repository of `near` (a path in it), else in the
   * repositories this process has seen.
   */
  async readBlob(hash: string, near?: string): Promise<Uint8Array | null> {
    if (!isGitHash(hash)) return this.blobs.read(hash);
    const dirs = new Set<string>();
    const repo = near ? findRepo(dirname(near)) : null;
    if (repo) dirs.add(repo.gitDir);
    for (const d of this.gitDirs) dirs.add(d);
    for (const d of dirs) {
      const got = (await readGitBlobs(d, [oidOf(hash)])).get(oidOf(hash));
      if (got) return got;
    }
    return null;
  }

  /** Git directories whose objects this process's snapshots named. */
  private gitDirs = new Set<string>();
  /** Git directories checked to answer our plumbing (true) or not (false). */
  private gitUsable = new Map<string, boolean>();
  /** Per task: the object ids its ref keeps reachable, and the pin under way. */
  private pinned = new Map<string, { oids: Set<string>; gitDir: string }>();
  private pinning = Promise.resolve();

  /**
   * Git's index for a snapshot of `workspace`, when it is in a repository whose objects
   * our plumbing can read (checked once per repository: git installed, not refused).
   */
  private async gitIndexFor(workspace: string): Promise<GitIndex | null> {
    const repo = findRepo(workspace);
    if (!repo) return null;
    const index = readGitIndex(repo);
    if (!index || index.entries.size === 0) return null;
    let ok = this.gitUsable.get(repo.gitDir);
    if (ok === undefined) {
      const first = index.entries.values().next().value!.oid;
      ok = (await missingGitBlobs(repo.gitDir, [first])).size === 0;
      this.gitUsable.set(repo.gitDir, ok);
    }
    if (!ok) return null;
    this.gitDirs.add(repo.gitDir);
    return index;
  }

  /**
   * Keeps the git objects the task's rows name reachable from the task's own ref, so a
   * `git gc` cannot take content a rewind needs. Rebuilt from the rows (a rewind's or a
   * deleted task's rows are gone, so are their pins; none left: the ref goes); skipped
   * when the set is the one already pinned.
   */
  private pinTask(taskId: string, gitDir: string): Promise<void> {
    const run = async () => {
      const oids = new Set<string>();
      for (const r of this.repo.since(taskId, 0)) {
        if (isGitHash(r.preHash)) oids.add(oidOf(r.preHash));
      }
      const had = this.pinned.get(taskId);
      if (
        had && had.gitDir === gitDir && had.oids.size === oids.size &&
        [...oids].every((o) => had.oids.has(o))
      ) return;
      if (await pinGitBlobs(gitDir, pinRefOf(taskId), oids)) {
        if (oids.size) this.pinned.set(taskId, { oids, gitDir });
        else this.pinned.delete(taskId);
      }
    };
    this.pinning = this.pinning.then(run, run).catch((e) => {
      console.error(`checkpoints: could not keep git objects reachable: ${e}`);
    });
    return this.pinning;
  }

  /** Keeps `bytes` (content-addressed; stored once); returns their hash. */
  async keepBlob(bytes: Uint8Array): Promise<string> {
    await hashReadyFor(bytes.length);
    return this.blobs.put(bytes);
  }

  private putBlob(bytes: Uint8Array): Promise<string> {
    return this.keepBlob(bytes);
  }

  /** Current content hash of `abs`; null when absent; "symlink"/"dir" markers otherwise. */
  private async currentHash(abs: string): Promise<string | null> {
    let st: Deno.FileInfo;
    try {
      st = await Deno.lstat(abs);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    }
    if (st.isSymlink) return "symlink";
    if (!st.isFile) return "not-a-file";
    return await contentHash(await Deno.readFile(abs));
  }

  /** Keeps `abs`'s bytes before a tool changes it (first time in this turn only). */
  async beforeWrite(taskId: string, turn: { id: string; pos: number }, abs: string): Promise<void> {
    if (this.repo.find(taskId, turn.id, abs)) return;
    let st: Deno.FileInfo | null = null;
    try {
      st = await Deno.lstat(abs);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    const row = {
      taskId,
      turnId: turn.id,
      turnPos: turn.pos,
      path: abs,
      postHash: null,
      source: "tool" as const,
    };
    if (!st) {
      return this.repo.insert({ ...row, preHash: null, preSize: 0, preMode: null, skipped: null });
    }
    if (st.isSymlink || !st.isFile) {
      return this.repo.insert({ ...row, preHash: null, preSize: 0, skipped: SKIP_TEXT.notRegular });
    }
    const skipped = st.size > this.caps.blob
      ? SKIP_TEXT.tooLarge(this.caps.blob)
      : this.repo.bytes(taskId) + st.size > this.caps.task
      ? SKIP_TEXT.taskFull(this.caps.task)
      : null;
    const preHash = skipped
      ? await contentHash(await Deno.readFile(abs))
      : await this.putBlob(await Deno.readFile(abs));
    // Until the tool succeeds, the file is as it was: post = pre.
    this.repo.insert({
      ...row,
      preHash,
      postHash: preHash,
      preSize: skipped ? 0 : st.size,
      preMode: modeOf(st),
      skipped,
    });
  }

  /** Records the state a tool left `abs` in (for conflict detection at rewind). */
  async afterWrite(taskId: string, turn: { id: string }, abs: string): Promise<void> {
    this.repo.setPost(taskId, turn.id, abs, await this.currentHash(abs));
  }

  /**
   * Before a shell command: make sure the turn has a snapshot of the workspace. Only
   * files whose stat changed since the workspace's last scan are read (stat index).
   * `onProgress` hears from a scan that takes more than a second.
   */
  beforeShell(
    taskId: string,
    turn: { id: string },
    workspace: string,
    signal?: AbortSignal,
    onProgress?: (p: { files: number; bytes: number }) => void,
  ): Promise<void> {
    const key = `${taskId}\0${turn.id}`;
    if (this.snapshots.has(key)) return Promise.resolve();
    return this.scans.serial(workspace, async () => {
      if (this.snapshots.has(key)) return;
      await loadNativeHash(); // a first snapshot hashes every file: natively, ~9× faster
      const git = await this.gitIndexFor(workspace);
      const budget = Math.max(0, this.caps.task - this.repo.bytes(taskId));
      const snap = await this.scans.snapshot(
        workspace,
        this.scanOptions(git, budget, signal, onProgress),
      );
      this.snapshots.set(key, snap);
      if (this.snapshots.size > SNAPSHOTS_KEPT) {
        this.dropSnapshot(this.snapshots.keys().next().value!);
      }
    });
  }

  /**
   * Builds a big repository's stat index and arms its watcher while the model answers,
   * so the turn's first command waits for a look at the changes only. Only where that
   * is cheap: a git repository of at least `watchFiles` tracked files (they are lstat'ed,
   * not read); elsewhere a first scan reads every file, which a turn that runs no command
   * should not pay for. The snapshot itself is still taken before the command.
   */
  warm(workspace: string): void {
    if (this.scans.ready(workspace)) return;
    const repo = findRepo(workspace);
    let size = 0;
    try {
      size = repo ? Deno.statSync(join(repo.gitDir, "index")).size : 0;
    } catch { /* no index */ }
    // An entry takes at least 62 bytes: a smaller index file lists too few files to count.
    if (size < this.caps.watchFiles * 62) return;
    this.warming = this.scans.serial(workspace, async () => {
      if (this.scans.ready(workspace)) return;
      const git = await this.gitIndexFor(workspace);
      if (!git || git.entries.size < this.caps.watchFiles) return;
      const snap = await this.scans.snapshot(workspace, this.scanOptions(git, this.caps.task));
      if (snap.sub) snap.watcher?.unsubscribe(snap.sub);
      snap.files.release();
    }).catch((e) => console.error(`checkpoints: could not prepare ${workspace}: ${e}`));
  }

  /** The warm-up under way (tests and the bench wait for it). */
  warming: Promise<void> = Promise.resolve();

  private scanOptions(
    git: GitIndex | null,
    budget: number,
    signal?: AbortSignal,
    onProgress?: (p: { files: number; bytes: number }) => void,
  ) {
    return {
      git,
      fileCap: this.caps.shellFile,
      budget,
      room: Math.max(0, this.caps.store - this.blobs.bytes),
      skip: {
        tooLarge: SKIP_TEXT.tooLarge(this.caps.shellFile),
        full: SKIP_TEXT.snapshotFull,
        unreadable: SKIP_TEXT.unreadable,
      },
      signal,
      onProgress,
    };
  }

  /**
   * After a shell command: records every file it created, changed or deleted.
   * Returns the changes that cannot be rewound (for the exec card).
   */
  afterShell(
    taskId: string,
    turn: { id: string; pos: number },
    workspace: string,
  ): Promise<{ changed: string[]; unrewindable: RewindReason[] }> {
    // One comparison at a time per turn: two at once would record a change twice.
    const key = `${taskId}\0${turn.id}`;
    const prev = this.comparing.get(key) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(() => this.compare(taskId, turn, workspace));
    this.comparing.set(key, next);
    next.finally(() => {
      if (this.comparing.get(key) === next) this.comparing.delete(key);
    }).catch(() => {});
    return next;
  }

  private async compare(
    taskId: string,
    turn: { id: string; pos: number },
    workspace: string,
  ): Promise<{ changed: string[]; unrewindable: RewindReason[] }> {
    const snap = this.snapshots.get(`${taskId}\0${turn.id}`);
    if (!snap) return { changed: [], unrewindable: [] };
    await loadNativeHash();
    const seen = new Set<string>();
    const changed: string[] = [];
    const unrewindable: RewindReason[] = [];
    let namesGit = false;
    const record = async (abs: string, before: ScanEntry | undefined) => {
      const post = await this.currentHash(abs);
      const existing = this.repo.find(taskId, turn.id, abs);
      if (!existing) {
        this.repo.insert({
          taskId,
          turnId: turn.id,
          turnPos: turn.pos,
          path: abs,
          preHash: before ? before.hash : null,
          postHash: post,
          preSize: 0, // the snapshot's blobs are shared; counted when taken
          preMode: before?.mode || null,
          source: "shell",
          skipped: before?.skipped ?? null,
        });
      } else this.repo.setPost(taskId, turn.id, abs, post);
      if (!existing && isGitHash(before?.hash)) namesGit = true;
      const reason = existing?.skipped ?? before?.skipped;
      if (reason) unrewindable.push(reasonOf(abs, reason));
      changed.push(abs);
    };
    const stamp = this.scans.indexOf(workspace).stamp();
    /** One file as it is now against the snapshot (racy stats checked by content). */
    const check = async (abs: string, st: Deno.FileInfo) => {
      const before = snap.files.get(abs);
      if (before && sameStat(before, st)) {
        if (!before.racy) return;
        // Racy: the stat cannot tell; the content can (against the last known state).
        const row = this.repo.find(taskId, turn.id, abs);
        const known = row ? row.postHash : before.hash;
        if (known === null || hashNow(abs, this.blobs, known) === known) {
          before.racy = isRacy(st, stamp);
          return;
        }
      }
      await record(abs, before);
      snap.files.set(abs, {
        mtime: st.mtime?.getTime() ?? 0,
        ctime: st.ctime?.getTime() ?? 0,
        size: st.size,
        ino: st.ino ?? 0,
        mode: modeOf(st), // the row keeps the mode before; this is for the next look
        hash: before?.hash ?? null,
        skipped: before?.skipped ?? null,
        racy: isRacy(st, stamp),
      });
    };
    /** Files of the snapshot under `prefix` (or all) that were not seen: deleted. */
    const gone = async (prefix: string | null) => {
      for (const [abs, before] of [...snap.files]) {
        if (seen.has(abs) || (prefix !== null && !abs.startsWith(prefix))) continue;
        await record(abs, before);
        snap.files.delete(abs);
      }
    };
    const lstat = (abs: string) => {
      try {
        return Deno.lstatSync(abs);
      } catch {
        return null;
      }
    };
    const pacer = new Pacer(undefined, workspace);
    /** Walks `root` and checks its files; then what is gone under it. `onDir`: its folders. */
    const sweep = async (
      root: string,
      prefix: string | null,
      onDir?: (d: string) => void,
      sweepGone = true,
    ) => {
      const base = root.endsWith("/") ? root : root + "/";
      onDir?.(root);
      for await (const e of walk(root, { pacer, dirs: !!onDir })) {
        if (e.type === "dir") onDir?.(base + e.path);
        if (e.type !== "file") continue;
        const abs = base + e.path;
        const st = lstat(abs);
        if (!st?.isFile) continue;
        seen.add(abs);
        await check(abs, st);
      }
      if (sweepGone) await gone(prefix);
    };
    const w = snap.watcher;
    const done = async () => {
      const repo = namesGit ? findRepo(workspace) : null;
      if (repo) await this.pinTask(taskId, repo.gitDir);
      return { changed, unrewindable };
    };
    if (snap.sub && w && !w.broken && await w.sync() && !w.isOver(snap.sub)) {
      // Watched: only the paths that changed since the last look.
      this.compares.watched++;
      const paths = snap.sub;
      snap.sub = w.subscribe();
      w.unsubscribe(paths);
      // Gone (or swept) paths: the snapshot's files at or under them not seen are deleted.
      const under = new Set<string>();
      for (const p of [...paths, ...w.unwatched]) {
        const st = lstat(p);
        if (st?.isFile) {
          seen.add(p);
          await check(p, st);
        } else if (st?.isDirectory) {
          // A folder made since the watch began is not watched: walked from now on.
          await sweep(p, p.endsWith("/") ? p : p + "/", (d) => w.addUnwatched(d), false);
          under.add(p);
        } else under.add(p);
      }
      if (under.size) {
        for (const [abs, before] of [...snap.files]) {
          if (seen.has(abs) || !atOrUnder(abs, under, workspace)) continue;
          await record(abs, before);
          snap.files.delete(abs);
        }
      }
      return await done();
    }
    this.compares.full++;
    if (snap.sub && w && !w.broken) {
      // Overflowed: start afresh (the sweep sees everything up to now).
      w.unsubscribe(snap.sub);
      snap.sub = w.subscribe();
    }
    await sweep(workspace, null);
    return await done();
  }

  /**
   * A task was deleted, rewound or truncated: its turn snapshots go, and the blobs only
   * they (or its rows) named are collected soon.
   */
  forgetTask(taskId: string): void {
    for (const key of [...this.snapshots.keys()]) {
      if (key.startsWith(`${taskId}\0`)) this.dropSnapshot(key);
    }
    const pinned = this.pinned.get(taskId);
    if (pinned) this.pinTask(taskId, pinned.gitDir); // what its remaining rows name
    this.collectSoon();
  }

  /** What rewinding to before the turn at `turnPos` would do. */
  async preview(taskId: string, turnPos: number): Promise<RewindPreview> {
    return (await this.plan(taskId, turnPos)).preview;
  }

  /**
   * The preview, and the bytes of every file to restore from git (read now, so that a
   * rewind whose git objects are gone is refused before anything is written).
   */
  private async plan(
    taskId: string,
    turnPos: number,
    readGit = false,
  ): Promise<{ preview: RewindPreview; gitBytes: Map<string, Uint8Array> }> {
    const rows = this.repo.since(taskId, turnPos);
    const first = new Map<string, CheckpointRow>();
    const last = new Map<string, CheckpointRow>();
    for (const r of rows) {
      if (!first.has(r.path)) first.set(r.path, r);
      last.set(r.path, r);
    }
    const out: RewindPreview = { restore: [], remove: [], conflicts: [], unrewindable: [] };
    /** Restores from git, by repository: path → object id. */
    const fromGit = new Map<string, Map<string, string>>();
    for (const [path, f] of first) {
      const skipped = rows.find((r) => r.path === path && r.skipped)?.skipped;
      if (skipped) {
        out.unrewindable.push(reasonOf(path, skipped));
        continue;
      }
      const expected = last.get(path)!.postHash;
      const now = await this.currentHash(path);
      if (now === "symlink") out.conflicts.push(reasonOf(path, CONFLICT_TEXT.symlink));
      else if (now !== expected) out.conflicts.push(reasonOf(path, CONFLICT_TEXT.changed));
      else if (f.preHash === null) {
        if (now !== null) out.remove.push(path);
      } else if (now === null || !(await sameAs(path, f.preHash, f.preMode))) {
        out.restore.push(path);
        if (isGitHash(f.preHash)) {
          const gitDir = findRepo(dirname(path))?.gitDir ?? "";
          if (!fromGit.has(gitDir)) fromGit.set(gitDir, new Map());
          fromGit.get(gitDir)!.set(path, oidOf(f.preHash));
        }
      }
    }
    const gitBytes = new Map<string, Uint8Array>();
    for (const [gitDir, paths] of fromGit) {
      const have = !gitDir
        ? new Map<string, Uint8Array>()
        : readGit
        ? await readGitBlobs(gitDir, paths.values())
        : null;
      const missing = have ? null : await missingGitBlobs(gitDir, paths.values());
      for (const [path, oid] of paths) {
        const bytes = have?.get(oid);
        if (bytes) gitBytes.set(path, bytes);
        if (have ? !bytes : missing!.has(oid)) {
          out.restore.splice(out.restore.indexOf(path), 1);
          out.unrewindable.push(reasonOf(path, GIT_GONE));
        }
      }
    }
    return { preview: out, gitBytes };
  }

  /**
   * Rewinds files to before the turn at `turnPos`: nothing is written unless every
   * file is exactly as the agent left it and every earlier version can be had. All or
   * nothing, crashes included: each file's current content is kept and named in a
   * journal (in the database) before the first write; a failure half-way puts back what
   * was written, and a crash half-way is undone at the next start ({@link recoverRewind}).
   * `written` is for tests: it runs after each file.
   */
  async apply(
    taskId: string,
    turnPos: number,
    written?: (path: string) => Promise<void>,
  ): Promise<RewindPreview> {
    const { preview: plan, gitBytes } = await this.plan(taskId, turnPos, true);
    if (plan.conflicts.length || plan.unrewindable.length) return plan;
    const rows = this.repo.since(taskId, turnPos);
    const pre = new Map<string, CheckpointRow>();
    for (const r of rows) if (!pre.has(r.path)) pre.set(r.path, r);
    const touched = [...plan.restore, ...plan.remove];
    const before: { path: string; before: string | null }[] = [];
    for (const p of touched) {
      const bytes = await Deno.readFile(p).catch(() => null);
      before.push({ path: p, before: bytes ? this.blobs.put(bytes) : null });
    }
    this.repo.setJournal({ taskId, turnPos, files: before });
    try {
      for (const p of plan.restore) {
        const row = pre.get(p)!;
        const bytes = isGitHash(row.preHash)
          ? gitBytes.get(p) ?? null
          : this.blobs.readSync(row.preHash!);
        if (!bytes) throw new Error(`the kept version of ${p} is missing`);
        await Deno.mkdir(dirname(p), { recursive: true });
        await replaceFile(p, bytes, row.preMode ?? null);
        await written?.(p);
      }
      for (const p of plan.remove) {
        await Deno.remove(p);
        await written?.(p);
      }
    } catch (e) {
      this.putBack(before);
      this.repo.setJournal(null);
      throw new Error(`rewind failed and was undone: ${(e as Error).message}`);
    }
    this.repo.finishRewind(taskId, turnPos);
    this.forgetTask(taskId);
    await this.pinning;
    return plan;
  }

  /**
   * Undoes a rewind a crash interrupted (its journal is still there): every file it may
   * have touched gets its content from before back. Runs before anything else uses the
   * store; returns the paths put back.
   */
  recoverRewind(): string[] {
    const j = this.repo.journal();
    if (!j) return [];
    this.putBack(j.files);
    this.repo.setJournal(null);
    return j.files.map((f) => f.path);
  }

  /** Files back to the blobs named (null: removed). */
  private putBack(files: { path: string; before: string | null }[]): void {
    for (const f of files) {
      try {
        if (f.before === null) Deno.removeSync(f.path);
        else {
          const bytes = this.blobs.readSync(f.before);
          if (bytes) replaceFileSync(f.path, bytes);
        }
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) {
          console.error(`rewind: could not put back ${f.path}: ${(e as Error).message}`);
        }
      }
    }
  }
}

/** Whether `path` holds the content `hash` names (a kept blob or git's) with `mode`. */
async function sameAs(path: string, hash: string, mode: number | null | undefined) {
  try {
    if (mode && modeOf(await Deno.lstat(path)) !== mode) return false;
    const bytes = await Deno.readFile(path);
    return isGitHash(hash)
      ? gitBlobOid(bytes) === oidOf(hash)
      : (await contentHash(bytes)) === hash;
  } catch {
    return false;
  }
}

/**
 * Writes `bytes` beside `path` and renames it over: a reader never sees half a file.
 * `mode`: the permission bits to give it (null: the default, as before modes were kept).
 */
async function replaceFile(path: string, bytes: Uint8Array, mode: number | null): Promise<void> {
  const tmp = `${path}.reinagent-rewind.tmp`;
  await Deno.writeFile(tmp, bytes);
  if (mode) await Deno.chmod(tmp, mode);
  await Deno.rename(tmp, path);
}
function replaceFileSync(path: string, bytes: Uint8Array): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.reinagent-rewind.tmp`;
  Deno.writeFileSync(tmp, bytes);
  Deno.renameSync(tmp, path);
}
