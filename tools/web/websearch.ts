/**
 * `websearch`: keyless search through DuckDuckGo's HTML endpoint. Ads are dropped,
 * allowed/blocked domain filters applied, at most 25 results, and the result reminds the model
 * to cite its sources. Never invents results: an empty or unrecognised page is said as such.
 */
import { netFetch } from "../net/proxy.ts";
import { fail, ok, type Tool } from "../types.ts";
import { defineTool } from "../define.ts";
import type { ToolDetails } from "../../protocol/tool_details.ts";
import { arr, doc, int, obj } from "../../protocol/schema.ts";
import { text } from "../args.ts";
import { hasClass, inlineText, parseAttrs, START_TAG } from "./html.ts";
import { decodeText, describeFetchError, readCapped, USER_AGENT, withTimeout } from "./http.ts";

export const DUCKDUCKGO_HTML = "https://html.duckduckgo.com/html/";
export const MAX_RESULTS = 25;
export const CITE_REMINDER = "Cite the sources you use (title and URL).";

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface WebsearchOptions {
  /** Search endpoint; `q` is added as a query parameter (default DuckDuckGo HTML). */
  baseUrl?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface Tag {
  name: string;
  attrs: Record<string, string>;
  start: number;
  end: number;
}

/** Real target of a result link: unwraps `uddg=`; null for ads (`/y.js`) and non-web links. */
export function resultUrl(href: string, base: string): string | null {
  let u: URL;
  try {
    u = new URL(href, base);
    if (u.pathname.endsWith("/y.js")) return null;
    const target = u.searchParams.get("uddg");
    if (target) u = new URL(target);
  } catch {
    return null;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  if (/(^|\.)duckduckgo\.com$/.test(u.hostname) && u.pathname.endsWith("/y.js")) return null;
  return u.href;
}

/** Inner HTML of the element opened by `tag` (up to its closing tag). */
function innerOf(html: string, lower: string, tag: Tag): string {
  const close = lower.indexOf(`</${tag.name}`, tag.end);
  return html.slice(tag.end, close < 0 ? undefined : close);
}

/**
 * Parses a DuckDuckGo HTML results page. Results are the blocks opened by an element of class
 * `result` (or, failing that, by each `a.result__a`); attribute order and quoting do not matter.
 */
export function parseResults(html: string, base = DUCKDUCKGO_HTML) {
  const lower = html.toLowerCase();
  const tags: Tag[] = [];
  for (const m of html.matchAll(START_TAG)) {
    const start = m.index!;
    tags.push({
      name: m[1].toLowerCase(),
      attrs: parseAttrs(m[2]),
      start,
      end: start + m[0].length,
    });
  }
  const isLink = (t: Tag) => t.name === "a" && hasClass(t.attrs, "result__a");
  const boxes = tags.flatMap((t, i) => hasClass(t.attrs, "result") ? [i] : []);
  const links = tags.flatMap((t, i) => isLink(t) ? [i] : []);
  const starts = boxes.length && links.every((l) => l > boxes[0]) ? boxes : links;
  const results: SearchResult[] = [];
  const seen = new Set<string>();
  let ads = 0;
  starts.forEach((from, k) => {
    const block = tags.slice(from, starts[k + 1] ?? tags.length);
    const link = block.find(isLink);
    if (!link) return;
    const href = link.attrs.href ?? "";
    const url = resultUrl(href, base);
    const ad = /\/y\.js\b/.test(href) ||
      block.some((t) => hasClass(t.attrs, "result--ad") || hasClass(t.attrs, "badge--ad"));
    if (ad) ads++;
    if (ad || url === null || seen.has(url)) return;
    seen.add(url);
    const snip = block.find((t) => hasClass(t.attrs, "result__snippet"));
    results.push({
      title: inlineText(innerOf(html, lower, link)) || url,
      url,
      snippet: snip ? inlineText(innerOf(html, lower, snip)) : "",
    });
  });
  const recognised = links.length > 0 ||
    /class\s*=\s*["'][^"']*\b(no-results|results|result--no-result)\b/.test(lower) ||
    /id\s*=\s*["']links["']/.test(lower);
  return { results, ads, recognised };
}

/** "example.com" from "https://Example.com/x", "*.example.com", ".example.com." … or null. */
export function normalizeDomain(d: string): string | null {
  const s = d.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "").replace(/^\*?\./, "").replace(/\.$/, "");
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(s) ? s : null;
}

/** A domain matches itself and its subdomains. */
export const domainMatches = (host: string, domain: string): boolean =>
  host === domain || host.endsWith(`.${domain}`);

function domainList(v: string[] | undefined, name: string): string[] | string {
  const out: string[] = [];
  for (const d of v ?? []) {
    const n = normalizeDomain(d);
    if (!n) return `\`${name}\` has an invalid domain: ${JSON.stringify(d)}.`;
    out.push(n);
  }
  return out;
}

type WebsearchArgs = {
  query: string;
  allowed_domains?: string[];
  blocked_domains?: string[];
  limit?: number;
};

export function makeWebsearch(
  opts: WebsearchOptions = {},
): Tool<WebsearchArgs, ToolDetails<"websearch">> {
  const base = opts.baseUrl ?? DUCKDUCKGO_HTML;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const doFetch = opts.fetch ?? netFetch;
  return defineTool<WebsearchArgs, ToolDetails<"websearch">>({
    name: "websearch",
    description: "Search the web (DuckDuckGo, no API key). Returns up to `limit` results " +
      "(default 10, max 25) as title, URL and snippet, ads removed. `allowed_domains` keeps " +
      "only those domains (and their subdomains); `blocked_domains` drops them. Use webfetch " +
      "to read a result. Cite the sources you use.",
    args: obj({
      query: text("Search query"),
      "allowed_domains?": doc(
        arr(text(), Infinity),
        "Only return results from these domains (subdomains included)",
      ),
      "blocked_domains?": doc(
        arr(text(), Infinity),
        "Never return results from these domains (subdomains included)",
      ),
      "limit?": doc(int({ min: 1, max: MAX_RESULTS }), "Default 10"),
    }),
    // Needs net, but changes nothing local: approval-wise a read (see webfetch).
    kind: "read",
    // Net only: runs in a worker with network access and no file system, env or run.
    placement: "worker-net",
    async execute(args, ctx) {
      const query = args.query.trim();
      if (!query) return fail("websearch needs a non-empty `query`.");
      if (query.length > 500) return fail("`query` is too long (over 500 characters).");
      const limit = args.limit ?? 10;
      const allowed = domainList(args.allowed_domains, "allowed_domains");
      if (typeof allowed === "string") return fail(allowed);
      const blocked = domainList(args.blocked_domains, "blocked_domains");
      if (typeof blocked === "string") return fail(blocked);

      const url = new URL(base);
      url.searchParams.set("q", query);
      const what = `searching for ${JSON.stringify(query)}`;
      const t = withTimeout(ctx.signal, timeoutMs);
      let html: string;
      try {
        const res = await doFetch(url.href, {
          signal: t.signal,
          headers: { "user-agent": USER_AGENT, accept: "text/html" },
        });
        if (!res.ok) {
          await res.body?.cancel();
          return fail(
            `Search failed: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""} ` +
              `from ${url.origin}. No results were retrieved.`,
            { status: res.status },
          );
        }
        const body = await readCapped(res, 2 * 1024 * 1024);
        html = decodeText(body.bytes, res.headers.get("content-type"));
      } catch (e) {
        return fail(`${describeFetchError(e, what, ctx.signal, t.timedOut(), timeoutMs)}`);
      } finally {
        t.clear();
      }

      const parsed = parseResults(html, url.href);
      if (!parsed.recognised) {
        return fail(
          "Search returned a page without recognisable results (possibly a bot check or a " +
            "changed page layout), so there are no results to show. Try again later or " +
            "rephrase the query.",
        );
      }
      const kept = parsed.results.filter((r) => {
        const host = new URL(r.url).hostname.toLowerCase();
        return (allowed.length === 0 || allowed.some((d) => domainMatches(host, d))) &&
          !blocked.some((d) => domainMatches(host, d));
      });
      const filtered = parsed.results.length - kept.length;
      const shown = kept.slice(0, limit);
      const meta = {
        query,
        count: shown.length,
        found: parsed.results.length,
        filtered,
        ads: parsed.ads,
      };
      if (shown.length === 0) {
        const why = filtered
          ? ` after domain filters (${filtered} result(s) were removed by allowed_domains/blocked_domains)`
          : "";
        return ok(`No results for ${JSON.stringify(query)}${why}.`, meta);
      }
      const lines = shown.map((r, i) =>
        `${i + 1}. ${r.title} — ${r.url}${r.snippet ? `\n   ${r.snippet}` : ""}`
      );
      const note = filtered ? `\n(${filtered} result(s) removed by domain filters.)` : "";
      return ok(
        `Results for ${JSON.stringify(query)}:\n\n${lines.join("\n\n")}\n${note}\n${CITE_REMINDER}`,
        meta,
      );
    },
  });
}

/** The production tool, querying DuckDuckGo. */
export const websearch: Tool = makeWebsearch();
