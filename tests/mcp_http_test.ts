/**
 * HTTP MCP servers that misbehave (no npm needed): the configured headers are sent,
 * a 401 or a non-MCP endpoint fails the handshake with the server's answer, and a
 * server that never answers is cut at the server's timeout — each phase-tagged.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { McpManager } from "../server/mcp/manager.ts";
import type { McpServerConfig } from "../protocol/mcp_servers.ts";

function fakeServer(answer: (req: Request) => Response | Promise<Response>) {
  const seen: Headers[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    seen.push(req.headers);
    return answer(req);
  });
  return { url: `http://127.0.0.1:${server.addr.port}/mcp`, seen, close: () => server.shutdown() };
}

const http = (url: string, extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  id: "web",
  enabled: true,
  transport: "http",
  command: "",
  args: [],
  url,
  ...extra,
});

async function tested(config: McpServerConfig) {
  const home = await Deno.makeTempDir();
  const m = new McpManager({ home, envPolicy: () => ({}), publish: () => {} });
  try {
    return await m.test(config);
  } finally {
    await m.close();
  }
}

Deno.test(
  "headers are sent; a 401 fails the handshake with the server's answer",
  async () => {
    const fake = fakeServer(() => new Response("bad token", { status: 401 }));
    try {
      const r = await tested(http(fake.url, { headers: { Authorization: "Bearer t0ken" } }));
      assertEquals([r.ok, r.phase], [false, "initialize"]);
      assertMatch(r.error ?? "", /HTTP 401/);
      assertEquals(fake.seen[0].get("authorization"), "Bearer t0ken");
    } finally {
      await fake.close();
    }
  },
);

Deno.test("a URL that is no MCP server, and one that never answers (timeout)", async () => {
  const html = fakeServer(() =>
    new Response("<html>hi</html>", { headers: { "content-type": "text/html" } })
  );
  let release = () => {};
  const never = new Promise<Response>((r) => release = () => r(new Response("late")));
  const slow = fakeServer(() => never);
  try {
    const r = await tested(http(html.url));
    assertEquals([r.ok, r.phase], [false, "initialize"]);
    assert(r.error, "an error is given");
    const t0 = Date.now();
    const s = await tested(http(slow.url, { timeoutMs: 1000 }));
    assertEquals([s.ok, s.phase], [false, "initialize"]);
    assertMatch(s.error ?? "", /timed out|timeout/i);
    assert(Date.now() - t0 < 8000, "cut at the timeout");
  } finally {
    await html.close();
    release();
    await slow.close();
  }
});

Deno.test("config problems are the config phase, before anything runs", async () => {
  const r = await tested(http("ftp://x"));
  assertEquals([r.ok, r.phase], [false, "config"]);
  assertMatch(r.error ?? "", /http\(s\) URL/);
});

Deno.test(
  "a stdio server flooding stdout without a message end is stopped with the reason",
  async () => {
    const r = await tested({
      id: "flood",
      enabled: true,
      transport: "stdio",
      command: "/bin/sh",
      args: ["-c", "head -c 12000000 /dev/zero | tr '\\0' a; sleep 30"],
      timeoutMs: 20_000,
    });
    assertEquals([r.ok, r.phase], [false, "initialize"]);
    assertMatch(r.error ?? "", /stopped: it sent more than 10 MB without a message end/);
  },
);

Deno.test(
  "a server slow to start does not hold the turn up; its tools join a later turn",
  async () => {
    const { saveServers } = await import("../server/mcp/config.ts");
    const home = await Deno.makeTempDir();
    const events: { kind: string }[] = [];
    const m = new McpManager({
      home,
      envPolicy: () => ({}),
      publish: (e) => events.push(e),
      turnWaitMs: 300,
    });
    try {
      // Never answers the handshake (it only sleeps), with a long timeout of its own.
      await saveServers(home, [{
        id: "sleepy",
        enabled: true,
        transport: "stdio",
        command: "/bin/sh",
        args: ["-c", "sleep 30"],
        timeoutMs: 60_000,
      }]);
      const t0 = Date.now();
      assertEquals(await m.toolsForTurn(), []);
      assert(Date.now() - t0 < 3000, `waited ${Date.now() - t0} ms`);
      assertEquals((await m.overview()).servers[0].state, "connecting");
      assertEquals(events.filter((e) => e.kind === "failure"), [], "not a failure (yet)");
    } finally {
      await m.close();
    }
  },
);
