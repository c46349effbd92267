/**
 * The MCP client side of `@modelcontextprotocol/sdk` (and our stdio transport, which
 * uses its framing), loaded when the first connection opens: the SDK and zod add
 * ~20 MB and their load time, which a server with no MCP servers never pays.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
export {
  ElicitRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
export { DenoStdioTransport } from "./stdio_transport.ts";
