/**
 * The HTTP(S) proxy every outbound request of the server goes through:
 * provider requests, model lists, web tools, MCP HTTP servers, push sends, WebDAV, updates.
 * One helper, {@link netFetch}, used instead of `fetch` at those places. With a proxy set
 * (Settings → General, `<data dir>/proxy.json`), requests go through a
 * `Deno.createHttpClient({ proxy })` client — except loopback hosts (the mock LLM, a local
 * model server, the control endpoint) unless asked, and hosts on the no-proxy list (the
 * setting's and the NO_PROXY environment variable's). Without one, requests go direct —
 * the environment's HTTP_PROXY / HTTPS_PROXY (which Deno would apply silently, even to
 * 127.0.0.1) are used only when the user turns on "use the system proxy".
 */

export interface ProxySettings {
  /** `http://host:port` or `https://…` (credentials allowed: `http://user:pass@host:port`); null = none. */
  url: string | null;
  /** Hosts that are never proxied: `example.com` (and its subdomains), `.corp`, `*.corp`, `10.0.0.5`, `*`. */
  noProxy: string[];
  /** Proxy loopback hosts too (off: they always go direct). */
  loopback: boolean;
  /** Without `url`, use the environment's HTTP_PROXY / HTTPS_PROXY (off: direct). */
  system: boolean;
}

export const NO_PROXY_SETTINGS: ProxySettings = {
  url: null,
  noProxy: [],
  loopback: false,
  system: false,
};

let settings: ProxySettings = NO_PROXY_SETTINGS;
let client: Deno.HttpClient | null = null;

/** Why `url` cannot be a proxy address, or null. */
export function proxyUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${url}" is not a URL (expected http://host:port)`;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    return `the proxy must be an http:// or https:// URL, not ${u.protocol}`;
  }
  if (!u.hostname) return "the proxy URL has no host";
  if (u.pathname !== "/" || u.search || u.hash) return "the proxy URL is only scheme://host:port";
  return null;
}

/** Applies new settings (the old client is closed once no request holds it). */
export function configureProxy(next: ProxySettings): void {
  if (next.url) {
    const bad = proxyUrlProblem(next.url);
    if (bad) throw new Error(bad);
  }
  const old = client;
  settings = { ...next, noProxy: next.noProxy.map((h) => h.trim()).filter(Boolean) };
  client = settings.url ? Deno.createHttpClient({ proxy: proxyOption(settings.url) }) : null;
  // Requests in flight on the old client keep it; close it a little later.
  if (old) setTimeout(() => old.close(), 60_000);
}

export const currentProxy = (): ProxySettings => settings;

function proxyOption(url: string): Deno.Proxy {
  const u = new URL(url);
  if (!u.username) return { url };
  const basicAuth = {
    username: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
  };
  u.username = "";
  u.password = "";
  return { url: u.href.replace(/\/$/, ""), basicAuth };
}

const isLoopback = (host: string) =>
  host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) ||
  host === "[::1]" || host === "::1" || host === "0.0.0.0";

/** Whether `host` matches a no-proxy entry (curl's rules plus `*.` prefixes). */
export function matchesNoProxy(host: string, entries: string[]): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  for (const raw of entries) {
    let e = raw.trim().toLowerCase();
    if (!e) continue;
    if (e === "*") return true;
    e = e.replace(/^\*?\./, "").replace(/^\[|\]$/g, "").replace(/:\d+$/, "");
    if (h === e || h.endsWith(`.${e}`)) return true;
  }
  return false;
}

const envNoProxy = () => (Deno.env.get("NO_PROXY") ?? Deno.env.get("no_proxy") ?? "").split(",");

/** Whether a request to `url` goes through the configured proxy. */
export function usesProxy(url: string | URL): boolean {
  if (!settings.url) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return false;
  if (!settings.loopback && isLoopback(u.hostname)) return false;
  return !matchesNoProxy(u.hostname, [...settings.noProxy, ...envNoProxy()]);
}

const targetOf = (input: string | URL | Request) => input instanceof Request ? input.url : input;

const envProxySet = () =>
  ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"]
    .some((k) => Deno.env.get(k));

let direct: Deno.HttpClient | null = null;
/**
 * A client that ignores the environment's proxy: Deno applies HTTP_PROXY to every fetch
 * (even to 127.0.0.1, which would send the mock LLM, a local model server or the control
 * endpoint to the proxy). Deno reads NO_PROXY when a client is made, so it is set to
 * "everything" just for that moment (children and other clients see it unchanged);
 * `*` alone does not cover IP literals, hence the two networks.
 */
function directClient(): Deno.HttpClient {
  if (direct) return direct;
  const old = Deno.env.get("NO_PROXY");
  Deno.env.set("NO_PROXY", "*,0.0.0.0/0,::/0");
  try {
    direct = Deno.createHttpClient({});
  } finally {
    if (old === undefined) Deno.env.delete("NO_PROXY");
    else Deno.env.set("NO_PROXY", old);
  }
  return direct;
}

function isLoopbackUrl(url: string | URL): boolean {
  try {
    return isLoopback(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** `fetch`, through the configured proxy where it applies (loopback always direct unless asked). */
export const netFetch: typeof fetch = (input, init) => {
  const target = targetOf(input);
  if (client && usesProxy(target)) return fetch(input, { ...init, client });
  const envAllowed = settings.system && (settings.loopback || !isLoopbackUrl(target));
  if (!envAllowed && envProxySet()) return fetch(input, { ...init, client: directClient() });
  return fetch(input, init);
};
