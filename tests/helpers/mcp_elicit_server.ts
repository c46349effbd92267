/**
 * An HTTP MCP server (sessions kept, so it can ask back during a call) whose `ask` tool
 * elicits a form from the client and answers with what came back; `bad_form` asks with
 * a schema the protocol does not allow.
 */
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "../../server/mcp/server/sdk.ts";

export const ASK_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", title: "Your name", minLength: 1, maxLength: 40 },
    team: { type: "string", title: "Team", enum: ["red", "blue"], enumNames: ["Red", "Blue"] },
    seats: { type: "integer", title: "Seats", minimum: 1, maximum: 9, default: 2 },
    remote: { type: "boolean", title: "Remote", default: false },
  },
  required: ["name", "team"],
};

export function startElicitServer() {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const sid = req.headers.get("mcp-session-id");
    const known = sid ? sessions.get(sid) : undefined;
    if (known) return await known.handleRequest(req);
    const server = new Server({ name: "asker", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        { name: "ask", description: "Asks the user", inputSchema: { type: "object" } },
        { name: "bad_form", description: "Asks badly", inputSchema: { type: "object" } },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (r) => {
      const requestedSchema = r.params.name === "bad_form"
        ? { type: "object", properties: { nested: { type: "object", properties: {} } } }
        : ASK_SCHEMA;
      try {
        const answer = await server.elicitInput({
          message: "Who <b>are</b> you?",
          requestedSchema: requestedSchema as typeof ASK_SCHEMA & { type: "object" },
        } as never);
        return { content: [{ type: "text", text: `answer: ${JSON.stringify(answer)}` }] };
      } catch (e) {
        return {
          content: [{ type: "text", text: `elicit failed: ${(e as Error).message}` }],
          isError: true,
        };
      }
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    await server.connect(transport);
    return await transport.handleRequest(req);
  });
  return {
    url: `http://127.0.0.1:${http.addr.port}/mcp`,
    // Open event streams would hold the shutdown: the sessions end first.
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
      await http.shutdown();
    },
  };
}
