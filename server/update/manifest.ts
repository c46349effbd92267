/**
 * Reading a release manifest (through the proxy setting) and comparing versions. The
 * manifest is bounded and validated field by field: a hostile or broken one is an error,
 * never a download.
 */
import type { ReleaseAsset, ReleaseManifest } from "../../protocol/update.ts";
import { netFetch } from "../../tools/net/proxy.ts";

const MAX_MANIFEST_BYTES = 256 * 1024;
/** Largest binary accepted (a compiled ReinAgent is ~100 MB). */
export const MAX_BINARY_BYTES = 1024 * 1024 * 1024;

/** Where the manifest is, when no `--manifest` is given. */
export const manifestUrlFromEnv = (): string | null =>
  Deno.env.get("REINAGENT_UPDATE_MANIFEST")?.trim() || null;

/** This machine's key in `platforms`. */
export const platformKey = () => `${Deno.build.os}-${Deno.build.arch}`;

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

const VERSION_RE = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]{1,40})?$/;

function httpUrl(v: unknown, at: string, base: string): string {
  if (typeof v !== "string" || v.length > 4096) throw new Error(`${at}: expected a URL`);
  const u = new URL(v, base);
  if (u.protocol !== "https:" && u.protocol !== "http:") {
    throw new Error(`${at}: only http(s) URLs are downloaded`);
  }
  return u.href;
}

function asset(v: unknown, at: string, base: string): ReleaseAsset {
  if (!isRecord(v)) throw new Error(`${at}: expected {url, sha256, size}`);
  if (typeof v.sha256 !== "string" || !/^[0-9a-fA-F]{64}$/.test(v.sha256)) {
    throw new Error(`${at}.sha256: expected 64 hex digits`);
  }
  if (
    typeof v.size !== "number" || !Number.isInteger(v.size) || v.size <= 0 ||
    v.size > MAX_BINARY_BYTES
  ) throw new Error(`${at}.size: expected a size in bytes up to ${MAX_BINARY_BYTES}`);
  return { url: httpUrl(v.url, `${at}.url`, base), sha256: v.sha256.toLowerCase(), size: v.size };
}

/** Validates a manifest's JSON (relative asset URLs resolve against `base`). */
export function parseManifest(json: unknown, base: string): ReleaseManifest {
  if (!isRecord(json)) throw new Error("the manifest is not a JSON object");
  if (typeof json.version !== "string" || !VERSION_RE.test(json.version)) {
    throw new Error('"version": expected a version like 1.2.3');
  }
  if (!isRecord(json.platforms)) throw new Error('"platforms": expected an object');
  const platforms: Record<string, ReleaseAsset> = {};
  for (const [k, v] of Object.entries(json.platforms).slice(0, 50)) {
    platforms[k] = asset(v, `platforms.${k}`, base);
  }
  return { version: json.version, platforms };
}

export async function fetchManifest(url: string, timeoutMs = 15_000): Promise<ReleaseManifest> {
  const res = await netFetch(url, { signal: AbortSignal.timeout(timeoutMs) }).catch((e) => {
    throw new Error(`cannot reach ${url}: ${(e as Error).message}`);
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`${url} answered ${res.status} ${res.statusText}`);
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_MANIFEST_BYTES) throw new Error(`the manifest is larger than 256 KB`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new Error(`the manifest is not JSON: ${(e as Error).message}`);
  }
  return parseManifest(json, url);
}

/** -1, 0, 1 as `a` is older, the same, newer than `b` (a pre-release is older than its release). */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core, pre = ""] = v.split("+")[0].split(/-(.*)/s);
    return { nums: core.split(".").map((n) => Number(n) || 0), pre };
  };
  const x = split(a), y = split(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (!x.pre) return 1;
  if (!y.pre) return -1;
  return x.pre < y.pre ? -1 : 1;
}
