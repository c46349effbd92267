/**
 * Arguments of `reinagent mcp add|list|remove|test` (see mcp_cmd.ts), parsed without
 * loading the MCP client: the CLI's argument parser imports this file on every start.
 */
import { parseFlags } from "./flags.ts";
import { MCP_ID_RE, type McpServerConfig } from "../../protocol/mcp_servers.ts";

export type McpCommand =
  | { kind: "mcp"; action: "add"; home?: string; server: McpServerConfig }
  | { kind: "mcp"; action: "list"; home?: string; json: boolean }
  | { kind: "mcp"; action: "remove" | "test" | "login" | "logout"; home?: string; id: string };

type Parsed = { command: McpCommand } | { error: string };

function pairs(list: string[], sep: RegExp, what: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const item of list) {
    const m = item.match(sep);
    if (!m || m.index === undefined || m.index === 0) {
      return `${what} must be NAME${sep.source}VALUE, got "${item}"`;
    }
    out[item.slice(0, m.index).trim()] = item.slice(m.index + m[0].length).trim();
  }
  return out;
}

function parseAdd(argv: string[]): Parsed {
  const dash = argv.indexOf("--");
  const before = dash >= 0 ? argv.slice(0, dash) : argv;
  const after = dash >= 0 ? argv.slice(dash + 1) : [];
  const f = parseFlags(before, {
    values: ["--home", "--url", "--cwd", "--timeout", "--description", "--policy"],
    multi: ["--env", "--header"],
    bools: ["--sse", "--disabled"],
  });
  if ("error" in f) return f;
  const [id, ...extra] = f.positional;
  if (!id) return { error: "mcp add needs an ID" };
  if (!MCP_ID_RE.test(id)) {
    return { error: `the ID "${id}" may only have letters, digits, "_" and "-" (at most 48)` };
  }
  const url = f.values["--url"];
  if (url && after.length) return { error: "give either --url or -- COMMAND ARGS, not both" };
  if (extra.length && !url) {
    return { error: `put the command after "--": reinagent mcp add ${id} -- ${extra.join(" ")}` };
  }
  if (!url && !after.length) {
    return { error: "mcp add needs -- COMMAND ARGS… (stdio) or --url URL (http)" };
  }
  if (extra.length) return { error: `unexpected argument "${extra[0]}"` };
  if (f.bools.has("--sse") && !url) return { error: "--sse needs --url" };
  if (f.multi["--header"] && !url) return { error: "--header needs --url" };
  if (f.multi["--env"] && url) return { error: "--env is for stdio servers (-- COMMAND)" };
  const server: McpServerConfig = {
    id,
    enabled: !f.bools.has("--disabled"),
    transport: url ? (f.bools.has("--sse") ? "sse" : "http") : "stdio",
    command: url ? "" : after[0],
    args: url ? [] : after.slice(1),
  };
  if (url) server.url = url;
  if (f.multi["--env"]) {
    const env = pairs(f.multi["--env"], /=/, "--env");
    if (typeof env === "string") return { error: env };
    server.env = env;
  }
  if (f.multi["--header"]) {
    const headers = pairs(f.multi["--header"], /:/, "--header");
    if (typeof headers === "string") return { error: headers };
    server.headers = headers;
  }
  if (f.values["--cwd"]) server.cwd = f.values["--cwd"];
  if (f.values["--description"]) server.description = f.values["--description"];
  const policy = f.values["--policy"];
  if (policy) {
    if (policy !== "allow" && policy !== "ask" && policy !== "deny") {
      return { error: `--policy is allow, ask or deny, got "${policy}"` };
    }
    server.policy = policy;
  }
  if (f.values["--timeout"]) {
    const n = Number(f.values["--timeout"]);
    if (!Number.isInteger(n) || n < 1000 || n > 3_600_000) {
      return {
        error: `--timeout is in milliseconds, 1000–3600000, got "${f.values["--timeout"]}"`,
      };
    }
    server.timeoutMs = n;
  }
  return { command: { kind: "mcp", action: "add", home: f.values["--home"], server } };
}

export function parseMcpArgs(argv: string[]): Parsed {
  const [action, ...rest] = argv;
  if (action === "add") return parseAdd(rest);
  if (action === "list") {
    const f = parseFlags(rest, { values: ["--home"], bools: ["--json"] });
    if ("error" in f) return f;
    if (f.positional.length) return { error: `mcp list takes no arguments` };
    return {
      command: { kind: "mcp", action, home: f.values["--home"], json: f.bools.has("--json") },
    };
  }
  if (action === "remove" || action === "test" || action === "login" || action === "logout") {
    const f = parseFlags(rest, { values: ["--home"] });
    if ("error" in f) return f;
    if (f.positional.length !== 1) return { error: `mcp ${action} needs exactly one ID` };
    return { command: { kind: "mcp", action, home: f.values["--home"], id: f.positional[0] } };
  }
  return {
    error: action
      ? `unknown mcp command "${action}" (serve, add, list, remove, test, login, logout)`
      : "mcp needs a command: serve, add, list, remove, test, login, logout",
  };
}
