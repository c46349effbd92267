/** webfetch / websearch / SSRF guard, against in-process servers on 127.0.0.1 only. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import type { Tool, ToolContext, ToolResult } from "../tools/types.ts";
import { blockedHostReason, checkUrl, type FetchPolicy } from "../tools/web/ssrf.ts";
import { parseIPv4, parseIPv6, prepareUrl } from "../tools/web/ssrf.ts";
import { htmlToText } from "../tools/web/html.ts";
import { makeWebfetch, webfetch } from "../tools/web/webfetch.ts";
import { CITE_REMINDER, makeWebsearch } from "../tools/web/websearch.ts";

const ctx = (signal = new AbortController().signal): ToolContext => ({ workspace: ".", signal });
const get = (tool: Tool, url: string, signal?: AbortSignal) => tool.execute({ url }, ctx(signal));
function expectError(r: ToolResult, re: RegExp) {
  assert(r.isError, `expected an error, got: ${r.content}`);
  assertMatch(r.content, re);
}
const noDns: FetchPolicy = { resolve: (h) => Promise.reject(new Error(`unexpected DNS: ${h}`)) };
/** The test server is allowed explicitly; `evil.test` "resolves" to a private address. */
const local: FetchPolicy = {
  allowHosts: ["127.0.0.1"],
  upgradeHttp: false,
  resolve: (h) => h === "evil.test" ? Promise.resolve(["10.1.2.3"]) : noDns.resolve!(h),
};
type Handler = (req: Request) => Response | Promise<Response>;
async function withServer(handler: Handler, fn: (base: string) => Promise<void>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
const text = (body: BodyInit, type = "text/plain", status = 200) =>
  new Response(body, { status, headers: { "content-type": type } });
const redirect = (location: string) => new Response(null, { status: 302, headers: { location } });

const BLOCKED = `127.0.0.1 127.1 2130706433 0x7f.1 0x7f000001 017700000001 0177.0.0.1 127.0.0.1.
  %31%32%37.0.0.1 １２７.０.０.１ 0 0.0.0.0 10.1.2.3 100.64.0.1 100.100.100.200 169.254.169.254
  169.254.0.1 172.16.0.1 172.31.255.255 192.0.0.8 192.0.2.1 192.168.1.1 198.18.0.1 198.19.255.255
  198.51.100.7 203.0.113.9 224.0.0.1 239.255.255.250 240.0.0.1 255.255.255.255 [::] [::1]
  [0:0:0:0:0:0:0:1] [fc00::1] [fd00:ec2::254] [fe80::1] [febf::1] [ff02::1] [::ffff:127.0.0.1]
  [::ffff:7f00:1] [::ffff:169.254.169.254] [::127.0.0.1] [::10.0.0.1] [64:ff9b::127.0.0.1]
  [64:ff9b::a00:1] [2001:db8::1] localhost LOCALHOST. app.localhost metadata.google.internal
  db.internal printer.local`.split(/\s+/);
const ALLOWED = `1.1.1.1 8.8.8.8 9.255.255.255 11.0.0.1 100.63.255.255 100.128.0.1 126.255.255.255
  128.0.0.1 169.253.255.255 169.255.0.1 172.15.255.255 172.32.0.1 192.167.255.255 192.169.0.1
  198.17.255.255 198.20.0.1 223.255.255.255 [2606:4700:4700::1111] [2001:db9::1] [::ffff:8.8.8.8]
  [64:ff9b::808:808]`.split(/\s+/);

Deno.test("ssrf: raw numeric and IPv6 forms parse like the URL parser", () => {
  for (const raw of ["0x7f.1", "127.1", "2130706433", "0177.0.0.1", "0x7f.0.0.1", "127.0.0.1."]) {
    assertEquals(parseIPv4(raw), 0x7f000001, raw);
  }
  for (const bad of ["256.1.1.1", "1.2.3.4.5", "08.1.1.1", "1..1", "example.com", "0x1g"]) {
    assertEquals(parseIPv4(bad), null, bad);
  }
  assertEquals(parseIPv6("::ffff:127.0.0.1"), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  assertEquals(parseIPv6("[fe80::1%eth0]"), [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
  for (
    const bad of ["1::2::3", "12345::", "1:2:3:4:5:6:7", "::ffff:300.1.1.1", "1:2:3:4:5:6:7:8:9"]
  ) {
    assertEquals(parseIPv6(bad), null, bad);
  }
  assertMatch(blockedHostReason("0x7f.1")!, /loopback/);
  assertMatch(blockedHostReason("[::ffff:a00:1]")!, /IPv4-mapped form of 10\.0\.0\.1, a private/);
});

Deno.test("ssrf: table of blocked and allowed hosts (no DNS for literals)", async () => {
  for (const host of BLOCKED) {
    const url = prepareUrl(`http://${host}/x`, noDns);
    assert(typeof url !== "string", `${host}: ${url}`);
    assert((await checkUrl(url, noDns))?.blocked, `${host} must be blocked`);
  }
  for (const host of ALLOWED) {
    assertEquals(await checkUrl(prepareUrl(`http://${host}/`) as URL, noDns), null, host);
  }
  assertMatch((await checkUrl(new URL("http://169.254.169.254/"), noDns))!.reason, /metadata/);
});

Deno.test("ssrf: a name is blocked when ANY resolved address is private", async () => {
  const via = (addrs: string[]): FetchPolicy => ({ resolve: () => Promise.resolve(addrs) });
  const url = new URL("https://example.com/");
  assertEquals(await checkUrl(url, via(["93.184.216.34", "2606:2800:220:1::1"])), null);
  const v = await checkUrl(url, via(["93.184.216.34", "10.0.0.7"]));
  assert(v?.blocked);
  assertMatch(v.reason, /example\.com resolves to 10\.0\.0\.7, a private address/);
  for (const a of ["fd00:ec2::254", "::ffff:127.0.0.1", "169.254.169.254", "garbage"]) {
    assert((await checkUrl(url, via([a])))?.blocked, a);
  }
  assertEquals((await checkUrl(url, via([])))?.blocked, false);
  const servfail = await checkUrl(url, { resolve: () => Promise.reject(new Error("SERVFAIL")) });
  assertMatch(servfail!.reason, /cannot resolve example\.com: SERVFAIL/);
  assertEquals(await checkUrl(new URL("http://127.0.0.1:1/"), { allowHosts: ["127.0.0.1"] }), null);
  assert((await checkUrl(new URL("http://127.0.0.2/"), { allowHosts: ["127.0.0.1"] }))?.blocked);
});

const RICH = `<html><head><title>T &amp; U</title><style>p{color:red}</style></head><body>
  <script>var secret = "<p>x</p>";</script><h2>Sub  head</h2><p>Fish &amp; Chips&nbsp;&copy;
  &#8212; &#x263A;</p><ul><li>one</li><li>two <b>bold</b></li></ul><p>See
  <a title="a>b" href="/about?x=1&amp;y=2">about</a>.</p><pre>a &lt;b&gt;
  indented</pre><noscript>js</noscript><svg><text>svg</text></svg>x<br>y</body></html>`;
const richText = (origin: string) =>
  "## Sub head\n\nFish & Chips © — ☺\n\n- one\n- two bold\n\n" +
  `See about (${origin}/about?x=1&y=2).\n\na <b>\n  indented\n\nx\ny`;

Deno.test("html: readable text with headings, lists, links, pre and entities", () => {
  const { title, text } = htmlToText(RICH, "https://site.test/dir/");
  assertEquals([title, text], ["T & U", richText("https://site.test")]);
});

Deno.test("webfetch: HTML page becomes text; bad args and the default policy refuse", async () => {
  let hits = 0;
  await withServer(() => (hits++, text(RICH, "text/html; charset=utf-8")), async (base) => {
    const r = await makeWebfetch(local).execute({ url: `${base}/page`, prompt: "heading?" }, ctx());
    assertEquals(r.isError, false, r.content);
    assertMatch(r.content, /^URL: http:\/\/127\.0\.0\.1:\d+\/page\n/);
    assertMatch(r.content, /\nTitle: T & U\nPrompt: heading\?\n/);
    assert(r.content.endsWith(`\n\n${richText(base)}`), r.content);
    assertEquals([r.meta?.bodyTruncated, r.meta?.truncated, r.meta?.cached], [false, false, false]);
    const port = new URL(base).port;
    for (const url of [base, `http://localhost:${port}/`, `http://2130706433:${port}/`]) {
      expectError(await get(webfetch, url), /^Blocked https:\/\//); // default policy: upgraded
    }
    assertEquals(hits, 1);
  });
  // deno-fmt-ignore
  const bad = [{}, { url: "" }, { url: "https://x.test", extra: 1 }, { url: "ftp://x/" },
    { url: "file:///etc/passwd" }, { url: "not a url" }, { url: "https://u:p@x.test/" }];
  for (const args of bad) {
    assert((await webfetch.execute(args, ctx())).isError, JSON.stringify(args));
  }
});

Deno.test("webfetch: redirects — 5 hops followed, 6th refused, every hop SSRF-checked", async () => {
  let requests = 0;
  const handler: Handler = (req) => {
    requests++;
    const u = new URL(req.url);
    const n = /^\/r\/(\d+)$/.exec(u.pathname)?.[1];
    if (n !== undefined) return redirect(n === "0" ? "/done" : `/r/${Number(n) - 1}`);
    const to: Record<string, string> = {
      "/meta": "http://169.254.169.254/latest/meta-data/",
      "/private": "http://10.0.0.1/admin",
      "/mapped": "http://[::ffff:127.0.0.1]/",
      "/evil": `http://evil.test:${u.port}/`,
      "/file": "file:///etc/passwd",
    };
    return to[u.pathname] ? redirect(to[u.pathname]) : text(`arrived at ${u.pathname}`);
  };
  await withServer(handler, async (base) => {
    const wf = makeWebfetch(local, { timeoutMs: 5000 });
    const five = await get(wf, `${base}/r/4`);
    assertMatch(five.content, /arrived at \/done$/);
    assertEquals([five.isError, five.meta?.redirects], [false, 5]);
    requests = 0;
    expectError(await get(wf, `${base}/r/5`), /^Too many redirects: more than 5/);
    assertEquals(requests, 6);
    const cases: [string, RegExp][] = [
      ["/meta", /→ http:\/\/169\.254\.169\.254\/latest\/meta-data\/\): .*cloud metadata/],
      ["/private", /10\.0\.0\.1 is a private address/],
      ["/mapped", /IPv4-mapped form of 127\.0\.0\.1, a loopback/],
      ["/evil", /evil\.test resolves to 10\.1\.2\.3/],
    ];
    for (const [path, re] of cases) {
      const r = await get(wf, base + path);
      expectError(r, /^Blocked redirect hop 1 /);
      assertMatch(r.content, re);
    }
    expectError(await get(wf, `${base}/file`), /^Refused the redirect from .*Only https/);
  });
});

Deno.test("webfetch: body cap, status errors and binary refusal", async () => {
  const handler: Handler = (req) => {
    const p = new URL(req.url).pathname;
    if (p === "/big") return text(`${"x".repeat(1023)}\n`.repeat(3 * 1024));
    if (p === "/png") return text(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0]), "image/png");
    if (p === "/nul") return new Response(new Uint8Array([0x41, 0, 0x42]));
    return text("<p>nothing here</p>", "text/html", 404);
  };
  await withServer(handler, async (base) => {
    const wf = makeWebfetch(local);
    const big = await get(wf, `${base}/big`);
    assertEquals([big.isError, big.meta?.bytes, big.meta?.bodyTruncated], [false, 2 ** 21, true]);
    assertMatch(big.content, /exceeded the 2 MB cap/);
    assertMatch(big.content, /\(truncated: showing the first [\d.]+ KB of 2048 KB of page text/);
    assert(new TextEncoder().encode(big.content).length <= 30 * 1024);
    expectError(await get(wf, `${base}/png`), /^Not text: .* returned image\/png/);
    expectError(await get(wf, `${base}/nul`), /^Not text: .*looks binary/);
    expectError(await get(wf, `${base}/missing`), /^HTTP 404 Not Found from .*nothing here/);
  });
});

Deno.test("webfetch: slow headers or body time out; a stopped run says so", async () => {
  const release = new AbortController(); // ends the server's waits before shutdown
  const handler: Handler = async (req) => {
    if (!req.url.endsWith("/trickle")) return await sleep(5000, release.signal), text("");
    return text(
      new ReadableStream<Uint8Array>({
        async start(c) {
          c.enqueue(new TextEncoder().encode("first part "));
          await sleep(5000, release.signal);
          c.error(new Error("released"));
        },
      }),
    );
  };
  await withServer(handler, async (base) => {
    try {
      const t0 = Date.now();
      for (const path of ["/slow", "/trickle"]) {
        const r = await get(makeWebfetch(local, { timeoutMs: 200 }), base + path);
        expectError(r, /^Timed out after 0\.2 s fetching http:\/\/127\.0\.0\.1/);
      }
      assert(Date.now() - t0 < 2500, "timeouts must not wait for the server");
      const stop = new AbortController();
      setTimeout(() => stop.abort(), 100);
      const r = await get(makeWebfetch(local), `${base}/slow2`, stop.signal);
      expectError(r, /^Stopped fetching .*the run was aborted/);
    } finally {
      release.abort();
    }
  });
});

Deno.test("webfetch: cache — hit says (cached), expires after 15 min, LRU of 50", async () => {
  let hits = 0;
  let clock = 0;
  await withServer((req) => (hits++, text(`page ${new URL(req.url).pathname}`)), async (base) => {
    const wf = makeWebfetch(local, { now: () => clock });
    assert(!(await get(wf, `${base}/a`)).content.includes("(cached)"));
    const again = await get(wf, `${base}/a#part`);
    assertEquals([hits, again.meta?.cached], [1, true]);
    assertMatch(again.content, /^URL: \S+\/a \(cached\)\n[\s\S]*page \/a$/);
    clock += 15 * 60_000;
    assertEquals((await get(wf, `${base}/a`)).meta?.cached, false);
    for (let i = 0; i < 50; i++) await get(wf, `${base}/p${i}`);
    hits = 0;
    assertEquals((await get(wf, `${base}/p0`)).meta?.cached, true);
    assertEquals((await get(wf, `${base}/a`)).meta?.cached, false);
    assertEquals(hits, 1);
  });
});

Deno.test("webfetch: default policy fetches https, also after an http redirect", async () => {
  const seen: string[] = [];
  const fakeFetch = ((input: string | URL | Request, init?: RequestInit) => {
    seen.push(`${init?.redirect} ${input}`);
    return Promise.resolve(seen.length === 1 ? redirect("http://example.org/next") : text("hello"));
  }) as typeof fetch;
  const policy = { resolve: () => Promise.resolve(["93.184.216.34"]) };
  const r = await get(makeWebfetch(policy, { fetch: fakeFetch }), "http://example.com/start");
  assertEquals(r.isError, false, r.content);
  assertEquals(seen, ["manual https://example.com/start", "manual https://example.org/next"]);
});

const DDG = `<!DOCTYPE html><html><body><div class="results" id="links">
<div class="result results_links results_links_deep result--ad"><h2 class="result__title">
<a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=shop.test&amp;u3=x">Buy now</a>
</h2><a class="result__snippet" href="https://duckduckgo.com/y.js?x=1">Sponsored</a></div>
<div class="result results_links results_links_deep web-result "><div class="result__body">
<h2 class="result__title"><a rel="nofollow" class="result__a"
 href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fdocs.example.com%2Fguide%3Fa%3D1%26b%3D2&amp;rut=r1">
Deno <b>Guide</b> &amp; Tips</a></h2><a class="result__snippet" href="//duckduckgo.com/l/?uddg=x">
Learn <b>Deno</b> fast.</a></div></div>
<div class='web-result result'><h2><a href='//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2F'
 data-x="a>b" class='result__a'>Example Domain</a></h2>
<div class="result__snippet">For use in examples.</div></div>
<div class="result"><a class="result__a" href="https://other.org/page">Other page</a>
<a class="result__snippet">Other snippet</a></div>
<div class="result"><a class="result__a" href="/l/?uddg=https%3A%2F%2Fnotexample.com%2F">Not</a></div>
<div class="result"><a class="result__a" href="/l/?uddg=https%3A%2F%2Fwww.blocked.net%2Fx">Blocked</a>
<a class="result__snippet">Blocked snippet</a></div></div></body></html>`;
const PAGES: Record<string, () => Response> = {
  empty: () => text(`<div class="results"><div class="no-results">No results.</div></div>`),
  boom: () => text("oops", "text/plain", 500),
  robot: () => text(`<html><form id="challenge-form">Are you a robot?</form></html>`),
};
type Search = (args: Record<string, unknown>) => Promise<ToolResult>;
async function withSearch(fn: (search: Search, queries: string[]) => Promise<void>) {
  const queries: string[] = [];
  const serve: Handler = (req) => {
    const q = new URL(req.url).searchParams.get("q") ?? "";
    queries.push(q);
    return PAGES[q]?.() ?? text(DDG, "text/html; charset=utf-8");
  };
  await withServer(serve, (base) => {
    const tool = makeWebsearch({ baseUrl: `${base}/html/` });
    return fn((args) => tool.execute(args, ctx()), queries);
  });
}
const ALL = [
  "1. Deno Guide & Tips — https://docs.example.com/guide?a=1&b=2\n   Learn Deno fast.",
  "2. Example Domain — https://example.com/\n   For use in examples.",
  "3. Other page — https://other.org/page\n   Other snippet",
  "4. Not — https://notexample.com/",
  "5. Blocked — https://www.blocked.net/x\n   Blocked snippet",
];
const renumber = (items: string[]) => items.map((r, i) => r.replace(/^\d+/, String(i + 1)));
const items = (r: ToolResult) => r.content.split("\n\n").filter((p) => /^\d+\. /.test(p));

Deno.test("websearch: parses results, drops the ad, reminds to cite", async () => {
  await withSearch(async (search, queries) => {
    const r = await search({ query: "deno guide" });
    assertEquals(queries, ["deno guide"]);
    assertEquals(r.content, `Results for "deno guide":\n\n${ALL.join("\n\n")}\n\n${CITE_REMINDER}`);
    assertEquals([r.isError, r.meta?.ads, r.meta?.count], [false, 1, 5]);
    assertEquals(items(await search({ query: "q", limit: 2 })), ALL.slice(0, 2));
  });
});

Deno.test("websearch: allowed/blocked domains match the domain and its subdomains", async () => {
  await withSearch(async (search) => {
    const only = await search({ query: "q", allowed_domains: ["example.com"] });
    assertEquals(items(only), ALL.slice(0, 2));
    assertMatch(only.content, /\n\(3 result\(s\) removed by domain filters\.\)\nCite the sources/);
    const not = await search({
      query: "q",
      blocked_domains: ["http://Blocked.net/", "*.example.com"],
    });
    assertEquals(items(not), renumber(ALL.slice(2, 4)));
    const none = await search({ query: "q", allowed_domains: ["nowhere.test"], limit: 25 });
    assertEquals([none.isError, none.content], [
      false,
      'No results for "q" after domain filters ' +
      "(5 result(s) were removed by allowed_domains/blocked_domains).",
    ]);
  });
});

Deno.test("websearch: no results, HTTP errors, bot pages and bad args are reported honestly", async () => {
  await withSearch(async (search) => {
    const empty = await search({ query: "empty" });
    assertEquals([empty.isError, empty.content], [false, 'No results for "empty".']);
    expectError(await search({ query: "boom" }), /^Search failed: HTTP 500 .*No results were/);
    expectError(await search({ query: "robot" }), /no results to show/);
    // deno-fmt-ignore
    const bad = [{}, { query: " " }, { query: "q", limit: 26 }, { query: "q", limit: 0 },
      { query: "q", limit: 2.5 }, { query: "q", allowed_domains: "x.com" },
      { query: "q", blocked_domains: ["a b"] }, { query: "q", extra: true }];
    for (const args of bad) assert((await search(args)).isError, JSON.stringify(args));
  });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 }); // a port nobody serves
  const port = listener.addr.port;
  listener.close();
  const down = await makeWebsearch({ baseUrl: `http://127.0.0.1:${port}/` }).execute(
    { query: "q" },
    ctx(),
  );
  expectError(down, /^Network error searching for "q"/);
});
