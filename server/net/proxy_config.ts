/**
 * The proxy setting's file, `<data dir>/proxy.json` (`{url, noProxy, loopback}`), and
 * applying it to {@link netFetch}'s client. A damaged file is reported, leaves requests
 * direct (or on the environment's proxy) and is never overwritten.
 */
import { join } from "../../lib/path.ts";
import type { ProxyView } from "../../protocol/net.ts";
import {
  configureProxy,
  NO_PROXY_SETTINGS,
  type ProxySettings,
  proxyUrlProblem,
} from "../../tools/net/proxy.ts";

export const proxyFilePath = (home: string) => join(home, "proxy.json");

export async function readProxyFile(
  home: string,
): Promise<{ ok: true; settings: ProxySettings } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await Deno.readTextFile(proxyFilePath(home));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: true, settings: NO_PROXY_SETTINGS };
    return { ok: false, error: `${proxyFilePath(home)} cannot be read: ${(e as Error).message}` };
  }
  try {
    const j = JSON.parse(text);
    const url = j?.url ?? null;
    const noProxy = j?.noProxy ?? [];
    if (url !== null && typeof url !== "string") throw new Error('"url" must be a string or null');
    if (!Array.isArray(noProxy) || noProxy.some((x) => typeof x !== "string")) {
      throw new Error('"noProxy" must be a list of hosts');
    }
    const bad = url ? proxyUrlProblem(url) : null;
    if (bad) throw new Error(bad);
    return {
      ok: true,
      settings: { url, noProxy, loopback: j?.loopback === true, system: j?.system === true },
    };
  } catch (e) {
    return { ok: false, error: `${proxyFilePath(home)} is damaged: ${(e as Error).message}` };
  }
}

/** Reads the file and applies it; returns the problem (then no proxy of ours applies). */
export async function applyProxyFile(home: string): Promise<string | null> {
  const r = await readProxyFile(home);
  configureProxy(r.ok ? r.settings : NO_PROXY_SETTINGS);
  if (!r.ok) console.error(`proxy setting not applied: ${r.error}`);
  return r.ok ? null : r.error;
}

/** Validates, writes (beside, then renamed) and applies new settings. */
export async function saveProxySettings(home: string, s: ProxySettings): Promise<void> {
  const bad = s.url ? proxyUrlProblem(s.url) : null;
  if (bad) throw new Error(bad);
  const r = await readProxyFile(home);
  if (!r.ok) throw new Error(`${r.error}; fix or remove it first`);
  const path = proxyFilePath(home);
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(s, null, 2) + "\n", { mode: 0o600 });
  await Deno.rename(tmp, path);
  configureProxy(s);
}

/** What a proxy password is shown as (clients never get it back). */
export const MASK = "****";

/** `url` with its password replaced by {@link MASK}. */
export function maskPassword(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = MASK;
    return u.href.replace(/\/$/, "");
  } catch {
    return url;
  }
}

/**
 * A URL sent back with the masked password means "keep the saved one" (same user and
 * host): the form can be saved without retyping it.
 */
export async function unmaskPassword(home: string, url: string | null): Promise<string | null> {
  if (!url) return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.password !== MASK) return url;
  const r = await readProxyFile(home);
  const saved = r.ok && r.settings.url ? new URL(r.settings.url) : null;
  if (!saved || saved.username !== u.username || saved.host !== u.host) {
    throw new Error("type the proxy password again");
  }
  u.password = saved.password;
  return u.href.replace(/\/$/, "");
}

/** The setting as Settings → General shows it (the password masked). */
export async function proxyView(home: string): Promise<ProxyView> {
  const r = await readProxyFile(home);
  const s = r.ok ? r.settings : NO_PROXY_SETTINGS;
  const env = Deno.env.get("HTTPS_PROXY") ?? Deno.env.get("https_proxy") ??
    Deno.env.get("HTTP_PROXY") ?? Deno.env.get("http_proxy") ?? null;
  return {
    ...s,
    url: s.url ? maskPassword(s.url) : null,
    envProxy: env ? maskPassword(env) : null,
    fileError: r.ok ? null : r.error,
  };
}
