/**
 * Handlers for the ops in `protocol/assistants.ts`, and the bindings a new task gets
 * from its assistant (called by `tasks.create`).
 */
import {
  ASSISTANT_OP_ARGS,
  type AssistantList,
  ASSISTANTS_TOPIC,
  type ModelRef,
  type TaskSettings,
} from "../../protocol/index.ts";
import { resolveModel } from "../providers/catalog.ts";
import { findAssistant, listAssistants, storedDefault } from "../agent/assistants/catalog.ts";
import { deleteAssistant, saveAssistant, setDefaultAssistant } from "../agent/assistants/files.ts";
import { bindingsOf } from "../agent/assistants/apply.ts";
import { OpError } from "../errors.ts";
import { type OpContext, services } from "./context.ts";
import type { OpHandlers } from "./types.ts";

/** The current list, pushed to every client that listed it (the page, the chips). */
async function changed(ctx: OpContext): Promise<AssistantList> {
  const list = await listAssistants(ctx.home, services(ctx).repos.kv);
  ctx.hub.publish(ASSISTANTS_TOPIC, { kind: "list", list }, "list");
  return list;
}

const usableIn = (ctx: OpContext) => (ref: ModelRef) => {
  try {
    resolveModel(services(ctx).repos, ref);
    return true;
  } catch {
    return false;
  }
};

/**
 * The settings a new task starts with from its assistant (`chosen`, else the global
 * default): options the user picked in the draft win over the bound ones.
 */
export async function newTaskSettings(
  ctx: OpContext,
  options: {
    model?: ModelRef | null;
    effort?: TaskSettings["effort"];
    approval?: TaskSettings["approval"];
    assistant?: string;
  } | undefined,
): Promise<Partial<TaskSettings>> {
  const { repos } = services(ctx);
  const { assistant: chosen, ...picked } = options ?? {};
  const id = chosen ?? storedDefault(repos.kv);
  const a = await findAssistant(ctx.home, id);
  if (!a) {
    if (chosen) throw new OpError("not_found", `assistant ${id} does not exist`);
    return picked; // a default that is gone: the task starts without one
  }
  const bound = bindingsOf(a, usableIn(ctx));
  const out: Partial<TaskSettings> = { ...picked, assistantId: a.id };
  if (picked.model == null && bound.model) out.model = bound.model;
  if (picked.effort == null && bound.effort) out.effort = bound.effort;
  if (bound.mcpServers) out.mcpServers = bound.mcpServers;
  return out;
}

export const ASSISTANT_HANDLERS: OpHandlers<keyof typeof ASSISTANT_OP_ARGS> = {
  "assistants.list": async (ctx) => {
    ctx.client.topics.add(ASSISTANTS_TOPIC);
    return await listAssistants(ctx.home, services(ctx).repos.kv);
  },
  "assistants.save": async (ctx, a) => {
    if (a.assistant.model) {
      try {
        resolveModel(services(ctx).repos, a.assistant.model);
      } catch (e) {
        throw new OpError("invalid_args", `the bound model: ${(e as Error).message}`);
      }
    }
    await saveAssistant(ctx.home, a.assistant, a.create);
    return await changed(ctx);
  },
  "assistants.delete": async (ctx, a) => {
    await deleteAssistant(ctx.home, services(ctx).repos.kv, a.id);
    return await changed(ctx);
  },
  "assistants.setDefault": async (ctx, a) => {
    await setDefaultAssistant(ctx.home, services(ctx).repos.kv, a.id);
    return await changed(ctx);
  },
  "task.setAssistant": async (ctx, a) => {
    const { tasks, repos } = services(ctx);
    const task = tasks.get(a.id);
    const found = await findAssistant(ctx.home, a.assistantId);
    if (!found) throw new OpError("not_found", `assistant ${a.assistantId} does not exist`);
    const next: TaskSettings = { ...task.settings, ...bindingsOf(found, usableIn(ctx)) };
    const saved = repos.tasks.setSettings(a.id, next);
    if (!saved) throw new OpError("not_found", `task ${a.id} does not exist`);
    tasks.publish(saved);
    return { task: saved };
  },
};
