/**
 * Remote access, as Settings → Remote access shows and changes it: the URLs per network
 * address (each with a QR code), the connected clients, the token reset (every other
 * client is disconnected and must pair again) and the trusted-proxy switch, kept in
 * `<home>/remote.json`. A damaged `remote.json` is left as it is: the switch reads as
 * off and cannot be changed until the file is fixed or removed.
 */
import { join } from "../../lib/path.ts";
import {
  type ConnectedClient,
  type QrCode,
  type RemoteInfo,
  type RemoteUrl,
  TOKEN_RESET_CLOSE,
} from "../../protocol/index.ts";
import type { Auth } from "../http/auth.ts";
import { isLoopback } from "../http/lockout.ts";
import { tokenPath } from "../home.ts";
import { OpError } from "../errors.ts";
import type { EventHub, HubClient } from "./hub.ts";
import { CLI_CLIENT } from "./clients.ts";

export const remoteSettingsPath = (home: string) => join(home, "remote.json");

/**
 * The address a request comes from. Behind a reverse proxy on this machine every peer
 * is loopback (never locked out, shown as 127.0.0.1); with `trustProxy` the proxy's
 * `X-Forwarded-For` names the client — its last entry, the one that proxy added. Only
 * a loopback peer is believed, so nobody on the network can pick their own address.
 */
export function clientAddress(
  peer: string,
  forwardedFor: string | null,
  trustProxy: boolean,
): string {
  if (!trustProxy || !forwardedFor || !isLoopback(peer)) return peer;
  const last = forwardedFor.slice(-256).split(",").pop()!.trim();
  return /^[0-9A-Fa-f:.]{2,45}$/.test(last) ? last : peer;
}

/**
 * The host the browser asked for, for the same-origin checks. A proxy that rewrites
 * `Host` (to 127.0.0.1:PORT) says the original in `X-Forwarded-Host` (its first entry);
 * believed only with `trustProxy` and from a loopback peer, like the address.
 */
export function requestHost(
  peer: string,
  host: string | null,
  forwardedHost: string | null,
  trustProxy: boolean,
): string | null {
  if (!trustProxy || !forwardedHost || !isLoopback(peer)) return host;
  const first = forwardedHost.slice(0, 256).split(",")[0].trim();
  return /^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(first) ? first : host;
}

export interface RemoteAccessOptions {
  home: string;
  auth: Auth;
  hub: EventHub;
  /** The address the server listens on. */
  host: string;
  port: () => number;
  tls: boolean;
}

export class RemoteAccess {
  #trustProxy = false;
  #allowedHosts: string[] = [];
  #settingsError: string | null = null;
  /** The client that asked for a token reset: it stays connected and re-pairs. */
  #sparing: HubClient | null = null;

  private constructor(private o: RemoteAccessOptions) {
    o.auth.onReset(() => this.#dropClients());
  }

  static async load(o: RemoteAccessOptions): Promise<RemoteAccess> {
    const r = new RemoteAccess(o);
    await r.#read();
    return r;
  }

  get trustProxy(): boolean {
    return this.#trustProxy;
  }

  /** Extra names the server answers to (`allowedHosts` in `remote.json`). */
  get allowedHosts(): readonly string[] {
    return this.#allowedHosts;
  }

  /** The client address of a request (see {@link clientAddress}). */
  addressOf(req: Request, peer: string): string {
    return clientAddress(peer, req.headers.get("x-forwarded-for"), this.#trustProxy);
  }

  /** The host a request was made for (see {@link requestHost}). */
  hostOf(req: Request, peer: string): string | null {
    const h = req.headers;
    return requestHost(peer, h.get("host"), h.get("x-forwarded-host"), this.#trustProxy);
  }

  /** Async: the QR code library loads on first use, not at every start. */
  async info(caller?: HubClient): Promise<RemoteInfo> {
    const { qrCode } = await import("./qr_code.ts");
    const { host, tls } = this.o;
    return {
      host,
      port: this.o.port(),
      tls,
      allInterfaces: host === "0.0.0.0" || host === "::",
      urls: this.urls(qrCode),
      clients: this.o.hub.list().map((c): ConnectedClient => ({
        ...(c.info ?? CLI_CLIENT),
        id: c.id,
        since: c.since ?? 0,
        you: c === caller,
      })),
      trustProxy: this.#trustProxy,
      settingsError: this.#settingsError,
      tokenFile: tokenPath(this.o.home),
    };
  }

  /** This computer's URL, then one per IPv4 interface address when bound to all of them. */
  urls(qrCode: (text: string) => QrCode): RemoteUrl[] {
    const { host, tls } = this.o;
    const scheme = tls ? "https" : "http";
    const port = this.o.port();
    const token = encodeURIComponent(this.o.auth.token);
    const entry = (kind: RemoteUrl["kind"], iface: string, address: string): RemoteUrl => {
      const h = address.includes(":") ? `[${address}]` : address;
      const url = `${scheme}://${h}:${port}/?token=${token}`;
      return { kind, iface, address, url, qr: qrCode(url) };
    };
    if (host === "0.0.0.0" || host === "::") {
      const nets = Deno.networkInterfaces()
        .filter((i) => i.family === "IPv4" && !isLoopback(i.address))
        .map((i) => entry("network", i.name, i.address));
      return [entry("local", "", "127.0.0.1"), ...nets];
    }
    return [entry(isLoopback(host) ? "local" : "network", "", host)];
  }

  /** New token; every client except `caller` is disconnected (MCP sessions too, in app.ts). */
  async resetToken(caller?: HubClient): Promise<string> {
    this.#sparing = caller ?? null;
    try {
      return await this.o.auth.reset();
    } finally {
      this.#sparing = null;
    }
  }

  async setTrustProxy(enabled: boolean): Promise<void> {
    await this.#read();
    if (this.#settingsError) {
      throw new OpError(
        "conflict",
        `${remoteSettingsPath(this.o.home)} cannot be read (${this.#settingsError}); ` +
          "it was left as it is — fix or remove it first",
      );
    }
    const path = remoteSettingsPath(this.o.home);
    const tmp = `${path}.tmp`;
    const body = {
      trustProxy: enabled,
      ...(this.#allowedHosts.length ? { allowedHosts: this.#allowedHosts } : {}),
    };
    await Deno.writeTextFile(tmp, JSON.stringify(body, null, 2) + "\n", { mode: 0o600 });
    await Deno.rename(tmp, path);
    this.#trustProxy = enabled;
  }

  #dropClients(): void {
    for (const c of this.o.hub.list()) {
      if (c !== this.#sparing) c.disconnect?.(TOKEN_RESET_CLOSE, "access token reset");
    }
  }

  async #read(): Promise<void> {
    let text: string;
    try {
      text = await Deno.readTextFile(remoteSettingsPath(this.o.home));
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
      this.#trustProxy = false;
      this.#allowedHosts = [];
      this.#settingsError = null;
      return;
    }
    try {
      const v = JSON.parse(text);
      if (typeof v !== "object" || v === null || typeof v.trustProxy !== "boolean") {
        throw new Error('expected {"trustProxy": true|false}');
      }
      const hosts = v.allowedHosts ?? [];
      if (!Array.isArray(hosts) || hosts.some((h) => typeof h !== "string")) {
        throw new Error('expected "allowedHosts" to be a list of host names');
      }
      this.#trustProxy = v.trustProxy;
      this.#allowedHosts = hosts;
      this.#settingsError = null;
    } catch (e) {
      this.#trustProxy = false;
      this.#allowedHosts = [];
      this.#settingsError = (e as Error).message;
    }
  }
}
