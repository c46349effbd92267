/**
 * The workbench as an MCP server: one SDK `Server` per MCP session,
 * listing the tools below and running them for the session. Arguments are checked
 * against each tool's schema before it runs; a bad call comes back as a tool error
 * (`isError`) that says what is wrong, an unknown tool as a protocol error.
 */
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  Server,
  SetLevelRequestSchema,
} from "./sdk.ts";
import { completeTaskId, listResources, readResource, RESOURCE_TEMPLATES } from "./resources.ts";
import { getPrompt, listPrompts, type PromptHost } from "./prompts.ts";
import { McpOpError } from "./op_port.ts";
import type { ClientInfo } from "../../../protocol/index.ts";
import { parse } from "../../../protocol/schema.ts";
import type { McpSession, McpTool } from "./tool_kit.ts";
import {
  getTaskOptions,
  getTaskStatus,
  listModels,
  listTasks,
  waitForTaskTool,
} from "./read_tools.ts";
import {
  createTaskTool,
  markTaskRead,
  removeQueuedMessage,
  sendMessage,
  startDraft,
  stopTask,
  switchTask,
} from "./task_tools.ts";
import { approveTool, setApprovalMode, setModel, setThinkingLevel } from "./control_tools.ts";

export const MCP_TOOLS: readonly McpTool[] = [
  listTasks,
  getTaskStatus,
  listModels,
  getTaskOptions,
  createTaskTool,
  sendMessage,
  startDraft,
  stopTask,
  approveTool,
  switchTask,
  setModel,
  setApprovalMode,
  setThinkingLevel,
  removeQueuedMessage,
  markTaskRead,
  waitForTaskTool,
];
const BY_NAME = new Map(MCP_TOOLS.map((t) => [t.name, t]));

const INSTRUCTIONS =
  "ReinAgent is a coding-agent workbench. Tasks are conversations with its agent in a folder. " +
  "To delegate work: create_task with a message (or send_message to an existing task), then " +
  "wait_for_task; answer approvals it reports with approve_tool. Everything you do shows live in " +
  "the user's ReinAgent windows.";

/** How often a call in progress says so (when the caller passed a progress token). */
const PROGRESS_MS = 1000;

const errorResult = (text: string): CallToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

/** Runs one tool call: validated arguments, the result as JSON text and structured content. */
export async function callTool(
  session: McpSession,
  name: string,
  args: unknown,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const tool = BY_NAME.get(name);
  if (!tool) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `unknown tool "${name}" (tools/list shows the tools)`,
    );
  }
  const parsed = parse(tool.args, args ?? {});
  if (!parsed.ok) return errorResult(`invalid_args: ${parsed.problems.join("; ")}`);
  try {
    const result = (await tool.run(session, parsed.value, signal)) as Record<string, unknown>;
    return {
      content: [{ type: "text", text: JSON.stringify(result, null, 2) }],
      structuredContent: result,
    };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return errorResult(`${code}: ${(e as Error).message}`);
    console.error(`mcp tool ${name} failed:`, e);
    return errorResult(`internal: ${(e as Error).message}`);
  }
}

/** An MCP client's name as a record shows it: printable and short. */
export function clientName(server: Server): string {
  // deno-lint-ignore no-control-regex
  return (server.getClientVersion()?.name ?? "").replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 60);
}

/** An op error as the protocol error a client understands (unknown things are InvalidParams). */
async function asMcp<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof McpOpError) {
      const code = e.code === "internal" ? ErrorCode.InternalError : ErrorCode.InvalidParams;
      throw new McpError(code, `${e.code}: ${e.message}`);
    }
    throw e;
  }
}

export function createMcpServer(session: McpSession, version: string, host: PromptHost): Server {
  const server = new Server(
    { name: "reinagent", title: "ReinAgent", version },
    {
      capabilities: {
        tools: {},
        resources: {},
        prompts: {},
        completions: {},
        logging: {},
      },
      instructions: INSTRUCTIONS,
    },
  );
  const ops = session.ops;
  server.setRequestHandler(
    ListResourcesRequestSchema,
    (req) => asMcp(() => listResources(ops, req.params?.cursor)),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler(
    ReadResourceRequestSchema,
    (req) => asMcp(() => readResource(ops, req.params.uri)),
  );
  server.setRequestHandler(ListPromptsRequestSchema, () => asMcp(() => listPrompts(ops)));
  server.setRequestHandler(
    GetPromptRequestSchema,
    (req) => asMcp(() => getPrompt(ops, host, req.params.name, req.params.arguments)),
  );
  server.setRequestHandler(CompleteRequestSchema, (req) =>
    asMcp(async () => {
      const ref = req.params.ref as { type: string; uri?: string };
      const isTask = ref.type === "ref/resource" && ref.uri?.startsWith("reinagent://task/");
      if (!isTask || req.params.argument.name !== "taskId") {
        return { completion: { values: [], total: 0, hasMore: false } };
      }
      return { completion: await completeTaskId(ops, req.params.argument.value) };
    }));
  // Log messages are not sent today; the level is accepted so clients that set it work.
  server.setRequestHandler(SetLevelRequestSchema, () => ({}));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: MCP_TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.args.toJsonSchema() as { type: "object" },
      annotations: { title: t.title, readOnlyHint: t.readOnly, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    // A caller that asked for progress hears from a long call (wait_for_task), so a
    // client timeout that resets on progress does not cut it.
    const token = req.params._meta?.progressToken;
    let beats = 0;
    const beat = token === undefined ? undefined : setInterval(() => {
      void extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: ++beats, message: "still working" },
      }).catch(() => {});
    }, PROGRESS_MS);
    try {
      return await callTool(session, req.params.name, req.params.arguments, extra.signal);
    } finally {
      clearInterval(beat);
    }
  });
  return server;
}

/** Who an MCP session is, for safety notices and records ("an MCP client (claude-code)"). */
export function mcpClientInfo(server: Server, ip?: string): ClientInfo {
  return { kind: "mcp", browser: clientName(server), os: "", ...(ip ? { ip } : {}) };
}
