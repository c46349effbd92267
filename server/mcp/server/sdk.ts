/**
 * The parts of `@modelcontextprotocol/sdk` the MCP server uses, in one place. The
 * package's `./*` export maps types to `*.js.d.ts`, which does not exist, so each
 * runtime import (`….js`) gets its types from the extension-less subpath.
 */
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export {
  type EventStore,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
export { Server } from "@modelcontextprotocol/sdk/server";
