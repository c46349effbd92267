/**
 * SSRF guard for the web tools: decides whether a URL may be fetched.
 *
 * Blocks loopback, private, link-local (incl. the 169.254.169.254 cloud metadata address),
 * CGNAT, documentation, benchmarking, multicast, reserved and unspecified addresses in IPv4
 * and IPv6 (IPv4-mapped / -compatible / NAT64 / 6to4 forms are judged by their embedded IPv4),
 * local-only names (`localhost`, `*.internal`, …) and every address a hostname resolves to.
 *
 * Numeric host tricks (`2130706433`, `0x7f.1`, `127.1`, `%31%32%37.0.0.1`, full-width digits)
 * are normalised by the WHATWG URL parser to dotted quads before we look at them;
 * `parseIPv4` also understands those forms itself for callers that pass a raw host.
 *
 * Remaining window (DNS rebinding): we resolve the name, judge the addresses, and then `fetch`
 * resolves the name again to connect. A hostile DNS server with a short TTL can answer with a
 * public address for our check and a private one for the connection. Deno's fetch cannot be
 * pinned to a pre-resolved address for https (its `tcp` proxy transport skips TLS), so this
 * window stays open. What narrows it: https is the default (a rebound connection to an
 * internal service fails TLS unless that service holds a valid certificate for the attacker's
 * name), every redirect hop is re-checked, and the tool worker's Deno net permission is the
 * place to add a hard deny-list.
 */

export interface FetchPolicy {
  /** Hosts (names or IP literals, exact match) exempt from every check, e.g. a test server. */
  allowHosts?: string[];
  /** Rewrite http:// to https:// (default true). When false, http is fetched as-is. */
  upgradeHttp?: boolean;
  /** Every A/AAAA address of `host` (default: `Deno.resolveDns`). */
  resolve?: (host: string, signal?: AbortSignal) => Promise<string[]>;
}

/** Nothing private is allowed; http is upgraded; real DNS. */
export const DEFAULT_POLICY: FetchPolicy = Object.freeze({});

type Cidr = [base: string, prefix: number, what: string];
const V4_BLOCKS: Cidr[] = [
  ["255.255.255.255", 32, "the broadcast address"],
  ["169.254.169.254", 32, "the cloud metadata address"],
  ["0.0.0.0", 8, "an unspecified/'this network' address (0.0.0.0/8)"],
  ["10.0.0.0", 8, "a private address (10.0.0.0/8)"],
  ["100.64.0.0", 10, "a carrier-grade NAT address (100.64.0.0/10)"],
  ["127.0.0.0", 8, "a loopback address (127.0.0.0/8)"],
  ["169.254.0.0", 16, "a link-local address (169.254.0.0/16)"],
  ["172.16.0.0", 12, "a private address (172.16.0.0/12)"],
  ["192.0.0.0", 24, "an IETF protocol address (192.0.0.0/24)"],
  ["192.0.2.0", 24, "a documentation address (192.0.2.0/24)"],
  ["192.88.99.0", 24, "a 6to4 relay anycast address (192.88.99.0/24)"],
  ["192.168.0.0", 16, "a private address (192.168.0.0/16)"],
  ["198.18.0.0", 15, "a benchmarking address (198.18.0.0/15)"],
  ["198.51.100.0", 24, "a documentation address (198.51.100.0/24)"],
  ["203.0.113.0", 24, "a documentation address (203.0.113.0/24)"],
  ["224.0.0.0", 4, "a multicast address (224.0.0.0/4)"],
  ["240.0.0.0", 4, "a reserved address (240.0.0.0/4)"],
];

const NAME_BLOCKS: [RegExp, string][] = [
  [/(^|\.)localhost$/, "a localhost name"],
  [/^metadata\.google\.internal$/, "the cloud metadata host"],
  [/(^|\.)internal$/, "an internal-only name (*.internal)"],
  [/(^|\.)(local|localdomain|home\.arpa)$/, "a local-network name"],
];

/** Parses IPv4 the way inet_aton / the URL parser do (1–4 parts, decimal, 0x hex, 0 octal). */
export function parseIPv4(input: string): number | null {
  const s = input.endsWith(".") ? input.slice(0, -1) : input;
  const parts = s.split(".");
  if (parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    if (/^0x[0-9a-f]*$/i.test(p)) nums.push(p.length === 2 ? 0 : parseInt(p.slice(2), 16));
    else if (/^0[0-7]+$/.test(p)) nums.push(parseInt(p, 8));
    else if (/^(0|[1-9][0-9]*)$/.test(p)) nums.push(parseInt(p, 10));
    else return null;
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  return nums.reduce((v, n, i) => v + n * 256 ** (3 - i), last);
}

export const formatIPv4 = (n: number): string =>
  [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");

/** Parses an IPv6 literal (brackets and zone id allowed) into eight 16-bit groups. */
export function parseIPv6(input: string): number[] | null {
  let s = input.replace(/^\[/, "").replace(/\]$/, "").replace(/%.*$/, "");
  const lastColon = s.lastIndexOf(":");
  if (lastColon < 0) return null;
  const v4Tail = s.slice(lastColon + 1);
  if (v4Tail.includes(".")) {
    const p = v4Tail.split(".").map(Number);
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(v4Tail) || p.some((x) => x > 255)) return null;
    const v4 = ((p[0] * 256 + p[1]) * 256 + p[2]) * 256 + p[3];
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) =>
    part === ""
      ? []
      : part.split(":").map((h) => /^[0-9a-f]{1,4}$/i.test(h) ? parseInt(h, 16) : NaN);
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if ([...head, ...tail].some(Number.isNaN)) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const fill = 8 - head.length - tail.length;
  return fill < 1 ? null : [...head, ...new Array<number>(fill).fill(0), ...tail];
}

/** Why an IPv4 address (as uint32) is blocked, or null when it is public. */
export function blockedIPv4Reason(n: number): string | null {
  for (const [base, prefix, what] of V4_BLOCKS) {
    const shift = 32 - prefix;
    const b = parseIPv4(base)!;
    if (prefix === 32 ? n === b : Math.floor(n / 2 ** shift) === Math.floor(b / 2 ** shift)) {
      return what;
    }
  }
  return null;
}

/** Why an IPv6 address is blocked, or null when it is global unicast (or embeds a public IPv4). */
export function blockedIPv6Reason(h: number[]): string | null {
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  const embedded = (form: string, hi: number, lo: number) => {
    const v4 = hi * 65536 + lo;
    const why = blockedIPv4Reason(v4);
    return why ? `the ${form} form of ${formatIPv4(v4)}, ${why}` : null;
  };
  if (zeros(0, 8)) return "the unspecified address (::)";
  if (zeros(0, 7) && h[7] === 1) return "the loopback address (::1)";
  if (zeros(0, 5) && h[5] === 0xffff) return embedded("IPv4-mapped", h[6], h[7]);
  if (zeros(0, 6)) return embedded("IPv4-compatible", h[6], h[7]);
  if (zeros(0, 4) && h[4] === 0xffff && h[5] === 0) return embedded("IPv4-translated", h[6], h[7]);
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return embedded("NAT64", h[6], h[7]);
  if (h[0] === 0x64 && h[1] === 0xff9b && h[2] === 1) return "a local-use NAT64 address";
  if (h[0] === 0x2002) return embedded("6to4", h[1], h[2]);
  if ((h[0] & 0xfe00) === 0xfc00) return "a unique local address (fc00::/7)";
  if ((h[0] & 0xffc0) === 0xfe80) return "a link-local address (fe80::/10)";
  if ((h[0] & 0xffc0) === 0xfec0) return "a site-local address (fec0::/10)";
  if ((h[0] & 0xff00) === 0xff00) return "a multicast address (ff00::/8)";
  if (h[0] === 0x2001 && h[1] === 0x0db8) return "a documentation address (2001:db8::/32)";
  if (h[0] === 0x3fff && h[1] < 0x1000) return "a documentation address (3fff::/20)";
  if ((h[0] & 0xe000) !== 0x2000) return "a reserved address (outside 2000::/3)";
  return null;
}

/** Lower-case, without IPv6 brackets or trailing dots. */
export const normalizeHost = (host: string): string =>
  host.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.+$/, "");

const isIPv6Literal = (host: string) => host.includes(":");

/** Why a literal host (IP or name) is blocked without DNS; null = not blocked by itself. */
export function blockedHostReason(rawHost: string): string | null {
  const host = normalizeHost(rawHost);
  if (isIPv6Literal(host)) {
    const h = parseIPv6(host);
    return h ? blockedIPv6Reason(h) : "not a valid IPv6 address";
  }
  const v4 = parseIPv4(host);
  if (v4 !== null) return blockedIPv4Reason(v4);
  if (host === "") return "an empty host";
  for (const [re, what] of NAME_BLOCKS) if (re.test(host)) return what;
  return null;
}

/** Why a resolved address is blocked; unparseable answers are refused (fail closed). */
export function blockedAddressReason(addr: string): string | null {
  if (isIPv6Literal(addr)) {
    const h = parseIPv6(addr);
    return h ? blockedIPv6Reason(h) : "an unrecognised address";
  }
  const v4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(addr) ? parseIPv4(addr) : null;
  return v4 === null ? "an unrecognised address" : blockedIPv4Reason(v4);
}

/** Parses a URL, applies the http→https upgrade and drops the fragment. */
export function prepareUrl(raw: string, policy: FetchPolicy = DEFAULT_POLICY): URL | string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return `Invalid URL: ${JSON.stringify(raw)}. Give an absolute https:// URL.`;
  }
  if (url.protocol === "http:" && policy.upgradeHttp !== false) url.protocol = "https:";
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return `Only https:// URLs can be fetched (got ${url.protocol}//).`;
  }
  if (url.username || url.password) {
    return "URLs with embedded credentials (user:password@) are not fetched.";
  }
  url.hash = "";
  return url;
}

/** Every A and AAAA address; a lookup that fails for any reason except "no records" throws. */
export async function resolveAll(host: string, signal?: AbortSignal): Promise<string[]> {
  const answers = await Promise.allSettled(
    (["A", "AAAA"] as const).map((t) => Deno.resolveDns(host, t, { signal })),
  );
  const out: string[] = [];
  for (const a of answers) {
    if (a.status === "fulfilled") out.push(...a.value);
    else if (!(a.reason instanceof Deno.errors.NotFound)) throw a.reason;
  }
  return out;
}

export interface Verdict {
  /** True for an SSRF block; false when the host could not be resolved. */
  blocked: boolean;
  reason: string;
}

/** Null when `url` may be fetched; otherwise why not. Resolves names; ANY bad address blocks. */
export async function checkUrl(
  url: URL,
  policy: FetchPolicy = DEFAULT_POLICY,
  signal?: AbortSignal,
): Promise<Verdict | null> {
  const host = normalizeHost(url.hostname);
  if ((policy.allowHosts ?? []).some((h) => normalizeHost(h) === host)) return null;
  const literal = blockedHostReason(host);
  if (literal) return { blocked: true, reason: `${host} is ${literal}` };
  if (isIPv6Literal(host) || parseIPv4(host) !== null) return null;
  let addrs: string[];
  try {
    addrs = await (policy.resolve ?? resolveAll)(host, signal);
  } catch (e) {
    if (signal?.aborted) throw e;
    return { blocked: false, reason: `cannot resolve ${host}: ${(e as Error).message}` };
  }
  if (addrs.length === 0) return { blocked: false, reason: `${host} has no A/AAAA records` };
  for (const a of addrs) {
    const why = blockedAddressReason(a);
    if (why) return { blocked: true, reason: `${host} resolves to ${a}, ${why}` };
  }
  return null;
}
