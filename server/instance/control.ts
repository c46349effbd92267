/**
 * The running server's local control endpoint: a second listener on 127.0.0.1 only,
 * plain HTTP whatever the main server's TLS or bind address, authenticated by a secret
 * made per start and written to `instance.json` (mode 0600, in the 0700 data dir). A
 * second `reinagent` on the same data dir uses it to hand over instead of starting.
 *
 *   GET  /info    → InstanceInfo
 *   POST /window  → WindowReply (opens a window on this server)
 */
import { constantTimeEqual } from "../../lib/bytes.ts";

export interface InstanceInfo {
  pid: number;
  /** `serve` (headless) or `window` (`reinagent`). */
  mode: string;
  base: string;
  /** The URL with the access token, as the server printed it. */
  url: string;
  version: string;
  activeRuns: number;
  openWindows: number;
}

export interface WindowReply {
  opened: boolean;
  how?: string;
  reason?: string;
}

export interface ControlHandlers {
  info(): InstanceInfo;
  openWindow(): Promise<WindowReply>;
}

export interface ControlServer {
  url: string;
  secret: string;
  close(): Promise<void>;
}

export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function sameSecret(given: string, secret: string): boolean {
  const a = new TextEncoder().encode(given), b = new TextEncoder().encode(secret);
  return constantTimeEqual(a, b);
}

const reply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });

export function controlHandler(secret: string, h: ControlHandlers) {
  return async (req: Request): Promise<Response> => {
    // A web page cannot call this with the secret, but refuse browsers outright anyway.
    if (req.headers.get("origin")) return reply(403, { error: "no browser requests" });
    const authz = req.headers.get("authorization") ?? "";
    if (!authz.startsWith("Bearer ") || !sameSecret(authz.slice(7).trim(), secret)) {
      return reply(401, { error: "unauthorized" });
    }
    const path = new URL(req.url).pathname;
    if (path === "/info" && req.method === "GET") return reply(200, h.info());
    if (path === "/window" && req.method === "POST") {
      try {
        return reply(200, await h.openWindow());
      } catch (e) {
        return reply(200, { opened: false, reason: (e as Error).message } satisfies WindowReply);
      }
    }
    return reply(404, { error: `no such control request ${req.method} ${path}` });
  };
}

export function startControl(h: ControlHandlers): ControlServer {
  const secret = newSecret();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    controlHandler(secret, h),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    secret,
    close: () => server.shutdown(),
  };
}
