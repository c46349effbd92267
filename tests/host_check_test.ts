/**
 * DNS rebinding: the server answers only to the names it is really reached by. Unit
 * rules of `HostPolicy`, then attacks on a real server with the valid token — a forged
 * `Host` (a rebound attacker name) on the app, `/ws`, `/mcp` and the API, a foreign
 * `Origin` on `/mcp`, and a name allowed through `REINAGENT_ALLOWED_HOSTS`.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { HostPolicy, parseHost, splitHostList } from "../server/http/host_check.ts";
import { startTestServer } from "./helpers/server.ts";

const policy = (bindHost: string, extra: string[] = [], port = 4567) =>
  new HostPolicy({
    bindHost,
    port: () => port,
    tls: false,
    extra: () => extra,
    interfaces: () => ["127.0.0.1", "192.168.1.20", "fe80::1"],
    hostname: () => "desk",
  });

Deno.test("host parsing: names, ports, IPv6 literals; garbage is null", () => {
  assertEquals(parseHost("Example.COM.:8080"), { name: "example.com", port: 8080 });
  assertEquals(parseHost("[::1]:80"), { name: "::1", port: 80 });
  assertEquals(parseHost("localhost"), { name: "localhost", port: null });
  assertEquals(parseHost("evil.example/x"), null);
  assertEquals(parseHost("a:99999"), null);
  assertEquals(parseHost("user@host"), null);
  assertEquals(splitHostList(" a.example, b.example  c "), ["a.example", "b.example", "c"]);
});

Deno.test("loopback bind: loopback names on our port only", () => {
  const p = policy("127.0.0.1");
  for (const ok of ["127.0.0.1:4567", "localhost:4567", "[::1]:4567", "LOCALHOST:4567"]) {
    assert(p.allows(ok), ok);
  }
  for (
    const bad of [
      "evil.example:4567", // a rebound attacker name
      "127.0.0.1:4568", // another port
      "127.0.0.1", // port 80 implied
      "192.168.1.20:4567", // not listened on
      "localhost.evil.example:4567",
      "",
    ]
  ) assert(!p.allows(bad), bad);
  assert(!p.allows(null));
});

Deno.test("wildcard bind: interface addresses and this computer's name; others refused", () => {
  const p = policy("0.0.0.0");
  for (const ok of ["192.168.1.20:4567", "127.0.0.1:4567", "desk:4567", "desk.local:4567"]) {
    assert(p.allows(ok), ok);
  }
  assert(!p.allows("10.9.9.9:4567"));
  assert(!p.allows("evil.example:4567"));
  assert(!p.allows("desk.evil.example:4567"));
});

Deno.test("configured names: exact, with or without port, and *.suffix", () => {
  const p = policy("127.0.0.1", ["agent.example.com", "box.ts.net:443", "*.lan.example"]);
  assert(p.allows("agent.example.com")); // behind a proxy: its own port
  assert(p.allows("agent.example.com:8443"));
  assert(p.allows("box.ts.net:443"));
  assert(!p.allows("box.ts.net:444"));
  assert(p.allows("pc.lan.example:4567"));
  assert(!p.allows("lan.example:4567"), "the bare domain is not below itself");
  assert(!p.allows("evilagent.example.com"));
  assert(!p.allows("*.lan.example"), "a pattern is not a host");
});

/** One HTTP/1.1 request over a raw socket: `fetch` always sends the real Host. */
async function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = "",
): Promise<{ status: number; text: string }> {
  const u = new URL(base);
  const conn = await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
  const bytes = new TextEncoder().encode(body);
  const head = [
    `${method} ${path} HTTP/1.1`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ...(bytes.length ? [`content-length: ${bytes.length}`] : []),
    ...("connection" in headers ? [] : ["connection: close"]),
    "",
    "",
  ].join("\r\n");
  await conn.write(new TextEncoder().encode(head));
  if (bytes.length) await conn.write(bytes);
  let text = "";
  const dec = new TextDecoder();
  for await (const chunk of conn.readable) {
    text += dec.decode(chunk, { stream: true });
    const end = text.indexOf("\r\n\r\n");
    if (end < 0) continue;
    // An event stream or an upgrade stays open: for those the status line is enough.
    const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
    if (!length || text.length - end - 4 >= Number(length[1])) break;
  }
  try {
    conn.close();
  } catch { /* closed by the reader */ }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text };
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
});

Deno.test("attack: a rebound name with the valid token is refused everywhere", async () => {
  const s = await startTestServer({ env: { REINAGENT_ALLOWED_HOSTS: "agent.example.com" } });
  try {
    const port = new URL(s.base).port;
    const real = `127.0.0.1:${port}`;
    const evil = `evil.example:${port}`;
    const bearer = { authorization: `Bearer ${s.token}` };
    const mcp = {
      ...bearer,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };

    // The valid token on the real name works, so the refusals below are about the name.
    assertEquals((await raw(s.base, "GET", "/api/health", { host: real, ...bearer })).status, 200);
    assertEquals((await raw(s.base, "POST", "/mcp", { host: real, ...mcp }, INIT)).status, 200);

    for (
      const [method, path, extra, body] of [
        ["GET", "/api/health", bearer, ""],
        ["GET", `/?token=${encodeURIComponent(s.token)}`, {}, ""],
        ["POST", "/mcp", { ...mcp, origin: `http://${evil}` }, INIT],
        ["POST", "/mcp", mcp, INIT],
        [
          "POST",
          "/api/pair?token=" + encodeURIComponent(s.token),
          { origin: `http://${evil}` },
          "",
        ],
        [
          "GET",
          "/ws",
          {
            ...bearer,
            origin: `http://${evil}`,
            upgrade: "websocket",
            connection: "Upgrade",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
            "sec-websocket-version": "13",
          },
          "",
        ],
      ] as const
    ) {
      const r = await raw(s.base, method, path, { host: evil, ...extra }, body);
      assertEquals(r.status, 403, `${method} ${path} with Host ${evil}: ${r.text}`);
      assert(r.text.includes("forbidden_host"), r.text);
      assert(!r.text.includes(s.token), "the refusal never echoes the token");
    }
    // The real name with a foreign Origin: refused on /mcp (a page of another site).
    const foreign = await raw(s.base, "POST", "/mcp", {
      host: real,
      origin: "http://evil.example",
      ...mcp,
    }, INIT);
    assertEquals(foreign.status, 403);
    // An opaque origin (sandboxed frame, file://) is no origin of ours either.
    const opaque = await raw(s.base, "POST", "/mcp", { host: real, origin: "null", ...mcp }, INIT);
    assertEquals(opaque.status, 403);
    // A name the user configured is answered.
    const named = await raw(s.base, "GET", "/api/health", { host: "agent.example.com", ...bearer });
    assertEquals(named.status, 200);
  } finally {
    await s.stop();
  }
});
