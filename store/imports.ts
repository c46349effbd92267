/**
 * Writes of imported history (server/carry/): a task row with its original times,
 * pin and last run, and lookups that make an import idempotent (ids are kept).
 * Entries themselves go through `EntryRepo.upsert` (which also indexes them).
 */
import type { DatabaseSync } from "node:sqlite";
import { inSavepoint } from "./savepoint.ts";

export interface ImportedTaskRow {
  id: string;
  title: string;
  projectPath: string | null;
  pinned: boolean;
  lastRun: string | null;
  settings: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

export class ImportRepo {
  constructor(private db: DatabaseSync) {}

  /** Settings rows whose key starts with one of `prefixes` (the backup's settings). */
  settingsRows(prefixes: readonly string[]): [string, unknown][] {
    return kvRows(this.db, prefixes);
  }

  taskExists(id: string): boolean {
    return this.db.prepare("SELECT 1 FROM task WHERE id = ?").get(id) !== undefined;
  }

  /** The task an entry id belongs to, or null when no entry has that id. */
  entryTask(id: string): string | null {
    const r = this.db.prepare("SELECT task_id FROM message WHERE id = ?").get(id) as
      | { task_id: string }
      | undefined;
    return r?.task_id ?? null;
  }

  /** Positions used in a task's timeline. */
  positions(taskId: string): Set<number> {
    const rows = this.db.prepare("SELECT pos FROM message WHERE task_id = ?").all(taskId) as {
      pos: number;
    }[];
    return new Set(rows.map((r) => r.pos));
  }

  /** Inserts the task as it was on the machine it came from (idle, read). */
  insertTask(t: ImportedTaskRow): void {
    this.db.prepare(
      `INSERT INTO task (id, title, project_path, pinned, status, last_run, unread, settings,
         created_at, updated_at) VALUES (?, ?, ?, ?, 'idle', ?, 0, ?, ?, ?)`,
    ).run(
      t.id,
      t.title,
      t.projectPath,
      t.pinned ? 1 : 0,
      t.lastRun,
      JSON.stringify(t.settings),
      t.createdAt,
      t.updatedAt,
    );
  }

  /** Runs `fn` in one transaction (an import of one task is all or nothing). */
  tx<T>(fn: () => T): T {
    return inSavepoint(this.db, "import_tx", fn);
  }
}

/** Settings rows (`kv`) whose key starts with one of `prefixes`, by key. */
export function kvRows(db: DatabaseSync, prefixes: readonly string[]): [string, unknown][] {
  const rows = db.prepare("SELECT key, value FROM kv ORDER BY key").all() as {
    key: string;
    value: string;
  }[];
  return rows.filter((r) => prefixes.some((p) => r.key.startsWith(p)))
    .map((r) => [r.key, JSON.parse(r.value)]);
}
