/** Pending approvals (and later questions/plans), persisted so a restart can offer them again. */
import type { DatabaseSync } from "node:sqlite";
import type { PendingApproval } from "../protocol/index.ts";

export class PendingRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  put(p: PendingApproval): void {
    this.db.prepare(
      "INSERT OR REPLACE INTO pending (id, task_id, kind, payload, created_at) VALUES (?, ?, 'approval', ?, ?)",
    ).run(p.id, p.taskId, JSON.stringify(p), p.createdAt || this.now());
  }

  delete(id: string): void {
    this.db.prepare("DELETE FROM pending WHERE id = ?").run(id);
  }

  list(): PendingApproval[] {
    const rows = this.db.prepare("SELECT payload FROM pending ORDER BY created_at").all() as {
      payload: string;
    }[];
    return rows.map((r) => JSON.parse(r.payload));
  }

  get(id: string): PendingApproval | null {
    const row = this.db.prepare("SELECT payload FROM pending WHERE id = ?").get(id) as {
      payload: string;
    } | undefined;
    return row ? JSON.parse(row.payload) : null;
  }
}
