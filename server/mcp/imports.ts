/**
 * Servers from elsewhere, offered for import (never run before the user imports them):
 * pasted JSON (`{"mcpServers": {...}}` as Claude Code / Cursor write it, an array, or one
 * server), Claude Code (`~/.claude.json`, a project's `.mcp.json`), Codex
 * (`~/.codex/config.toml`) and OpenCode (`~/.config/opencode/opencode.json`). Command
 * strings with arguments in them are split like a shell would (quotes, escapes).
 */
import { join } from "../../lib/path.ts";
import {
  MCP_ID_RE,
  type McpImportCandidate,
  type McpServerConfig,
  mcpServerProblems,
  mcpServerSchema,
} from "../../protocol/mcp_servers.ts";

type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
const strs = (v: unknown): string[] => Array.isArray(v) ? v.map((x) => String(x)) : [];
const strMap = (v: unknown): Record<string, string> | undefined => {
  if (!isObj(v)) return undefined;
  const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
  return Object.keys(out).length ? out : undefined;
};

/** Splits a command line into words: spaces separate, '…' and "…" group, \ escapes. */
export function shellSplit(line: string): string[] {
  const out: string[] = [];
  let cur = "", has = false, quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < line.length && /["\\$`]/.test(line[i + 1])) cur += line[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === "\\" && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (cur || has) out.push(cur);
      cur = "";
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} in "${line.slice(0, 80)}"`);
  if (cur || has) out.push(cur);
  return out;
}

/** A name from another tool as an id here (`[A-Za-z0-9_-]`, at most 48). */
export function idFrom(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^[-_]+|[-]+$/g, "").slice(0, 48);
  return MCP_ID_RE.test(id) ? id : `server-${id}`.slice(0, 48).replace(/-+$/, "") || "server";
}

/** One server in Claude Code's / the usual JSON shape → our config (or a problem). */
export function fromJsonEntry(name: string, raw: unknown): McpServerConfig | string {
  if (!isObj(raw)) return `${name}: not an object`;
  const type = String(raw.type ?? raw.transport ?? "");
  const url = typeof raw.url === "string"
    ? raw.url
    : typeof raw.serverUrl === "string"
    ? raw.serverUrl
    : undefined;
  let command = "", args = strs(raw.args);
  if (Array.isArray(raw.command)) {
    [command = "", ...args] = strs(raw.command); // OpenCode: the whole command line as an array
  } else if (typeof raw.command === "string") {
    command = raw.command;
    // "npx -y server" in one string: split it (only when no separate args were given).
    if (!args.length && /\s/.test(command.trim())) {
      try {
        [command = "", ...args] = shellSplit(command.trim());
      } catch (e) {
        return `${name}: ${(e as Error).message}`;
      }
    }
  }
  const transport = type === "sse"
    ? "sse"
    : url && !command
    ? "http"
    : type === "http" || type === "streamable-http" || type === "streamableHttp" ||
        type === "remote"
    ? "http"
    : "stdio";
  const config: McpServerConfig = {
    id: idFrom(String(raw.id ?? name)),
    enabled: raw.enabled !== false && raw.disabled !== true,
    transport,
    command: transport === "stdio" ? command : "",
    args: transport === "stdio" ? args : [],
  };
  if (typeof raw.description === "string") config.description = raw.description.slice(0, 1000);
  const env = strMap(raw.env ?? raw.environment);
  if (env && transport === "stdio") config.env = env;
  if (typeof raw.cwd === "string" && raw.cwd) config.cwd = raw.cwd;
  if (url && transport !== "stdio") config.url = url;
  const headers = strMap(raw.headers ?? raw.http_headers);
  if (headers && transport !== "stdio") config.headers = headers;
  const timeout = Number(raw.timeoutMs ?? raw.timeout);
  if (Number.isInteger(timeout) && timeout >= 1000 && timeout <= 3_600_000) {
    config.timeoutMs = timeout;
  }
  const problems = [...mcpServerSchema.check(config, name), ...mcpServerProblems(config, name)];
  return problems.length ? problems.join("; ") : config;
}

/** Pasted JSON → servers: `{"mcpServers": {...}}`, `{"mcp": {...}}`, `{name: {...}}`, an array, one server. */
export function parseImportText(text: string): { servers: McpServerConfig[]; problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { servers: [], problems: [`not valid JSON: ${(e as Error).message}`] };
  }
  return fromJsonValue(json);
}

function fromJsonValue(json: unknown): { servers: McpServerConfig[]; problems: string[] } {
  const servers: McpServerConfig[] = [], problems: string[] = [];
  const take = (name: string, raw: unknown) => {
    const r = fromJsonEntry(name, raw);
    if (typeof r === "string") problems.push(r);
    else servers.push(r);
  };
  if (Array.isArray(json)) {
    json.forEach((raw, i) => take(isObj(raw) && raw.id ? String(raw.id) : `server-${i + 1}`, raw));
  } else if (isObj(json)) {
    const map = isObj(json.mcpServers)
      ? json.mcpServers
      : isObj(json.mcp_servers)
      ? json.mcp_servers
      : isObj(json.mcp)
      ? json.mcp
      : null;
    if (map) { for (const [name, raw] of Object.entries(map)) take(name, raw); }
    else if ("command" in json || "url" in json) {
      take(String(json.id ?? json.name ?? "server"), json);
    } else for (const [name, raw] of Object.entries(json)) take(name, raw);
  } else problems.push("expected an object or an array of servers");
  if (!servers.length && !problems.length) problems.push("no servers found");
  return { servers, problems };
}

// ---------- a small TOML subset, enough for Codex's [mcp_servers.*] tables ----------

function tomlValue(src: string): unknown {
  const s = src.trim();
  if (s.startsWith('"') || s.startsWith("'")) {
    return JSON.parse(s.startsWith("'") ? JSON.stringify(s.slice(1, -1)) : s);
  }
  if (s.startsWith("[")) {
    const inner = s.slice(1, -1).trim();
    return inner ? splitTop(inner).map(tomlValue) : [];
  }
  if (s.startsWith("{")) {
    const inner = s.slice(1, -1).trim();
    const out: Raw = {};
    for (const part of inner ? splitTop(inner) : []) {
      const eq = part.indexOf("=");
      out[unquoteKey(part.slice(0, eq))] = tomlValue(part.slice(eq + 1));
    }
    return out;
  }
  if (s === "true" || s === "false") return s === "true";
  const n = Number(s);
  return Number.isFinite(n) ? n : s;
}

/** Splits at top-level commas (not inside strings, arrays or inline tables). */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0, quote = "", cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === "\\" && quote === '"') {
        cur += c + s[++i];
        continue;
      }
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = "";
      continue;
    }
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const unquoteKey = (k: string) => k.trim().replace(/^["']|["']$/g, "");

/** The line without its `# comment` (a `#` inside a string stays). */
function stripComment(line: string): string {
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#") return line.slice(0, i);
  }
  return line;
}

/** Codex's config.toml → `{mcp_servers: {name: {...}}}` (other tables are ignored). */
export function parseCodexToml(text: string): Raw {
  const servers: Raw = {};
  let table: Raw | null = null;
  // Multi-line arrays are joined first so each key = value sits on one line.
  const lines: string[] = [];
  let pending = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = stripComment(raw);
    pending = pending ? `${pending} ${line.trim()}` : line;
    const opens = (pending.match(/[[{]/g) ?? []).length - (pending.match(/[\]}]/g) ?? []).length;
    if (/=\s*[[{]/.test(pending) && opens > 0) continue;
    lines.push(pending);
    pending = "";
  }
  for (const line of lines) {
    const header = line.match(/^\s*\[([^\]]+)\]\s*$/);
    if (header) {
      const path = header[1].split(".").map(unquoteKey);
      if (path[0] !== "mcp_servers" || path.length < 2) {
        table = null;
        continue;
      }
      const server = (servers[path[1]] ??= {}) as Raw;
      table = path.length === 2 ? server : ((server[path[2]] ??= {}) as Raw);
      continue;
    }
    const eq = line.indexOf("=");
    if (!table || eq < 0) continue;
    try {
      table[unquoteKey(line.slice(0, eq))] = tomlValue(line.slice(eq + 1));
    } catch { /* a value we do not read */ }
  }
  return { mcp_servers: servers };
}

// ---------- other tools' config files ----------

interface Source {
  source: string;
  file: string;
  parse(text: string): unknown;
}

function sourcesFor(userHome: string, projectPath?: string): Source[] {
  const list: Source[] = [
    { source: "claude-code", file: join(userHome, ".claude.json"), parse: JSON.parse },
    { source: "codex", file: join(userHome, ".codex", "config.toml"), parse: parseCodexToml },
    {
      source: "opencode",
      file: join(userHome, ".config", "opencode", "opencode.json"),
      parse: (t) => JSON.parse(t.replace(/^\s*\/\/.*$/gm, "")),
    },
  ];
  if (projectPath) {
    list.push({ source: "workspace", file: join(projectPath, ".mcp.json"), parse: JSON.parse });
  }
  return list;
}

/** Servers found in other tools' configs (nothing is started). */
export async function scanImports(
  userHome: string,
  existing: Set<string>,
  projectPath?: string,
): Promise<{ candidates: McpImportCandidate[]; problems: string[] }> {
  const candidates: McpImportCandidate[] = [], problems: string[] = [];
  for (const src of sourcesFor(userHome, projectPath)) {
    let text: string;
    try {
      const st = await Deno.stat(src.file);
      if (!st.isFile || st.size > 5_000_000) continue;
      text = await Deno.readTextFile(src.file);
    } catch {
      continue; // not there
    }
    let value: unknown;
    try {
      value = src.parse(text);
    } catch (e) {
      problems.push(`${src.file}: ${(e as Error).message}`);
      continue;
    }
    // Claude Code also keeps servers per project in ~/.claude.json.
    const values = [value];
    if (src.source === "claude-code" && isObj(value) && isObj(value.projects)) {
      for (const p of Object.values(value.projects)) {
        if (isObj(p) && isObj(p.mcpServers)) values.push({ mcpServers: p.mcpServers });
      }
    }
    for (const v of values) {
      if (!isObj(v) || !(isObj(v.mcpServers) || isObj(v.mcp_servers) || isObj(v.mcp))) continue;
      const r = fromJsonValue(v);
      problems.push(...r.problems.map((p) => `${src.file}: ${p}`));
      for (const config of r.servers) {
        if (candidates.some((c) => c.source === src.source && c.config.id === config.id)) continue;
        candidates.push({
          source: src.source,
          file: src.file,
          config,
          exists: existing.has(config.id),
        });
      }
    }
  }
  return { candidates, problems };
}

/** Unique ids for imported servers next to `existing` (`name` → `name-2` …). */
export function uniqueIds(
  servers: McpServerConfig[],
  existing: Set<string>,
): { servers: McpServerConfig[]; renamed: Record<string, string> } {
  const taken = new Set([...existing].map((s) => s.toLowerCase()));
  const renamed: Record<string, string> = {};
  const out = servers.map((s) => {
    let id = s.id;
    for (let n = 2; taken.has(id.toLowerCase()); n++) id = `${s.id.slice(0, 44)}-${n}`;
    taken.add(id.toLowerCase());
    if (id !== s.id) renamed[s.id] = id;
    return { ...s, id };
  });
  return { servers: out, renamed };
}
