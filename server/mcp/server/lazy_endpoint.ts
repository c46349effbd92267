/**
 * `/mcp` without its cost until used: the MCP SDK (and zod) add ~20 MB and their load
 * time to every start, so the endpoint is imported on the first request.
 */
import type { ServerDeps } from "../../ops/context.ts";
import type { McpHttpEndpoint } from "./http_endpoint.ts";

export interface McpEndpoint {
  handle(req: Request, ip: string): Promise<Response>;
  closeAll(): Promise<void>;
}

export function lazyMcpEndpoint(deps: ServerDeps, now: () => number): McpEndpoint {
  let endpoint: Promise<McpHttpEndpoint> | null = null;
  const load = () =>
    endpoint ??= import("./http_endpoint.ts").then((m) => new m.McpHttpEndpoint(deps, now));
  return {
    handle: async (req, ip) => (await load()).handle(req, ip),
    closeAll: async () => {
      if (endpoint) await (await endpoint).closeAll();
    },
  };
}
