/**
 * `<home>/mcp_servers.json`: a JSON array of server configs (protocol/mcp_servers.ts).
 * Reading never changes the file; a file that is not valid JSON, not an array, or has
 * an invalid server is reported whole (with every problem) and never overwritten —
 * `saveServers` refuses until the user fixes it. Writes are atomic (temp file + rename)
 * and keep the file owner-only (it may hold tokens in `env` / `headers`).
 */
import { join } from "../../lib/path.ts";
import {
  MCP_LIMITS,
  type McpServerConfig,
  mcpServerProblems,
  mcpServerSchema,
} from "../../protocol/mcp_servers.ts";
import type { SafetyChange } from "../../protocol/safety.ts";
import { byCodeUnit } from "../../lib/compare.ts";

export const MCP_FILE = "mcp_servers.json";
export const mcpConfigPath = (home: string) => join(home, MCP_FILE);

/** Fields older files carry that are accepted and dropped (the original app's `name`, …). */
const LEGACY_FIELDS = new Set(["name", "docsUrl", "messageUrl"]);

export type McpConfigRead =
  | { ok: true; path: string; servers: McpServerConfig[]; exists: boolean }
  | { ok: false; path: string; error: string };

/** A server as read from JSON: defaults filled in (`args: []`, `enabled: true`, …). */
function normalise(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (!LEGACY_FIELDS.has(k) && v !== null) out[k] = v;
  }
  out.enabled ??= true;
  out.args ??= [];
  out.command ??= "";
  out.transport ??= typeof out.url === "string" && !out.command ? "http" : "stdio";
  return out;
}

/** Problems of a list of servers (schema, cross-field rules, duplicate ids). */
export function serversProblems(list: unknown): { servers: McpServerConfig[]; problems: string[] } {
  if (!Array.isArray(list)) return { servers: [], problems: ["the file must hold a JSON array"] };
  if (list.length > MCP_LIMITS.servers) {
    return { servers: [], problems: [`more than ${MCP_LIMITS.servers} servers`] };
  }
  const problems: string[] = [];
  const servers: McpServerConfig[] = [];
  const seen = new Set<string>();
  list.forEach((raw, i) => {
    const s = normalise(raw);
    const path = `[${i}]`;
    const p = mcpServerSchema.check(s, path);
    if (p.length) return problems.push(...p);
    const server = s as McpServerConfig;
    const cross = mcpServerProblems(server, path);
    if (cross.length) return problems.push(...cross);
    if (seen.has(server.id.toLowerCase())) {
      return problems.push(`${path}.id "${server.id}" is used twice`);
    }
    seen.add(server.id.toLowerCase());
    servers.push(server);
  });
  return { servers, problems };
}

/** Reads the file; a missing file is an empty list, a bad one an error (file untouched). */
export function readServers(home: string): McpConfigRead {
  const path = mcpConfigPath(home);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: true, path, servers: [], exists: false };
    return { ok: false, path, error: `cannot read ${path}: ${(e as Error).message}` };
  }
  if (!text.trim()) return { ok: true, path, servers: [], exists: true };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, path, error: `${path} is not valid JSON: ${(e as Error).message}` };
  }
  const { servers, problems } = serversProblems(json);
  if (problems.length) {
    const shown = problems.slice(0, 6).join("; ");
    const more = problems.length > 6 ? ` (and ${problems.length - 6} more)` : "";
    return { ok: false, path, error: `${path} is invalid: ${shown}${more}` };
  }
  return { ok: true, path, servers, exists: true };
}

export class McpConfigError extends Error {}

/** Writes the list atomically; refuses when the file on disk is corrupt (it is never replaced). */
export async function saveServers(home: string, servers: McpServerConfig[]): Promise<void> {
  const current = readServers(home);
  if (!current.ok) {
    throw new McpConfigError(`${current.error} — fix or remove the file first; it was not changed`);
  }
  const { problems } = serversProblems(servers);
  if (problems.length) throw new McpConfigError(`invalid servers: ${problems.join("; ")}`);
  const path = mcpConfigPath(home);
  const tmp = `${path}.${Deno.pid}.${Date.now()}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(servers, null, 2) + "\n", { mode: 0o600 });
  await Deno.rename(tmp, path);
}

/** Reads, changes and writes the list (the change sees the current file). */
export async function updateServers(
  home: string,
  change: (servers: McpServerConfig[]) => McpServerConfig[],
): Promise<McpServerConfig[]> {
  const current = readServers(home);
  if (!current.ok) {
    throw new McpConfigError(`${current.error} — fix or remove the file first; it was not changed`);
  }
  const next = change(current.servers.map((s) => structuredClone(s)));
  await saveServers(home, next);
  return next;
}

/** A stable key of everything that affects a connection: a changed key = a new connection. */
export function connectionKey(s: McpServerConfig): string {
  const sorted = (m?: Record<string, string>) =>
    m ? Object.entries(m).sort(([a], [b]) => byCodeUnit(a, b)) : [];
  return JSON.stringify([
    s.transport,
    s.command,
    s.args,
    sorted(s.env),
    s.cwd ?? "",
    s.url ?? "",
    sorted(s.headers),
    s.timeoutMs ?? 0,
    s.oauth ?? null,
  ]);
}

/** The command line or URL of a server, for notices and lists. */
export function targetText(s: McpServerConfig): string {
  return s.transport === "stdio"
    ? [s.command, ...s.args].map((a) => /\s/.test(a) ? JSON.stringify(a) : a).join(" ").slice(
      0,
      300,
    )
    : (s.url ?? "");
}

/**
 * What a change of the list lowers (announced to every client): servers that now run
 * (new and enabled, newly enabled, or enabled with a new command / URL) and tools now
 * allowed without asking.
 */
export function mcpLowered(
  before: McpServerConfig[],
  after: McpServerConfig[],
): SafetyChange[] {
  const old = new Map(before.map((s) => [s.id, s]));
  const out: SafetyChange[] = [];
  for (const s of after) {
    const prev = old.get(s.id);
    if (s.enabled && (!prev?.enabled || connectionKey(prev) !== connectionKey(s))) {
      out.push({ what: "mcpServer", id: s.id, target: targetText(s) });
    }
    if (s.policy === "allow" && prev?.policy !== "allow") out.push({ what: "mcpPolicy", id: s.id });
    for (const [tool, p] of Object.entries(s.toolPolicies ?? {})) {
      if (p === "allow" && prev?.toolPolicies?.[tool] !== "allow") {
        out.push({ what: "mcpPolicy", id: s.id, tool });
      }
    }
  }
  return out;
}
