/** Web Push subscriptions, one per device (`push_subscription`, migration 9). */
import type { DatabaseSync } from "node:sqlite";

export interface PushSubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  device: string;
  createdAt: number;
  lastOkAt: number | null;
  failures: number;
}

interface Row {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  device: string;
  created_at: number;
  last_ok_at: number | null;
  failures: number;
}

const fromRow = (r: Row): PushSubscriptionRow => ({
  id: r.id,
  endpoint: r.endpoint,
  p256dh: r.p256dh,
  auth: r.auth,
  device: r.device,
  createdAt: r.created_at,
  lastOkAt: r.last_ok_at,
  failures: r.failures,
});

export class PushSubscriptionRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  list(): PushSubscriptionRow[] {
    return (this.db.prepare("SELECT * FROM push_subscription ORDER BY created_at")
      .all() as unknown as Row[]).map(fromRow);
  }

  count(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM push_subscription").get() as { n: number })
      .n;
  }

  byEndpoint(endpoint: string): PushSubscriptionRow | null {
    const r = this.db.prepare("SELECT * FROM push_subscription WHERE endpoint = ?").get(
      endpoint,
    ) as Row | undefined;
    return r ? fromRow(r) : null;
  }

  /** Adds the device, or renews the keys of an endpoint registered before. */
  upsert(s: { id: string; endpoint: string; p256dh: string; auth: string; device: string }) {
    this.db.prepare(
      `INSERT INTO push_subscription (id, endpoint, p256dh, auth, device, created_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
         device = excluded.device, failures = 0`,
    ).run(s.id, s.endpoint, s.p256dh, s.auth, s.device, this.now());
    return this.byEndpoint(s.endpoint)!;
  }

  remove(endpoint: string): boolean {
    return Number(
      this.db.prepare("DELETE FROM push_subscription WHERE endpoint = ?").run(endpoint).changes,
    ) > 0;
  }

  delivered(id: string, ok: boolean): void {
    if (ok) {
      this.db.prepare("UPDATE push_subscription SET last_ok_at = ?, failures = 0 WHERE id = ?")
        .run(this.now(), id);
    } else {
      this.db.prepare("UPDATE push_subscription SET failures = failures + 1 WHERE id = ?").run(id);
    }
  }
}
