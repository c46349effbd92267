/**
 * Interop with real MCP servers from npm (server-everything over stdio, streamable HTTP
 * and legacy SSE; server-filesystem over stdio), through the same manager, pool and
 * tool definitions the agent uses: list tools with their real schemas, call with the
 * required arguments, invalid calls' errors surfaced, a killed server's clear error
 * and the reconnect on next use, the environment policy, process-group cleanup.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  everythingHttp,
  everythingStdio,
  filesystemStdio,
  mcpPackagesAvailable,
} from "./helpers/mcp_servers.ts";
import { McpManager } from "../server/mcp/manager.ts";
import { saveServers } from "../server/mcp/config.ts";
import type { McpEvent, McpServerConfig } from "../protocol/mcp_servers.ts";
import type { Tool, ToolContext } from "../tools/types.ts";
import { processAlive } from "../tools/exec/process.ts";
import type { DenoStdioTransport } from "../server/mcp/stdio_transport.ts";
import { McpConnection } from "../server/mcp/connection.ts";

const available = await mcpPackagesAvailable();
const opts = { ignore: !available };

async function managerWith(servers: McpServerConfig[]) {
  const home = await Deno.makeTempDir({ prefix: "ra-mcp-" });
  await saveServers(home, servers);
  const events: McpEvent[] = [];
  const manager = new McpManager({
    home,
    envPolicy: () => ({ providerNames: ["FAKE_PROVIDER_VAR"] }),
    publish: (e) => events.push(e),
  });
  return { home, manager, events };
}

const ctx = (): ToolContext => ({ workspace: "/tmp", signal: new AbortController().signal });
const byName = (tools: Tool[], name: string) => {
  const t = tools.find((x) => x.name === name);
  assert(t, `${name} in ${tools.map((x) => x.name).join(", ")}`);
  return t;
};
const pidOf = (m: McpManager, id: string) =>
  (m.pool.peek(id) as unknown as { stdio: DenoStdioTransport }).stdio.pid!;

Deno.test(
  "everything over stdio: real schema, a call, invalid calls, kill → clear error → reconnect",
  opts,
  async () => {
    const { manager } = await managerWith([everythingStdio()]);
    try {
      const tools = await manager.toolsForTurn();
      const echo = byName(tools, "mcp__everything__echo");
      assertEquals(echo.kind, "write");
      assertEquals(echo.parameters.required as string[], ["message"]);
      assert(echo.description.includes("Echo"));

      const r = await echo.execute({ message: "hello" }, ctx());
      assertEquals(r.isError, false);
      assertEquals(r.content, "Echo: hello");
      assertEquals((r.meta?.mcp as { server: string }).server, "everything");

      // Our validator (the shared tool-definition path) rejects before the server sees it.
      const bad = echo.parse({});
      assert(!bad.ok);
      assertMatch(bad.error, /args\.message is required/);
      // The server's own refusal reaches the model as an error.
      const sum = byName(tools, "mcp__everything__get-sum");
      const refused = await sum.run({ a: "x", b: 2 }, ctx());
      assertEquals(refused.isError, true);
      assertMatch(refused.content, /Invalid|invalid|expected/);

      // Structured content, images and resource links reach the card.
      const img = await byName(tools, "mcp__everything__get-tiny-image").execute({}, ctx());
      const mcp = img.meta?.mcp as { images: { mimeType: string }[] };
      assertEquals(mcp.images.length, 1);
      assertMatch(img.content, /\[image image\/png, \d+ bytes\]/);
      const sc = await byName(tools, "mcp__everything__get-structured-content")
        .execute({ location: "New York" }, ctx());
      assert((sc.meta?.mcp as { structured: string | null }).structured, "structured content kept");
      const links = await byName(tools, "mcp__everything__get-resource-links")
        .execute({ count: 2 }, ctx());
      assertEquals((links.meta?.mcp as { links: unknown[] }).links.length, 2);

      // The pool reuses the connection across turns.
      const pid = pidOf(manager, "everything");
      await manager.toolsForTurn();
      assertEquals(pidOf(manager, "everything"), pid);

      // Killed: the call says so clearly, the next use reconnects.
      Deno.kill(-pid, "SIGKILL");
      await new Promise((r) => setTimeout(r, 300));
      const dead = await echo.execute({ message: "anyone?" }, ctx());
      assertEquals(dead.isError, true, dead.content);
      assertMatch(dead.content, /killed by SIGKILL; it is started again on the next call/);
      const again = await echo.execute({ message: "again" }, ctx());
      assertEquals(again.content, "Echo: again");
      assert(pidOf(manager, "everything") !== pid, "a new process");
    } finally {
      await manager.close();
    }
  },
);

Deno.test("a call to a server killed mid-turn names what happened", opts, async () => {
  const { manager } = await managerWith([everythingStdio()]);
  try {
    const tools = await manager.toolsForTurn();
    const slow = byName(tools, "mcp__everything__trigger-long-running-operation");
    const pid = pidOf(manager, "everything");
    const pending = slow.execute({ duration: 30, steps: 5 }, ctx());
    await new Promise((r) => setTimeout(r, 500));
    Deno.kill(-pid, "SIGKILL");
    const r = await pending;
    assertEquals(r.isError, true);
    assertMatch(r.content, /killed by SIGKILL|connection closed/i);
  } finally {
    await manager.close();
  }
});

Deno.test(
  "stdio servers get the commands' environment; close kills the process group",
  opts,
  async () => {
    Deno.env.set("FAKE_PROVIDER_VAR", "sk-provider-value-123456");
    Deno.env.set("SOME_SERVICE_TOKEN", "tok-should-not-leak");
    Deno.env.set("REINAGENT_INTERNAL", "x");
    const server = { ...everythingStdio(), env: { MCP_OWN_TOKEN: "given-by-config" } };
    const { manager } = await managerWith([server]);
    try {
      const tools = await manager.toolsForTurn();
      const r = await byName(tools, "mcp__everything__get-env").execute({}, ctx());
      assert(!r.content.includes("sk-provider-value"), "provider variable withheld");
      assert(!r.content.includes("tok-should-not-leak"), "token-like variable withheld");
      assert(!r.content.includes("REINAGENT_INTERNAL"), "REINAGENT_* withheld");
      assert(r.content.includes("given-by-config"), "the server's own env is set");
      const pid = pidOf(manager, "everything");
      assert(processAlive(pid));
      await manager.close();
      assert(!processAlive(pid), "the server is gone after close");
    } finally {
      Deno.env.delete("FAKE_PROVIDER_VAR");
      Deno.env.delete("SOME_SERVICE_TOKEN");
      Deno.env.delete("REINAGENT_INTERNAL");
      await manager.close();
    }
  },
);

Deno.test(
  "everything over streamable HTTP: list, call, invalid call, server gone → error → back",
  opts,
  async () => {
    let http = await everythingHttp("streamableHttp");
    const port = Number(new URL(http.url).port);
    const { manager } = await managerWith([{
      id: "everything-http",
      enabled: true,
      transport: "http",
      command: "",
      args: [],
      url: http.url,
    }]);
    try {
      const tools = await manager.toolsForTurn();
      const echo = byName(tools, "mcp__everything-http__echo");
      assertEquals(
        (await echo.execute({ message: "over http" }, ctx())).content,
        "Echo: over http",
      );
      const refused = await byName(tools, "mcp__everything-http__get-sum").run({ a: "x" }, ctx());
      assertEquals(refused.isError, true);
      const test = await manager.test(manager.pool.peek("everything-http")!.config);
      assert(test.ok && test.toolCount > 5, JSON.stringify(test));
      assert(test.protocolVersion, "negotiated a protocol version");

      await http.stop();
      const down = await echo.execute({ message: "down?" }, ctx());
      assertEquals(down.isError, true);
      assertMatch(down.content, /MCP everything-http\/echo failed/);
      http = await everythingHttp("streamableHttp", port);
      await manager.restart("everything-http");
      assertEquals((await echo.execute({ message: "back" }, ctx())).content, "Echo: back");
    } finally {
      await manager.close();
      await http.stop();
    }
  },
);

Deno.test("everything over legacy SSE: list and call", opts, async () => {
  const http = await everythingHttp("sse");
  const { manager } = await managerWith([{
    id: "legacy",
    enabled: true,
    transport: "sse",
    command: "",
    args: [],
    url: http.url,
  }]);
  try {
    const tools = await manager.toolsForTurn();
    const echo = byName(tools, "mcp__legacy__echo");
    assertEquals((await echo.execute({ message: "sse" }, ctx())).content, "Echo: sse");
  } finally {
    await manager.close();
    await http.stop();
  }
});

Deno.test(
  "filesystem server: read a file with the required path; outside its root is an error",
  opts,
  async () => {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-mcp-fs-" }));
    await Deno.writeTextFile(join(dir, "note.txt"), "from the filesystem server\n");
    const { manager } = await managerWith([filesystemStdio(dir)]);
    try {
      const tools = await manager.toolsForTurn();
      const read = byName(tools, "mcp__fs__read_text_file");
      assert((read.parameters.required as string[]).includes("path"));
      const r = await read.execute({ path: join(dir, "note.txt") }, ctx());
      assertEquals(r.isError, false, r.content);
      assertMatch(r.content, /from the filesystem server/);
      const outside = await read.execute({ path: "/etc/hostname" }, ctx());
      assertEquals(outside.isError, true);
      assertMatch(outside.content, /denied|outside|not allowed/i);
      assert(!read.parse({ path: 5 }).ok, "a wrong type is refused before the call");
    } finally {
      await manager.close();
    }
  },
);

Deno.test(
  "a server that cannot start is reported (phase, toast event), the others still work",
  opts,
  async () => {
    const { manager, events } = await managerWith([
      { id: "broken", enabled: true, transport: "stdio", command: "/no/such/program", args: [] },
      {
        id: "crashes",
        enabled: true,
        transport: "stdio",
        command: "/bin/sh",
        args: ["-c", "echo 'boom: missing config' >&2; exit 3"],
      },
      everythingStdio(),
    ]);
    try {
      const tools = await manager.toolsForTurn();
      assert(tools.some((t) => t.name === "mcp__everything__echo"));
      assert(!tools.some((t) => t.name.startsWith("mcp__broken__")));
      const failures = events.filter((e) => e.kind === "failure");
      const broken = failures.find((e) => e.kind === "failure" && e.id === "broken");
      assert(broken && broken.kind === "failure");
      assertEquals(broken.phase, "spawn");
      assertMatch(broken.message, /command not found: \/no\/such\/program/);
      const crash = await manager.test({
        id: "crashes",
        enabled: true,
        transport: "stdio",
        command: "/bin/sh",
        args: ["-c", "echo 'boom: missing config' >&2; exit 3"],
      });
      assertEquals(crash.ok, false);
      assertEquals(crash.phase, "initialize");
      assertMatch(crash.error ?? "", /exited with code 3/);
      assert(
        crash.stderrTail.some((l) => l.includes("boom: missing config")),
        crash.stderrTail.join(),
      );
      const overview = await manager.overview();
      const row = overview.servers.find((s) => s.config.id === "broken")!;
      assertEquals(row.state, "failed");
      assertEquals(row.error?.phase, "spawn");
    } finally {
      await manager.close();
    }
  },
);

Deno.test(
  "the pool: a changed config is a new connection, a removed server is stopped, idle ones close",
  opts,
  async () => {
    const { home, manager } = await managerWith([everythingStdio()]);
    try {
      await manager.toolsForTurn();
      const first = pidOf(manager, "everything");
      // Unchanged config (a description is no reason to reconnect): the same process.
      await saveServers(home, [{ ...everythingStdio(), description: "docs" }]);
      await manager.toolsForTurn();
      assertEquals(pidOf(manager, "everything"), first);
      // A changed environment: a new process, the old one stopped.
      await saveServers(home, [{ ...everythingStdio(), env: { X: "1" } }]);
      await manager.toolsForTurn();
      const second = pidOf(manager, "everything");
      assert(second !== first);
      await waitFor(() => !processAlive(first), "the old server stopped");
      // Removed: stopped, and its tools are gone.
      await saveServers(home, []);
      assertEquals(await manager.toolsForTurn(), []);
      await waitFor(() => !processAlive(second), "the removed server stopped");
    } finally {
      await manager.close();
    }
    const idle = new McpManager({
      home,
      envPolicy: () => ({}),
      publish: () => {},
      idleMs: 300,
    });
    try {
      await saveServers(home, [everythingStdio()]);
      await idle.toolsForTurn();
      const pid = pidOf(idle, "everything");
      await waitFor(() => !processAlive(pid), "the idle server closed", 5000);
      assertEquals(idle.pool.peek("everything"), null);
      assert((await idle.toolsForTurn()).length > 5, "it starts again on next use");
    } finally {
      await idle.close();
    }
  },
);

Deno.test("a server's listChanged notification re-reads its tools", opts, async () => {
  // server-everything registers some tools only after the handshake and announces them.
  let changed = 0;
  const conn = new McpConnection(everythingStdio(), {
    envPolicy: {},
    defaultCwd: "/tmp",
    onToolsChanged: () => changed++,
  });
  try {
    await conn.connect();
    await waitFor(() => changed > 0, "a tools/list_changed notification");
    assert(conn.tools.some((t) => t.name === "simulate-research-query"), "the late tool listed");
  } finally {
    await conn.close();
  }
});

async function waitFor(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
