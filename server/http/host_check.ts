/**
 * Host validation against DNS rebinding. A page on a site the attacker controls can
 * make its own name resolve to this machine; the browser then sends that name in
 * `Host` and `Origin`, so comparing the two proves nothing. Only the names this server
 * is really reached by are answered: the address it listens on (with `localhost` and
 * the loopback literals for a loopback bind; every interface address and this
 * computer's name for a wildcard bind) on the port it listens on, plus the names the
 * user lists in `REINAGENT_ALLOWED_HOSTS` or `allowedHosts` of `remote.json` (a
 * reverse proxy's public name, a tailnet name). A listed name without a port matches
 * any port, since a proxy in front answers on its own.
 */
import { isLoopback } from "./lockout.ts";

/** The environment variable listing extra host names, separated by commas or spaces. */
export const ALLOWED_HOSTS_ENV = "REINAGENT_ALLOWED_HOSTS";

export interface HostPolicyOptions {
  /** The address the server listens on (`127.0.0.1`, `0.0.0.0`, `::`, a LAN address). */
  bindHost: string;
  port: () => number;
  tls: boolean;
  /** Names the user allows on top of the listening addresses. */
  extra: () => readonly string[];
  /** This machine's interface addresses (injectable for tests). */
  interfaces?: () => string[];
  /** This machine's host name (injectable for tests). */
  hostname?: () => string;
}

interface ParsedHost {
  name: string;
  port: number | null;
}

/** `name[:port]` or `[v6][:port]`, lower-cased, trailing dot dropped; null when malformed. */
export function parseHost(value: string): ParsedHost | null {
  const v = value.trim().toLowerCase();
  const m = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(v) ??
    /^([a-z0-9._-]+|\*\.[a-z0-9._-]+)(?::(\d{1,5}))?$/.exec(v);
  if (!m) return null;
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && (port < 1 || port > 65535)) return null;
  const name = m[1].endsWith(".") ? m[1].slice(0, -1) : m[1];
  return name ? { name, port } : null;
}

/** The names in `REINAGENT_ALLOWED_HOSTS` (empty when unset or unreadable). */
export function envAllowedHosts(): string[] {
  let raw: string | undefined;
  try {
    raw = Deno.env.get(ALLOWED_HOSTS_ENV);
  } catch {
    return [];
  }
  return splitHostList(raw ?? "");
}

export const splitHostList = (raw: string): string[] =>
  raw.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);

const isWildcard = (h: string) => h === "0.0.0.0" || h === "::" || h === "[::]";
const bare = (h: string) => h.replace(/^\[|\]$/g, "").toLowerCase();

function systemInterfaces(): string[] {
  try {
    return Deno.networkInterfaces().map((i) => i.address.toLowerCase());
  } catch {
    return [];
  }
}

function systemHostname(): string {
  try {
    return Deno.hostname().toLowerCase();
  } catch {
    return "";
  }
}

export class HostPolicy {
  #interfaces: Set<string> | null = null;

  constructor(private o: HostPolicyOptions) {}

  /** True when `host` (a `Host` header value) names this server. */
  allows(host: string | null): boolean {
    if (!host) return false;
    const h = parseHost(host);
    if (!h || h.name.startsWith("*.")) return false;
    if (this.#extraAllows(h)) return true;
    const port = h.port ?? (this.o.tls ? 443 : 80);
    if (port !== this.o.port()) return false;
    return this.#listensOn(h.name);
  }

  #extraAllows(h: ParsedHost): boolean {
    for (const entry of this.o.extra()) {
      const e = parseHost(entry);
      if (!e) continue;
      if (e.port !== null && e.port !== (h.port ?? (this.o.tls ? 443 : 80))) continue;
      if (e.name === h.name) return true;
      // `*.example.com` matches names below it, never the bare domain.
      if (e.name.startsWith("*.") && h.name.endsWith(e.name.slice(1))) return true;
    }
    return false;
  }

  #listensOn(name: string): boolean {
    const bind = bare(this.o.bindHost);
    const asked = bare(name);
    if (asked === bind) return true;
    const loopbackName = asked === "localhost" || isLoopback(asked);
    if (isLoopback(bind) || bind === "localhost") return loopbackName;
    if (!isWildcard(bind)) return false;
    if (loopbackName) return true;
    const me = (this.o.hostname ?? systemHostname)();
    if (me && (asked === me || asked === `${me}.local`)) return true;
    if (this.#interfaceSet(false).has(asked)) return true;
    // An address added since the last look (a new network): look once more.
    return this.#interfaceSet(true).has(asked);
  }

  #interfaceSet(refresh: boolean): Set<string> {
    if (!this.#interfaces || refresh) {
      this.#interfaces = new Set((this.o.interfaces ?? systemInterfaces)().map(bare));
    }
    return this.#interfaces;
  }
}
