/**
 * The MCP client side of the server: the config file (re-read when it changes, so the
 * CLI's edits reach a running server), the connection pool, the tools of each turn,
 * status for the MCP page, test and restart with phase-tagged results. Failures are
 * never silent: a server that fails to start or list its tools is recorded on its row
 * and pushed to every client (toast), and the turn runs without it.
 */
import type {
  McpElicitation,
  McpEvent,
  McpOverview,
  McpPhase,
  McpServerConfig,
  McpServerStatus,
  McpTestResult,
  McpToolInfo,
} from "../../protocol/mcp_servers.ts";
import type { EnvPolicy } from "../../tools/exec/env_policy.ts";
import type { Tool } from "../../tools/types.ts";
import type { ToolSpec } from "../../protocol/provider_types.ts";
import { MCP_FILE, mcpConfigPath, readServers, serversProblems } from "./config.ts";
import { type McpConnection, McpPhaseError } from "./connection.ts";
import { McpPool } from "./pool.ts";
import { buildTools, sanitiseName } from "./tools.ts";
import { resourceTools } from "./resource_tools.ts";
import { ElicitationCenter } from "./elicitation.ts";
import { ResourceMentions } from "./resource_mentions.ts";
import { masked } from "./secrets.ts";
import { type FilePoll, pollFile } from "../../lib/watch.ts";
import { netFetch } from "../../tools/net/proxy.ts";
import { McpOAuth, OAUTH_CALLBACK_PATH, type OAuthSummary } from "./oauth/sign_in.ts";

export interface ManagerOptions {
  home: string;
  envPolicy(): EnvPolicy;
  /** Pushes an event to every client (the `mcp` topic). */
  publish(e: McpEvent): void;
  /**
   * Questions (elicitation) for the clients that have a task open; absent: every client
   * is asked (see elicitation.ts).
   */
  questions?: {
    task(taskId: string, list: McpElicitation[]): void;
    watching(taskId: string): boolean;
  };
  now?: () => number;
  idleMs?: number;
  /** Watch the file for outside edits (the CLI); off in short-lived uses. */
  watch?: boolean;
  /** How long a turn waits for servers still connecting (default {@link TURN_WAIT_MS}). */
  turnWaitMs?: number;
}

type Failure = NonNullable<McpServerStatus["error"]>;

/**
 * What all MCP tools together may add to every request (names, descriptions, schemas):
 * servers past it are left out of the turn, and said so.
 */
export const TOOL_SPECS_BUDGET = 400_000;
/** A turn starts after at most this long waiting for MCP servers to connect. */
export const TURN_WAIT_MS = 15_000;

export class McpManager {
  readonly pool: McpPool;
  readonly oauth: McpOAuth;
  /** Questions of servers for the user, shown as forms to the asking task's clients. */
  readonly elicitations: ElicitationCenter;
  /** Per server: the tasks whose calls to it run now, and how many (who a question is for). */
  private calling = new Map<string, Map<string, number>>();
  /** The servers' resources for the `@` picker and the messages that mention them. */
  readonly resources: ResourceMentions;
  /** The server's base URL, once it listens: OAuth redirects come back there. */
  private callbackBase: string | null = null;
  private failures = new Map<string, Failure>();
  private watcher: FilePoll | null = null;
  private now: () => number;
  private closed = false;

  constructor(private o: ManagerOptions) {
    this.now = o.now ?? Date.now;
    this.oauth = new McpOAuth({
      home: o.home,
      callbackUrl: () => this.callbackBase && this.callbackBase + OAUTH_CALLBACK_PATH,
      fetch: netFetch,
      now: this.now,
      // Signed in: the failed connection starts over with the new tokens.
      signedIn: (id) =>
        void this.pool.close(id).then(() => {
          this.clearFailure(id);
          return this.pushOverview();
        }),
    });
    this.elicitations = new ElicitationCenter({
      everyone: (list) => {
        if (!this.closed) o.publish({ kind: "elicitations", list });
      },
      ...(o.questions
        ? {
          task: (taskId: string, list: McpElicitation[]) => {
            if (!this.closed) o.questions!.task(taskId, list);
          },
          watching: o.questions.watching,
        }
        : {}),
    }, this.now);
    this.pool = new McpPool({
      envPolicy: o.envPolicy,
      defaultCwd: o.home,
      idleMs: o.idleMs,
      now: this.now,
      changed: () => this.pushOverview(),
      authProvider: (c) => this.oauth.forConnection(c),
      onElicit: (id, params, signal) =>
        this.elicitations.ask(id, params, signal, [...this.calling.get(id)?.keys() ?? []]),
    });
    this.resources = new ResourceMentions({
      pool: this.pool,
      servers: () => {
        const read = readServers(this.o.home);
        if (!read.ok) return null;
        this.pool.sync(read.servers);
        return read.servers;
      },
      failing: (id) => this.failures.has(id),
      fail: (id, phase, message) => this.fail(id, phase, message),
      now: this.now,
    });
    if (o.watch) this.watch();
  }

  /** The configured servers, their connections and failures (the file is re-read). */
  async overview(): Promise<McpOverview> {
    const read = await readServers(this.o.home);
    if (!read.ok) return { path: read.path, fileError: read.error, servers: [] };
    this.pool.sync(read.servers);
    const servers = read.servers.map((c) => this.statusOf(c));
    for (const s of servers) {
      if (s.config.transport === "stdio" || !s.config.url) continue;
      const o = await this.oauth.summary(s.config);
      s.oauth = o.signedIn ? o : null;
    }
    return { path: read.path, fileError: null, servers };
  }

  private statusOf(config: McpServerConfig): McpServerStatus {
    const conn = this.pool.peek(config.id);
    const error = this.failures.get(config.id) ?? null;
    const live = conn && !conn.dead;
    const ready = live && conn.ready;
    const tools = ready ? this.infosOf(conn) : [];
    return {
      config: masked(config),
      state: !config.enabled
        ? "disabled"
        : ready
        ? "ready"
        : live
        ? "connecting"
        : error
        ? "failed"
        : "idle",
      toolCount: ready ? tools.length : null,
      tools,
      error,
      stderrTail: conn?.stderrTail(30) ?? [],
    };
  }

  private infosOf(conn: McpConnection): McpToolInfo[] {
    return buildTools({ config: conn.config, tools: conn.tools, call: () => never() }, new Set())
      .infos;
  }

  /**
   * The tools of every enabled server for one turn. A server that fails is recorded,
   * pushed to the clients and left out; the others' tools are returned.
   */
  /**
   * `only`: the servers a task's assistant bound (null/absent = every enabled one);
   * `taskId`: the task whose turn calls them (a server's question goes to its clients).
   */
  async toolsForTurn(
    _signal?: AbortSignal,
    only?: string[] | null,
    taskId?: string,
  ): Promise<Tool[]> {
    const read = readServers(this.o.home);
    if (!read.ok) {
      this.fail("mcp_servers.json", "config", read.error);
      return [];
    }
    this.pool.sync(read.servers);
    const enabled = read.servers.filter((s) => s.enabled && (!only || only.includes(s.id)));
    const wait = this.o.turnWaitMs ?? TURN_WAIT_MS;
    const conns = await Promise.all(enabled.map(async (config) => {
      const connecting = this.pool.get(config).catch((e) => {
        const err = e instanceof McpPhaseError ? e : new McpPhaseError("spawn", String(e));
        this.fail(config.id, err.phase, err.message);
        return null;
      });
      // A slow server does not hold the turn up: it goes on connecting, and its tools
      // join a later turn (its failure, if it comes, is reported then).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<"late">((r) => timer = setTimeout(() => r("late"), wait));
      const conn = await Promise.race([connecting, late]);
      clearTimeout(timer);
      if (conn === "late") {
        console.error(`MCP server ${config.id} is still starting; its tools join a later turn`);
        return null;
      }
      return conn;
    }));
    const taken = new Set<string>();
    const out: Tool[] = [];
    let budget = TOOL_SPECS_BUDGET;
    conns.forEach((conn, i) => {
      if (!conn) return;
      const config = enabled[i];
      const { tools, skipped } = buildTools({
        config,
        tools: conn.tools,
        call: (tool, args, signal) =>
          this.forTask(config.id, taskId, () => this.call(config, tool, args, signal)),
      }, taken);
      if (conn.hasResources) {
        tools.push(...resourceTools({
          config,
          list: (cursor) =>
            this.forTask(
              config.id,
              taskId,
              () => this.pool.use(config, (c) => c.listResources(cursor)),
            ),
          read: (uri, signal) =>
            this.forTask(
              config.id,
              taskId,
              () => this.pool.use(config, (c) => c.readResource(uri, signal)),
            ),
        }, taken));
      }
      if (skipped.length) {
        console.error(`MCP server ${config.id}: tools left out: ${skipped.join("; ")}`);
      }
      const size = tools.reduce(
        (n, t) => n + t.name.length + t.description.length + JSON.stringify(t.parameters).length,
        0,
      );
      if (size > budget) {
        this.fail(
          config.id,
          "tools_list",
          `its ${tools.length} tools would add ${size} characters to every request (the MCP budget left is ${budget}); left out of this turn`,
        );
        return;
      }
      budget -= size;
      this.clearFailure(config.id);
      out.push(...tools);
    });
    return out;
  }

  /** Runs `fn` (a request to server `id`) counted as a call of task `taskId`. */
  private async forTask<T>(id: string, taskId: string | undefined, fn: () => Promise<T>) {
    if (!taskId) return await fn();
    const tasks = this.calling.get(id) ?? new Map<string, number>();
    this.calling.set(id, tasks);
    tasks.set(taskId, (tasks.get(taskId) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      const n = (tasks.get(taskId) ?? 1) - 1;
      if (n > 0) tasks.set(taskId, n);
      else tasks.delete(taskId);
      if (!tasks.size && this.calling.get(id) === tasks) this.calling.delete(id);
    }
  }

  /**
   * A call through the pool. A server that died since the last call (crash, kill) makes
   * this call fail with the reason — the model must know its state is gone — and the
   * next call connects again.
   */
  private async call(
    config: McpServerConfig,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) {
    const prev = this.pool.peek(config.id);
    if (prev?.dead && prev.dead !== "closed") {
      const why = prev.dead;
      await this.pool.close(config.id);
      this.fail(config.id, "initialize", why);
      throw new Error(`${why}; it is started again on the next call`);
    }
    return await this.pool.use(config, (c) => c.call(tool, args, signal));
  }

  /**
   * The specs the model would get from the servers connected now (nothing is started):
   * the context breakdown's MCP category.
   */
  async connectedSpecs(only?: string[] | null): Promise<ToolSpec[]> {
    const read = await readServers(this.o.home);
    if (!read.ok) return [];
    const taken = new Set<string>();
    const used = read.servers.filter((s) => s.enabled && (!only || only.includes(s.id)));
    return used.flatMap((config) => {
      const conn = this.pool.peek(config.id);
      if (!conn?.ready || conn.dead) return [];
      return buildTools({ config, tools: conn.tools, call: () => never() }, taken).tools
        .map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
    });
  }

  /** Connects `config` from scratch (its own connection, closed after) and reports each phase. */
  async test(config: McpServerConfig): Promise<McpTestResult> {
    const t0 = performance.now();
    const base = {
      id: config.id,
      transport: config.transport,
      toolCount: 0,
      tools: [] as McpToolInfo[],
      protocolVersion: null as string | null,
    };
    const { problems } = serversProblems([config]);
    if (problems.length) {
      return {
        ...base,
        ok: false,
        phase: "config",
        durationMs: 0,
        error: problems.join("; "),
        stderrTail: [],
      };
    }
    // Connected as for a turn (same capabilities), so a test lists the same tools.
    const pool = new McpPool({
      envPolicy: this.o.envPolicy,
      defaultCwd: this.o.home,
      authProvider: (c) => this.oauth.forConnection(c),
      onElicit: (id, params, signal) => this.elicitations.ask(id, params, signal),
    });
    try {
      const conn = await pool.get(config);
      const tools = this.infosOf(conn);
      return {
        ...base,
        ok: true,
        phase: "ready",
        durationMs: Math.round(performance.now() - t0),
        toolCount: tools.length,
        tools,
        error: null,
        stderrTail: conn.stderrTail(30),
        protocolVersion: conn.protocolVersion,
      };
    } catch (e) {
      const err = e instanceof McpPhaseError ? e : new McpPhaseError("spawn", String(e));
      return {
        ...base,
        ok: false,
        phase: err.phase,
        durationMs: Math.round(performance.now() - t0),
        error: err.message,
        stderrTail: err.stderrTail,
      };
    } finally {
      await pool.closeAll();
    }
  }

  /** Closes the pooled connection of `id` and connects again; the result as a test's. */
  async restart(id: string): Promise<McpTestResult> {
    const read = readServers(this.o.home);
    const config = read.ok ? read.servers.find((s) => s.id === id) : undefined;
    const t0 = performance.now();
    if (!config) {
      return {
        ok: false,
        id,
        phase: "config",
        transport: "stdio",
        durationMs: 0,
        toolCount: 0,
        tools: [],
        error: read.ok ? `no MCP server "${id}" in ${MCP_FILE}` : read.error,
        stderrTail: [],
        protocolVersion: null,
      };
    }
    await this.pool.close(id);
    try {
      const conn = await this.pool.get(config);
      this.clearFailure(id);
      const tools = this.infosOf(conn);
      return {
        ok: true,
        id,
        phase: "ready",
        transport: config.transport,
        durationMs: Math.round(performance.now() - t0),
        toolCount: tools.length,
        tools,
        error: null,
        stderrTail: conn.stderrTail(30),
        protocolVersion: conn.protocolVersion,
      };
    } catch (e) {
      const err = e instanceof McpPhaseError ? e : new McpPhaseError("spawn", String(e));
      this.fail(id, err.phase, err.message);
      return {
        ok: false,
        id,
        phase: err.phase,
        transport: config.transport,
        durationMs: Math.round(performance.now() - t0),
        toolCount: 0,
        tools: [],
        error: err.message,
        stderrTail: err.stderrTail,
        protocolVersion: null,
      };
    }
  }

  /**
   * The prompts of the connected servers as slash commands (`/mcp__<server>__<prompt>`);
   * a server is not started for the menu: its prompts show once it is connected.
   */
  promptCommands(): { name: string; description: string; argHint?: string }[] {
    const read = readServers(this.o.home);
    if (!read.ok) return [];
    return read.servers.filter((s) => s.enabled).flatMap((config) => {
      const conn = this.pool.peek(config.id);
      if (!conn?.ready || conn.dead) return [];
      return conn.prompts.flatMap((p) => {
        const name = promptCommandName(config.id, p.name);
        if (!name) return [];
        const hint = p.arguments.map((a) => a.required ? `<${a.name}>` : `[${a.name}]`).join(" ");
        return [{
          name,
          description: `[MCP ${config.id}] ${p.description || p.name}`,
          ...(hint ? { argHint: hint } : {}),
        }];
      });
    });
  }

  /**
   * What the model receives for `/mcp__<server>__<prompt> ARGS`: the prompt's messages.
   * The words of ARGS fill the prompt's arguments in order, the last takes the rest. Null
   * when no connected server has such a prompt.
   */
  async expandPrompt(name: string, argText: string): Promise<string | null> {
    const read = readServers(this.o.home);
    if (!read.ok) return null;
    for (const config of read.servers.filter((s) => s.enabled)) {
      const conn = this.pool.peek(config.id);
      if (!conn?.ready || conn.dead) continue;
      const p = conn.prompts.find((x) => promptCommandName(config.id, x.name) === name);
      if (!p) continue;
      const words = argText.trim() ? argText.trim().split(/\s+/) : [];
      const args: Record<string, string> = {};
      p.arguments.forEach((a, i) => {
        const last = i === p.arguments.length - 1;
        const value = last ? words.slice(i).join(" ") : words[i];
        if (value) args[a.name] = value;
      });
      const missing = p.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
      if (missing.length) {
        throw new McpOAuthError(`/${name} needs ${missing.join(", ")}`);
      }
      return await this.pool.use(config, (c) => c.getPrompt(p.name, args));
    }
    return null;
  }

  /** Where OAuth sign-ins come back to (the server's base URL, set once it listens). */
  setCallbackBase(base: string, hostAllowed: (host: string) => boolean = () => false): void {
    this.callbackBase = base.replace(/\/+$/, "");
    this.hostAllowed = hostAllowed;
  }

  private hostAllowed: (host: string) => boolean = () => false;

  /**
   * The base a sign-in started from `origin` comes back to: that origin when the server
   * answers to it (a phone on the LAN), else the server's own address.
   */
  private callbackFor(origin: string | undefined): string | null {
    if (!this.callbackBase) return null;
    if (!origin) return this.callbackBase;
    let u: URL;
    try {
      u = new URL(origin);
    } catch {
      throw new McpOAuthError(`"${origin.slice(0, 100)}" is not an address`);
    }
    const scheme = new URL(this.callbackBase).protocol;
    if (u.protocol !== scheme || u.origin !== origin.replace(/\/+$/, "")) {
      throw new McpOAuthError(`"${origin.slice(0, 100)}" is not an origin of this server`);
    }
    if (!this.hostAllowed(u.host)) {
      throw new McpOAuthError(`this server does not answer to ${u.host}`);
    }
    return u.origin;
  }

  private httpConfig(id: string): McpServerConfig {
    const read = readServers(this.o.home);
    if (!read.ok) throw new McpOAuthError(read.error);
    const config = read.servers.find((s) => s.id === id);
    if (!config) throw new McpOAuthError(`no MCP server "${id}" in ${MCP_FILE}`);
    if (config.transport === "stdio" || !config.url) {
      throw new McpOAuthError(`the MCP server "${id}" is no http server: OAuth does not apply`);
    }
    return config;
  }

  /**
   * Starts an OAuth sign-in: the URL to open, or null when the stored tokens work.
   * `origin`: the page's own origin, so the answer comes back where the user is.
   */
  async oauthStart(id: string, origin?: string): Promise<{ url: string | null }> {
    const config = this.httpConfig(id);
    const base = this.callbackFor(origin);
    if (!base) {
      throw new McpOAuthError("sign-in needs the running server (its address receives the answer)");
    }
    return await this.oauth.start(config, base + OAUTH_CALLBACK_PATH);
  }

  /** The answer of the authorization server, as our callback route got it. */
  oauthFinish(state: string, code: string): Promise<string> {
    return this.oauth.finish(state, code, (id) => {
      const read = readServers(this.o.home);
      return read.ok ? read.servers.find((s) => s.id === id) : undefined;
    });
  }

  async oauthStatus(id: string): Promise<OAuthSummary> {
    return await this.oauth.summary(this.httpConfig(id));
  }

  /** Revokes (when the server can) and forgets the tokens; the connection is closed. */
  async oauthSignOut(id: string): Promise<{ revokedAtServer: boolean }> {
    const r = await this.oauth.signOut(this.httpConfig(id));
    await this.pool.close(id);
    await this.pushOverview();
    return r;
  }

  /** The file changed (a save here, or the CLI): connections follow and clients are told. */
  async configChanged(): Promise<void> {
    await this.pushOverview();
  }

  private fail(id: string, phase: McpPhase, message: string): void {
    if (this.closed) return;
    const at = this.now();
    const prev = this.failures.get(id);
    this.failures.set(id, { phase, message, at });
    // The same failure again (every turn) is one toast, not one per turn.
    if (prev?.message !== message) this.o.publish({ kind: "failure", id, phase, message, at });
    this.pushOverview();
  }

  private clearFailure(id: string): void {
    if (this.failures.delete(id)) this.pushOverview();
  }

  private pushTimer: ReturnType<typeof setTimeout> | null = null;
  /** Publishes the overview (coalesced: many changes at once are one push). */
  private pushOverview(): Promise<void> {
    if (this.closed || this.pushTimer !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.pushTimer = setTimeout(async () => {
        this.pushTimer = null;
        try {
          if (!this.closed) this.o.publish({ kind: "overview", overview: await this.overview() });
        } catch (e) {
          console.error("MCP overview failed:", e);
        }
        resolve();
      }, 50);
    });
  }

  /**
   * The file is polled, not watched: it sits beside the database, and a watcher on that
   * folder would open the database's files at each change (see lib/watch.ts).
   */
  private watch(): void {
    this.watcher = pollFile(mcpConfigPath(this.o.home), () => void this.pushOverview());
  }

  async close(): Promise<void> {
    this.elicitations.cancelAll();
    this.closed = true;
    if (this.pushTimer !== null) clearTimeout(this.pushTimer);
    this.pushTimer = null;
    this.watcher?.close();
    await this.pool.closeAll();
  }
}

/** A request the user's input cannot make (unknown server, stdio, missing arguments). */
export class McpOAuthError extends Error {}

/** Slash names are at most 40 characters of `[A-Za-z0-9_.:-]`: a longer one is left out. */
export function promptCommandName(serverId: string, prompt: string): string | null {
  const name = `mcp__${sanitiseName(serverId)}__${sanitiseName(prompt)}`;
  return name.length <= 40 ? name : null;
}

function never(): never {
  throw new Error("not callable");
}
