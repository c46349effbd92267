/**
 * An approval-gate harness for integration tests: services on a temp home with a mock
 * LLM playing `turns`, a task starter per approval mode (optionally with tool
 * policies), and a waiter for the next live approval.
 */
import { mockProvider } from "./seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { createServices } from "../../server/services.ts";
import type { Part, PendingApproval } from "../../protocol/index.ts";

export async function setup(turns: unknown[]) {
  const home = await Deno.makeTempDir({ prefix: "ra-appr-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  const mock = startMockLlm({ quiet: true });
  const model = `appr-${crypto.randomUUID()}`;
  mock.register(model, { turns: turns as never, repeatLast: true });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, [model]));
  const ws = `${home}/DefaultProject`;
  const start = (approval: "ask" | "edit" | "plan" | "full", toolPolicies?: object) => {
    const { task } = deps.tasks!.create({
      title: "t",
      message: "go",
      options: { model: { providerId: "mock", modelId: model }, approval },
    });
    if (toolPolicies) {
      const t = deps.store.repos!.tasks.get(task.id)!;
      deps.store.repos!.tasks.setSettings(task.id, { ...t.settings, toolPolicies } as never);
    }
    return { task, done: deps.runs!.start(task.id) };
  };
  const seen = new Set<string>();
  /** The next live approval not handed out before. */
  const waitPending = async (): Promise<PendingApproval> => {
    for (let i = 0; i < 300; i++) {
      const p = deps.approvals!.list().find((x) => x.live && !seen.has(x.id));
      if (p) {
        seen.add(p.id);
        return p;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("no pending approval appeared");
  };
  const results = (taskId: string): Part[] =>
    deps.store.repos!.entries.latest(taskId, 100).filter((e) => e.role === "tool").map((e) =>
      e.parts[0]
    );
  return {
    home,
    deps,
    ws,
    start,
    waitPending,
    results,
    async close() {
      await deps.runs!.stopAll();
      deps.hub.close();
      deps.store.close();
      await mock.close();
    },
  };
}
