/**
 * Sub-agent runs (`subagent_run`) and their transcripts (`subagent_entry`). A
 * transcript entry is an `Entry` whose `taskId` is the run's id, so the timeline
 * writer and the UI's turn view work on it unchanged. Writes for a run that is gone
 * (its task was deleted meanwhile) are dropped, never an error in the loop.
 */
import type { DatabaseSync } from "node:sqlite";
import type { Entry, EntryRole, EntryStatus, Part, SubagentRun } from "../protocol/index.ts";

interface EntryRow {
  id: string;
  run_id: string;
  pos: number;
  role: string;
  status: string;
  parts: string;
  meta: string;
  created_at: number;
  updated_at: number;
}

/** What the timeline writer needs of a store of entries (the task's, or a transcript). */
export interface EntrySink {
  append(e: {
    id: string;
    taskId: string;
    role: EntryRole;
    status: EntryStatus;
    parts: Part[];
    meta?: Record<string, unknown>;
  }): Entry;
  upsert(entry: Entry): void;
  latest(taskId: string, limit: number): Entry[];
  /** Deletes the entries after `pos`; returns how many. */
  deleteAfter(taskId: string, pos: number): number;
  count(taskId: string): number;
}

const toEntry = (r: EntryRow): Entry => ({
  id: r.id,
  taskId: r.run_id,
  pos: r.pos,
  role: r.role as EntryRole,
  status: r.status as EntryStatus,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  parts: JSON.parse(r.parts),
  meta: JSON.parse(r.meta),
});

export class SubagentRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  /** Inserts or replaces a run (its task must exist). */
  putRun(run: SubagentRun): void {
    this.db.prepare(
      `INSERT INTO subagent_run (id, task_id, status, payload, started_at)
       SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM task WHERE id = ?)
       ON CONFLICT(id) DO UPDATE SET status = excluded.status, payload = excluded.payload`,
    ).run(run.id, run.taskId, run.status, JSON.stringify(run), run.startedAt, run.taskId);
  }

  getRun(id: string): SubagentRun | null {
    const row = this.db.prepare("SELECT payload FROM subagent_run WHERE id = ?").get(id) as
      | { payload: string }
      | undefined;
    return row ? JSON.parse(row.payload) : null;
  }

  /** The task's runs, newest first (at most `limit`). */
  runsOf(taskId: string, limit = 200): SubagentRun[] {
    const rows = this.db.prepare(
      "SELECT payload FROM subagent_run WHERE task_id = ? ORDER BY started_at DESC, id DESC LIMIT ?",
    ).all(taskId, limit) as { payload: string }[];
    return rows.map((r) => JSON.parse(r.payload));
  }

  /** The run's transcript, oldest first (at most `limit` entries, the first ones). */
  entries(runId: string, limit = Number.MAX_SAFE_INTEGER): Entry[] {
    const rows = this.db.prepare(
      "SELECT * FROM subagent_entry WHERE run_id = ? ORDER BY pos LIMIT ?",
    ).all(runId, limit) as unknown as EntryRow[];
    return rows.map(toEntry);
  }

  countEntries(runId: string): number {
    const r = this.db.prepare("SELECT count(*) AS n FROM subagent_entry WHERE run_id = ?")
      .get(runId) as { n: number };
    return r.n;
  }

  /** The transcript of run `runId` as an entry store (`taskId` of its entries = the run). */
  sink(): EntrySink {
    return {
      append: (e) => {
        const row = this.db.prepare(
          "SELECT COALESCE(MAX(pos), 0) + 1 AS next FROM subagent_entry WHERE run_id = ?",
        ).get(e.taskId) as { next: number };
        const at = this.now();
        const entry: Entry = {
          id: e.id,
          taskId: e.taskId,
          pos: row.next,
          role: e.role,
          status: e.status,
          createdAt: at,
          updatedAt: at,
          parts: e.parts,
          meta: e.meta ?? {},
        };
        this.writeEntry(entry);
        return entry;
      },
      upsert: (entry) => this.writeEntry(entry),
      latest: (runId, limit) => {
        const rows = this.db.prepare(
          "SELECT * FROM subagent_entry WHERE run_id = ? ORDER BY pos DESC LIMIT ?",
        ).all(runId, limit) as unknown as EntryRow[];
        return rows.reverse().map(toEntry);
      },
      deleteAfter: (runId, pos) =>
        Number(
          this.db.prepare("DELETE FROM subagent_entry WHERE run_id = ? AND pos > ?").run(runId, pos)
            .changes,
        ),
      count: (runId) => this.countEntries(runId),
    };
  }

  private writeEntry(e: Entry): void {
    this.db.prepare(
      `INSERT INTO subagent_entry (id, run_id, pos, role, status, parts, meta, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM subagent_run WHERE id = ?)
       ON CONFLICT(id) DO UPDATE SET status = excluded.status, parts = excluded.parts,
         meta = excluded.meta, updated_at = excluded.updated_at`,
    ).run(
      e.id,
      e.taskId,
      e.pos,
      e.role,
      e.status,
      JSON.stringify(e.parts),
      JSON.stringify(e.meta),
      e.createdAt,
      e.updatedAt,
      e.taskId,
    );
  }

  /**
   * Runs left `running` by a previous process become `interrupted`, their streaming
   * entries `stopped` (crash/kill recovery). Returns how many runs.
   */
  stopLeftovers(): number {
    const at = this.now();
    this.db.prepare(
      "UPDATE subagent_entry SET status = 'stopped', updated_at = ? WHERE status = 'streaming'",
    ).run(at);
    const rows = this.db.prepare("SELECT payload FROM subagent_run WHERE status = 'running'")
      .all() as { payload: string }[];
    for (const r of rows) {
      const run = JSON.parse(r.payload) as SubagentRun;
      this.putRun({ ...run, status: "interrupted", endedAt: run.endedAt ?? at });
    }
    return rows.length;
  }
}
