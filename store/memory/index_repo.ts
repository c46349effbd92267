/**
 * The FTS5 index over memory files (migration 10). The files are the source of truth:
 * each listing of a bucket syncs its rows (by a hash of the indexed text), so edits
 * made by hand are found too. Queries under 3 characters use LIKE (trigrams need 3), as
 * the conversation search does.
 */
import type { DatabaseSync } from "node:sqlite";
import type { MemoryItem } from "../../protocol/memory.ts";
import { ftsPhrase, likePattern } from "../search.ts";

/** What search and the index look at. */
export const textOf = (i: Pick<MemoryItem, "title" | "description" | "body">) =>
  `${i.title}\n${i.description}\n${i.body}`;

/** Changes whenever the indexed text does (FNV-1a over it; hand edits keep `updated`). */
function stampOf(i: MemoryItem): string {
  const s = `${i.title}\u0000${textOf(i)}`;
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return `${s.length}:${(h >>> 0).toString(36)}`;
}

export class MemoryIndexRepo {
  constructor(private db: DatabaseSync) {}

  /** Makes the rows of `bucket` match `items` (inserts, updates, removals). */
  sync(bucket: string, items: MemoryItem[]): void {
    const rows = this.db.prepare(
      "SELECT id, memory_id, stamp FROM memory_doc WHERE bucket = ?",
    ).all(bucket) as { id: number; memory_id: string; stamp: string }[];
    const have = new Map(rows.map((r) => [r.memory_id, r]));
    const want = new Map(items.map((i) => [i.id, i]));
    const stale = rows.filter((r) =>
      !want.has(r.memory_id) || r.stamp !== stampOf(want.get(r.memory_id)!)
    );
    const fresh = items.filter((i) => have.get(i.id)?.stamp !== stampOf(i));
    if (!stale.length && !fresh.length) return;
    this.db.exec("SAVEPOINT memory_index");
    try {
      const del = this.db.prepare("DELETE FROM memory_doc WHERE id = ?");
      for (const r of stale) del.run(r.id);
      const ins = this.db.prepare(
        "INSERT INTO memory_doc (bucket, memory_id, stamp) VALUES (?, ?, ?)",
      );
      const fts = this.db.prepare("INSERT INTO memory_fts (rowid, title, body) VALUES (?, ?, ?)");
      for (const i of fresh) {
        const r = ins.run(bucket, i.id, stampOf(i));
        fts.run(Number(r.lastInsertRowid), i.title, textOf(i));
      }
      this.db.exec("RELEASE memory_index");
    } catch (e) {
      this.db.exec("ROLLBACK TO memory_index");
      this.db.exec("RELEASE memory_index");
      throw e;
    }
  }

  /** Ids of the bucket's memories matching `q`, best first. */
  search(bucket: string, q: string, limit: number): string[] {
    const fts = [...q].length >= 3;
    const rows = this.db.prepare(
      `SELECT d.memory_id FROM memory_fts f JOIN memory_doc d ON d.id = f.rowid
       WHERE d.bucket = ? AND ${fts ? "memory_fts MATCH ?" : "f.body LIKE ? ESCAPE '\\'"}
       ORDER BY ${fts ? "bm25(memory_fts, 5.0, 1.0)" : "d.memory_id"} LIMIT ?`,
    ).all(bucket, fts ? ftsPhrase(q) : likePattern(q), limit) as { memory_id: string }[];
    return rows.map((r) => r.memory_id);
  }

  /** Rows indexed for a bucket (tests, diagnostics). */
  size(bucket: string): number {
    return (this.db.prepare("SELECT count(*) AS n FROM memory_doc WHERE bucket = ?")
      .get(bucket) as { n: number }).n;
  }
}
