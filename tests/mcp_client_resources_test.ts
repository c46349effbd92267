/**
 * Resources of an MCP server the agent uses: a server that offers them gets two agent
 * tools (list, paged; read by URI), reads in the approval sense; a server without them
 * gets none. What the server sends is bounded: a huge text is cut, a binary is described,
 * never dumped into the model's context.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { McpManager } from "../server/mcp/manager.ts";
import { saveServers } from "../server/mcp/config.ts";
import {
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "../server/mcp/server/sdk.ts";
import type { Tool } from "../tools/types.ts";
import { expandPromptCommand, listCommands } from "../server/commands/registry.ts";

function resourceServer(withResources: boolean) {
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const server = new Server({ name: "docs", version: "1" }, {
      capabilities: withResources ? { tools: {}, resources: {}, prompts: {} } : { tools: {} },
    });
    if (withResources) {
      server.setRequestHandler(ListPromptsRequestSchema, () => ({
        prompts: [
          {
            name: "greet",
            description: "Greets someone",
            arguments: [{ name: "who", required: true }, { name: "style" }],
          },
          { name: "x".repeat(60), description: "a name too long to type" },
        ],
      }));
      server.setRequestHandler(GetPromptRequestSchema, (r) => ({
        messages: [{
          role: "user",
          content: {
            type: "text",
            text: `Say hi to ${r.params.arguments?.who} ${r.params.arguments?.style ?? "plainly"}.`,
          },
        }],
      }));
    }
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
    if (withResources) {
      server.setRequestHandler(
        ListResourcesRequestSchema,
        (r) =>
          r.params?.cursor === "page2" ? { resources: [{ uri: "memo://huge", name: "Huge" }] } : {
            resources: [
              { uri: "memo://one", name: "One", mimeType: "text/plain" },
              { uri: "memo://bin", name: "Binary", mimeType: "image/png" },
            ],
            nextCursor: "page2",
          },
      );
      server.setRequestHandler(ReadResourceRequestSchema, (r) => {
        const uri = r.params.uri;
        if (uri === "memo://one") {
          return { contents: [{ uri, mimeType: "text/plain", text: "first memo" }] };
        }
        if (uri === "memo://bin") {
          return { contents: [{ uri, mimeType: "image/png", blob: btoa("x".repeat(3000)) }] };
        }
        if (uri === "memo://huge") return { contents: [{ uri, text: "y".repeat(200_000) }] };
        throw new Error(`no resource ${uri}`);
      });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return await transport.handleRequest(req);
  });
  return { url: `http://127.0.0.1:${http.addr.port}/mcp`, close: () => http.shutdown() };
}

const ctx = () => ({ workspace: "/tmp", signal: new AbortController().signal });
const byName = (tools: Tool[], name: string) => {
  const t = tools.find((x) => x.name === name);
  assert(t, `${name} in ${tools.map((x) => x.name).join(", ")}`);
  return t;
};

Deno.test(
  "an MCP server's resources: listed page by page, read by URI, bounded",
  async () => {
    const docs = resourceServer(true), plain = resourceServer(false);
    const home = await Deno.makeTempDir();
    await saveServers(home, [
      { id: "docs", enabled: true, transport: "http", command: "", args: [], url: docs.url },
      { id: "plain", enabled: true, transport: "http", command: "", args: [], url: plain.url },
    ]);
    const m = new McpManager({ home, envPolicy: () => ({}), publish: () => {} });
    try {
      const tools = await m.toolsForTurn();
      const list = byName(tools, "mcp__docs__list_resources");
      const read = byName(tools, "mcp__docs__read_resource");
      assertEquals([list.kind, read.kind], ["read", "read"]);
      assert(!tools.some((t) => t.name.startsWith("mcp__plain__")), "no resources, no tools");

      const first = await list.execute({}, ctx());
      assertMatch(first.content, /memo:\/\/one {2}One \(text\/plain\)/);
      assertMatch(first.content, /cursor "page2"/);
      const second = await list.execute({ cursor: "page2" }, ctx());
      assertMatch(second.content, /memo:\/\/huge/);

      const one = await read.execute({ uri: "memo://one" }, ctx());
      assertEquals(one.isError, false);
      assertMatch(one.content, /first memo/);
      const bin = await read.execute({ uri: "memo://bin" }, ctx());
      assertMatch(bin.content, /image\/png, 3000 bytes, not shown/);
      const huge = await read.execute({ uri: "memo://huge" }, ctx());
      assert(huge.content.length < 60_000, `kept ${huge.content.length}`);
      assertMatch(huge.content, /characters left out/);
      const missing = await read.execute({ uri: "memo://nope" }, ctx());
      assertEquals(missing.isError, true);
      assertMatch(missing.content, /resources\/read failed/);
    } finally {
      await m.close();
      await docs.close();
      await plain.close();
    }
  },
);

Deno.test("an MCP server's prompts are slash commands once it is connected", async () => {
  const docs = resourceServer(true);
  const home = await Deno.makeTempDir();
  await saveServers(home, [
    { id: "docs", enabled: true, transport: "http", command: "", args: [], url: docs.url },
  ]);
  const m = new McpManager({ home, envPolicy: () => ({}), publish: () => {} });
  try {
    assertEquals(m.promptCommands(), [], "not connected: nothing offered, nothing started");
    await m.toolsForTurn();
    assertEquals(m.promptCommands(), [{
      name: "mcp__docs__greet",
      description: "[MCP docs] Greets someone",
      argHint: "<who> [style]",
    }]);
    const scope = { workspace: home, home, userHome: home, mcpPrompts: m };
    const { commands } = await listCommands(scope);
    const greet = commands.find((c) => c.name === "mcp__docs__greet");
    assertEquals(greet?.source, "mcp");
    const used = await expandPromptCommand("/mcp__docs__greet Ada very warmly", scope);
    assertEquals(used?.prompt, "Say hi to Ada very warmly.");
    let refused: Error | null = null;
    await expandPromptCommand("/mcp__docs__greet", scope).catch((e) => refused = e);
    assertMatch(String(refused), /needs who/);
    assertEquals(await expandPromptCommand("/mcp__docs__nope x", scope), null);
  } finally {
    await m.close();
    await docs.close();
  }
});
