/**
 * Imports from other tools' configs (pasted JSON, Claude Code, Codex, OpenCode, a
 * project's .mcp.json): shapes understood, command strings split like a shell, ids
 * made safe and unique; nothing is started. And the MCP page's ops on a real file.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import {
  fromJsonEntry,
  idFrom,
  parseCodexToml,
  parseImportText,
  scanImports,
  shellSplit,
  uniqueIds,
} from "../server/mcp/imports.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import { mcpConfigPath } from "../server/mcp/config.ts";

Deno.test("shellSplit: quotes, escapes, empty strings; an unclosed quote is an error", () => {
  assertEquals(shellSplit(`npx -y "@scope/srv" --root 'a dir' x\\ y ""`), [
    "npx",
    "-y",
    "@scope/srv",
    "--root",
    "a dir",
    "x y",
    "",
  ]);
  let threw = false;
  try {
    shellSplit(`node "x`);
  } catch {
    threw = true;
  }
  assert(threw);
});

Deno.test("pasted JSON: mcpServers object, array, one server; command strings split", () => {
  const r = parseImportText(JSON.stringify({
    mcpServers: {
      "file system": { command: "npx -y @modelcontextprotocol/server-filesystem /tmp" },
      web: { type: "http", url: "https://x/mcp", headers: { A: "b" } },
      old: { type: "sse", url: "https://x/sse" },
      bad: { type: "http" },
    },
  }));
  assertEquals(r.servers.map((s) => [s.id, s.transport, s.command, s.args]), [
    ["file-system", "stdio", "npx", ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]],
    ["web", "http", "", []],
    ["old", "sse", "", []],
  ]);
  assertMatch(r.problems.join(), /bad\.url must be an http\(s\) URL/);
  const arr = parseImportText('[{"id": "a", "command": "node", "args": ["s.js"]}]');
  assertEquals(arr.servers[0].args, ["s.js"]);
  assertEquals(parseImportText('{"command": "uvx srv"}').servers[0].args, ["srv"]);
  assertMatch(parseImportText("{oops").problems[0], /not valid JSON/);
  const oc = fromJsonEntry("oc", {
    type: "local",
    command: ["bun", "x", "srv"],
    environment: { K: "v" },
  });
  assert(typeof oc !== "string");
  assertEquals([oc.command, oc.args, oc.env], ["bun", ["x", "srv"], { K: "v" }]);
});

Deno.test("ids: unsafe names made safe, collisions renamed", () => {
  assertEquals(idFrom("my.server/v2"), "my-server-v2");
  assertEquals(idFrom("名前"), "server");
  const r = uniqueIds([
    { id: "a", enabled: true, transport: "stdio", command: "x", args: [] },
    { id: "a", enabled: true, transport: "stdio", command: "y", args: [] },
  ], new Set(["a"]));
  assertEquals(r.servers.map((s) => s.id), ["a-2", "a-3"]);
});

Deno.test("Codex config.toml: [mcp_servers.x] with args, env tables and multi-line arrays", () => {
  const toml = `
model = "o3"
[mcp_servers.docs]
command = "npx"
args = [
  "-y", "docs-mcp", # a comment
]
env = { API_URL = "https://x" }

[mcp_servers.search.env]
TOKEN = "t"

[mcp_servers.search]
command = "uvx"
args = ["search-mcp"]

[profiles.x]
command = "not a server"
`;
  const r = parseCodexToml(toml) as { mcp_servers: Record<string, Record<string, unknown>> };
  assertEquals(r.mcp_servers.docs.args, ["-y", "docs-mcp"]);
  assertEquals(r.mcp_servers.docs.env, { API_URL: "https://x" });
  assertEquals(r.mcp_servers.search.env, { TOKEN: "t" });
  assertEquals(Object.keys(r.mcp_servers), ["docs", "search"]);
});

Deno.test("scan: Claude Code (user and per project), Codex, OpenCode, the project's .mcp.json", async () => {
  const user = await Deno.makeTempDir();
  const project = await Deno.makeTempDir();
  await Deno.writeTextFile(
    join(user, ".claude.json"),
    JSON.stringify({
      mcpServers: { cc: { command: "npx", args: ["cc-mcp"] } },
      projects: { "/p": { mcpServers: { proj: { type: "http", url: "http://h/mcp" } } } },
    }),
  );
  await Deno.mkdir(join(user, ".codex"));
  await Deno.writeTextFile(
    join(user, ".codex", "config.toml"),
    '[mcp_servers.cx]\ncommand = "cx"\n',
  );
  await Deno.mkdir(join(user, ".config", "opencode"), { recursive: true });
  await Deno.writeTextFile(
    join(user, ".config", "opencode", "opencode.json"),
    '{\n  // comment\n  "mcp": {"oc": {"type": "remote", "url": "https://o/mcp"}}\n}',
  );
  await Deno.writeTextFile(join(project, ".mcp.json"), '{"mcpServers": {"ws": {"command": "w"}}}');
  const r = await scanImports(user, new Set(["cc"]), project);
  assertEquals(r.problems, []);
  assertEquals(r.candidates.map((c) => [c.source, c.config.id, c.exists]), [
    ["claude-code", "cc", true],
    ["claude-code", "proj", false],
    ["codex", "cx", false],
    ["opencode", "oc", false],
    ["workspace", "ws", false],
  ]);
});

Deno.test("MCP page ops: save, rename, enable, import, remove; a corrupt file is a conflict", async () => {
  const home = await Deno.makeTempDir();
  const deps = createServices({ home });
  const ctx = {
    ...deps,
    client: { id: "t", topics: new Set<string>(), deliver: () => {} },
  } as unknown as OpContext;
  // deno-lint-ignore no-explicit-any
  const op = async (name: string, args: unknown): Promise<any> => {
    const r = await runOp(ctx, name, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.result;
  };
  try {
    const server = { id: "a", enabled: true, transport: "stdio", command: "/bin/true", args: [] };
    let o = await op("mcp.save", { server });
    assertEquals(o.servers.map((s: { config: { id: string } }) => s.config.id), ["a"]);
    // A server that now runs lowers safety: every client is told who did it.
    assertEquals(deps.safety.recent().at(-1)?.changes, [
      { what: "mcpServer", id: "a", target: "/bin/true" },
    ]);
    await op("mcp.save", { server: { ...server, description: "same command" } });
    assertEquals(deps.safety.recent().length, 1, "no new notice for a harmless edit");
    o = await op("mcp.save", { server: { ...server, id: "b" }, previousId: "a" });
    assertEquals(o.servers.map((s: { config: { id: string } }) => s.config.id), ["b"]);
    o = await op("mcp.setEnabled", { id: "b", enabled: false });
    assertEquals(o.servers[0].state, "disabled");
    const bad = await runOp(ctx, "mcp.save", { server: { ...server, transport: "http" } });
    assert(!bad.ok && bad.error.code === "invalid_args");
    const parsed = await op("mcp.parseImport", { text: '{"mcpServers": {"b": {"command": "x"}}}' });
    assertEquals(parsed.candidates[0].exists, true);
    const imp = await op("mcp.import", { servers: [parsed.candidates[0].config] });
    assertEquals(imp.renamed, { b: "b-2" });
    o = await op("mcp.remove", { id: "b" });
    assertEquals(o.servers.map((s: { config: { id: string } }) => s.config.id), ["b-2"]);
    // Secrets are shown masked; a masked value sent back unchanged keeps the secret.
    const secret = {
      ...server,
      id: "sec",
      env: { API_TOKEN: "tok-1234567890-abcd", MODE: "x" },
    };
    o = await op("mcp.save", { server: secret });
    const shown = o.servers.find((s: { config: { id: string } }) => s.config.id === "sec").config;
    assertEquals(shown.env, { API_TOKEN: "••••abcd", MODE: "x" });
    assert(!JSON.stringify(await op("mcp.list", {})).includes("tok-1234567890"));
    await op("mcp.save", { server: { ...shown, description: "edited" } });
    const stored = JSON.parse(await Deno.readTextFile(mcpConfigPath(home)));
    assertEquals(
      stored.find((s: { id: string }) => s.id === "sec").env.API_TOKEN,
      "tok-1234567890-abcd",
    );
    await op("mcp.save", { server: { ...shown, env: { API_TOKEN: "new-one", MODE: "x" } } });
    const changed = JSON.parse(await Deno.readTextFile(mcpConfigPath(home)));
    assertEquals(changed.find((s: { id: string }) => s.id === "sec").env.API_TOKEN, "new-one");
    await Deno.writeTextFile(mcpConfigPath(home), "{");
    const refused = await runOp(ctx, "mcp.save", { server });
    assert(!refused.ok && refused.error.code === "conflict", JSON.stringify(refused));
    assertEquals(await Deno.readTextFile(mcpConfigPath(home)), "{");
    assertMatch((await op("mcp.list", {})).fileError, /not valid JSON/);
    await Deno.remove(mcpConfigPath(home));

    // A project's .mcp.json: offered (never run) until answered; a changed file again.
    const project = await Deno.makeTempDir();
    assertEquals((await op("mcp.workspace", { projectPath: project })).offer, null);
    const dotMcp = join(project, ".mcp.json");
    await Deno.writeTextFile(dotMcp, '{"mcpServers": {"proj": {"command": "/bin/true"}}}');
    const offer = (await op("mcp.workspace", { projectPath: project })).offer;
    assertEquals(offer.servers.map((s: { id: string }) => s.id), ["proj"]);
    assertEquals((await op("mcp.list", {})).servers, [], "nothing configured or started");
    await op("mcp.workspaceDecide", { projectPath: project, decision: "dismiss" });
    assertEquals((await op("mcp.workspace", { projectPath: project })).offer, null);
    await Deno.writeTextFile(dotMcp, '{"mcpServers": {"proj": {"command": "/bin/false"}}}');
    assert((await op("mcp.workspace", { projectPath: project })).offer, "changed: offered again");
    const took = await op("mcp.workspaceDecide", { projectPath: project, decision: "import" });
    assertEquals(took.imported, ["proj"]);
    assertEquals(took.overview.servers[0].config.command, "/bin/false");
    assertEquals((await op("mcp.workspace", { projectPath: project })).offer, null);

    // Scanned servers: secrets masked for the client, read again from the file on import.
    const user = await Deno.makeTempDir();
    await Deno.writeTextFile(
      join(user, ".claude.json"),
      JSON.stringify({
        mcpServers: { gh: { command: "gh-mcp", env: { GITHUB_TOKEN: "ghp_realsecret1234" } } },
      }),
    );
    const realHome = Deno.env.get("HOME");
    Deno.env.set("HOME", user);
    try {
      const scan = await op("mcp.scanImports", {});
      const gh = scan.candidates.find((c: { config: { id: string } }) => c.config.id === "gh");
      assertEquals(gh.config.env, { GITHUB_TOKEN: "••••1234" });
      assert(!JSON.stringify(scan).includes("ghp_realsecret"));
      await op("mcp.import", { servers: [gh.config] });
      const saved = JSON.parse(await Deno.readTextFile(mcpConfigPath(home)));
      assertEquals(
        saved.find((s: { id: string }) => s.id === "gh").env.GITHUB_TOKEN,
        "ghp_realsecret1234",
      );
    } finally {
      if (realHome) Deno.env.set("HOME", realHome);
    }
  } finally {
    await deps.mcp?.close();
    await deps.runs?.stopAll();
    deps.hub.close();
    deps.store.close();
  }
});
