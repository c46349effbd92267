/**
 * Checkpoint rows: for each (task, turn, path) the file's content hash before the turn
 * first touched it (`pre_hash`, null = it did not exist) and after its latest change
 * (`post_hash`, null = deleted). Blobs live in a content-addressed folder.
 */
import { inSavepoint } from "./savepoint.ts";
import type { DatabaseSync } from "node:sqlite";

export interface CheckpointRow {
  id: number;
  taskId: string;
  turnId: string;
  turnPos: number;
  path: string;
  preHash: string | null;
  postHash: string | null;
  preSize: number;
  /** Permission bits before (null: not known); put back with the bytes. */
  preMode?: number | null;
  source: "tool" | "shell";
  /** Why the pre-image was not kept (too large, cap reached, symlink): cannot be rewound. */
  skipped: string | null;
}

interface Row {
  id: number;
  task_id: string;
  turn_id: string;
  turn_pos: number;
  path: string;
  pre_hash: string | null;
  post_hash: string | null;
  pre_size: number;
  pre_mode: number | null;
  source: string;
  skipped: string | null;
}

const toRow = (r: Row): CheckpointRow => ({
  id: r.id,
  taskId: r.task_id,
  turnId: r.turn_id,
  turnPos: r.turn_pos,
  path: r.path,
  preHash: r.pre_hash,
  postHash: r.post_hash,
  preSize: r.pre_size,
  preMode: r.pre_mode ?? null,
  source: r.source as "tool" | "shell",
  skipped: r.skipped,
});

/**
 * A rewind in progress: each file it touches with the blob of its content before (null:
 * it did not exist). A crash midway leaves it, and the next start puts the files back.
 */
export interface RewindJournal {
  taskId: string;
  turnPos: number;
  files: { path: string; before: string | null }[];
}

const JOURNAL_KEY = "checkpoints.rewindJournal";

export class CheckpointRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  find(taskId: string, turnId: string, path: string): CheckpointRow | null {
    const r = this.db.prepare(
      "SELECT * FROM checkpoint WHERE task_id = ? AND turn_id = ? AND path = ?",
    )
      .get(taskId, turnId, path) as Row | undefined;
    return r ? toRow(r) : null;
  }

  /** Records the pre-image of a path for a turn (the first record per turn wins). */
  insert(r: Omit<CheckpointRow, "id">): void {
    this.db.prepare(
      `INSERT OR IGNORE INTO checkpoint (task_id, turn_id, turn_pos, path, pre_hash, post_hash, pre_size, pre_mode, source, skipped, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      r.taskId,
      r.turnId,
      r.turnPos,
      r.path,
      r.preHash,
      r.postHash,
      r.preSize,
      r.preMode ?? null,
      r.source,
      r.skipped,
      this.now(),
    );
  }

  setPost(taskId: string, turnId: string, path: string, postHash: string | null): void {
    this.db.prepare(
      "UPDATE checkpoint SET post_hash = ? WHERE task_id = ? AND turn_id = ? AND path = ?",
    )
      .run(postHash, taskId, turnId, path);
  }

  /** The rows of one turn, in the order its files were first touched. */
  ofTurn(taskId: string, turnId: string): CheckpointRow[] {
    const rows = this.db.prepare(
      "SELECT * FROM checkpoint WHERE task_id = ? AND turn_id = ? ORDER BY id",
    ).all(taskId, turnId) as unknown as Row[];
    return rows.map(toRow);
  }

  /** Rows of turns at or after `fromPos`, oldest turn first. */
  since(taskId: string, fromPos: number): CheckpointRow[] {
    const rows = this.db.prepare(
      "SELECT * FROM checkpoint WHERE task_id = ? AND turn_pos >= ? ORDER BY turn_pos, id",
    )
      .all(taskId, fromPos) as unknown as Row[];
    return rows.map(toRow);
  }

  /** The rewind under way (written before its first file, gone once it is done). */
  journal(): RewindJournal | null {
    const r = this.db.prepare("SELECT value FROM kv WHERE key = ?").get(JOURNAL_KEY) as
      | { value: string }
      | undefined;
    return r ? JSON.parse(r.value) as RewindJournal : null;
  }

  setJournal(j: RewindJournal | null): void {
    if (j === null) this.db.prepare("DELETE FROM kv WHERE key = ?").run(JOURNAL_KEY);
    else {
      this.db.prepare("INSERT OR REPLACE INTO kv (key, value, updated_at) VALUES (?, ?, ?)")
        .run(JOURNAL_KEY, JSON.stringify(j), this.now());
    }
  }

  /** A rewind's end, in one transaction: its rows go, and so does its journal. */
  finishRewind(taskId: string, fromPos: number): void {
    inSavepoint(this.db, "rewind_done", () => {
      this.deleteSince(taskId, fromPos);
      this.setJournal(null);
    });
  }

  deleteSince(taskId: string, fromPos: number): void {
    this.db.prepare("DELETE FROM checkpoint WHERE task_id = ? AND turn_pos >= ?").run(
      taskId,
      fromPos,
    );
  }

  /**
   * Folds the rows of turns after `turnPos` into the turn (`turnId`, `turnPos`) — used
   * when those turns' entries are deleted (edit & resend, retry). Per path the earliest
   * pre-image is kept, with the latest post-hash and any `skipped` reason, so "Rewind
   * to before this turn" still covers every change the deleted turns made and no row
   * names a deleted entry.
   */
  foldAfter(taskId: string, turnId: string, turnPos: number): void {
    const later = this.db.prepare(
      "SELECT * FROM checkpoint WHERE task_id = ? AND turn_pos > ? ORDER BY turn_pos, id",
    ).all(taskId, turnPos) as unknown as Row[];
    if (later.length === 0) return;
    const byPath = new Map<string, Row[]>();
    for (const r of later) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
    const del = this.db.prepare("DELETE FROM checkpoint WHERE id = ?");
    const set = this.db.prepare(
      "UPDATE checkpoint SET turn_id = ?, turn_pos = ?, post_hash = ?, skipped = ? WHERE id = ?",
    );
    for (const [path, rows] of byPath) {
      const own = this.find(taskId, turnId, path);
      const keep = own ?? toRow(rows[0]);
      const skipped = keep.skipped ?? rows.find((r) => r.skipped)?.skipped ?? null;
      for (const r of rows) if (r.id !== keep.id) del.run(r.id);
      set.run(turnId, turnPos, rows[rows.length - 1].post_hash, skipped, keep.id);
    }
  }

  /** Bytes of pre-images kept for a task (for the per-task cap). */
  bytes(taskId: string): number {
    const r = this.db.prepare(
      "SELECT COALESCE(SUM(pre_size), 0) AS n FROM checkpoint WHERE task_id = ? AND skipped IS NULL",
    )
      .get(taskId) as { n: number };
    return r.n;
  }

  /**
   * Every content hash something still needs: the pre-images of rewindable turns (rows
   * exist only for those: a rewind deletes its rows, a deleted task cascades) and the
   * before/after versions named by turns' recorded net changes (their diffs).
   */
  referencedHashes(): Set<string> {
    const rows = this.db.prepare(
      `SELECT pre_hash AS h FROM checkpoint WHERE pre_hash IS NOT NULL
       UNION SELECT json_extract(f.value, '$.before') FROM message m,
         json_each(m.meta, '$.changes.files') f
         WHERE m.role = 'user' AND json_type(m.meta, '$.changes.files') = 'array'
       UNION SELECT json_extract(f.value, '$.after') FROM message m,
         json_each(m.meta, '$.changes.files') f
         WHERE m.role = 'user' AND json_type(m.meta, '$.changes.files') = 'array'`,
    ).all() as { h: unknown }[];
    const out = new Set<string>();
    for (const r of rows) if (typeof r.h === "string") out.add(r.h);
    // A rewind under way needs what its files held before.
    for (const f of this.journal()?.files ?? []) if (f.before) out.add(f.before);
    return out;
  }
}
