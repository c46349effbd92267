/** Handlers for the ops in `protocol/search.ts`. */
import { join } from "node:path";
import type { SEARCH_OP_ARGS } from "../../protocol/index.ts";
import {
  type ContextBreakdown,
  type ContextCategory,
  type ContextCategoryInfo,
  estimateTokens,
} from "../../protocol/search.ts";
import { OpError } from "../errors.ts";
import { services } from "./context.ts";
import type { OpHandlers } from "./types.ts";
import type { Repos } from "../../store/store.ts";
import { environmentOf, readAgentsFile, reminderBlock, systemPrompt } from "../agent/prompt.ts";
import { toConversation } from "../agent/history.ts";
import { goalSection } from "../agent/goal.ts";
import { getSettings, resolveModel } from "../providers/catalog.ts";
import { defaultTools } from "../../tools/registry.ts";
import type { LlmMessage, ToolSpec } from "../providers/types.ts";

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
): Promise<{ pieces: Piece[]; model: string | null; contextWindow: number | null }> {
  const task = repos.tasks.get(taskId);
  if (!task) throw new OpError("not_found", `task ${taskId} does not exist`);
  const workspace = task.projectPath ?? join(home, "DefaultProject");
  const approval = task.settings.approval ?? getSettings(repos).defaultApproval;
  const system = systemPrompt(environmentOf(workspace), approval);
  const agents = await readAgentsFile(workspace);
  const reminder = reminderBlock({
    now: opts.now ?? new Date(),
    agents,
    goal: goalSection(task.settings.goal),
  });
  const messages: LlmMessage[] = toConversation(
    repos.entries.latest(task.id, Number.MAX_SAFE_INTEGER),
  );
  const tools = opts.tools ?? defaultTools().specs();
  const mcpTools = opts.mcpTools ?? [];
  let model: string | null = null, contextWindow: number | null = null;
  try {
    const r = resolveModel(repos, task.settings.model);
    model = `${r.provider.id}/${r.model.id}`;
    contextWindow = r.model.contextWindow ?? null;
  } catch {
    // The model is not usable now: the window is unknown (shown as such).
  }
  return {
    model,
    contextWindow,
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
      // Skills do not exist yet: nothing of theirs is sent.
      { key: "skills", text: "", items: 0, format: "text" },
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
    const { pieces, model, contextWindow } = await contextPieces(
      services(ctx).repos,
      ctx.home,
      args.id,
      { mcpTools: ctx.mcp ? await ctx.mcp.connectedSpecs() : [] },
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
      compaction: false,
    };
  },
};
