/**
 * Runs `fn` atomically in a savepoint (so it nests inside an outer transaction). When
 * SQLite has already rolled the whole transaction back by itself — it does for a full
 * disk, an I/O error or a lost lock — the savepoint is gone too: the rollback's own
 * failure is ignored so that the caller sees the error that caused it.
 */
import type { DatabaseSync } from "node:sqlite";

export function inSavepoint<T>(db: DatabaseSync, name: string, fn: () => T): T {
  db.exec(`SAVEPOINT ${name}`);
  try {
    const out = fn();
    db.exec(`RELEASE ${name}`);
    return out;
  } catch (e) {
    if (db.isTransaction) {
      db.exec(`ROLLBACK TO ${name}`);
      db.exec(`RELEASE ${name}`);
    }
    throw e;
  }
}
