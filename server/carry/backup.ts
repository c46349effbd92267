/**
 * The configuration backup: settings (`settings.*`, `ui.*`, notification
 * switches), providers (keys only when asked), MCP servers (secret env values and
 * headers only when asked), the projects list — one JSON with a manifest and a version
 * gate. A restore checks the whole document first and writes nothing when anything is
 * wrong; before writing it saves the current configuration to `<home>/backups/`. Keys
 * left out of a backup keep the ones stored here; nothing here is deleted.
 */
import { join } from "../../lib/path.ts";
import type { Repos } from "../../store/store.ts";
import {
  BACKUP_KIND,
  BACKUP_VERSION,
  type BackupDoc,
  type BackupRestoreReport,
  CARRY_LIMITS,
} from "../../protocol/carry.ts";
import { API_FORMATS, MODEL_ID_RE, PROVIDER_ID_RE } from "../../protocol/providers.ts";
import type { McpServerConfig } from "../../protocol/mcp_servers.ts";
import type { ProviderConfig } from "../../protocol/provider_types.ts";
import { LIMITS } from "../../protocol/index.ts";
import { readServers, saveServers, serversProblems } from "../mcp/config.ts";
import { masked, unmasked } from "../mcp/secrets.ts";
import { VERSION } from "../version.ts";
import { makeIdGenerator } from "../../store/ids.ts";
import { PROVIDER_OP_ARGS } from "../../protocol/providers.ts";
import { jsonWhere } from "./bundle_check.ts";
import { SETTINGS_KEYS } from "../providers/catalog.ts";

/** Settings keys a backup carries (trust decisions and server-owned state are not). */
export const BACKUP_KEY_PREFIXES = ["settings.", "ui.", "notify.events"] as const;
const KEY_RE = /^(settings\.|ui\.|notify\.events$)[A-Za-z0-9_.:-]*$/;

export class BackupError extends Error {}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Builds the backup document; `includeKeys` puts provider keys and MCP secrets in. */
export async function buildBackup(
  repos: Repos,
  home: string,
  includeKeys: boolean,
  now: () => number = Date.now,
): Promise<BackupDoc> {
  const settings = Object.fromEntries(repos.imports.settingsRows(BACKUP_KEY_PREFIXES));
  const providers = repos.providers.list().filter((p) => p.format !== "demo")
    .map((p) => ({ ...p, apiKey: includeKeys ? p.apiKey : "" }));
  const mcp = await readServers(home);
  if (!mcp.ok) throw new BackupError(`${mcp.error}; fix it before making a backup`);
  const mcpServers = mcp.servers.map((s) => (includeKeys ? s : masked(s)));
  const projects = repos.projects.list().map((p) => ({ path: p.path, name: p.name }));
  return {
    manifest: {
      kind: BACKUP_KIND,
      version: BACKUP_VERSION,
      createdAt: now(),
      app: { name: "ReinAgent", version: VERSION },
      includesKeys: includeKeys,
      sections: {
        settings: Object.keys(settings).length,
        providers: providers.length,
        mcpServers: mcpServers.length,
        projects: projects.length,
      },
    },
    settings,
    providers: providers as unknown as Record<string, unknown>[],
    mcpServers: mcpServers as unknown as Record<string, unknown>[],
    projects,
  };
}

function providerProblems(p: unknown, where: string): string[] {
  if (!isObj(p)) return [`${where}: not an object`];
  const out: string[] = [];
  if (typeof p.id !== "string" || !PROVIDER_ID_RE.test(p.id) || p.id.length > 40) {
    out.push(`${where}.id is not a provider id`);
  }
  if (typeof p.name !== "string" || !p.name || p.name.length > 80) out.push(`${where}.name`);
  if (!(API_FORMATS as readonly unknown[]).includes(p.format)) out.push(`${where}.format`);
  if (typeof p.baseUrl !== "string" || p.baseUrl.length > 2048) out.push(`${where}.baseUrl`);
  if (typeof p.apiKey !== "string" || p.apiKey.length > 4096) out.push(`${where}.apiKey`);
  if (typeof p.enabled !== "boolean") out.push(`${where}.enabled`);
  if (!Array.isArray(p.models) || p.models.length > 2000) out.push(`${where}.models`);
  else {
    p.models.forEach((m, i) => {
      if (!isObj(m) || typeof m.id !== "string" || !MODEL_ID_RE.test(m.id)) {
        out.push(`${where}.models[${i}].id`);
      }
    });
  }
  return out;
}

const KEY_FIELDS = Object.fromEntries(
  Object.entries(SETTINGS_KEYS).map(([field, key]) => [key, field]),
) as Record<string, string>;

/**
 * Problems of the known system settings, checked as `settings.set` checks them (the
 * default model as a model reference); other keys are only bounded in size.
 */
function settingsProblems(settings: Record<string, unknown>): string[] {
  const patch: Record<string, unknown> = {};
  const out: string[] = [];
  for (const [k, v] of Object.entries(settings)) {
    const field = KEY_FIELDS[k];
    if (!field) continue;
    if (field === "defaultModel") {
      if (!isObj(v) || typeof v.providerId !== "string" || typeof v.modelId !== "string") {
        out.push(`settings.${k} must be {providerId, modelId}`);
      }
    } else patch[field] = v;
  }
  return [...out, ...PROVIDER_OP_ARGS["settings.set"].check(patch, "settings")];
}

/** Parses and checks a backup; throws `BackupError` listing every problem. */
export function checkBackup(text: string): BackupDoc {
  if (text.length > CARRY_LIMITS.backupBytes) {
    throw new BackupError(`the backup is larger than ${CARRY_LIMITS.backupBytes / 1024 / 1024} MB`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new BackupError(`not JSON${jsonWhere(e)}`);
  }
  if (!isObj(doc) || !isObj(doc.manifest) || doc.manifest.kind !== BACKUP_KIND) {
    throw new BackupError(`not a ReinAgent backup (no manifest with "kind": "${BACKUP_KIND}")`);
  }
  const v = doc.manifest.version;
  if (!Number.isInteger(v) || (v as number) < 1) {
    throw new BackupError("the manifest has no version");
  }
  if ((v as number) > BACKUP_VERSION) {
    throw new BackupError(
      `the backup is version ${v}, made by a newer ReinAgent; this one reads up to ${BACKUP_VERSION}`,
    );
  }
  const problems: string[] = [];
  if (!isObj(doc.settings)) problems.push("settings must be an object");
  else {
    for (const [k, val] of Object.entries(doc.settings)) {
      if (!KEY_RE.test(k) || k.length > 128) {
        problems.push(`settings: key "${k}" is not restorable`);
      } else if (JSON.stringify(val).length > LIMITS.kvValueBytes) {
        problems.push(`settings.${k}: too large`);
      }
    }
    problems.push(...settingsProblems(doc.settings));
  }
  for (const name of ["providers", "mcpServers", "projects"] as const) {
    if (!Array.isArray(doc[name])) problems.push(`${name} must be a list`);
  }
  if (Array.isArray(doc.providers)) {
    doc.providers.forEach((p, i) => problems.push(...providerProblems(p, `providers[${i}]`)));
  }
  if (Array.isArray(doc.mcpServers)) problems.push(...serversProblems(doc.mcpServers).problems);
  if (Array.isArray(doc.projects)) {
    doc.projects.forEach((p, i) => {
      if (
        !isObj(p) || typeof p.path !== "string" || !p.path.startsWith("/") || p.path.length > 4096
      ) {
        problems.push(`projects[${i}].path must be an absolute path`);
      } else if (typeof p.name !== "string" || !p.name.trim() || p.name.length > 200) {
        problems.push(`projects[${i}].name`);
      }
    });
  }
  if (problems.length) {
    const more = problems.length > 10 ? ` (and ${problems.length - 10} more)` : "";
    throw new BackupError(`the backup is invalid: ${problems.slice(0, 10).join("; ")}${more}`);
  }
  return doc as unknown as BackupDoc;
}

const MASK = "••••";

/** MCP secrets that are masked in the backup and unknown here are left out (named in `skipped`). */
function withoutMasks(s: McpServerConfig, skipped: string[]): McpServerConfig {
  const clean = (m: Record<string, string> | undefined, what: string) =>
    m && Object.fromEntries(
      Object.entries(m).filter(([k, v]) => {
        if (!v.startsWith(MASK)) return true;
        skipped.push(`MCP server ${s.id}: ${what} ${k} was not in the backup (set it again)`);
        return false;
      }),
    );
  return { ...s, env: clean(s.env, "env"), headers: clean(s.headers, "header") };
}

/** Restores a checked backup text; saves the configuration before it first. */
export async function restoreBackup(
  repos: Repos,
  home: string,
  text: string,
  now: () => number = Date.now,
): Promise<BackupRestoreReport> {
  const doc = checkBackup(text);
  const mcp = readServers(home);
  if (!mcp.ok) throw new BackupError(`${mcp.error} — fix or remove it first; nothing was restored`);
  // The way back: the configuration as it is now, keys included (it stays on this machine).
  const before = await buildBackup(repos, home, true, now);
  const dir = join(home, "backups");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const savedBefore = join(
    dir,
    `before-restore-${new Date(now()).toISOString().replace(/[:.]/g, "-")}.json`,
  );
  await Deno.writeTextFile(savedBefore, JSON.stringify(before, null, 2), { mode: 0o600 });

  const skipped: string[] = [];
  for (const [k, v] of Object.entries(doc.settings)) repos.kv.set(k, v);
  for (const raw of doc.providers as unknown as ProviderConfig[]) {
    const stored = repos.providers.get(raw.id);
    // A backup without keys keeps the key stored here.
    repos.providers.put({ ...raw, apiKey: raw.apiKey || stored?.apiKey || "" });
  }
  const incoming = (doc.mcpServers as unknown as McpServerConfig[]).map((s) =>
    withoutMasks(unmasked(s, mcp.servers.find((o) => o.id === s.id)), skipped)
  );
  const ids = new Set(incoming.map((s) => s.id.toLowerCase()));
  await saveServers(home, [
    ...mcp.servers.filter((s) => !ids.has(s.id.toLowerCase())),
    ...incoming,
  ]);
  let projects = 0;
  const newId = makeIdGenerator(now);
  for (const p of doc.projects) {
    if (repos.projects.byPath(p.path)) continue;
    const st = await Deno.stat(p.path).catch(() => null);
    if (!st?.isDirectory) {
      skipped.push(`project ${p.name}: ${p.path} does not exist here`);
      continue;
    }
    repos.projects.add({ id: newId("p"), path: p.path, name: p.name });
    projects++;
  }
  return {
    settings: Object.keys(doc.settings).length,
    providers: doc.providers.length,
    mcpServers: incoming.length,
    projects,
    skipped,
    savedBefore,
  };
}
