/**
 * mcp_servers.json (validation, a corrupt file reported and never overwritten, atomic
 * owner-only writes) and the hostile-input rules of MCP tools (names reduced to
 * [A-Za-z0-9_-] and de-duplicated, bounded results, unusable schemas left out).
 */
import { assert, assertEquals, assertMatch, assertRejects } from "./helpers/assert.ts";
import {
  connectionKey,
  mcpConfigPath,
  mcpLowered,
  readServers,
  saveServers,
  updateServers,
} from "../server/mcp/config.ts";
import {
  agentNames,
  bound,
  buildTools,
  convertResult,
  RESULT_TEXT_MAX,
} from "../server/mcp/tools.ts";
import type { McpServerConfig } from "../protocol/mcp_servers.ts";
import { judge } from "../server/sessions/approvals.ts";
import type { TaskSettings } from "../protocol/index.ts";

const stdio = (id: string, extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  id,
  enabled: true,
  transport: "stdio",
  command: "node",
  args: ["server.js"],
  ...extra,
});

Deno.test("a missing file is an empty list; defaults are filled in; legacy fields dropped", async () => {
  const home = await Deno.makeTempDir();
  assertEquals(await readServers(home), {
    ok: true,
    path: mcpConfigPath(home),
    servers: [],
    exists: false,
  });
  await Deno.writeTextFile(
    mcpConfigPath(home),
    JSON.stringify([{ id: "a", command: "npx", name: "old name" }, {
      id: "b",
      url: "http://x/mcp",
    }]),
  );
  const r = await readServers(home);
  assert(r.ok);
  assertEquals(r.servers[0], {
    id: "a",
    command: "npx",
    enabled: true,
    args: [],
    transport: "stdio",
  });
  assertEquals(r.servers[1].transport, "http");
});

Deno.test("a corrupt or invalid file is reported with its problems and never overwritten", async () => {
  const home = await Deno.makeTempDir();
  const path = mcpConfigPath(home);
  for (
    const [text, re] of [
      ["[{not json", /not valid JSON/],
      ['{"mcpServers": {}}', /must hold a JSON array/],
      ['[{"id": "x y", "command": "a"}]', /\[0\]\.id has an invalid format/],
      ['[{"id": "h", "transport": "http", "command": ""}]', /url must be an http\(s\) URL/],
      ['[{"id": "d", "command": "a"}, {"id": "D", "command": "b"}]', /used twice/],
      ['[{"id": "e", "command": "a", "env": {"K": 1}}]', /env\.K must be a string/],
    ] as const
  ) {
    await Deno.writeTextFile(path, text);
    const r = await readServers(home);
    assert(!r.ok, text);
    assertMatch(r.error, re);
    await assertRejects(() => saveServers(home, [stdio("new")]));
    await assertRejects(() => updateServers(home, (l) => [...l, stdio("new")]));
    assertEquals(await Deno.readTextFile(path), text, "left untouched");
  }
});

Deno.test("saves are atomic, owner-only, validated", async () => {
  const home = await Deno.makeTempDir();
  await saveServers(home, [stdio("one", { env: { TOKEN: "secret" } })]);
  assertEquals((await Deno.stat(mcpConfigPath(home))).mode! & 0o777, 0o600);
  await updateServers(home, (l) => [...l, stdio("two")]);
  const r = await readServers(home);
  assert(r.ok);
  assertEquals(r.servers.map((s) => s.id), ["one", "two"]);
  await assertRejects(() => saveServers(home, [stdio("one"), stdio("one")]));
  assertEquals([...Deno.readDirSync(home)].map((e) => e.name), ["mcp_servers.json"]);
});

Deno.test("the connection key changes with what a connection depends on, not with the rest", () => {
  const a = stdio("a", { env: { A: "1", B: "2" } });
  assertEquals(connectionKey(a), connectionKey({ ...a, env: { B: "2", A: "1" } }));
  assertEquals(connectionKey(a), connectionKey({ ...a, description: "x", policy: "allow" }));
  assert(connectionKey(a) !== connectionKey({ ...a, args: ["other.js"] }));
  assert(connectionKey(a) !== connectionKey({ ...a, timeoutMs: 5000 }));
});

Deno.test("tool names: only [A-Za-z0-9_-], at most 64 characters, unique", () => {
  const names = agentNames("srv", [
    "read file",
    "read_file",
    "read/file",
    "../../etc",
    "名前",
    "x".repeat(100),
    "x".repeat(100),
    "",
  ]);
  for (const n of names) assertMatch(n, /^mcp__srv__[A-Za-z0-9_-]+$/);
  for (const n of names) assert(n.length <= 64, n);
  assertEquals(new Set(names.map((n) => n.toLowerCase())).size, names.length);
  assertEquals(names.slice(0, 3), [
    "mcp__srv__read_file",
    "mcp__srv__read_file_2",
    "mcp__srv__read_file_3",
  ]);
  // Names already taken by another server's tools are avoided too.
  const taken = new Set(["mcp__a__t"]);
  assertEquals(agentNames("a", ["t"], taken), ["mcp__a__t_2"]);
});

Deno.test("tools with unusable schemas are left out and named; descriptions are bounded", () => {
  const { tools, skipped } = buildTools({
    config: stdio("s"),
    tools: [
      { name: "ok", description: "d".repeat(10_000), inputSchema: { type: "object" } },
      {
        name: "huge",
        inputSchema: {
          type: "object",
          properties: { x: { enum: Array(20_000).fill("aaaa") } },
        } as { type: "object" },
      },
    ],
    call: () => Promise.reject(new Error("not called")),
  }, new Set());
  assertEquals(tools.map((t) => t.name), ["mcp__s__ok"]);
  assert(tools[0].description.length < 2100);
  assertMatch(skipped[0], /huge: its input schema is too large/);
});

Deno.test("results: bounded text, isError kept, images/links/structured for the card", () => {
  const long = "a".repeat(RESULT_TEXT_MAX * 3);
  const r = convertResult("s", "t", { content: [{ type: "text", text: long }], isError: true });
  assertEquals(r.isError, true);
  assert(r.content.length < RESULT_TEXT_MAX + 200);
  assertMatch(r.content, /characters left out/);
  const big = "A".repeat(3_000_000);
  const img = convertResult("s", "t", {
    content: [
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "image", data: big, mimeType: "image/png" },
      { type: "image", data: "PHN2Zz4=", mimeType: "image/svg+xml" },
      { type: "resource_link", uri: "file:///x", name: "x" },
    ],
    structuredContent: { n: 1 },
  });
  const meta = img.meta!.mcp as { images: unknown[]; imagesOmitted: number; links: unknown[] };
  assertEquals(meta.images.length, 1);
  assertEquals(meta.imagesOmitted, 2);
  assertEquals(meta.links.length, 1);
  assertEquals(bound("short"), "short");
});

const S: TaskSettings = { model: null, effort: null, approval: null };

Deno.test("a server's policy: the task's own rule wins; plan mode stays read-only", () => {
  assertEquals(judge(S, "edit", "mcp__s__t", "write", "deny"), "deny");
  assertEquals(judge(S, "ask", "mcp__s__t", "write", "allow"), "allow");
  assertEquals(judge(S, "full", "mcp__s__t", "write", "ask"), "ask");
  assertEquals(
    judge({ ...S, toolPolicies: { mcp__s__t: "allow" } }, "ask", "mcp__s__t", "write", "deny"),
    "allow",
  );
  assertEquals(judge(S, "plan", "mcp__s__t", "write", "allow"), "deny");
  assertEquals(judge(S, "edit", "mcp__s__t", "write"), "allow");
});

Deno.test("what lowers safety: servers that now run, tools allowed without asking", () => {
  const a = stdio("a", { enabled: false });
  assertEquals(mcpLowered([], [a]), [], "a disabled server runs nothing");
  assertEquals(mcpLowered([a], [{ ...a, enabled: true }]), [
    { what: "mcpServer", id: "a", target: "node server.js" },
  ]);
  const on = { ...a, enabled: true };
  assertEquals(mcpLowered([on], [{ ...on, description: "x" }]), []);
  assertEquals(mcpLowered([on], [{ ...on, args: ["evil.js"] }])[0].what, "mcpServer");
  assertEquals(mcpLowered([on], [{ ...on, policy: "allow", toolPolicies: { t: "allow" } }]), [
    { what: "mcpPolicy", id: "a" },
    { what: "mcpPolicy", id: "a", tool: "t" },
  ]);
  assertEquals(mcpLowered([on], [{ ...on, policy: "deny" }]), []);
});

Deno.test("the MCP tools of a turn stay within a size budget; a server past it is reported", async () => {
  const { McpManager, TOOL_SPECS_BUDGET } = await import("../server/mcp/manager.ts");
  const home = await Deno.makeTempDir();
  const events: unknown[] = [];
  const m = new McpManager({ home, envPolicy: () => ({}), publish: (e) => events.push(e) });
  const big = {
    type: "object",
    properties: { x: { type: "string", description: "d".repeat(60_000) } },
  };
  const fake = (id: string, n: number) => ({
    config: stdio(id),
    ready: true,
    dead: null,
    protocolVersion: "x",
    tools: Array.from({ length: n }, (_, i) => ({ name: `t${i}`, inputSchema: big })),
    stderrTail: () => [],
  });
  // Two servers' connections, as the pool would hand them out.
  const conns = new Map([["small", fake("small", 2)], ["huge", fake("huge", 10)]]);
  // deno-lint-ignore no-explicit-any
  (m.pool as any).get = (c: McpServerConfig) => Promise.resolve(conns.get(c.id));
  await saveServers(home, [stdio("small"), stdio("huge")]);
  const tools = await m.toolsForTurn();
  assertEquals(tools.map((t) => t.name), ["mcp__small__t0", "mcp__small__t1"]);
  assert(TOOL_SPECS_BUDGET < 10 * 60_000);
  const failure = events.find((e) => (e as { kind: string }).kind === "failure") as {
    id: string;
    message: string;
  };
  assertEquals(failure.id, "huge");
  assertMatch(failure.message, /would add \d+ characters to every request/);
  await m.close();
});
