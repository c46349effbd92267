/**
 * Model providers: stored in the database (owner-only file), never in
 * browser storage. API keys are returned in full only to server code; everything
 * sent to clients goes through `maskKey`.
 */
import type { DatabaseSync } from "node:sqlite";
import type {
  ApiFormat,
  ModelInfo,
  ProviderConfig,
  ProviderOptions,
} from "../protocol/provider_types.ts";

interface ProviderRow {
  id: string;
  name: string;
  format: string;
  base_url: string;
  api_key: string;
  enabled: number;
  models: string;
  sort: number;
  preset: string | null;
  options: string;
}

const toConfig = (r: ProviderRow): ProviderConfig => ({
  id: r.id,
  name: r.name,
  format: r.format as ApiFormat,
  baseUrl: r.base_url,
  apiKey: r.api_key,
  enabled: r.enabled === 1,
  preset: r.preset,
  options: JSON.parse(r.options || "{}") as ProviderOptions,
  // Models stored before prices existed have no `price`: unknown.
  models: (JSON.parse(r.models) as ModelInfo[]).map((m) => ({ ...m, price: m.price ?? null })),
});

export { maskKey } from "../lib/mask_key.ts";

export class ProviderRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  list(): ProviderConfig[] {
    const rows = this.db.prepare("SELECT * FROM provider ORDER BY sort, created_at").all();
    return (rows as unknown as ProviderRow[]).map(toConfig);
  }

  get(id: string): ProviderConfig | null {
    const row = this.db.prepare("SELECT * FROM provider WHERE id = ?").get(id) as
      | ProviderRow
      | undefined;
    return row ? toConfig(row) : null;
  }

  /** Inserts or replaces a provider (new ones go last). */
  put(p: ProviderConfig): ProviderConfig {
    const at = this.now();
    const sort = (this.db.prepare("SELECT COALESCE(MAX(sort), 0) + 1 AS s FROM provider").get() as {
      s: number;
    }).s;
    this.db.prepare(
      `INSERT INTO provider (id, name, format, base_url, api_key, enabled, models, sort, created_at,
         updated_at, preset, options)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, format = excluded.format,
         base_url = excluded.base_url, api_key = excluded.api_key, enabled = excluded.enabled,
         models = excluded.models, updated_at = excluded.updated_at, preset = excluded.preset,
         options = excluded.options`,
    ).run(
      p.id,
      p.name,
      p.format,
      p.baseUrl,
      p.apiKey,
      p.enabled ? 1 : 0,
      JSON.stringify(p.models),
      sort,
      at,
      at,
      p.preset ?? null,
      JSON.stringify(p.options ?? {}),
    );
    return this.get(p.id)!;
  }

  delete(id: string): boolean {
    return this.db.prepare("DELETE FROM provider WHERE id = ?").run(id).changes > 0;
  }
}
