/** Task rows (one conversation each). All task SQL lives here. */
import type { DatabaseSync } from "node:sqlite";
import type { RunEnd, TaskSettings, TaskStatus, TaskSummary } from "../protocol/index.ts";

interface TaskRow {
  id: string;
  title: string;
  project_path: string | null;
  pinned: number;
  status: string;
  last_run: string | null;
  queued: number;
  unread: number;
  created_at: number;
  updated_at: number;
  entry_count: number;
  settings: string;
}

const DEFAULT_SETTINGS: TaskSettings = { model: null, effort: null, approval: null };

/**
 * `queued` is read from the steering queue itself (kv `queue.<taskId>`, a JSON array
 * kept by server/composer/), so the summary can never disagree with the queue.
 */
const SELECT = `SELECT t.id, t.title, t.project_path, t.pinned, t.status, t.last_run, t.unread,
  t.created_at, t.updated_at, t.settings,
  (SELECT count(*) FROM message m WHERE m.task_id = t.id) AS entry_count,
  COALESCE((SELECT json_array_length(k.value) FROM kv k WHERE k.key = 'queue.' || t.id), 0)
    AS queued
  FROM task t`;

const toSummary = (r: TaskRow): TaskSummary => ({
  id: r.id,
  title: r.title,
  projectPath: r.project_path,
  pinned: r.pinned === 1,
  status: r.status as TaskStatus,
  lastRun: r.last_run as RunEnd | null,
  queued: r.queued,
  unread: r.unread === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  entryCount: r.entry_count,
  settings: { ...DEFAULT_SETTINGS, ...JSON.parse(r.settings) },
});

export class TaskRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  create(
    t: { id: string; title: string; projectPath: string | null; settings?: TaskSettings },
  ): TaskSummary {
    const at = this.now();
    this.db.prepare(
      "INSERT INTO task (id, title, project_path, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(t.id, t.title, t.projectPath, JSON.stringify(t.settings ?? DEFAULT_SETTINGS), at, at);
    return this.get(t.id)!;
  }

  get(id: string): TaskSummary | null {
    const row = this.db.prepare(`${SELECT} WHERE t.id = ?`).get(id) as TaskRow | undefined;
    return row ? toSummary(row) : null;
  }

  /** Pinned first, then most recently updated. */
  list(): TaskSummary[] {
    const rows = this.db.prepare(`${SELECT} ORDER BY t.pinned DESC, t.updated_at DESC`).all();
    return (rows as unknown as TaskRow[]).map(toSummary);
  }

  /** Every task's status and last run only: a light read (no counts, no settings). */
  states(): Map<string, Pick<TaskSummary, "status" | "lastRun">> {
    const rows = this.db.prepare("SELECT id, status, last_run FROM task").all() as {
      id: string;
      status: string;
      last_run: string | null;
    }[];
    return new Map(rows.map((r) => [r.id, {
      status: r.status as TaskStatus,
      lastRun: r.last_run as RunEnd | null,
    }]));
  }

  /** Applies a change and returns the updated task, or null when it does not exist. */
  private update(
    id: string,
    sql: string,
    ...params: (string | number | null)[]
  ): TaskSummary | null {
    const r = this.db.prepare(`UPDATE task SET ${sql} WHERE id = ?`).run(...params, id);
    return r.changes === 0 ? null : this.get(id);
  }

  rename(id: string, title: string): TaskSummary | null {
    return this.update(id, "title = ?, updated_at = ?", title, this.now());
  }

  /** Pinning does not change updated_at: order within a group stays stable. */
  pin(id: string, pinned: boolean): TaskSummary | null {
    return this.update(id, "pinned = ?", pinned ? 1 : 0);
  }

  setSettings(id: string, settings: TaskSettings): TaskSummary | null {
    return this.update(id, "settings = ?", JSON.stringify(settings));
  }

  /**
   * Tasks whose status says a run was active when the previous process ended: nothing
   * runs in a fresh process, so they are idle and their last run was interrupted.
   */
  resetStatuses(): string[] {
    const rows = this.db.prepare("SELECT id FROM task WHERE status IN ('running', 'waiting')")
      .all() as { id: string }[];
    this.db.prepare(
      "UPDATE task SET status = 'idle', last_run = 'interrupted' WHERE status IN ('running', 'waiting')",
    ).run();
    return rows.map((r) => r.id);
  }

  markRead(id: string): TaskSummary | null {
    return this.update(id, "unread = 0");
  }

  setStatus(id: string, status: TaskStatus): TaskSummary | null {
    return this.update(id, "status = ?", status);
  }

  /** A run ended: the task is idle and records how (`lastRun`). */
  finishRun(id: string, lastRun: RunEnd): TaskSummary | null {
    return this.update(id, "status = 'idle', last_run = ?", lastRun);
  }

  /** Sets how the last run ended without a run (a branch inherits its reply's end). */
  setLastRun(id: string, lastRun: RunEnd | null): TaskSummary | null {
    return this.update(id, "last_run = ?", lastRun);
  }

  /** Records activity: bumps updated_at and optionally flags the task unread. */
  touch(id: string, unread: boolean): TaskSummary | null {
    return unread
      ? this.update(id, "updated_at = ?, unread = 1", this.now())
      : this.update(id, "updated_at = ?", this.now());
  }

  /** Deletes the task and (by cascade) its entries and parts. */
  delete(id: string): boolean {
    return this.db.prepare("DELETE FROM task WHERE id = ?").run(id).changes > 0;
  }
}
