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

  /**
   * Every stored key starting with `prefix`, in one query (a range on the key's index):
   * the settings are read at each tool call, eight keys at once.
   */
  getPrefixed(prefix: string): Map<string, unknown> {
    if (!prefix) throw new Error("getPrefixed needs a non-empty prefix");
    // The first string after every key starting with `prefix` (SQLite compares bytes).
    const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const rows = this.db.prepare("SELECT key, value FROM kv WHERE key >= ? AND key < ?")
      .all(prefix, end) as { key: string; value: string }[];
    return new Map(rows.map((r) => [r.key, JSON.parse(r.value)]));
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
