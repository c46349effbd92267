/**
 * `/mcp` sessions (server/mcp/server/http_endpoint.ts) in-process: a request that does
 * not initialize leaves nothing behind, the number of sessions is bounded (the idlest
 * one makes room), idle sessions are closed, and closing the app ends them all.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { createServices } from "../server/services.ts";
import { ensureHome } from "../server/home.ts";
import { MCP_LIMITS, McpHttpEndpoint } from "../server/mcp/server/http_endpoint.ts";
import { parseCli } from "../server/cli/args.ts";
import { clientWords } from "../protocol/index.ts";
import { clientText } from "../ui/components/format.js";
import { lang } from "../ui/state/prefs.js";
import { loadLang } from "../ui/i18n/index.js";

// The Chinese strings load on demand, as in the app.
await loadLang("zh-CN");

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

const initialize = () =>
  new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "0" },
      },
    }),
  });

const listTools = (sid: string) =>
  new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { ...HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
  });

Deno.test("mcp sessions: bounded, idle ones closed, nothing left by a request that does not initialize", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-mcp-sessions-" });
  await ensureHome(home);
  let clock = 1_000_000;
  const services = createServices({ home, now: () => clock });
  const ep = new McpHttpEndpoint(services, () => clock);
  const open = async () => {
    const res = await ep.handle(initialize(), "127.0.0.1");
    assertEquals(res.status, 200);
    await res.body?.cancel();
    clock += 1;
    return res.headers.get("mcp-session-id")!;
  };
  try {
    const hubClients = services.hub.clientCount;
    const noInit = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    const stray = await ep.handle(noInit, "127.0.0.1");
    assertEquals(stray.status, 400);
    await stray.body?.cancel();
    assertEquals(ep.sessionCount, 0);
    assertEquals(services.hub.clientCount, hubClients, "no hub client left behind");

    const first = await open();
    const ids = [first];
    for (let i = 1; i < MCP_LIMITS.sessions; i++) ids.push(await open());
    assertEquals(ep.sessionCount, MCP_LIMITS.sessions);
    // One more: the idlest (the first) is closed to make room.
    const extra = await open();
    assertEquals(ep.sessionCount, MCP_LIMITS.sessions);
    const gone = await ep.handle(listTools(first), "127.0.0.1");
    assertEquals(gone.status, 404);
    await gone.body?.cancel();
    const alive = await ep.handle(listTools(extra), "127.0.0.1");
    assertEquals(alive.status, 200);
    assert((await alive.text()).includes("wait_for_task"));

    // Idle past the limit: closed on the next request.
    clock += MCP_LIMITS.idleMs + 1;
    const late = await ep.handle(listTools(ids[5]), "127.0.0.1");
    assertEquals(late.status, 404);
    await late.body?.cancel();
    assertEquals(ep.sessionCount, 0);
    assertEquals(services.hub.clientCount, hubClients);

    // DELETE ends a session (what a client does when it is done).
    const last = await open();
    const del = await ep.handle(
      new Request("http://127.0.0.1/mcp", {
        method: "DELETE",
        headers: { "mcp-session-id": last, "mcp-protocol-version": "2025-06-18" },
      }),
      "127.0.0.1",
    );
    assertEquals(del.status, 200);
    await del.body?.cancel();
    assertEquals(ep.sessionCount, 0);
    assertEquals(services.hub.clientCount, hubClients);

    await open();
    await ep.closeAll();
    assertEquals(ep.sessionCount, 0);
  } finally {
    await ep.closeAll();
    await services.runs?.stopAll();
    services.hub.close();
    services.store.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("mcp serve: strict arguments", () => {
  assertEquals(parseCli(["mcp", "serve", "--home", "/tmp/x"]), {
    command: { kind: "mcp-serve", home: "/tmp/x" },
  });
  assertEquals(parseCli(["mcp", "serve"]), { command: { kind: "mcp-serve" } });
  assertEquals(parseCli(["mcp", "serve", "extra"]), {
    error: 'mcp serve takes no arguments, got "extra"',
  });
  assert("error" in parseCli(["mcp", "serve", "--port", "1"]));
  assertEquals(parseCli(["mcp"]), {
    error: "mcp needs a command: serve, add, list, remove, test, login, logout",
  });
});

Deno.test("mcp client words: safety notices name the MCP client, in both languages", () => {
  const who = { kind: "mcp", browser: "claude-code", os: "", ip: "127.0.0.1" } as const;
  assertEquals(clientWords(who), "an MCP client (claude-code) from 127.0.0.1");
  const before = lang.value;
  try {
    lang.value = "en-US";
    assertEquals(clientText(who), "MCP client (claude-code)");
    lang.value = "zh-CN";
    assertEquals(clientText(who, true), "MCP 客户端（claude-code）（来自 127.0.0.1）");
  } finally {
    lang.value = before;
  }
});
