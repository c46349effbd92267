/**
 * Composition root: data dir, store, auth, event hub, task service and the HTTP
 * server. `startApp` returns once the server listens.
 */
import { ensureHome, instancePath } from "./home.ts";
import { createServices } from "./services.ts";
import type { EventHub } from "./sessions/hub.ts";
import type { RunManager } from "./sessions/runs.ts";
import { Auth } from "./http/auth.ts";
import { Lockout } from "./http/lockout.ts";
import { makeHandler } from "./http/routes.ts";
import { lazyMcpEndpoint } from "./mcp/server/lazy_endpoint.ts";
import { VERSION } from "./version.ts";
import type { StoreHealth } from "../protocol/index.ts";

export interface AppOptions {
  home: string;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  tls?: { cert: string; key: string };
  now?: () => number;
}

export interface RunningApp {
  /** Base URL without token, e.g. http://127.0.0.1:4567 */
  base: string;
  /** Full URL with the access token, for the local user only. */
  url: string;
  port: number;
  host: string;
  home: string;
  store: StoreHealth;
  auth: Auth;
  hub: EventHub;
  runs: RunManager | null;
  close(): Promise<void>;
}

/** The host to show in URLs: a wildcard bind is reached through loopback locally. */
function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startApp(opts: AppOptions): Promise<RunningApp> {
  const now = opts.now ?? Date.now;
  await ensureHome(opts.home);
  const services = createServices({ home: opts.home, now, watchMcp: true });
  const { store, hub, runs } = services;
  if (!store.health.ok) {
    console.error(
      `ReinAgent: database problem: ${store.health.error}\n  file: ${store.health.path} (left untouched)`,
    );
  }

  const auth = await Auth.load(opts.home);
  const host = opts.host ?? "127.0.0.1";
  let port = 0;
  const mcpEndpoint = lazyMcpEndpoint(services, now);
  auth.onReset(() => void mcpEndpoint.closeAll()); // sessions opened with the old token end
  // Devices paired with the old token must not keep receiving task titles by push.
  auth.onReset(() => services.notify?.forgetDevices());
  const handler = makeHandler({
    ...services,
    auth,
    mcpEndpoint,
    lockout: new Lockout(now),
    port: () => port,
    secure: Boolean(opts.tls),
  });
  const server = Deno.serve({
    hostname: host,
    port: opts.port ?? 0,
    ...(opts.tls ? { cert: opts.tls.cert, key: opts.tls.key } : {}),
    onListen: () => {},
  }, handler);
  port = server.addr.port;
  const scheme = opts.tls ? "https" : "http";
  const base = `${scheme}://${displayHost(host)}:${port}`;

  await Deno.writeTextFile(
    instancePath(opts.home),
    JSON.stringify({ pid: Deno.pid, base, host, port, version: VERSION, startedAt: now() }),
    { mode: 0o600 },
  );

  return {
    base,
    get url() {
      return `${base}/?token=${encodeURIComponent(auth.token)}`;
    },
    port,
    host,
    home: opts.home,
    store: store.health,
    auth,
    hub,
    runs,
    async close() {
      await mcpEndpoint.closeAll(); // open MCP event streams would hold the shutdown
      await runs?.stopAll();
      await services.mcp?.close();
      hub.close();
      await server.shutdown();
      store.close();
      await Deno.remove(instancePath(opts.home)).catch(() => {});
    },
  };
}
