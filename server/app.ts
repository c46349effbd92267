/**
 * Composition root: data dir, store, auth, event hub, task service and the HTTP
 * server. `startApp` returns once the server listens.
 */
import { applyProxyFile } from "./net/proxy_config.ts";
import { ensureHome, instancePath } from "./home.ts";
import { createServices } from "./services.ts";
import type { EventHub } from "./sessions/hub.ts";
import type { RunManager } from "./sessions/runs.ts";
import { Auth } from "./http/auth.ts";
import { Lockout } from "./http/lockout.ts";
import { makeHandler } from "./http/routes.ts";
import { envAllowedHosts, HostPolicy } from "./http/host_check.ts";
import { lazyMcpEndpoint } from "./mcp/server/lazy_endpoint.ts";
import { VERSION } from "./version.ts";
import { existingTerminals } from "./terminal/manager.ts";
import { RemoteAccess } from "./sessions/remote_access.ts";
import type { StoreHealth } from "../protocol/index.ts";
import { type HomeLock, tryLockHome } from "./instance/lock.ts";
import { startControl, type WindowReply } from "./instance/control.ts";
import { tuneMalloc } from "./malloc_tuning.ts";
import { sandboxStatus } from "../tools/exec/bwrap.ts";

export interface AppOptions {
  home: string;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  tls?: { cert: string; key: string };
  now?: () => number;
  /** The data dir's lock, taken by the caller (see `claimHome`); taken here when absent. */
  lock?: HomeLock;
  /** What the control endpoint reports: `window` (`reinagent`), `serve`, `mcp`. */
  mode?: string;
}

/** The windows a server opens on request of a second start (set by `main.ts`). */
export interface WindowHost {
  open(): Promise<WindowReply>;
  count(): number;
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
  /** Null: this server opens no windows (headless). */
  windows: WindowHost | null;
  close(): Promise<void>;
}

/** The host to show in URLs: a wildcard bind is reached through loopback locally. */
/** Why the server could not listen, naming the address and what to do. */
function listenProblem(host: string, port: number, e: unknown): string {
  const at = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (e instanceof Deno.errors.AddrInUse) {
    return `port ${port} is in use by another program (${at}): choose another with --port N, ` +
      "or leave --port out for a free one";
  }
  if (e instanceof Deno.errors.AddrNotAvailable) {
    return `${host} is not an address of this computer: use --host 127.0.0.1, 0.0.0.0 or one of its own`;
  }
  if (e instanceof Deno.errors.PermissionDenied) {
    return `listening on ${at} is not allowed for this user (ports below 1024 need privileges): ` +
      "choose a higher --port";
  }
  return `cannot listen on ${at}: ${(e as Error)?.message ?? e}`;
}

function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startApp(opts: AppOptions): Promise<RunningApp> {
  const now = opts.now ?? Date.now;
  ensureHome(opts.home);
  // Nothing may open the database while another process owns it (its runs would be
  // marked stopped, its approvals dropped): the lock comes first.
  const lock = opts.lock ?? await tryLockHome(opts.home, "server");
  if (!lock) {
    throw new Error(`another ReinAgent process owns the data dir ${opts.home}`);
  }
  // Outbound requests go through the proxy setting from the first one on.
  await applyProxyFile(opts.home);
  const services = createServices({ home: opts.home, now, watchMcp: true });
  const { store, hub, runs } = services;
  let trimmedAt = hub.lastSeq;
  const malloc = tuneMalloc(() => {
    const busy = hub.lastSeq !== trimmedAt;
    trimmedAt = hub.lastSeq;
    return busy;
  });
  services.automations?.start(); // the scheduler runs only in a server
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
  const remote = await RemoteAccess.load({
    home: opts.home,
    auth,
    hub,
    host,
    port: () => port,
    tls: Boolean(opts.tls),
  });
  // Devices paired with the old token must not keep receiving task titles by push.
  auth.onReset(() => services.notify?.forgetDevices());
  const hosts = new HostPolicy({
    bindHost: host,
    port: () => port,
    tls: Boolean(opts.tls),
    extra: () => [...envAllowedHosts(), ...remote.allowedHosts],
  });
  const handler = makeHandler({
    ...services,
    auth,
    remote,
    mcpEndpoint,
    lockout: new Lockout(now),
    hosts,
    port: () => port,
    secure: Boolean(opts.tls),
  });
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname: host,
      port: opts.port ?? 0,
      ...(opts.tls ? { cert: opts.tls.cert, key: opts.tls.key } : {}),
      onListen: () => {},
    }, handler);
  } catch (e) {
    services.store.close();
    if (!opts.lock) lock.release();
    throw new Error(listenProblem(host, opts.port ?? 0, e));
  }
  port = server.addr.port;
  // Bubblewrap is probed after listening (two child processes off the start path), so the
  // first settings snapshot and command do not wait; a headless run probes it when a command
  // first needs it. A failed probe is not final: later commands probe again (bwrap.ts).
  sandboxStatus().catch((e) => console.error("probing bubblewrap failed:", e));
  // What earlier runs left unreferenced in the checkpoint store is collected a little later.
  services.runs?.checkpoints.collectSoon(5000);
  const scheme = opts.tls ? "https" : "http";
  const base = `${scheme}://${displayHost(host)}:${port}`;
  // MCP sign-ins come back to this server; the address it printed is the one known to work.
  // A phone signs in through the address it reached us by, when that is one of ours.
  services.mcp?.setCallbackBase(base, (h) => hosts.allows(h));

  const url = () => `${base}/?token=${encodeURIComponent(auth.token)}`;
  const app: RunningApp = {
    base,
    get url() {
      return url();
    },
    port,
    host,
    home: opts.home,
    store: store.health,
    auth,
    hub,
    runs,
    windows: null,
    async close() {
      await control.close();
      services.automations?.stop();
      await mcpEndpoint.closeAll(); // open MCP event streams would hold the shutdown
      await runs?.stopAll();
      await services.mcp?.close();
      await existingTerminals(services)?.closeAll(); // every shell session is killed
      hub.close();
      malloc.stop();
      await server.shutdown();
      store.close();
      await Deno.remove(instancePath(opts.home)).catch(() => {});
      lock.release();
    },
  };
  // The local control endpoint: how a second start on this data dir hands over to us.
  const control = startControl({
    info: () => ({
      pid: Deno.pid,
      mode: opts.mode ?? "serve",
      base,
      url: url(),
      version: VERSION,
      activeRuns: runs?.activeCount ?? 0,
      openWindows: app.windows?.count() ?? 0,
    }),
    openWindow: () =>
      app.windows?.open() ??
        Promise.resolve({ opened: false, reason: "the running instance is headless" }),
  });
  // Written whole (temp file + rename): a second start never reads half of it.
  const tmp = `${instancePath(opts.home)}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(
    tmp,
    JSON.stringify({
      pid: Deno.pid,
      base,
      host,
      port,
      version: VERSION,
      startedAt: now(),
      control: { url: control.url, secret: control.secret },
    }),
    { mode: 0o600 },
  );
  await Deno.rename(tmp, instancePath(opts.home));
  return app;
}
