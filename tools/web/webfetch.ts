/**
 * `webfetch`: one web page as readable text. https only (http upgraded), SSRF
 * checks on the first URL and on every redirect hop (manual redirects, at most 5), 30 s
 * timeout, 2 MB body cap, HTML → text, 15-minute LRU cache of 50 pages, 30 KB result.
 */
import { netFetch } from "../net/proxy.ts";
import { fail, ok, type Tool, type ToolResult } from "../types.ts";
import { defineTool } from "../define.ts";
import type { ToolDetails } from "../../protocol/tool_details.ts";
import { obj } from "../../protocol/schema.ts";
import { text } from "../args.ts";
import { checkUrl, DEFAULT_POLICY, type FetchPolicy, prepareUrl } from "./ssrf.ts";
import { htmlToText } from "./html.ts";
import {
  capUtf8,
  decodeText,
  describeFetchError,
  isTextType,
  looksBinary,
  mediaType,
  readCapped,
  USER_AGENT,
  withTimeout,
} from "./http.ts";

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface WebfetchOptions {
  /** Whole-request timeout (default 30 s). */
  timeoutMs?: number;
  /** Body bytes read at most (default 2 MB). */
  maxBodyBytes?: number;
  /** Size of the text returned to the model (default 30 KB). */
  maxResultBytes?: number;
  cacheTtlMs?: number;
  cacheSize?: number;
  /** Clock for the cache (tests). */
  now?: () => number;
  /** fetch implementation (tests); always called with `redirect: "manual"`. */
  fetch?: typeof fetch;
}

interface Page {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  title: string;
  text: string;
  bytes: number;
  bodyTruncated: boolean;
  redirects: string[];
}

/** Least-recently-used map with a time-to-live. */
export class LruCache<V> {
  private map = new Map<string, { at: number; value: V }>();
  constructor(private size: number, private ttlMs: number, private now: () => number) {}

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.map.delete(key);
    if (this.now() - e.at >= this.ttlMs) return undefined;
    this.map.set(key, e);
    return e.value;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, { at: this.now(), value });
    while (this.map.size > this.size) this.map.delete(this.map.keys().next().value!);
  }
}

const kb = (n: number) => `${Math.round(n / 102.4) / 10} KB`;
const mb = (n: number) => `${Math.round(n / (1024 * 102.4)) / 10} MB`;

type WebfetchArgs = { url: string; prompt?: string };
type Result = ToolResult<ToolDetails<"webfetch">>;

export function makeWebfetch(
  policy: FetchPolicy = DEFAULT_POLICY,
  opts: WebfetchOptions = {},
): Tool<WebfetchArgs, ToolDetails<"webfetch">> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxBody = opts.maxBodyBytes ?? 2 * 1024 * 1024;
  const maxResult = opts.maxResultBytes ?? 30 * 1024;
  const doFetch = opts.fetch ?? netFetch;
  const cache = new LruCache<Page>(
    opts.cacheSize ?? 50,
    opts.cacheTtlMs ?? 15 * 60_000,
    opts.now ?? Date.now,
  );

  async function readPage(
    start: URL,
    url: URL,
    res: Response,
    redirects: string[],
  ): Promise<Page | Result> {
    const ct = res.headers.get("content-type");
    const mt = mediaType(ct);
    if (!res.ok) {
      let excerpt = "";
      if (isTextType(ct) !== false) {
        const raw = decodeText((await readCapped(res, 4096)).bytes, ct);
        excerpt = (mt.includes("html") ? htmlToText(raw).text : raw).replace(/\s+/g, " ").trim();
      } else await res.body?.cancel();
      return fail(
        `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""} from ${url.href}.` +
          (excerpt ? ` The response starts: ${excerpt.slice(0, 300)}` : ""),
        { url: start.href, finalUrl: url.href, status: res.status },
      );
    }
    const textual = isTextType(ct);
    if (textual === false) {
      await res.body?.cancel();
      return fail(
        `Not text: ${url.href} returned ${mt} (binary content). webfetch only returns text ` +
          "(HTML, plain text, JSON, XML, …).",
        { url: start.href, finalUrl: url.href, contentType: mt },
      );
    }
    const { bytes, truncated } = await readCapped(res, maxBody);
    if (textual === null && looksBinary(bytes)) {
      return fail(`Not text: ${url.href} sent no Content-Type and its body looks binary.`, {
        url: start.href,
        finalUrl: url.href,
      });
    }
    const raw = decodeText(bytes, ct);
    const isHtml = mt.includes("html") || (!mt && /^\s*<(!doctype html|html)/i.test(raw));
    const { title, text } = isHtml ? htmlToText(raw, url.href) : { title: "", text: raw };
    const page: Page = {
      url: start.href,
      finalUrl: url.href,
      status: res.status,
      contentType: mt,
      title,
      text,
      bytes: bytes.length,
      bodyTruncated: truncated,
      redirects,
    };
    return page;
  }

  async function load(start: URL, signal: AbortSignal): Promise<Page | Result> {
    let url = start;
    const redirects: string[] = [];
    for (;;) {
      const verdict = await checkUrl(url, policy, signal);
      if (verdict) {
        const where = redirects.length
          ? `redirect hop ${redirects.length} (${redirects.at(-1)} → ${url.href})`
          : url.href;
        return fail(
          verdict.blocked
            ? `Blocked ${where}: ${verdict.reason}. webfetch refuses private, loopback, ` +
              "link-local and cloud-metadata addresses (SSRF protection)."
            : `Cannot fetch ${where}: ${verdict.reason}.`,
          { url: start.href, refusedUrl: url.href, blocked: verdict.blocked },
        );
      }
      const res = await doFetch(url.href, {
        redirect: "manual",
        signal,
        headers: {
          "user-agent": USER_AGENT,
          accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5",
        },
      });
      if (!REDIRECT_STATUSES.has(res.status)) return await readPage(start, url, res, redirects);
      await res.body?.cancel();
      const loc = res.headers.get("location");
      if (!loc) return fail(`HTTP ${res.status} redirect from ${url.href} has no Location header.`);
      if (redirects.length >= MAX_REDIRECTS) {
        return fail(
          `Too many redirects: more than ${MAX_REDIRECTS} starting at ${start.href} ` +
            `(hop ${MAX_REDIRECTS + 1} would go from ${url.href} to ${loc}).`,
          // The hops followed, a count like a fetched page's (the text names them).
          { url: start.href, redirects: redirects.length },
        );
      }
      let next: URL | string;
      try {
        next = prepareUrl(new URL(loc, url).href, policy);
      } catch {
        next = `its Location ${JSON.stringify(loc)} is not a valid URL`;
      }
      if (typeof next === "string") return fail(`Refused the redirect from ${url.href}: ${next}`);
      redirects.push(url.href);
      url = next;
    }
  }

  function render(page: Page, cached: boolean, prompt: string | undefined): Result {
    const head = [
      `URL: ${page.finalUrl}${cached ? " (cached)" : ""}`,
      page.redirects.length ? `Redirected from: ${page.url} (${page.redirects.length} hops)` : "",
      `Content-Type: ${page.contentType || "unknown"} · ${page.bytes} bytes`,
      page.title ? `Title: ${page.title}` : "",
      prompt
        ? `Prompt: ${prompt}\n(Answer it from the page text below; webfetch does not summarise.)`
        : "",
    ].filter(Boolean).join("\n");
    const notes: string[] = [];
    if (page.bodyTruncated) {
      notes.push(`(the response body exceeded the ${mb(maxBody)} cap; only that much was read)`);
    }
    const budget = Math.max(0, maxResult - new TextEncoder().encode(head).length - 400);
    const cut = capUtf8(page.text, budget);
    if (cut.cut) {
      const total = new TextEncoder().encode(page.text).length;
      notes.push(
        `(truncated: showing the first ${kb(budget)} of ${kb(total)} of page text; ` +
          `results are capped at ${kb(maxResult)})`,
      );
    }
    const body = cut.text.trim() || "(the page has no readable text)";
    return ok(`${head}\n\n${body}${notes.length ? `\n\n${notes.join("\n")}` : ""}`, {
      url: page.url,
      finalUrl: page.finalUrl,
      status: page.status,
      contentType: page.contentType,
      bytes: page.bytes,
      bodyTruncated: page.bodyTruncated,
      truncated: cut.cut,
      redirects: page.redirects.length,
      cached,
    });
  }

  return defineTool<WebfetchArgs, ToolDetails<"webfetch">>({
    name: "webfetch",
    description: "Fetch a web page and return it as readable text (HTML converted, links kept " +
      "as 'text (url)'). https only; http:// is upgraded. Private, loopback, link-local and " +
      "cloud-metadata hosts are refused, also after redirects. Body read up to 2 MB, result " +
      "capped at 30 KB, pages cached for 15 minutes. `prompt` (optional) states what you are " +
      "looking for; it is echoed above the text, nothing is summarised.",
    args: obj({
      url: text("Absolute https:// URL of the page"),
      "prompt?": text("What you want to find on the page (optional)"),
    }),
    // Needs net (the tool worker grants it), but changes nothing local: approval-wise it is a
    // read, like read_file. The SSRF guard is what keeps it off the local network.
    kind: "read",
    // Net only: runs in a worker with network access and no file system, env or run.
    placement: "worker-net",
    async execute(args, ctx) {
      if (!args.url.trim()) {
        return fail("webfetch needs a non-empty `url` (an absolute https:// URL).");
      }
      const prompt = args.prompt?.trim() || undefined;
      const start = prepareUrl(args.url, policy);
      if (typeof start === "string") return fail(start);
      const hit = cache.get(start.href);
      if (hit) return render(hit, true, prompt);
      const t = withTimeout(ctx.signal, timeoutMs);
      try {
        const page = await load(start, t.signal);
        if ("isError" in page) return page;
        cache.set(start.href, page);
        return render(page, false, prompt);
      } catch (e) {
        const msg = describeFetchError(
          e,
          `fetching ${start.href}`,
          ctx.signal,
          t.timedOut(),
          timeoutMs,
        );
        return fail(msg, { url: start.href });
      } finally {
        t.clear();
      }
    },
  });
}

/** The production tool: default policy (nothing private, http upgraded, real DNS). */
export const webfetch: Tool = makeWebfetch();
