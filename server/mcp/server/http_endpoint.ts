/**
 * `/mcp`: the MCP streamable HTTP transport of the SDK (web-standard Request/Response),
 * one session per client. The route checks the token before anything reaches here.
 * Sessions are bounded in number and closed when idle; closing the app closes them
 * all (an open event stream would otherwise hold the server's shutdown).
 */
import { type Server, WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import type { ServerDeps } from "../../ops/context.ts";
import { type OpPort, opPort } from "./op_port.ts";
import { createMcpServer, mcpClientInfo } from "./mcp_server.ts";
import type { McpSession } from "./tool_kit.ts";
import { SessionEventStore } from "./event_store.ts";

export const MCP_LIMITS = {
  /** Live sessions at once; the longest idle one is closed to make room. */
  sessions: 64,
  /** A session unused this long is closed. */
  idleMs: 30 * 60_000,
  /** Largest request body (a message is at most 200 000 characters). */
  bodyBytes: 2 * 1024 * 1024,
  /** The `retry` a dropped event stream is told to wait before resuming. */
  retryMs: 1000,
} as const;

interface Live {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  ops: OpPort;
  lastUsed: number;
  /** Requests being answered (a wait_for_task may take minutes). */
  busy: number;
}

const rpcError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });

export class McpHttpEndpoint {
  private sessions = new Map<string, Live>();

  constructor(private deps: ServerDeps, private now: () => number = Date.now) {}

  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(req: Request, ip: string): Promise<Response> {
    this.sweep();
    const sid = req.headers.get("mcp-session-id");
    if (sid) {
      const live = this.sessions.get(sid);
      if (!live) return rpcError(404, -32001, "Session not found: initialize a new session");
      return await this.serve(live, req);
    }
    if (req.method !== "POST") {
      return rpcError(400, -32000, "Bad Request: no session (POST an initialize request first)");
    }
    if (this.sessions.size >= MCP_LIMITS.sessions && !this.evictIdlest()) {
      return rpcError(
        503,
        -32000,
        `Too many MCP sessions (${MCP_LIMITS.sessions}); close one first`,
      );
    }
    return await this.open(req, ip);
  }

  private async open(req: Request, ip: string): Promise<Response> {
    let server: Server | null = null;
    const ops = opPort(this.deps, () => mcpClientInfo(server!, ip));
    const session: McpSession = { ops, currentTask: null, draft: null };
    server = createMcpServer(session, this.deps.version, { home: this.deps.home });
    const live: Live = {
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => void this.sessions.set(id, live),
        onsessionclosed: (id) => void this.drop(id),
        maxRequestBodySize: MCP_LIMITS.bodyBytes,
        // Event ids and `retry` on every stream: a dropped one resumes with Last-Event-ID.
        eventStore: new SessionEventStore(),
        retryInterval: MCP_LIMITS.retryMs,
      }),
      server,
      ops,
      lastUsed: this.now(),
      busy: 0,
    };
    await server.connect(live.transport);
    const res = await this.serve(live, req);
    // Not an initialize request (or a bad one): no session was made; let nothing linger.
    if (!live.transport.sessionId) await this.closeLive(live);
    return res;
  }

  private async serve(live: Live, req: Request): Promise<Response> {
    live.lastUsed = this.now();
    live.busy++;
    try {
      return await live.transport.handleRequest(req);
    } finally {
      live.busy--;
      live.lastUsed = this.now();
    }
  }

  private async closeLive(live: Live): Promise<void> {
    live.ops.close();
    await live.server.close().catch(() => {});
  }

  private drop(id: string): void {
    const live = this.sessions.get(id);
    if (!live) return;
    this.sessions.delete(id);
    void this.closeLive(live);
  }

  private sweep(): void {
    const cutoff = this.now() - MCP_LIMITS.idleMs;
    for (const [id, live] of this.sessions) {
      if (live.busy === 0 && live.lastUsed < cutoff) this.drop(id);
    }
  }

  /** Closes the session idle the longest; false when every one is answering a request. */
  private evictIdlest(): boolean {
    let oldest: [string, Live] | null = null;
    for (const e of this.sessions) {
      if (e[1].busy === 0 && (!oldest || e[1].lastUsed < oldest[1].lastUsed)) oldest = e;
    }
    if (oldest) this.drop(oldest[0]);
    return oldest !== null;
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((l) => this.closeLive(l)));
  }
}
