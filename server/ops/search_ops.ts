/** Handlers for the ops in `protocol/search.ts`. */
import { join } from "../../lib/path.ts";
import type { PREVIEW_OP_ARGS, SEARCH_OP_ARGS } from "../../protocol/index.ts";
import { requestPreview } from "../agent/request_preview.ts";
import {
  type ContextBreakdown,
  type ContextCategory,
  type ContextCategoryInfo,
  estimateTokens,
} from "../../protocol/search.ts";
import { OpError } from "../errors.ts";
import { compactWatermark, DEFAULT_CONTEXT_WINDOW } from "../../protocol/index.ts";
import { microcompact } from "../agent/compaction/microcompact.ts";
import { type LlmMessage, resolveMaxTokens, type ToolSpec } from "../../agent/index.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import type { Repos } from "../../store/store.ts";
import { environmentOf, readAgentsFile, reminderBlock, systemPrompt } from "../agent/prompt.ts";
import { commandPolicy } from "../agent/command_policy.ts";
import { enabledSkills } from "../skills/discover.ts";
import { skillsSection } from "../skills/reminder.ts";
import { toConversation } from "../agent/history.ts";
import { goalSection } from "../agent/goal.ts";
import { personaOfTask } from "../agent/assistants/apply.ts";
import { memorySection } from "../agent/memory_reminder.ts";
import { memoryFilesOf } from "../agent/memory_access.ts";
import { loadSubagentCatalog, withSubagentTypes } from "../agent/subagents/turn_bridge.ts";
import { getSettings, resolveModel } from "../providers/catalog.ts";
import { defaultTools } from "../../tools/registry.ts";

/** What one category contributes, as text. */
interface Piece {
  key: ContextCategory;
  text: string;
  items: number;
  format: "markdown" | "json" | "text";
}

/**
 * The parts of the task's next request, built with the same functions the agent
 * uses in `server/agent/turn.ts` (system prompt, reminder, history, tool specs).
 */
export async function contextPieces(
  repos: Repos,
  home: string,
  taskId: string,
  opts: { now?: Date; tools?: ToolSpec[]; mcpTools?: ToolSpec[] } = {},
): Promise<{
  pieces: Piece[];
  model: string | null;
  contextWindow: number | null;
  compaction: ContextBreakdown["compaction"];
}> {
  const task = repos.tasks.get(taskId);
  if (!task) throw new OpError("not_found", `task ${taskId} does not exist`);
  const workspace = task.projectPath ?? join(home, "DefaultProject");
  const approval = task.settings.approval ?? getSettings(repos).defaultApproval;
  const persona = await personaOfTask(home, repos.kv, task.settings);
  const system = systemPrompt(environmentOf(workspace), approval, persona);
  const agents = await readAgentsFile(workspace);
  const enabled = await enabledSkills({
    home,
    workspace,
    hidden: commandPolicy(repos, home).hidden,
  });
  const skills = skillsSection(enabled);
  // The reminder without the skills (they are their own category); the turn sends both.
  const reminder = reminderBlock({
    now: opts.now ?? new Date(),
    agents,
    goal: goalSection(task.settings.goal),
    memory: await memorySection(memoryFilesOf(home, repos), workspace),
  });
  const messages: LlmMessage[] = microcompact(
    toConversation(repos.entries.latest(task.id, Number.MAX_SAFE_INTEGER)),
  );
  // The agent tool lists the workspace's sub-agent types, as in the turn.
  const tools = opts.tools ??
    withSubagentTypes(defaultTools().specs(), await loadSubagentCatalog(workspace, home));
  const mcpTools = opts.mcpTools ?? [];
  let model: string | null = null, contextWindow: number | null = null;
  let compaction: ContextBreakdown["compaction"] = null;
  try {
    const r = resolveModel(repos, task.settings.model);
    model = `${r.provider.id}/${r.model.id}`;
    contextWindow = r.model.contextWindow ?? null;
    compaction = {
      watermark: compactWatermark(contextWindow, resolveMaxTokens(r.model.maxOutput)),
      window: contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      windowKnown: contextWindow !== null,
    };
  } catch {
    // The model is not usable now: the window is unknown (shown as such).
  }
  return {
    model,
    contextWindow,
    compaction,
    pieces: [
      {
        key: "messages",
        text: messages.length ? JSON.stringify(messages, null, 2) : "",
        items: messages.length,
        format: "json",
      },
      { key: "system", text: system, items: 1, format: "markdown" },
      {
        key: "tools",
        text: tools.length ? JSON.stringify(tools, null, 2) : "",
        items: tools.length,
        format: "json",
      },
      { key: "user", text: reminder, items: agents ? 2 : 1, format: "markdown" },
      // The enabled skills' list, as the reminder of the next turn carries it.
      {
        key: "skills",
        text: skills ?? "",
        items: enabled.length,
        format: "markdown",
      },
      // The tools of the MCP servers connected now (the next turn connects the others).
      {
        key: "mcp",
        text: mcpTools.length ? JSON.stringify(mcpTools, null, 2) : "",
        items: mcpTools.length,
        format: "json",
      },
    ],
  };
}

export const SEARCH_HANDLERS: OpHandlers<keyof typeof SEARCH_OP_ARGS> = {
  "search.query": (ctx, args) => services(ctx).repos.entries.search(args.q),

  "task.contextBreakdown": async (ctx, args): Promise<ContextBreakdown> => {
    const { pieces, model, contextWindow, compaction } = await contextPieces(
      services(ctx).repos,
      ctx.home,
      args.id,
      {
        mcpTools: ctx.mcp
          ? await ctx.mcp.connectedSpecs(
            services(ctx).repos.tasks.get(args.id)?.settings.mcpServers,
          )
          : [],
      },
    );
    const categories: ContextCategoryInfo[] = pieces.map((p) => ({
      key: p.key,
      chars: p.text.length,
      tokens: estimateTokens(p.text),
      items: p.items,
    }));
    const picked = args.category ? pieces.find((p) => p.key === args.category)! : null;
    return {
      taskId: args.id,
      model,
      contextWindow,
      categories,
      totalTokens: categories.reduce((s, c) => s + c.tokens, 0),
      ...(picked ? { text: { key: picked.key, text: picked.text, format: picked.format } } : {}),
      compaction,
    };
  },
};

export const PREVIEW_HANDLERS: OpHandlers<keyof typeof PREVIEW_OP_ARGS> = {
  "task.requestPreview": async (ctx, args) =>
    requestPreview(args.id, await services(ctx).runs.preview(args.id)),
};
