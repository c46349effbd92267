/**
 * MCP tools as agent tools: `mcp__<server>__<tool>` with the server's own input schema
 * (checked by the shared validator before the call), permission kind `write`, the
 * config's policy, and results turned into text for the model plus structured details
 * for the MCP card. Everything a server sends is hostile input: names are reduced to
 * `[A-Za-z0-9_-]` (and de-duplicated), descriptions, schemas and results are bounded.
 */
import type { CallToolResult, Tool as SdkTool } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema, Schema } from "../../protocol/schema.ts";
import type { ToolPolicy } from "../../protocol/domain.ts";
import type { McpServerConfig, McpToolInfo } from "../../protocol/mcp_servers.ts";
import type { McpResultDetails, ToolDetails } from "../../protocol/tool_details.ts";
import { defineTool } from "../../tools/define.ts";
import { jsonSchemaArgs } from "../../tools/json_schema.ts";
import type { Tool, ToolResult } from "../../tools/types.ts";

export const MCP_PREFIX = "mcp__";
/** Providers accept tool names up to 64 characters. */
const NAME_MAX = 64;
const DESCRIPTION_MAX = 2000;
const SCHEMA_MAX_BYTES = 64 * 1024;
/** What the model reads of one result (head and tail kept), and the card's copies. */
export const RESULT_TEXT_MAX = 50_000;
const IMAGE_MAX_BYTES = 1024 * 1024;
const MAX_IMAGES = 4;
const STRUCTURED_MAX = 20_000;

/** `[A-Za-z0-9_-]` only; anything else becomes `_`. */
export const sanitiseName = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");

/**
 * Agent names for one server's tools: `mcp__<server>__<tool>`, sanitised, at most 64
 * characters, unique (among themselves and `taken`), in the server's order.
 */
export function agentNames(serverId: string, tools: string[], taken = new Set<string>()): string[] {
  const base = `${MCP_PREFIX}${sanitiseName(serverId)}__`;
  return tools.map((t) => {
    const name = (base + (sanitiseName(t) || "tool")).slice(0, NAME_MAX);
    let out = name;
    for (let n = 2; taken.has(out.toLowerCase()); n++) {
      const suffix = `_${n}`;
      out = name.slice(0, NAME_MAX - suffix.length) + suffix;
    }
    taken.add(out.toLowerCase());
    return out;
  });
}

/** Keeps the first and last part of a long text, saying how much was left out. */
export function bound(text: string, max = RESULT_TEXT_MAX): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.4), tail = max - head;
  return `${text.slice(0, head)}\n… [${text.length - max} characters left out] …\n${
    text.slice(-tail)
  }`;
}

const oneLine = (s: unknown, max: number) =>
  typeof s === "string" ? s.replace(/\s+/g, " ").trim().slice(0, max) : "";

/** The server's schema if usable (an object schema of reasonable size), else why not. */
export function usableSchema(tool: SdkTool): JsonSchema | string {
  const schema = tool.inputSchema as JsonSchema | undefined;
  if (!schema || typeof schema !== "object" || schema.type !== "object") {
    return "its input schema is not an object schema";
  }
  const size = JSON.stringify(schema).length;
  if (size > SCHEMA_MAX_BYTES) return `its input schema is too large (${size} bytes)`;
  return schema;
}

/** A `tools/call` result as the model's text and the card's details. */
export function convertResult(
  server: string,
  tool: string,
  r: CallToolResult,
): ToolResult<ToolDetails<"mcp">> {
  const texts: string[] = [];
  // What the card shows besides the text: images, links, structured content.
  const meta: McpResultDetails = {
    server,
    tool,
    images: [],
    imagesOmitted: 0,
    links: [],
    structured: null,
  };
  let budget = RESULT_TEXT_MAX * 2; // stop collecting far beyond what is kept
  const add = (t: string) => {
    if (budget <= 0) return;
    texts.push(t.slice(0, budget));
    budget -= t.length;
  };
  for (const c of Array.isArray(r.content) ? r.content : []) {
    if (c.type === "text") add(String(c.text ?? ""));
    else if (c.type === "image" || c.type === "audio") {
      const bytes = Math.floor(String(c.data ?? "").length * 3 / 4);
      add(`[${c.type} ${oneLine(c.mimeType, 80)}, ${bytes} bytes]`);
      if (
        c.type === "image" && meta.images.length < MAX_IMAGES && bytes <= IMAGE_MAX_BYTES &&
        /^image\/(png|jpeg|gif|webp)$/.test(String(c.mimeType))
      ) meta.images.push({ mimeType: String(c.mimeType), data: String(c.data) });
      else if (c.type === "image") meta.imagesOmitted++;
    } else if (c.type === "resource_link") {
      const link = { uri: oneLine(c.uri, 2000), name: oneLine(c.name, 200) };
      if (meta.links.length < 50) {
        meta.links.push(c.mimeType ? { ...link, mimeType: oneLine(c.mimeType, 80) } : link);
      }
      add(`[resource link: ${link.name} ${link.uri}]`);
    } else if (c.type === "resource") {
      const res = c.resource as { uri?: string; text?: string; blob?: string; mimeType?: string };
      if (typeof res.text === "string") add(`[resource ${oneLine(res.uri, 2000)}]\n${res.text}`);
      else {
        add(`[resource ${oneLine(res.uri, 2000)} ${oneLine(res.mimeType, 80)}, binary]`);
      }
    }
  }
  if (r.structuredContent !== undefined) {
    const json = JSON.stringify(r.structuredContent, null, 2) ?? "";
    meta.structured = bound(json, STRUCTURED_MAX);
    if (!texts.length) add(json);
  }
  let content = bound(texts.join("\n"));
  if (!content) content = r.isError ? "The tool failed without saying why." : "(no output)";
  return { content, isError: r.isError === true, meta: { mcp: meta } };
}

export interface McpToolSource {
  config: McpServerConfig;
  tools: SdkTool[];
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

/** The policy of a server's tool: per tool, else per server, else none (the mode decides). */
export function policyOf(config: McpServerConfig, tool: string): ToolPolicy | undefined {
  return config.toolPolicies?.[tool] ?? config.policy;
}

/** A server's tools as agent tools; tools with unusable schemas are named in `skipped`. */
export function buildTools(
  src: McpToolSource,
  taken: Set<string>,
): { tools: Tool[]; infos: McpToolInfo[]; skipped: string[] } {
  const tools: Tool[] = [], infos: McpToolInfo[] = [], skipped: string[] = [];
  const usable = src.tools.flatMap((t) => {
    const schema = usableSchema(t);
    if (typeof schema === "string") {
      skipped.push(`${oneLine(t.name, 80)}: ${schema}`);
      return [];
    }
    return [{ t, schema }];
  });
  const names = agentNames(src.config.id, usable.map(({ t }) => String(t.name)), taken);
  usable.forEach(({ t, schema }, i) => {
    const serverName = String(t.name);
    const description = oneLine(t.description ?? t.title ?? "", DESCRIPTION_MAX) ||
      `Tool ${oneLine(serverName, 80)} of the MCP server ${src.config.id}.`;
    infos.push({ name: oneLine(serverName, 200), agentName: names[i], description });
    tools.push(defineTool<Record<string, unknown>, ToolDetails<"mcp">>({
      name: names[i],
      description: `[MCP ${src.config.id}] ${description}`,
      args: jsonSchemaArgs(schema) as Schema<Record<string, unknown>>,
      kind: "write",
      placement: "main",
      policy: policyOf(src.config, serverName),
      async execute(args, ctx) {
        try {
          const r = await src.call(serverName, args, ctx.signal);
          return convertResult(src.config.id, serverName, r);
        } catch (e) {
          return {
            content: `MCP ${src.config.id}/${serverName} failed: ${(e as Error).message}`,
            isError: true,
            meta: {
              mcp: {
                server: src.config.id,
                tool: serverName,
                images: [],
                imagesOmitted: 0,
                links: [],
                structured: null,
              },
            },
          };
        }
      },
    }));
  });
  return { tools, infos, skipped };
}
