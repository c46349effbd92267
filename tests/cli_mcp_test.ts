/**
 * `reinagent mcp add|list|remove|test` as a user runs them (a real process on a
 * temporary data dir), the argument rules, a corrupt file left alone, and a running
 * server picking up the CLI's change (pushed to its clients, used by the next turn).
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS, startTestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { EVERYTHING, mcpPackagesAvailable } from "./helpers/mcp_servers.ts";
import { parseCli } from "../server/cli/args.ts";
import { mcpConfigPath } from "../server/mcp/config.ts";
import type { McpEvent, McpOverview } from "../protocol/mcp_servers.ts";

const available = await mcpPackagesAvailable();

async function cli(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("mcp add: stdio after --, env pairs, http with headers, --sse; bad input is an error", () => {
  const a = parseCli(["mcp", "add", "fs", "--env", "A=1=2", "--", "npx", "-y", "srv", "--flag"]);
  assert("command" in a && a.command.kind === "mcp" && a.command.action === "add");
  assertEquals(a.command.server, {
    id: "fs",
    enabled: true,
    transport: "stdio",
    command: "npx",
    args: ["-y", "srv", "--flag"],
    env: { A: "1=2" },
  });
  const h = parseCli([
    "mcp",
    "add",
    "web",
    "--url",
    "https://x/mcp",
    "--header",
    "Authorization: Bearer t:k",
    "--home",
    "/tmp/h",
  ]);
  assert("command" in h && h.command.kind === "mcp" && h.command.action === "add");
  assertEquals(h.command.server.headers, { Authorization: "Bearer t:k" });
  assertEquals(h.command.server.transport, "http");
  assertEquals(h.command.home, "/tmp/h");
  const p = parseCli(["mcp", "add", "p", "--policy", "ask", "--disabled", "--", "srv"]);
  assert("command" in p && p.command.kind === "mcp" && p.command.action === "add");
  assertEquals([p.command.server.policy, p.command.server.enabled], ["ask", false]);
  const s = parseCli(["mcp", "add", "old", "--url", "http://x/sse", "--sse"]);
  assert("command" in s && s.command.kind === "mcp" && s.command.action === "add");
  assertEquals(s.command.server.transport, "sse");
  for (
    const [argv, re] of [
      [["mcp", "add"], /needs an ID/],
      [["mcp", "add", "a b", "--", "x"], /may only have/],
      [["mcp", "add", "x"], /needs -- COMMAND/],
      [["mcp", "add", "x", "npx", "srv"], /after "--"/],
      [["mcp", "add", "x", "--url", "http://u", "--", "npx"], /either --url/],
      [["mcp", "add", "x", "--env", "NOEQ", "--", "npx"], /--env must be/],
      [["mcp", "add", "x", "--sse", "--", "npx"], /--sse needs --url/],
      [["mcp", "remove"], /exactly one ID/],
      [["mcp", "add", "x", "--policy", "always", "--", "npx"], /--policy is allow, ask or deny/],
      [["mcp", "frob"], /unknown mcp command/],
    ] as const
  ) {
    const r = parseCli([...argv]);
    assert("error" in r, argv.join(" "));
    assertMatch(r.error, re);
  }
});

Deno.test("cli mcp: add → list (status + tools) → test → remove; a corrupt file is left alone", {
  ignore: !available,
}, async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-cli-mcp-" });
  const h = ["--home", home];
  const add = await cli([
    "mcp",
    "add",
    "everything",
    ...h,
    "--",
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    EVERYTHING,
    "stdio",
  ]);
  assertEquals(add.code, 0, add.stderr);
  assertMatch(add.stdout, /Added MCP server everything \(stdio\)/);
  const web = await cli(["mcp", "add", "down", ...h, "--url", "http://127.0.0.1:9/mcp"]);
  assertEquals(web.code, 0, web.stderr);
  const list = await cli(["mcp", "list", ...h]);
  assertEquals(list.code, 0, list.stderr);
  assertMatch(list.stdout, /everything: .* - ✓ connected · 14 tools/);
  assertMatch(list.stdout, /down: http:\/\/127\.0\.0\.1:9\/mcp \(http\) - ✗ failed at initialize/);
  const json = JSON.parse((await cli(["mcp", "list", "--json", ...h])).stdout);
  assertEquals(json.map((s: { id: string; status: string }) => [s.id, s.status]), [
    ["everything", "connected"],
    ["down", "failed"],
  ]);
  const test = await cli(["mcp", "test", "everything", ...h]);
  assertEquals(test.code, 0, test.stderr);
  assertMatch(test.stdout, /✓ everything: connected in \d+ ms, 14 tools/);
  assertMatch(test.stdout, /mcp__everything__echo/);
  const bad = await cli(["mcp", "test", "down", ...h]);
  assertEquals(bad.code, 1);
  assertMatch(bad.stderr, /✗ down: failed at initialize/);
  assertEquals((await cli(["mcp", "remove", "down", ...h])).code, 0);
  assertEquals((await cli(["mcp", "remove", "down", ...h])).code, 1);

  await Deno.writeTextFile(mcpConfigPath(home), "[{ broken");
  const corrupt = await cli(["mcp", "add", "x", ...h, "--", "ls"]);
  assertEquals(corrupt.code, 1);
  assertMatch(corrupt.stderr, /not valid JSON.*it was not changed/);
  const listed = await cli(["mcp", "list", ...h]);
  assertEquals(listed.code, 1);
  const doctor = await cli(["doctor", ...h]);
  assertEquals(doctor.code, 1);
  assertMatch(doctor.stdout, /✗ MCP servers: .*not valid JSON.*left untouched/);
  assertEquals(await Deno.readTextFile(mcpConfigPath(home)), "[{ broken");
});

Deno.test(
  "a running server picks up the CLI's change and pushes it to its clients",
  async () => {
    const server = await startTestServer();
    const client = await TestClient.connect(server.base, server.token);
    try {
      const before = await client.request<McpOverview>("mcp.list");
      assertEquals(before.servers, []);
      const add = await cli(["mcp", "add", "late", "--home", server.home, "--", "/bin/true"]);
      assertEquals(add.code, 0, add.stderr);
      await client.until(
        () =>
          client.events.some((e) =>
            e.topic === "mcp" && (e.data as McpEvent).kind === "overview" &&
            (e.data as { overview: McpOverview }).overview.servers.some((s) =>
              s.config.id === "late"
            )
          ),
        "the overview with the new server",
        5000,
      );
      const after = await client.request<McpOverview>("mcp.list");
      assertEquals(after.servers.map((s) => s.config.id), ["late"]);
      await Deno.writeTextFile(mcpConfigPath(server.home), "not json");
      const broken = await client.request<McpOverview>("mcp.list");
      assertMatch(broken.fileError ?? "", /not valid JSON/);
    } finally {
      await client.close();
      await server.stop();
    }
  },
);

/** Live (non-zombie) processes whose environment holds `marker`. */
function withMarker(marker: string): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const env = Deno.readTextFileSync(`/proc/${e.name}/environ`);
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
      if (env.includes(marker) && state !== "Z" && state !== "X") out.push(Number(e.name));
    } catch { /* gone or not ours */ }
  }
  return out;
}

Deno.test("stopping the server stops its MCP servers (the whole process group)", {
  ignore: !available || Deno.build.os !== "linux",
}, async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-mcp-stop-" });
  const marker = `RA_MCP_MARKER=${crypto.randomUUID()}`;
  const [k, v] = marker.split("=");
  const { saveServers } = await import("../server/mcp/config.ts");
  // A child of the server that ignores everything (`sleep`): only a group kill ends it.
  await saveServers(home, [{
    id: "everything",
    enabled: true,
    transport: "stdio",
    command: "/bin/sh",
    args: ["-c", `sleep 300 & exec "${Deno.execPath()}" run -A --quiet ${EVERYTHING} stdio`],
    env: { [k]: v },
  }]);
  const server = await startTestServer({ home });
  try {
    const client = await TestClient.connect(server.base, server.token);
    const r = await client.request<{ ok: boolean; toolCount: number }>("mcp.restart", {
      id: "everything",
    });
    assert(r.ok && r.toolCount > 5, JSON.stringify(r));
    assert(withMarker(v).length >= 2, "the MCP server and its child run");
    await client.close();
  } finally {
    await server.stop();
  }
  const deadline = Date.now() + 5000;
  while (withMarker(v).length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  assertEquals(withMarker(v), [], "nothing of the MCP server is left");
});

Deno.test("reinagent run (no server running) uses MCP tools and leaves no MCP process behind", {
  ignore: !available || Deno.build.os !== "linux",
}, async () => {
  const { startMockLlm } = await import("../scripts/mock-llm.ts");
  const { homeWithProvider } = await import("./helpers/seed.ts");
  const { saveServers } = await import("../server/mcp/config.ts");
  const mock = startMockLlm({ quiet: true });
  try {
    mock.register("run-mcp", {
      turns: [
        { toolCalls: [{ name: "mcp__everything__echo", args: { message: "via run" } }] },
        { text: "echoed" },
      ],
    });
    const home = await homeWithProvider(mock.base, ["run-mcp"]);
    const marker = crypto.randomUUID();
    await saveServers(home, [{
      id: "everything",
      enabled: true,
      transport: "stdio",
      command: "/bin/sh",
      args: ["-c", `sleep 300 & exec "${Deno.execPath()}" run -A --quiet ${EVERYTHING} stdio`],
      env: { RA_MCP_MARKER: marker },
    }, { id: "broken", enabled: true, transport: "stdio", command: "/no/such/mcp", args: [] }]);
    const r = await cli([
      "run",
      "echo via MCP",
      "--model",
      "mock/run-mcp",
      "--approval",
      "full",
      "--home",
      home,
    ]);
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /echoed/);
    assertMatch(r.stderr, /mcp__everything__echo/);
    assertMatch(r.stderr, /MCP server broken failed \(spawn\): command not found: \/no\/such\/mcp/);
    await new Promise((res) => setTimeout(res, 300));
    assertEquals(withMarker(marker), [], "nothing of the MCP server is left");
  } finally {
    await mock.close();
  }
});
