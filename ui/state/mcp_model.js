/**
 * Pure helpers of the MCP page: the server form's text fields ↔ a server config
 * (arguments one per line, `K=V` environment lines, `K: V` header lines), the
 * client-side checks, and the row's status words. The server checks everything again.
 *
 * @typedef {import("../../protocol/index.ts").McpServerConfig} McpServerConfig
 * @typedef {import("../../protocol/index.ts").McpServerStatus} McpServerStatus
 * @typedef {{id: string, description: string, transport: "stdio"|"http"|"sse",
 *   command: string, args: string, env: string, cwd: string, url: string,
 *   headers: string, timeoutMs: string, policy: ""|"allow"|"ask"|"deny",
 *   enabled: boolean}} McpForm
 */
import { MCP_ID_RE } from "../../protocol/index.ts";

/** @param {Record<string, string>|undefined} m @param {string} sep */
const lines = (m, sep) => Object.entries(m ?? {}).map(([k, v]) => `${k}${sep}${v}`).join("\n");

/** @param {McpServerConfig|null} s @returns {McpForm} */
export function formOf(s) {
  return {
    id: s?.id ?? "",
    description: s?.description ?? "",
    transport: s?.transport ?? "stdio",
    command: s?.command ?? "",
    args: (s?.args ?? []).join("\n"),
    env: lines(s?.env, "="),
    cwd: s?.cwd ?? "",
    url: s?.url ?? "",
    headers: lines(s?.headers, ": "),
    timeoutMs: s?.timeoutMs ? String(s.timeoutMs) : "",
    policy: s?.policy ?? "",
    enabled: s?.enabled ?? true,
  };
}

/**
 * `K=V` (or `K: V`) lines as a map; returns the first bad line as an error.
 * @param {string} text @param {string} sep
 * @returns {{map: Record<string, string>} | {bad: string}}
 */
export function parsePairs(text, sep) {
  /** @type {Record<string, string>} */
  const map = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const i = line.indexOf(sep);
    if (i <= 0) return { bad: line };
    map[line.slice(0, i).trim()] = line.slice(i + sep.length).trim();
  }
  return { map };
}

/**
 * The form as a config, or the problems by field (keys of {@link McpForm}).
 * @param {McpForm} f
 * @param {McpServerConfig|null} base the server being edited (its other fields are kept)
 * @returns {{config: McpServerConfig} | {errors: Partial<Record<keyof McpForm, string>>}}
 */
export function configOf(f, base) {
  /** @type {Partial<Record<keyof McpForm, string>>} */
  const errors = {};
  const id = f.id.trim();
  if (!MCP_ID_RE.test(id)) errors.id = "id";
  /** @type {McpServerConfig} */
  const config = {
    ...(base ? { toolPolicies: base.toolPolicies } : {}),
    // OAuth settings are not on the form: an edit keeps them (the secret stays masked).
    ...(base?.oauth && f.transport !== "stdio" ? { oauth: base.oauth } : {}),
    id,
    enabled: f.enabled,
    transport: f.transport,
    command: f.transport === "stdio" ? f.command.trim() : "",
    args: f.transport === "stdio" ? f.args.split("\n").map((a) => a.trim()).filter(Boolean) : [],
  };
  if (!config.toolPolicies) delete config.toolPolicies;
  if (f.description.trim()) config.description = f.description.trim();
  if (f.transport === "stdio") {
    if (!config.command) errors.command = "command";
    const env = parsePairs(f.env, "=");
    if ("bad" in env) errors.env = env.bad;
    else if (Object.keys(env.map).length) config.env = env.map;
    if (f.cwd.trim()) config.cwd = f.cwd.trim();
  } else {
    let ok = false;
    try {
      const u = new URL(f.url.trim());
      ok = u.protocol === "http:" || u.protocol === "https:";
    } catch { /* not a URL */ }
    if (!ok) errors.url = "url";
    else config.url = f.url.trim();
    const headers = parsePairs(f.headers, ":");
    if ("bad" in headers) errors.headers = headers.bad;
    else if (Object.keys(headers.map).length) config.headers = headers.map;
  }
  if (f.timeoutMs.trim()) {
    const n = Number(f.timeoutMs.trim());
    if (!Number.isInteger(n) || n < 1000 || n > 3_600_000) errors.timeoutMs = "timeout";
    else config.timeoutMs = n;
  }
  if (f.policy) config.policy = f.policy;
  return Object.keys(errors).length ? { errors } : { config };
}

/** What a row says about its server's command or URL. @param {McpServerConfig} s */
export function targetOf(s) {
  if (s.transport !== "stdio") return s.url ?? "";
  return [s.command, ...s.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ");
}

/** `mcp__srv__tool` → {server, tool}; null for other names. @param {string} name */
export function splitToolName(name) {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? { server: m[1], tool: m[2] } : null;
}
