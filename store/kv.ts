/** Key/value settings stored as JSON text in the `kv` table. */
import type { DatabaseSync } from "node:sqlite";

export class KvRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  /** The stored value, or undefined when the key is absent. */
  get(key: string): unknown {
    const row = this.db.prepare("SELECT value FROM kv WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row ? JSON.parse(row.value) : undefined;
  }

  set(key: string, value: unknown): void {
    this.db.prepare(
      "INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    ).run(key, JSON.stringify(value), this.now());
  }

  delete(key: string): void {
    this.db.prepare("DELETE FROM kv WHERE key = ?").run(key);
  }
}
