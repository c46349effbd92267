/**
 * The HTTP request handler: lockout, token auth (query → cookie + clean URL), the
 * WebSocket upgrade with an Origin check, health, the MCP endpoint and the embedded
 * static UI.
 */
import type { Auth } from "./auth.ts";
import type { Lockout } from "./lockout.ts";
import type { HostPolicy } from "./host_check.ts";
import { handleOAuthCallback } from "./mcp_oauth_callback.ts";
import { OAUTH_CALLBACK_PATH } from "../mcp/oauth/sign_in.ts";
import { ASSETS, gzipped, PUBLIC_ASSETS } from "./assets.ts";
import { attachSocket } from "./ws.ts";
import { describeClient } from "../sessions/clients.ts";
import { handleUploads } from "./uploads.ts";
import { handleExportDownload } from "./carry_download.ts";
import type { ServerDeps } from "../ops/context.ts";
import type { McpEndpoint } from "../mcp/server/lazy_endpoint.ts";

export interface RouteDeps extends ServerDeps {
  auth: Auth;
  lockout: Lockout;
  /** The names this server answers to (DNS rebinding defence). */
  hosts: HostPolicy;
  /** The port the server listens on (cookie names are per port). */
  port: () => number;
  secure: boolean;
  /** `/mcp`: the workbench as an MCP server (streamable HTTP). */
  mcpEndpoint?: McpEndpoint;
}

/** Paths answered as JSON (API clients), never redirected or shown an HTML page. */
const isApiPath = (p: string) => p.startsWith("/api/") || p === "/ws" || p === "/mcp";

const SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...SECURITY_HEADERS, ...extra },
  });
}

function denied(status: 401 | 429, url: URL): Response {
  const message = status === 429
    ? "Too many failed attempts from your address; try again in 5 minutes."
    : "Unauthorized: open the URL with the token that ReinAgent printed in its terminal.";
  if (isApiPath(url.pathname)) {
    return json(status, {
      error: { code: status === 429 ? "locked_out" : "unauthorized", message },
    }, status === 401 ? { "www-authenticate": 'Bearer realm="reinagent"' } : {});
  }
  const html =
    `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
    `<title>ReinAgent</title><body style="font-family:system-ui;padding:2rem;max-width:40rem">` +
    `<h1>ReinAgent</h1><p>${message}</p></body>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", ...SECURITY_HEADERS },
  });
}

/** A request for a name this server does not go by (see `HostPolicy`). */
function misdirected(): Response {
  const message = "This address is not one ReinAgent answers to. To reach it by this name " +
    "(a reverse proxy, a tailnet name), add the name to REINAGENT_ALLOWED_HOSTS or to " +
    '"allowedHosts" in remote.json in the data folder, and restart.';
  return json(403, { error: { code: "forbidden_host", message } });
}

/** Same-origin WebSocket only: a page on another site must not drive the agent. */
export function originAllowed(req: Request, host = req.headers.get("host")): boolean {
  const origin = req.headers.get("origin");
  if (!origin) return true; // non-browser clients (CLI, tests) send no Origin
  try {
    return host !== null && new URL(origin).host === host;
  } catch {
    return false;
  }
}

function serveAsset(
  req: Request,
  path: string,
  host: string | null,
): Response | Promise<Response> | null {
  const a = ASSETS[path];
  if (!a) return null;
  const headers: Record<string, string> = {
    "content-type": a.type,
    etag: a.etag,
    vary: "accept-encoding",
    "cache-control": a.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    ...SECURITY_HEADERS,
  };
  if (path === "/") {
    const h = host ?? "";
    headers["content-security-policy"] =
      `default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; ` +
      `connect-src 'self' ws://${h} wss://${h}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`;
  }
  if (req.headers.get("if-none-match") === a.etag) {
    return new Response(null, { status: 304, headers });
  }
  const wantsGzip = /\bgzip\b/.test(req.headers.get("accept-encoding") ?? "");
  if (wantsGzip && a.body.length > 512) {
    headers["content-encoding"] = "gzip";
    if (req.method === "HEAD") return new Response(null, { headers });
    return gzipped(a).then((gz) => new Response(gz, { headers }));
  }
  return new Response(req.method === "HEAD" ? null : a.body, { headers });
}

export function makeHandler(deps: RouteDeps) {
  return (
    req: Request,
    info: Deno.ServeHandlerInfo<Deno.NetAddr>,
  ): Response | Promise<Response> => {
    const url = new URL(req.url);
    const peer = info.remoteAddr.hostname;
    const ip = deps.remote ? deps.remote.addressOf(req, peer) : peer;
    const host = deps.remote ? deps.remote.hostOf(req, peer) : req.headers.get("host");
    const sameOrigin = () => originAllowed(req, host);
    // Before the token: a rebound page never learns whether its guess was right, and a
    // valid token sent to a foreign name is refused all the same.
    if (!deps.hosts.allows(host ?? url.host)) return misdirected();
    if (deps.lockout.isBlocked(ip)) return denied(429, url);
    // The manifest and icons are fetched without cookies, the service worker before
    // pairing may be known: none of them holds anything private.
    if (PUBLIC_ASSETS.has(url.pathname) && (req.method === "GET" || req.method === "HEAD")) {
      return serveAsset(req, url.pathname, host)!;
    }

    // An MCP sign-in coming back: the state it carries is its credential (see the handler).
    if (url.pathname === OAUTH_CALLBACK_PATH) {
      return handleOAuthCallback(req, url, deps.mcp, () => deps.lockout.fail(ip));
    }

    const cred = deps.auth.credential(req, url, deps.port());
    if (!cred) return denied(401, url);
    if (!deps.auth.verify(cred.token)) {
      deps.lockout.fail(ip);
      return denied(deps.lockout.isBlocked(ip) ? 429 : 401, url);
    }
    deps.lockout.succeed(ip);

    const cookie = () =>
      [
        `${deps.auth.cookieName(deps.port())}=${encodeURIComponent(cred.token)}`,
        "Path=/",
        "HttpOnly",
        "SameSite=Strict",
        "Max-Age=31536000",
        ...(deps.secure ? ["Secure"] : []),
      ].join("; ");
    // First visit with ?token=: remember it in an HttpOnly cookie and drop it from the URL.
    if (
      cred.via === "query" && req.method === "GET" && !isApiPath(url.pathname)
    ) {
      url.searchParams.delete("token");
      return new Response(null, {
        status: 302,
        headers: {
          location: url.pathname + url.search,
          "set-cookie": cookie(),
          ...SECURITY_HEADERS,
        },
      });
    }
    // The client that reset the token pairs again without reloading the page.
    if (url.pathname === "/api/pair" && cred.via === "query" && req.method === "POST") {
      if (!sameOrigin()) {
        return json(403, {
          error: { code: "forbidden_origin", message: "request origin does not match host" },
        });
      }
      return new Response(null, {
        status: 204,
        headers: { "set-cookie": cookie(), "cache-control": "no-store", ...SECURITY_HEADERS },
      });
    }

    if (url.pathname === "/ws") {
      if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
        return json(400, {
          error: { code: "bad_request", message: "expected a WebSocket upgrade" },
        });
      }
      if (!sameOrigin()) {
        return json(403, {
          error: { code: "forbidden_origin", message: "WebSocket origin does not match host" },
        });
      }
      // Read before the upgrade: the request's headers are gone after it.
      const who = { ...describeClient(req.headers.get("user-agent")), ip };
      const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout: 60 });
      attachSocket(socket, deps, who);
      return response;
    }
    if (url.pathname === "/mcp" && deps.mcpEndpoint) {
      // A web page of another site must not drive the agent through the cookie.
      if (!sameOrigin()) {
        return json(403, {
          error: { code: "forbidden_origin", message: "request origin does not match host" },
        });
      }
      return deps.mcpEndpoint.handle(req, ip);
    }
    if (url.pathname === "/api/health") {
      return json(200, {
        ok: deps.store.health.ok,
        version: deps.version,
        store: deps.store.health,
      });
    }
    if (url.pathname === "/api/uploads" || url.pathname.startsWith("/api/uploads/")) {
      return handleUploads(req, url, deps.home, sameOrigin()).then((r) =>
        r ?? json(404, { error: { code: "not_found", message: `no such path ${url.pathname}` } })
      );
    }
    if (url.pathname === "/api/export") {
      return handleExportDownload(req, url, deps).then((r) => r!);
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      return json(405, {
        error: { code: "method_not_allowed", message: `${req.method} not allowed` },
      });
    }
    return serveAsset(req, url.pathname, host) ??
      json(404, { error: { code: "not_found", message: `no such path ${url.pathname}` } });
  };
}
