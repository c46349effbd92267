/**
 * A server's resources for the agent: two tools per server that offers resources,
 * `mcp__<server>__list_resources` (one page, with the cursor for the next) and
 * `mcp__<server>__read_resource` (one URI). Reading is a read in the approval sense (the
 * protocol makes `resources/read` side-effect free); the server's `policy` still applies.
 * What comes back is hostile input like any tool result: bounded, binary only described.
 */
import { doc, obj, str } from "../../protocol/schema.ts";
import type { McpServerConfig } from "../../protocol/mcp_servers.ts";
import type { ToolDetails } from "../../protocol/tool_details.ts";
import { defineTool } from "../../tools/define.ts";
import type { Tool, ToolResult } from "../../tools/types.ts";
import { agentNames, bound } from "./tools.ts";

const PAGE_SHOWN = 200;
const oneLine = (s: unknown, max: number) =>
  typeof s === "string" ? s.replace(/\s+/g, " ").trim().slice(0, max) : "";

export interface McpResourceSource {
  config: McpServerConfig;
  list(cursor?: string): Promise<{
    resources: {
      uri: string;
      name?: string;
      title?: string;
      mimeType?: string;
      description?: string;
    }[];
    nextCursor?: string;
  }>;
  read(uri: string, signal: AbortSignal): Promise<{
    contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
  }>;
}

const failed = (id: string, what: string, e: unknown): ToolResult<ToolDetails<"mcp">> => ({
  content: `MCP ${id} ${what} failed: ${(e as Error).message}`,
  isError: true,
});

export function resourceTools(src: McpResourceSource, taken: Set<string>): Tool[] {
  const id = src.config.id;
  const [listName, readName] = agentNames(id, ["list_resources", "read_resource"], taken);
  const list = defineTool<{ cursor?: string }, ToolDetails<"mcp">>({
    name: listName,
    description: `[MCP ${id}] Lists the resources (files, records, documents) the MCP server ` +
      `${id} offers: URI, name, type. Read one with ${readName}.`,
    args: obj({ "cursor?": doc(str({ max: 1000 }), "The nextCursor of the previous page.") }),
    kind: "read",
    placement: "main",
    policy: src.config.toolPolicies?.["resources/list"] ?? src.config.policy,
    async execute(args) {
      try {
        const page = await src.list(args.cursor);
        const lines = page.resources.slice(0, PAGE_SHOWN).map((r) =>
          `- ${oneLine(r.uri, 2000)}  ${oneLine(r.title ?? r.name, 200)}${
            r.mimeType ? ` (${oneLine(r.mimeType, 80)})` : ""
          }${r.description ? ` — ${oneLine(r.description, 300)}` : ""}`
        );
        const more = page.nextCursor
          ? `\nMore: call ${listName} with cursor "${oneLine(page.nextCursor, 1000)}".`
          : "";
        return { content: bound((lines.join("\n") || "(no resources)") + more), isError: false };
      } catch (e) {
        return failed(id, "resources/list", e);
      }
    },
  });
  const read = defineTool<{ uri: string }, ToolDetails<"mcp">>({
    name: readName,
    description: `[MCP ${id}] Reads one resource of the MCP server ${id} by its URI ` +
      `(from ${listName}, or a resource link in a result).`,
    args: obj({ uri: doc(str({ min: 1, max: 4096 }), "The resource's URI.") }),
    kind: "read",
    placement: "main",
    policy: src.config.toolPolicies?.["resources/read"] ?? src.config.policy,
    async execute(args, ctx) {
      try {
        const r = await src.read(args.uri, ctx.signal);
        const parts = (Array.isArray(r.contents) ? r.contents : []).slice(0, 50).map((c) =>
          typeof c.text === "string"
            ? `[${oneLine(c.uri, 2000)}${
              c.mimeType ? ` ${oneLine(c.mimeType, 80)}` : ""
            }]\n${c.text}`
            : `[${oneLine(c.uri, 2000)} ${oneLine(c.mimeType, 80) || "binary"}, ${
              Math.floor(String(c.blob ?? "").length * 3 / 4)
            } bytes, not shown]`
        );
        return { content: bound(parts.join("\n\n") || "(empty resource)"), isError: false };
      } catch (e) {
        return failed(id, "resources/read", e);
      }
    },
  });
  return [list, read];
}
