/** An in-process agent environment: real store and runs, the mock LLM, every event seen. */
import { mockProvider } from "./seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import type { Scenario } from "../../scripts/mock_llm/scenario.ts";
import { createServices } from "../../server/services.ts";
import type { ServerDeps } from "../../server/ops/context.ts";
import type { Entry, EvtMsg } from "../../protocol/index.ts";
import type { ApiFormat, ModelInfo } from "../../agent/providers/types.ts";

export interface Env {
  deps: ServerDeps;
  mock: ReturnType<typeof startMockLlm>;
  events: EvtMsg[];
  /** Registers a scenario as a model of a new provider (`model`: overrides of its info). */
  scenario(
    s: Scenario,
    format?: ApiFormat,
    model?: Partial<ModelInfo>,
  ): { providerId: string; modelId: string };
  close(): Promise<void>;
}

/** A watcher subscribed to every topic. */
class AllTopics extends Set<string> {
  override has(): boolean {
    return true;
  }
}

let n = 0;
export async function env(): Promise<Env> {
  const home = await Deno.makeTempDir({ prefix: "ra-agent-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  const deps = createServices({ home, flushMs: 5 });
  const mock = startMockLlm({ quiet: true });
  const events: EvtMsg[] = [];
  deps.hub.add({ id: "watcher", topics: new AllTopics(), deliver: (e) => events.push(...e) });
  return {
    deps,
    mock,
    events,
    scenario(s, format = "openai-chat-completions", model = {}) {
      const modelId = `agent-${++n}`;
      mock.register(modelId, s);
      const providerId = `p${n}`;
      const p = mockProvider(mock.base, [modelId], format);
      deps.store.repos!.providers.put({
        ...p,
        models: p.models.map((m) => ({ ...m, ...model })),
        id: providerId,
        name: `Mock ${n}`,
      });
      return { providerId, modelId };
    },
    async close() {
      await deps.runs!.stopAll();
      await deps.mcp?.close();
      deps.hub.close();
      deps.store.close();
      await mock.close();
    },
  };
}

export const entries = (e: Env, taskId: string): Entry[] =>
  e.deps.store.repos!.entries.latest(taskId, 1000);

export async function runTask(
  e: Env,
  model: { providerId: string; modelId: string },
  text: string,
  title?: string,
  approval?: "full",
) {
  // A given title turns off model-generated titles (which would also call the mock).
  const { task } = e.deps.tasks!.create({
    message: text,
    title,
    options: { model, ...(approval ? { approval } : {}) },
  });
  const outcome = await e.deps.runs!.start(task.id);
  return { task, outcome };
}
