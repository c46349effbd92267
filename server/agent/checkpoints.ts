/**
 * Checkpoints & rewind (SPEC §3.13, §11.4). Before a tool writes or deletes a file,
 * its bytes are kept (content-addressed) for the turn. Shell commands are covered too:
 * before a turn's first command the workspace is snapshotted (files ≤ 2 MB, bounded),
 * and after each command the changed files are recorded against that snapshot. No git
 * needed. Rewind previews, then applies all-or-nothing with a hash check per file
 * (fail-closed) and never follows symlinks.
 */
import { dirname, join } from "node:path";
import type { CheckpointRepo, CheckpointRow } from "../../store/checkpoints.ts";
import { sha256Hex } from "../../tools/file_stamp.ts";
import { walk } from "../../tools/walk.ts";
import type { RewindReason } from "../../protocol/index.ts";

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
};
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

interface Snapshot {
  files: Map<string, { mtime: number; size: number; hash: string | null; skipped: string | null }>;
}

export class Checkpointer {
  /** Per task+turn: the workspace snapshot used to attribute shell changes. */
  private snapshots = new Map<string, Snapshot>();
  /** Per task+turn: the comparison under way (a background job's and a command's may meet). */
  private comparing = new Map<string, Promise<unknown>>();

  constructor(
    private repo: CheckpointRepo,
    private blobDir: string,
    private caps = { blob: BLOB_CAP, task: TASK_CAP, shellFile: SHELL_FILE_CAP },
  ) {}

  private blobPath(hash: string): string {
    return join(this.blobDir, hash.slice(0, 2), hash);
  }

  /** The bytes kept under `hash`, or null when they are not (or no longer) kept. */
  async readBlob(hash: string): Promise<Uint8Array | null> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return null;
    try {
      return await Deno.readFile(this.blobPath(hash));
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    }
  }

  /** Keeps `bytes` (content-addressed; stored once); returns their hash. */
  keepBlob(bytes: Uint8Array): Promise<string> {
    return this.putBlob(bytes);
  }

  private async putBlob(bytes: Uint8Array): Promise<string> {
    const hash = sha256Hex(bytes);
    const p = this.blobPath(hash);
    try {
      await Deno.stat(p);
    } catch {
      await Deno.mkdir(dirname(p), { recursive: true });
      const tmp = `${p}.${crypto.randomUUID()}.tmp`;
      await Deno.writeFile(tmp, bytes);
      await Deno.rename(tmp, p);
    }
    return hash;
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
    return sha256Hex(await Deno.readFile(abs));
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
    if (!st) return this.repo.insert({ ...row, preHash: null, preSize: 0, skipped: null });
    if (st.isSymlink || !st.isFile) {
      return this.repo.insert({ ...row, preHash: null, preSize: 0, skipped: SKIP_TEXT.notRegular });
    }
    const skipped = st.size > this.caps.blob
      ? SKIP_TEXT.tooLarge(this.caps.blob)
      : this.repo.bytes(taskId) + st.size > this.caps.task
      ? SKIP_TEXT.taskFull(this.caps.task)
      : null;
    const preHash = skipped
      ? sha256Hex(await Deno.readFile(abs))
      : await this.putBlob(await Deno.readFile(abs));
    // Until the tool succeeds, the file is as it was: post = pre.
    this.repo.insert({
      ...row,
      preHash,
      postHash: preHash,
      preSize: skipped ? 0 : st.size,
      skipped,
    });
  }

  /** Records the state a tool left `abs` in (for conflict detection at rewind). */
  async afterWrite(taskId: string, turn: { id: string }, abs: string): Promise<void> {
    this.repo.setPost(taskId, turn.id, abs, await this.currentHash(abs));
  }

  /** Before a shell command: make sure the turn has a snapshot of the workspace. */
  async beforeShell(
    taskId: string,
    turn: { id: string },
    workspace: string,
    signal?: AbortSignal,
  ): Promise<void> {
    const key = `${taskId}\0${turn.id}`;
    if (this.snapshots.has(key)) return;
    const files: Snapshot["files"] = new Map();
    let budget = Math.max(0, this.caps.task - this.repo.bytes(taskId));
    for await (const e of walk(workspace, { stat: true, signal })) {
      if (e.type !== "file") continue;
      const abs = join(workspace, e.path);
      const size = e.size ?? 0;
      let hash: string | null = null;
      let skipped: string | null = null;
      if (size > this.caps.shellFile) skipped = SKIP_TEXT.tooLarge(this.caps.shellFile);
      else if (size > budget) skipped = SKIP_TEXT.snapshotFull;
      else {
        hash = await this.putBlob(await Deno.readFile(abs));
        budget -= size;
      }
      files.set(abs, { mtime: e.mtime ?? 0, size, hash, skipped });
    }
    this.snapshots.set(key, { files });
    if (this.snapshots.size > 50) this.snapshots.delete(this.snapshots.keys().next().value!);
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
    const seen = new Set<string>();
    const changed: string[] = [];
    const unrewindable: RewindReason[] = [];
    const record = async (
      abs: string,
      before: { hash: string | null; skipped: string | null } | undefined,
    ) => {
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
          source: "shell",
          skipped: before?.skipped ?? null,
        });
      } else this.repo.setPost(taskId, turn.id, abs, post);
      const reason = existing?.skipped ?? before?.skipped;
      if (reason) unrewindable.push(reasonOf(abs, reason));
      changed.push(abs);
    };
    for await (const e of walk(workspace, { stat: true })) {
      if (e.type !== "file") continue;
      const abs = join(workspace, e.path);
      seen.add(abs);
      const before = snap.files.get(abs);
      if (before && before.mtime === (e.mtime ?? 0) && before.size === (e.size ?? 0)) continue;
      await record(abs, before);
      snap.files.set(abs, {
        mtime: e.mtime ?? 0,
        size: e.size ?? 0,
        hash: before?.hash ?? null,
        skipped: before?.skipped ?? null,
      });
    }
    for (const [abs, before] of snap.files) {
      if (seen.has(abs)) continue;
      await record(abs, before);
      snap.files.delete(abs);
    }
    return { changed, unrewindable };
  }

  /** What rewinding to before the turn at `turnPos` would do. */
  async preview(taskId: string, turnPos: number): Promise<RewindPreview> {
    const rows = this.repo.since(taskId, turnPos);
    const first = new Map<string, CheckpointRow>();
    const last = new Map<string, CheckpointRow>();
    for (const r of rows) {
      if (!first.has(r.path)) first.set(r.path, r);
      last.set(r.path, r);
    }
    const out: RewindPreview = { restore: [], remove: [], conflicts: [], unrewindable: [] };
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
      } else if (now !== f.preHash) out.restore.push(path);
    }
    return out;
  }

  /**
   * Rewinds files to before the turn at `turnPos`: nothing is written unless every
   * file is exactly as the agent left it. On a failure half-way, what was already
   * written is put back.
   */
  async apply(taskId: string, turnPos: number): Promise<RewindPreview> {
    const plan = await this.preview(taskId, turnPos);
    if (plan.conflicts.length || plan.unrewindable.length) return plan;
    const rows = this.repo.since(taskId, turnPos);
    const pre = new Map<string, string | null>();
    for (const r of rows) if (!pre.has(r.path)) pre.set(r.path, r.preHash);
    const backup = new Map<string, Uint8Array | null>();
    const touched = [...plan.restore, ...plan.remove];
    for (const p of touched) backup.set(p, await Deno.readFile(p).catch(() => null));
    const done: string[] = [];
    try {
      for (const p of plan.restore) {
        const bytes = await Deno.readFile(this.blobPath(pre.get(p)!));
        await Deno.mkdir(dirname(p), { recursive: true });
        const tmp = `${p}.reinagent-rewind.tmp`;
        await Deno.writeFile(tmp, bytes);
        await Deno.rename(tmp, p);
        done.push(p);
      }
      for (const p of plan.remove) {
        await Deno.remove(p);
        done.push(p);
      }
    } catch (e) {
      for (const p of done) {
        const b = backup.get(p);
        if (b) await Deno.writeFile(p, b);
        else await Deno.remove(p).catch(() => {});
      }
      throw new Error(`rewind failed and was undone: ${(e as Error).message}`);
    }
    this.repo.deleteSince(taskId, turnPos);
    for (const key of [...this.snapshots.keys()]) {
      if (key.startsWith(`${taskId}\0`)) this.snapshots.delete(key);
    }
    return plan;
  }
}
