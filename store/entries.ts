/**
 * Timeline entries (`message` rows) and their content blocks (`part` rows).
 * Writes are incremental: one entry is upserted at a time, never a whole task.
 */
import { inSavepoint } from "./savepoint.ts";
import type { DatabaseSync } from "node:sqlite";
import type { Entry, EntryRole, EntryStatus, Part } from "../protocol/index.ts";
import { SearchIndexQueue, SearchRepo } from "./search.ts";
import type { SearchResult } from "../protocol/search.ts";

interface MessageRow {
  id: string;
  task_id: string;
  pos: number;
  role: string;
  status: string;
  meta: string;
  created_at: number;
  updated_at: number;
}
interface PartRow {
  message_id: string;
  idx: number;
  type: string;
  text: string | null;
  data: string | null;
}

export class EntryRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  /** Runs `fn` atomically; savepoints make it nest inside an outer transaction. */
  tx<T>(fn: () => T): T {
    return inSavepoint(this.db, "entry_tx", fn);
  }

  /** Appends a new entry at the end of the task's timeline. */
  append(e: {
    id: string;
    taskId: string;
    role: EntryRole;
    status: EntryStatus;
    parts: Part[];
    meta?: Record<string, unknown>;
  }): Entry {
    const row = this.db.prepare(
      "SELECT COALESCE(MAX(pos), 0) + 1 AS next FROM message WHERE task_id = ?",
    )
      .get(e.taskId) as { next: number };
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
    this.upsert(entry);
    return entry;
  }

  /** Inserts or replaces one entry and its parts, keyed by entry id. */
  upsert(entry: Entry): void {
    this.tx(() => this.write(entry));
  }

  private write(entry: Entry): void {
    this.db.prepare(
      `INSERT INTO message (id, task_id, pos, role, status, meta, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET status = excluded.status, meta = excluded.meta,
         updated_at = excluded.updated_at`,
    ).run(
      entry.id,
      entry.taskId,
      entry.pos,
      entry.role,
      entry.status,
      JSON.stringify(entry.meta),
      entry.createdAt,
      entry.updatedAt,
    );
    this.db.prepare("DELETE FROM part WHERE message_id = ? AND idx >= ?").run(
      entry.id,
      entry.parts.length,
    );
    const put = this.db.prepare(
      `INSERT INTO part (message_id, idx, type, text, data) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(message_id, idx) DO UPDATE SET type = excluded.type, text = excluded.text,
         data = excluded.data`,
    );
    entry.parts.forEach((p, i) =>
      put.run(entry.id, i, p.type, p.text ?? null, p.data ? JSON.stringify(p.data) : null)
    );
    // Search index: once the entry is final, never per streamed flush (batched).
    if (entry.status !== "streaming") this.searchQueue.add(entry);
  }

  private queue: SearchIndexQueue | null = null;
  private get searchQueue(): SearchIndexQueue {
    return this.queue ??= new SearchIndexQueue(this.db);
  }

  /** Writes queued search-index updates now. */
  flushSearchIndex(): void {
    this.searchQueue.flush();
  }

  /** Search across tasks: titles, then the text of user and assistant entries. */
  search(q: string): SearchResult {
    this.searchQueue.flush();
    return new SearchRepo(this.db).query(q);
  }

  count(taskId: string): number {
    const r = this.db.prepare("SELECT count(*) AS n FROM message WHERE task_id = ?").get(
      taskId,
    ) as {
      n: number;
    };
    return r.n;
  }

  /** Entries of the task before `pos` (for "Load earlier (N left)"). */
  countBefore(taskId: string, pos: number): number {
    const r = this.db.prepare("SELECT count(*) AS n FROM message WHERE task_id = ? AND pos < ?")
      .get(taskId, pos) as { n: number };
    return r.n;
  }

  /** Deletes every entry (and its parts) after `pos`; returns how many. */
  deleteAfter(taskId: string, pos: number): number {
    const r = this.db.prepare("DELETE FROM message WHERE task_id = ? AND pos > ?").run(taskId, pos);
    return Number(r.changes);
  }

  /** The latest `limit` entries (optionally only those before `beforePos`), oldest first. */
  latest(taskId: string, limit: number, beforePos = Number.MAX_SAFE_INTEGER): Entry[] {
    const rows = this.db.prepare(
      "SELECT * FROM message WHERE task_id = ? AND pos < ? ORDER BY pos DESC LIMIT ?",
    ).all(taskId, beforePos, limit) as unknown as MessageRow[];
    rows.reverse();
    if (rows.length === 0) return [];
    const parts = this.db.prepare(
      `SELECT p.* FROM part p JOIN message m ON m.id = p.message_id
       WHERE m.task_id = ? AND m.pos >= ? AND m.pos <= ? ORDER BY p.message_id, p.idx`,
    ).all(taskId, rows[0].pos, rows[rows.length - 1].pos) as unknown as PartRow[];
    const byMessage = new Map<string, Part[]>();
    for (const p of parts) {
      const list = byMessage.get(p.message_id) ?? [];
      list.push(toPart(p));
      byMessage.set(p.message_id, list);
    }
    return rows.map((r) => toEntry(r, byMessage.get(r.id) ?? []));
  }

  /** The task's entries with `role` at or after `fromPos`, oldest first (`newestFirst` reverses). */
  ofRole(taskId: string, role: EntryRole, fromPos = 0, newestFirst = false): Entry[] {
    const rows = this.db.prepare(
      `SELECT id FROM message WHERE task_id = ? AND role = ? AND pos >= ? ORDER BY pos ${
        newestFirst ? "DESC" : "ASC"
      }`,
    ).all(taskId, role, fromPos) as { id: string }[];
    return rows.map((r) => this.get(r.id)).filter((e): e is Entry => e !== null);
  }

  get(id: string): Entry | null {
    const row = this.db.prepare("SELECT * FROM message WHERE id = ?").get(id) as
      | MessageRow
      | undefined;
    if (!row) return null;
    const parts = this.db.prepare("SELECT * FROM part WHERE message_id = ? ORDER BY idx").all(
      id,
    ) as unknown as PartRow[];
    return toEntry(row, parts.map(toPart));
  }

  /**
   * Entries left `streaming` by a previous process become `stopped` (crash/kill
   * recovery). Returns the ids of the tasks touched.
   */
  stopLeftovers(): string[] {
    const rows = this.db.prepare("SELECT DISTINCT task_id FROM message WHERE status = 'streaming'")
      .all() as {
        task_id: string;
      }[];
    const live = this.db.prepare("SELECT id FROM message WHERE status = 'streaming'").all() as {
      id: string;
    }[];
    this.db.prepare(
      "UPDATE message SET status = 'stopped', updated_at = ?, meta = json_set(meta, '$.endedAt', ?) WHERE status = 'streaming'",
    ).run(this.now(), this.now());
    for (const { id } of live) { // now final: searchable
      const e = this.get(id);
      if (e) this.searchQueue.add(e);
    }
    return rows.map((r) => r.task_id);
  }
}

function toPart(p: PartRow): Part {
  const part: Part = { type: p.type as Part["type"] };
  if (p.text !== null) part.text = p.text;
  if (p.data !== null) part.data = JSON.parse(p.data);
  return part;
}

function toEntry(r: MessageRow, parts: Part[]): Entry {
  return {
    id: r.id,
    taskId: r.task_id,
    pos: r.pos,
    role: r.role as EntryRole,
    status: r.status as EntryStatus,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    parts,
    meta: JSON.parse(r.meta),
  };
}
