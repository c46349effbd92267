/**
 * The MCP servers the agent uses as tools: their configuration as stored in
 * `<home>/mcp_servers.json`, their live status, the phase-tagged test result, and the
 * ops of the MCP page. Pure: shared by the server, the CLI and the UI.
 */
import { arr, bool, type Infer, int, json, obj, oneOf, type Schema, str } from "./schema.ts";
import { TOOL_POLICIES, type ToolPolicy } from "./domain.ts";

export const MCP_TRANSPORTS = ["stdio", "http", "sse"] as const;
export type McpTransport = typeof MCP_TRANSPORTS[number];

/** A server id: also part of tool names (`mcp__<id>__<tool>`), so no `__` and no odd characters. */
export const MCP_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;
export const MCP_DEFAULT_TIMEOUT_MS = 60_000;
export const MCP_LIMITS = {
  servers: 100,
  args: 200,
  argChars: 8192,
  envEntries: 100,
  urlChars: 4096,
  descriptionChars: 1000,
  timeoutMsMax: 3_600_000,
  /** The JSON text of an import. */
  importChars: 1_000_000,
} as const;

export interface McpServerConfig {
  id: string;
  description?: string;
  enabled: boolean;
  transport: McpTransport;
  /** stdio: the program and its arguments (no shell). */
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** http / sse: the endpoint. */
  url?: string;
  headers?: Record<string, string>;
  /** Per request (initialize, list, call); default 60 000. */
  timeoutMs?: number;
  /** Approval for every tool of this server (default: the mode decides, as for `write`). */
  policy?: ToolPolicy;
  /** Per tool (the server's own tool name), over `policy`. */
  toolPolicies?: Record<string, ToolPolicy>;
  /**
   * http: OAuth settings. Without them a server that asks for OAuth is signed in to with
   * a client registered on the fly; a client id here is used instead (an authorization
   * server without dynamic registration), with its secret when it has one.
   */
  oauth?: McpOAuthConfig;
}

export interface McpOAuthConfig {
  clientId?: string;
  clientSecret?: string;
  /** The scope asked for when the server does not say. */
  scope?: string;
}

const strMap = (maxValue: number): Schema<Record<string, string>> => ({
  check(v, path) {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      return [`${path} must be an object`];
    }
    const entries = Object.entries(v);
    if (entries.length > MCP_LIMITS.envEntries) {
      return [`${path} has more than ${MCP_LIMITS.envEntries} entries`];
    }
    const problems: string[] = [];
    for (const [k, x] of entries) {
      if (!k || k.length > 256) problems.push(`${path} has an invalid name "${k.slice(0, 40)}"`);
      if (typeof x !== "string") problems.push(`${path}.${k} must be a string`);
      else if (x.length > maxValue) problems.push(`${path}.${k} is longer than ${maxValue}`);
    }
    return problems;
  },
  toJsonSchema: () => ({ type: "object", additionalProperties: { type: "string" } }),
});

const policyMap: Schema<Record<string, ToolPolicy>> = {
  check(v, path) {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      return [`${path} must be an object`];
    }
    return Object.entries(v).flatMap(([k, x]) =>
      (TOOL_POLICIES as readonly unknown[]).includes(x)
        ? []
        : [`${path}.${k} must be one of ${TOOL_POLICIES.join(", ")}`]
    );
  },
  toJsonSchema: () => ({ type: "object" }),
};

/** One server as written in the file or sent by the MCP page (before the cross-field rules). */
export const mcpServerSchema = obj({
  id: str({ min: 1, max: 48, pattern: MCP_ID_RE }),
  "description?": str({ max: MCP_LIMITS.descriptionChars }),
  enabled: bool,
  transport: oneOf(MCP_TRANSPORTS),
  command: str({ max: MCP_LIMITS.argChars }),
  args: arr(str({ max: MCP_LIMITS.argChars }), MCP_LIMITS.args),
  "env?": strMap(MCP_LIMITS.argChars),
  "cwd?": str({ max: 4096 }),
  "url?": str({ max: MCP_LIMITS.urlChars }),
  "headers?": strMap(MCP_LIMITS.argChars),
  "timeoutMs?": int({ min: 1000, max: MCP_LIMITS.timeoutMsMax }),
  "policy?": oneOf(TOOL_POLICIES),
  "toolPolicies?": policyMap,
  "oauth?": obj({
    "clientId?": str({ min: 1, max: 512 }),
    "clientSecret?": str({ max: 4096 }),
    "scope?": str({ max: 2048 }),
  }),
});

/** Rules across fields: stdio needs a command, http/sse a http(s) URL. */
export function mcpServerProblems(s: McpServerConfig, path = "server"): string[] {
  const problems: string[] = [];
  if (s.transport === "stdio") {
    if (!s.command.trim()) problems.push(`${path}.command is required for a stdio server`);
  } else {
    let url: URL | null = null;
    try {
      url = s.url ? new URL(s.url) : null;
    } catch { /* reported below */ }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
      problems.push(`${path}.url must be an http(s) URL for a ${s.transport} server`);
    }
  }
  return problems;
}

/** Where a connection attempt got to: reading the config, starting, the handshake, listing. */
export const MCP_PHASES = ["config", "spawn", "initialize", "tools_list", "ready"] as const;
export type McpPhase = typeof MCP_PHASES[number];

/** A tool of a server as the MCP page shows it. */
export interface McpToolInfo {
  /** The server's own name. */
  name: string;
  /** The name the model calls (`mcp__<server>__<tool>`, sanitised). */
  agentName: string;
  description: string;
}

/** What a test or restart found (phase = where it stopped; "ready" when it worked). */
export interface McpTestResult {
  ok: boolean;
  id: string;
  phase: McpPhase;
  transport: McpTransport;
  durationMs: number;
  toolCount: number;
  tools: McpToolInfo[];
  error: string | null;
  stderrTail: string[];
  /** The protocol version the SDK negotiated, when it got that far. */
  protocolVersion: string | null;
}

export type McpState = "disabled" | "idle" | "connecting" | "ready" | "failed";

/** One configured server and its connection, for the MCP page and `reinagent mcp list`. */
export interface McpServerStatus {
  config: McpServerConfig;
  state: McpState;
  toolCount: number | null;
  tools: McpToolInfo[];
  /** The last failure (phase-tagged), shown as a badge on the server's row. */
  error: { phase: McpPhase; message: string; at: number } | null;
  stderrTail: string[];
  /** http/sse: the OAuth sign-in (null: none stored, or a stdio server). */
  oauth?: McpOAuthSummary | null;
}

/** The whole picture: the servers, or why the file could not be read (never overwritten). */
export interface McpOverview {
  path: string;
  /** The file is corrupt: shown as a banner; saving is refused until it is fixed. */
  fileError: string | null;
  servers: McpServerStatus[];
}

/** A server found in another tool's config (or pasted JSON), offered for import. */
export interface McpImportCandidate {
  /** Where it was found: "json", "claude-code", "codex", "opencode", "workspace". */
  source: string;
  file: string | null;
  config: McpServerConfig;
  /** Already configured under this id. */
  exists: boolean;
}

/** A project's `.mcp.json` waiting for the user's answer. */
export interface McpWorkspaceOffer {
  projectPath: string;
  file: string;
  servers: McpServerConfig[];
  problems: string[];
}

export const MCP_TOPIC = "mcp";

/** Pushed on {@link MCP_TOPIC}: the overview changed, or a server failed during a turn. */
export type McpEvent =
  | { kind: "overview"; overview: McpOverview }
  | { kind: "failure"; id: string; phase: McpPhase; message: string; at: number }
  /** The questions MCP servers wait for an answer to that every client is shown (the whole list). */
  | { kind: "elicitations"; list: McpElicitation[] };

/** One field of an MCP server's question (a flat, primitive property of its schema). */
export interface McpElicitField {
  name: string;
  title: string;
  description: string;
  type: "string" | "number" | "integer" | "boolean";
  required: boolean;
  /** A choice: the values, and their labels when the server gave them. */
  enum?: string[];
  enumNames?: string[];
  default?: string | number | boolean;
  /** email, uri, date, date-time (string fields). */
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

/** An MCP server asks the user something (elicitation, form mode). */
export interface McpElicitation {
  id: string;
  /** The MCP server's id. */
  server: string;
  /** The server's text, shown as text (never as markup). */
  message: string;
  fields: McpElicitField[];
  createdAt: number;
  /** The tasks whose calls to the server were running when it asked (usually one; may be none). */
  taskIds: string[];
  /**
   * Shown to every client: no client had one of those tasks open (or none was running).
   * Otherwise only the clients that have one open are shown it (topic `task:<id>`,
   * `{kind: "mcpQuestions"}`).
   */
  everyone: boolean;
}

const mcpId = str({ min: 1, max: 48, pattern: MCP_ID_RE });

export const MCP_OP_ARGS = {
  "mcp.list": obj({}),
  /** Adds or replaces the server with `server.id` (`previousId` renames). */
  "mcp.save": obj({ server: mcpServerSchema, "previousId?": mcpId }),
  "mcp.remove": obj({ id: mcpId }),
  "mcp.setEnabled": obj({ id: mcpId, enabled: bool }),
  "mcp.test": obj({ "id?": mcpId, "server?": mcpServerSchema }),
  "mcp.restart": obj({ id: mcpId }),
  /** Pasted JSON (`{"mcpServers": {...}}`, an array, or one server) → candidates. */
  "mcp.parseImport": obj({ text: str({ min: 1, max: MCP_LIMITS.importChars }) }),
  /** Claude Code / Codex / OpenCode configs found on disk → candidates. */
  "mcp.scanImports": obj({ "projectPath?": str({ max: 4096 }) }),
  /** Masked secrets of scanned servers are read again from the files found (`projectPath`: as scanned). */
  "mcp.import": obj({
    servers: arr(mcpServerSchema, MCP_LIMITS.servers, { min: 1 }),
    "projectPath?": str({ max: 4096 }),
  }),
  /** The project's `.mcp.json`, if it has one the user has not answered yet (never run). */
  "mcp.workspace": obj({ projectPath: str({ min: 1, max: 4096 }) }),
  /** Import the project's `.mcp.json` servers (one-time trust) or dismiss the offer. */
  "mcp.workspaceDecide": obj({
    projectPath: str({ min: 1, max: 4096 }),
    decision: oneOf(["import", "dismiss"]),
  }),
  /** Starts an OAuth sign-in: the URL to open (null: the stored tokens work). */
  /** `origin`: the page's own, so the answer comes back to the address the user is on. */
  "mcp.oauthStart": obj({ id: mcpId, "origin?": str({ max: 300 }) }),
  "mcp.oauthStatus": obj({ id: mcpId }),
  /** Revokes at the authorization server when it can, and forgets the tokens. */
  "mcp.oauthSignOut": obj({ id: mcpId }),
  /**
   * The questions of MCP servers this client is shown: every client's, and those of the
   * tasks it has open or of `taskId` (the task it is opening).
   */
  "mcp.elicitations": obj({ "taskId?": str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ }) }),
  /** Answers one: accept (with the form's values), decline, or cancel (dismiss). */
  "mcp.elicitationAnswer": obj({
    id: str({ min: 1, max: 80 }),
    action: oneOf(["accept", "decline", "cancel"]),
    "content?": json(64 * 1024),
  }),
} satisfies Record<string, Schema>;

/** An OAuth sign-in to an http MCP server as clients see it: the token only masked. */
export interface McpOAuthSummary {
  signedIn: boolean;
  /** The access token masked ("••••abcd"). */
  token: string | null;
  scope: string | null;
  /** When the access token runs out (ms), when the server said. */
  expiresAt: number | null;
  refreshable: boolean;
}

export type McpSaveArgs = Infer<typeof MCP_OP_ARGS["mcp.save"]>;

export interface McpOpResults {
  "mcp.list": McpOverview;
  "mcp.save": McpOverview;
  "mcp.remove": McpOverview;
  "mcp.setEnabled": McpOverview;
  "mcp.test": McpTestResult;
  "mcp.restart": McpTestResult;
  "mcp.parseImport": { candidates: McpImportCandidate[]; problems: string[] };
  "mcp.scanImports": { candidates: McpImportCandidate[]; problems: string[] };
  "mcp.import": { overview: McpOverview; imported: string[]; renamed: Record<string, string> };
  "mcp.workspace": { offer: McpWorkspaceOffer | null };
  "mcp.workspaceDecide": { imported: string[]; overview: McpOverview };
  "mcp.oauthStart": { url: string | null };
  "mcp.oauthStatus": McpOAuthSummary;
  "mcp.oauthSignOut": { revokedAtServer: boolean };
  "mcp.elicitations": { list: McpElicitation[] };
  "mcp.elicitationAnswer": { id: string };
}
