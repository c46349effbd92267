/**
 * The connection pool: one connection per server id, reused across turns and tasks
 * while the server's connection-relevant config (its key) is unchanged; a changed
 * config closes the old connection and makes a new one, a dead one (crashed server,
 * dropped stream) is replaced on next use, idle ones are closed after a while.
 * Concurrent users of a server that is still connecting share one attempt.
 */
import type { McpServerConfig } from "../../protocol/mcp_servers.ts";
import type { EnvPolicy } from "../../tools/exec/env_policy.ts";
import { connectionKey } from "./config.ts";
import { type ConnectionOptions, McpConnection } from "./connection.ts";

export const IDLE_CLOSE_MS = 10 * 60_000;

interface Slot {
  key: string;
  conn: McpConnection;
  /** Resolves once connected (rejects with an McpPhaseError). */
  ready: Promise<McpConnection>;
  lastUsed: number;
  /** Calls running on it now (an idle check never closes a busy one). */
  busy: number;
}

export interface PoolOptions {
  envPolicy(): EnvPolicy;
  defaultCwd: string;
  idleMs?: number;
  now?: () => number;
  /** A server's connection changed (connected, tools re-listed, died). */
  changed?(id: string): void;
  /** OAuth for http servers (see oauth/sign_in.ts). */
  authProvider?: ConnectionOptions["authProvider"];
  onElicit?: ConnectionOptions["onElicit"];
}

export class McpPool {
  private slots = new Map<string, Slot>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private now: () => number;

  constructor(private opts: PoolOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** The live connection of `config` (connecting when needed); throws an McpPhaseError. */
  get(config: McpServerConfig): Promise<McpConnection> {
    const key = connectionKey(config);
    const slot = this.slots.get(config.id);
    if (slot && slot.key === key && !slot.conn.dead) {
      slot.lastUsed = this.now();
      return slot.ready;
    }
    if (slot) this.drop(config.id, slot);
    return this.open(config, key).ready;
  }

  /** Runs `fn` on the live connection of `config`; the connection counts as busy meanwhile. */
  async use<T>(config: McpServerConfig, fn: (c: McpConnection) => Promise<T>): Promise<T> {
    const conn = await this.get(config);
    const slot = this.slots.get(config.id);
    const mine = slot?.conn === conn ? slot : null;
    if (mine) mine.busy++;
    try {
      return await fn(conn);
    } finally {
      if (mine) {
        mine.busy--;
        mine.lastUsed = this.now();
      }
    }
  }

  /** The connection of `id` if one is open or opening (no new one is made). */
  peek(id: string): McpConnection | null {
    return this.slots.get(id)?.conn ?? null;
  }

  /** Closes connections of servers that are gone, disabled or changed. */
  sync(configs: McpServerConfig[]): void {
    const byId = new Map(configs.map((c) => [c.id, c]));
    for (const [id, slot] of this.slots) {
      const c = byId.get(id);
      if (!c || !c.enabled || connectionKey(c) !== slot.key) this.drop(id, slot);
    }
  }

  /** Closes `id`'s connection (the next use connects again). */
  async close(id: string): Promise<void> {
    const slot = this.slots.get(id);
    if (slot) await this.drop(id, slot);
  }

  async closeAll(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([...this.slots].map(([id, slot]) => this.drop(id, slot)));
  }

  private open(config: McpServerConfig, key: string): Slot {
    const conn = new McpConnection(config, {
      envPolicy: this.opts.envPolicy(),
      defaultCwd: this.opts.defaultCwd,
      onToolsChanged: () => this.opts.changed?.(config.id),
      onDead: () => this.opts.changed?.(config.id),
      authProvider: this.opts.authProvider,
      onElicit: this.opts.onElicit,
    });
    const slot: Slot = {
      key,
      conn,
      ready: Promise.resolve(conn),
      lastUsed: this.now(),
      busy: 0,
    };
    slot.ready = conn.connect().then(() => {
      slot.lastUsed = this.now();
      return conn;
    });
    // A failed attempt leaves no slot: the next use tries again.
    slot.ready.then(
      () => this.opts.changed?.(config.id),
      () => {
        if (this.slots.get(config.id) === slot) this.slots.delete(config.id);
      },
    );
    this.slots.set(config.id, slot);
    this.startIdleTimer();
    return slot;
  }

  /** Closes at once, also a connection still connecting (its attempt then fails). */
  private async drop(id: string, slot: Slot): Promise<void> {
    if (this.slots.get(id) === slot) this.slots.delete(id);
    await slot.conn.close();
    await slot.ready.catch(() => {});
  }

  private startIdleTimer(): void {
    if (this.timer !== null) return;
    const idle = this.opts.idleMs ?? IDLE_CLOSE_MS;
    const timer = setInterval(() => {
      const cutoff = this.now() - idle;
      for (const [id, slot] of this.slots) {
        if (slot.conn.ready && slot.busy === 0 && slot.lastUsed < cutoff) {
          this.drop(id, slot);
          this.opts.changed?.(id);
        }
      }
      if (!this.slots.size && this.timer !== null) {
        clearInterval(this.timer);
        this.timer = null;
      }
    }, Math.min(idle, 60_000));
    Deno.unrefTimer(timer as unknown as number);
    this.timer = timer;
  }
}
