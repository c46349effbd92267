/**
 * The MCP servers' resources for the composer's `@` picker and for the messages that
 * mention them: the listing (resources and templates of the connected servers, cached
 * per connection until the server says its list changed) and the read at send time. A
 * server's texts are hostile input: bounded, control characters dropped, never markup.
 */
import type { McpPhase, McpServerConfig } from "../../protocol/mcp_servers.ts";
import type { ResourceMentionItem } from "../../protocol/mentions.ts";
import { type McpConnection, McpPhaseError } from "./connection.ts";
import type { McpPool } from "./pool.ts";

/** Per server: resources and templates listed for the picker (pages stop here). */
const MAX_RESOURCES = 500;
const MAX_TEMPLATES = 100;
const MAX_PAGES = 10;
/** A listing is asked again after this long even without a `list_changed`. */
const LIST_TTL_MS = 30_000;

/** A resource read that cannot be done, in words for the user (the message is not sent). */
export class McpMentionError extends Error {}

export interface ResourceContents {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
}

/** Control characters would garble a row: each run becomes one blank. */
const clean = (v: unknown, max: number) =>
  // deno-lint-ignore no-control-regex
  typeof v === "string" ? v.replace(/[\u0000-\u001f\u007f]+/g, " ").trim().slice(0, max) : "";

export interface ResourceMentionDeps {
  pool: McpPool;
  /** The configured servers now (the file re-read), or null when it cannot be read. */
  servers(): McpServerConfig[] | null;
  /** Whether a server's last connection failed (it is not started for the picker). */
  failing(id: string): boolean;
  fail(id: string, phase: McpPhase, message: string): void;
  now(): number;
}

export class ResourceMentions {
  private cache = new WeakMap<
    McpConnection,
    { at: number; version: number; items: ResourceMentionItem[] }
  >();

  constructor(private d: ResourceMentionDeps) {}

  /**
   * The resources and templates of the enabled servers connected now. Enabled servers
   * not connected yet are started (the next turn would start them anyway) without
   * waiting: `pending` says some are still on their way.
   */
  async candidates(): Promise<{ items: ResourceMentionItem[]; pending: boolean }> {
    const servers = (this.d.servers() ?? []).filter((s) => s.enabled);
    let pending = false;
    const lists = await Promise.all(servers.map(async (config) => {
      const conn = this.d.pool.peek(config.id);
      if (!conn || conn.dead) {
        if (this.d.failing(config.id)) return [];
        pending = true;
        this.d.pool.get(config).catch((e) => {
          const err = e instanceof McpPhaseError ? e : new McpPhaseError("spawn", String(e));
          this.d.fail(config.id, err.phase, err.message);
        });
        return [];
      }
      if (!conn.ready) {
        pending = true;
        return [];
      }
      if (!conn.hasResources) return [];
      return await this.listed(conn).catch((e) => {
        console.error(`MCP server ${config.id}: listing resources failed:`, (e as Error).message);
        return [];
      });
    }));
    return { items: lists.flat(), pending };
  }

  private async listed(conn: McpConnection): Promise<ResourceMentionItem[]> {
    const hit = this.cache.get(conn);
    const now = this.d.now();
    if (hit && hit.version === conn.resourcesVersion && now - hit.at < LIST_TTL_MS) {
      return hit.items;
    }
    const version = conn.resourcesVersion;
    const server = conn.config.id;
    const items: ResourceMentionItem[] = [];
    const add = (
      uri: unknown,
      r: { name?: unknown; title?: unknown; mimeType?: unknown; description?: unknown },
      template: boolean,
    ) => {
      if (typeof uri !== "string" || !uri || uri.length > 2000 || /[\s"]/.test(uri)) return;
      const mimeType = clean(r.mimeType, 100);
      const description = clean(r.description, 300);
      items.push({
        path: `${server}:${uri}`,
        type: "resource",
        server,
        uri,
        name: clean(r.title, 200) || clean(r.name, 200) || uri,
        ...(mimeType ? { mimeType } : {}),
        ...(description ? { description } : {}),
        ...(template ? { template: true } : {}),
      });
    };
    let cursor: string | undefined;
    for (let page = 0, n = 0; page < MAX_PAGES && n < MAX_RESOURCES; page++) {
      const r = await conn.listResources(cursor);
      for (const x of (r.resources ?? []).slice(0, MAX_RESOURCES - n)) {
        add(x.uri, x, false);
        n++;
      }
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    // Templates are an extra: a server without them (or failing to list them) still lists.
    try {
      cursor = undefined;
      for (let page = 0, n = 0; page < MAX_PAGES && n < MAX_TEMPLATES; page++) {
        const r = await conn.listResourceTemplates(cursor);
        for (const x of (r.resourceTemplates ?? []).slice(0, MAX_TEMPLATES - n)) {
          add(x.uriTemplate, x, true);
          n++;
        }
        cursor = r.nextCursor;
        if (!cursor) break;
      }
    } catch { /* no templates */ }
    this.cache.set(conn, { at: now, version, items });
    return items;
  }

  /** Whether `id` is a configured MCP server (enabled or not). */
  hasServer(id: string): boolean {
    return (this.d.servers() ?? []).some((s) => s.id === id);
  }

  /**
   * Reads `uri` of server `id` for a message (connecting it when needed). Throws an
   * {@link McpMentionError} that says what is wrong: no such server, disabled, cannot
   * connect, no resources, or the server's own refusal (an unknown URI).
   */
  async read(id: string, uri: string, signal?: AbortSignal): Promise<ResourceContents> {
    const servers = this.d.servers();
    if (!servers) throw new McpMentionError("the MCP servers' file cannot be read (MCP page)");
    const config = servers.find((s) => s.id === id);
    if (!config) {
      throw new McpMentionError(`@${id}:${uri}: there is no MCP server "${id}" (MCP page)`);
    }
    if (!config.enabled) {
      throw new McpMentionError(
        `@${id}:${uri}: the MCP server "${id}" is turned off; turn it on on the MCP page to attach its resources`,
      );
    }
    const own = new AbortController();
    const abort = () => own.abort();
    signal?.addEventListener("abort", abort);
    try {
      return await this.d.pool.use(config, async (c) => {
        if (!c.hasResources) {
          throw new McpMentionError(`@${id}:${uri}: the MCP server "${id}" offers no resources`);
        }
        try {
          return await c.readResource(uri, own.signal);
        } catch (e) {
          throw new McpMentionError(
            `@${id}:${uri}: the MCP server "${id}" could not read it: ${
              clean((e as Error).message.replace(/(MCP error -?\d+: )+/g, ""), 500)
            }`,
          );
        }
      });
    } catch (e) {
      if (e instanceof McpMentionError) throw e;
      const err = e instanceof McpPhaseError ? e : new McpPhaseError("spawn", String(e));
      this.d.fail(id, err.phase, err.message);
      throw new McpMentionError(
        `@${id}:${uri}: the MCP server "${id}" is not reachable (${err.phase}): ${
          clean(err.message, 500)
        }`,
      );
    } finally {
      signal?.removeEventListener("abort", abort);
    }
  }
}
