/**
 * One live connection to one MCP server, on the SDK's `Client`: the transport of the
 * config (stdio child, streamable HTTP, legacy SSE), the handshake (the SDK negotiates
 * the protocol version), the tool list (paged, refreshed on `listChanged`) and calls
 * with the server's timeout. Every failure names the phase it happened in; a server
 * that exits or drops the connection marks it dead with a clear reason, and the pool
 * connects again on next use.
 */
import { netFetch } from "../../tools/net/proxy.ts";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth";
import type { CallToolResult, Tool as SdkTool } from "@modelcontextprotocol/sdk/types.js";
import {
  MCP_DEFAULT_TIMEOUT_MS,
  type McpPhase,
  type McpServerConfig,
} from "../../protocol/mcp_servers.ts";
import { commandEnv, type EnvPolicy } from "../../tools/exec/env_policy.ts";
import type { DenoStdioTransport } from "./stdio_transport.ts";

type Sdk = typeof import("./sdk_client.ts");
/** The SDK, imported with the first connection (see sdk_client.ts). */
const loadSdk = (): Promise<Sdk> => import("./sdk_client.ts");
import { VERSION } from "../version.ts";

/** At most this many tools of one server (pages of `tools/list`). */
const MAX_TOOLS = 500;
const MAX_PAGES = 20;

/** A failure in a phase, with the server's last stderr lines. */
/** How a server names a resource or a resource template in its lists. */
interface ResourceNames {
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
}

export class McpPhaseError extends Error {
  constructor(readonly phase: McpPhase, message: string, readonly stderrTail: string[] = []) {
    super(message);
  }
}

export interface ConnectionOptions {
  /** What stdio servers may see of our environment (as shell commands). */
  envPolicy: EnvPolicy;
  /** The folder a stdio server starts in when its config names none. */
  defaultCwd: string;
  /** The server changed its tool list (already re-read). */
  onToolsChanged?(): void;
  /** The connection died (exit, dropped stream); `reason` is for the user. */
  onDead?(reason: string): void;
  /** OAuth for http/sse servers: stored tokens, refresh and step-up (see oauth/sign_in.ts). */
  authProvider?(config: McpServerConfig): ConnectionOAuth | undefined;
  /** A question of the server for the user (elicitation, form mode); absent: not offered. */
  onElicit?(
    serverId: string,
    params: { message?: unknown; requestedSchema?: unknown },
    signal: AbortSignal,
  ): Promise<{ action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }>;
}

export interface ConnectionOAuth {
  provider: OAuthClientProvider;
  /** Sees every response (a 403 insufficient_scope names the scope a sign-in must ask). */
  observe(res: Response): void;
}

/** A prompt of a server, as listed (bounded; hostile text like any). */
export interface McpPromptInfo {
  name: string;
  description: string;
  arguments: { name: string; required: boolean }[];
}

const MAX_PROMPTS = 200;

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class McpConnection {
  tools: SdkTool[] = [];
  /** The server offers resources (`resources` capability). */
  hasResources = false;
  /** Counts `resources/list_changed` notifications: a cached listing older than it is stale. */
  resourcesVersion = 0;
  /** Its prompts (offered as slash commands), re-read on `prompts/list_changed`. */
  prompts: McpPromptInfo[] = [];
  protocolVersion: string | null = null;
  /** Connected and its tools listed. */
  ready = false;
  /** Why the connection is dead, or null while it lives. */
  dead: string | null = null;
  private client: Client | null = null;
  private transport: Transport | null = null;
  private stdio: DenoStdioTransport | null = null;

  constructor(readonly config: McpServerConfig, private opts: ConnectionOptions) {}

  get timeoutMs(): number {
    return this.config.timeoutMs ?? MCP_DEFAULT_TIMEOUT_MS;
  }

  stderrTail(n?: number): string[] {
    return this.stdio?.stderr.last(n) ?? [];
  }

  /** Connects and lists the tools; throws an {@link McpPhaseError}. */
  async connect(): Promise<void> {
    const c = this.config;
    const sdk = await loadSdk();
    try {
      this.transport = this.makeTransport(sdk);
    } catch (e) {
      throw new McpPhaseError("config", errText(e));
    }
    if (this.stdio) {
      try {
        await this.stdio.start();
      } catch (e) {
        const why = e instanceof Deno.errors.NotFound
          ? `command not found: ${c.command}`
          : `cannot start ${c.command}: ${errText(e)}`;
        throw new McpPhaseError("spawn", why);
      }
    }
    // The SDK tells the transport which protocol version it negotiated: note it.
    const setVersion = this.transport.setProtocolVersion?.bind(this.transport);
    this.transport.setProtocolVersion = (v: string) => {
      this.protocolVersion = v;
      setVersion?.(v);
    };
    const client = new sdk.Client({ name: "reinagent", version: VERSION }, {
      capabilities: this.opts.onElicit ? { elicitation: { form: {} } } : {},
    });
    const onElicit = this.opts.onElicit;
    if (onElicit) {
      client.setRequestHandler(
        sdk.ElicitRequestSchema,
        (req: { params: Record<string, unknown> }, extra: { signal: AbortSignal }) =>
          onElicit(c.id, req.params, extra.signal),
      );
    }
    client.onerror = () => {}; // stray lines on stdout etc.: not fatal
    // Set before the handshake: a server may announce new tools right after it.
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, async () => {
      if (this.dead || !this.client) return;
      try {
        this.tools = await this.listTools();
        this.opts.onToolsChanged?.();
      } catch (e) {
        if (!this.dead) console.error(`MCP server ${c.id}: re-listing tools failed:`, errText(e));
      }
    });
    client.setNotificationHandler(sdk.PromptListChangedNotificationSchema, async () => {
      if (this.dead || !this.client) return;
      this.prompts = await this.listPrompts().catch(() => this.prompts);
      this.opts.onToolsChanged?.();
    });
    client.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, () => {
      this.resourcesVersion++;
      this.opts.onToolsChanged?.();
    });
    this.client = client;
    try {
      await client.connect(this.transport, { timeout: this.timeoutMs });
    } catch (e) {
      await this.close();
      throw new McpPhaseError("initialize", this.failureText(e), this.stderrTail(20));
    }
    this.transport.onclose = chain(this.transport.onclose, () => this.died());
    this.hasResources = Boolean(client.getServerCapabilities()?.resources);
    // Prompts are an extra: a server whose prompts/list fails still serves its tools.
    if (client.getServerCapabilities()?.prompts) {
      this.prompts = await this.listPrompts().catch((e) => {
        console.error(`MCP server ${c.id}: listing prompts failed:`, errText(e));
        return [];
      });
    }
    try {
      this.tools = await this.listTools();
    } catch (e) {
      await this.close();
      throw new McpPhaseError("tools_list", this.failureText(e), this.stderrTail(20));
    }
    this.ready = true;
  }

  private async listTools(): Promise<SdkTool[]> {
    const out: SdkTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await this.client!.listTools(cursor ? { cursor } : {}, {
        timeout: this.timeoutMs,
      });
      out.push(...r.tools);
      cursor = r.nextCursor;
      if (!cursor || out.length >= MAX_TOOLS) break;
    }
    return out.slice(0, MAX_TOOLS);
  }

  /**
   * Runs one request on the live connection; a dead connection, a timeout or the
   * server's error throws with a reason for the model.
   */
  private async request<T>(
    send: (client: Client) => Promise<T>,
  ): Promise<T> {
    if (this.dead || !this.client) {
      throw new Error(
        `the MCP server "${this.config.id}" is not connected (${this.dead ?? "closed"})`,
      );
    }
    try {
      return await send(this.client);
    } catch (e) {
      throw new Error(this.failureText(e));
    }
  }

  /** Calls a tool. */
  call(name: string, args: Record<string, unknown>, signal: AbortSignal) {
    return this.request((c) =>
      c.callTool({ name, arguments: args }, undefined, {
        timeout: this.timeoutMs,
        signal,
      }) as Promise<CallToolResult>
    );
  }

  private async listPrompts(): Promise<McpPromptInfo[]> {
    const out: McpPromptInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES && out.length < MAX_PROMPTS; page++) {
      const r = await this.client!.listPrompts(cursor ? { cursor } : {}, {
        timeout: this.timeoutMs,
      });
      for (const p of r.prompts ?? []) {
        out.push({
          name: String(p.name).slice(0, 200),
          description: String(p.description ?? p.title ?? "").replace(/\s+/g, " ").slice(0, 300),
          arguments: (Array.isArray(p.arguments) ? p.arguments : []).slice(0, 20).map((
            a: { name: unknown; required?: unknown },
          ) => ({ name: String(a.name).slice(0, 100), required: a.required === true })),
        });
      }
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return out.slice(0, MAX_PROMPTS);
  }

  /** A prompt's messages as one text (`prompts/get`): what the model is sent. */
  async getPrompt(name: string, args: Record<string, string>): Promise<string> {
    const r: Awaited<ReturnType<Client["getPrompt"]>> = await this.request((c) =>
      c.getPrompt({ name, arguments: args }, { timeout: this.timeoutMs })
    );
    return (r.messages ?? []).map((
      m: { content: { type: string; text?: string; resource?: { text?: string } } },
    ) =>
      m.content.type === "text"
        ? m.content.text ?? ""
        : m.content.type === "resource" && typeof m.content.resource?.text === "string"
        ? m.content.resource.text
        : `[${m.content.type} content not shown]`
    ).join("\n\n");
  }

  /** One page of the server's resources (`resources/list`). */
  async listResources(cursor?: string): Promise<{
    resources: (ResourceNames & { uri: string })[];
    nextCursor?: string;
  }> {
    return await this.request((c) =>
      c.listResources(cursor ? { cursor } : {}, { timeout: this.timeoutMs })
    );
  }

  /** One page of the server's resource templates (`resources/templates/list`). */
  async listResourceTemplates(cursor?: string): Promise<{
    resourceTemplates: (ResourceNames & { uriTemplate: string })[];
    nextCursor?: string;
  }> {
    return await this.request((c) =>
      c.listResourceTemplates(cursor ? { cursor } : {}, { timeout: this.timeoutMs })
    );
  }

  /** Reads one resource (`resources/read`). */
  async readResource(uri: string, signal: AbortSignal): Promise<{
    contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
  }> {
    return await this.request((c) => c.readResource({ uri }, { timeout: this.timeoutMs, signal }));
  }

  /** An SDK error in words, with why the connection is gone and the stderr tail. */
  private failureText(e: unknown): string {
    let msg = errText(e);
    if ((e as Error)?.name === "UnauthorizedError" || /^Unauthorized\b/.test(msg)) {
      msg = `the server needs sign-in (OAuth): press Sign in on the MCP page or run ` +
        `\`reinagent mcp login ${this.config.id}\``;
    }
    // The SDK's HTTP errors carry the status as `code` (MCP errors use negative codes).
    const status = (e as { code?: unknown })?.code;
    if (typeof status === "number" && status >= 100 && status < 600) msg = `HTTP ${status}: ${msg}`;
    if (/Connection closed/i.test(msg) || this.stdio?.exit || this.stdio?.stopped) {
      const how = this.stdio?.exit || this.stdio?.stopped
        ? `the server ${this.stdio.exitText()}`
        : "the connection closed";
      msg = `${how} (${msg})`;
    }
    if (/timed out|timeout/i.test(msg)) msg += ` after ${this.timeoutMs} ms`;
    const tail = this.stderrTail(5);
    return tail.length ? `${msg}. Server stderr: ${tail.join(" | ")}` : msg;
  }

  private died(): void {
    if (this.dead) return;
    this.dead = this.stdio?.exit || this.stdio?.stopped
      ? `the server ${this.stdio.exitText()}`
      : "the connection closed";
    this.opts.onDead?.(this.dead);
  }

  private makeTransport(sdk: Sdk): Transport {
    const c = this.config;
    if (c.transport === "stdio") {
      const base = commandEnv(Deno.env.toObject(), this.opts.envPolicy).env;
      this.stdio = new sdk.DenoStdioTransport({
        command: c.command,
        args: c.args,
        env: { ...base, ...(c.env ?? {}) },
        cwd: c.cwd || this.opts.defaultCwd,
      });
      return this.stdio;
    }
    const url = new URL(c.url ?? "");
    const requestInit: RequestInit = { headers: c.headers ?? {} };
    // A configured Authorization header is the user's choice of credential: no OAuth then.
    const hasAuthHeader = Object.keys(c.headers ?? {}).some((h) => /^authorization$/i.test(h));
    const oauth = hasAuthHeader ? undefined : this.opts.authProvider?.(c);
    const observed: typeof netFetch = async (input, init) => {
      const res = await netFetch(input, init);
      oauth?.observe(res);
      return res;
    };
    const o = oauth
      ? { requestInit, fetch: observed, authProvider: oauth.provider }
      : { requestInit, fetch: netFetch };
    return c.transport === "sse"
      ? new sdk.SSEClientTransport(url, o)
      : new sdk.StreamableHTTPClientTransport(url, o);
  }

  /** Closes the connection (a stdio child's whole process group is stopped). */
  async close(): Promise<void> {
    this.dead ??= "closed";
    const client = this.client, transport = this.transport;
    this.client = null;
    try {
      if (client) await client.close();
      else await transport?.close();
    } catch { /* already gone */ }
    if (this.stdio) await this.stdio.close();
  }
}

function chain(a: (() => void) | undefined, b: () => void): () => void {
  return () => {
    a?.();
    b();
  };
}
