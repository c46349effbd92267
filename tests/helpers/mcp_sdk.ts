/**
 * The MCP SDK's own client, for tests that drive ReinAgent's MCP server the way a
 * third-party agent does (types from the extension-less subpaths: see server/mcp/server/sdk.ts).
 */
export { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export { type CallToolResult, McpError } from "@modelcontextprotocol/sdk/types.js";
