/**
 * Agent overhead per step: a 200-step scripted run (tool call every step) against the
 * mock LLM through the real loop, store, hub and tool. The time spent inside the
 * provider adapter (HTTP to the mock, streaming) is measured and excluded; what is
 * left per step is the agent's own cost (persistence, fan-out, history, tools).
 */
import { startMockLlm } from "./mock-llm.ts";
import { createServices } from "../server/services.ts";
import { driveLoop } from "../agent/index.ts";
import { TimelineWriter } from "../server/agent/timeline_writer.ts";
import { adapterFor } from "../agent/providers/index.ts";
import { makeIdGenerator } from "../store/ids.ts";
import type { Adapter, LlmMessage } from "../agent/providers/types.ts";

export async function benchAgentSteps(
  steps = 200,
): Promise<{ medianMs: number; p95Ms: number; steps: number }> {
  const home = await Deno.makeTempDir({ prefix: "ra-bench-agent-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  await Deno.writeTextFile(`${home}/DefaultProject/a.txt`, "x");
  const mock = startMockLlm({ quiet: true });
  mock.register("bench", {
    turns: [{
      thinking: "step",
      text: "Working on it.",
      toolCalls: [{ name: "list_dir", args: { path: "." } }],
    }],
    repeatLast: true,
  });
  const deps = createServices({ home });
  const hub = deps.hub;
  // Ten connected clients receive every event (fan-out is part of the cost).
  for (let i = 0; i < 10; i++) {
    hub.add({
      id: `c${i}`,
      topics: new Set(["tasks", "task:bench"]),
      deliver: (e) => void JSON.stringify(e),
    });
  }
  const repos = deps.store.repos!;
  repos.tasks.create({ id: "bench", title: "bench", projectPath: null });
  repos.entries.append({
    id: "u1",
    taskId: "bench",
    role: "user",
    status: "done",
    parts: [{ type: "text", text: "go" }],
  });
  const inner = await adapterFor("openai-chat-completions");
  const inAdapter: number[] = [];
  const timed: Adapter = {
    async *stream(req, signal) {
      let t = performance.now();
      for await (const ev of inner.stream(req, signal)) {
        inAdapter[inAdapter.length - 1] += performance.now() - t;
        yield ev;
        t = performance.now();
      }
      inAdapter[inAdapter.length - 1] += performance.now() - t;
    },
  };
  const stepStart: number[] = [];
  const provider = {
    id: "mock",
    name: "Mock",
    format: "openai-chat-completions" as const,
    baseUrl: mock.base,
    apiKey: "x",
    enabled: true,
    models: [],
  };
  const model = {
    id: "bench",
    name: "bench",
    enabled: true,
    contextWindow: null,
    maxOutput: null,
    vision: null,
    effortLevels: null,
    defaultEffort: null,
    source: "manual" as const,
    price: null,
  };
  const tools = (await import("../tools/registry.ts")).defaultTools();
  const messages: LlmMessage[] = [{ role: "user", content: [{ type: "text", text: "go" }] }];
  const writer = new TimelineWriter("bench", repos.entries, hub, makeIdGenerator(), Date.now);
  const outcome = await driveLoop({
    adapter: timed,
    buildRequest: (m) => ({
      provider,
      model,
      system: "bench",
      messages: m,
      tools: tools.specs(),
      effort: "default",
      maxTokens: 1000,
    }),
    messages,
    tools,
    workspace: `${home}/DefaultProject`,
    maxSteps: steps,
    signal: new AbortController().signal,
  }, (ev) => {
    writer.apply(ev);
    if (ev.type === "step" && ev.phase === "model") {
      stepStart.push(performance.now());
      inAdapter.push(0);
    }
  });
  stepStart.push(performance.now());
  if (outcome.kind !== "maxSteps") {
    throw new Error(`bench run ended early: ${JSON.stringify(outcome)}`);
  }
  const overhead = stepStart.slice(1).map((t, i) => t - stepStart[i] - inAdapter[i]);
  hub.close();
  deps.store.close();
  await mock.close();
  await Deno.remove(home, { recursive: true });
  const sorted = [...overhead].sort((a, b) => a - b);
  return {
    medianMs: sorted[Math.floor(sorted.length / 2)],
    p95Ms: sorted[Math.floor(sorted.length * 0.95)],
    steps: overhead.length,
  };
}

if (import.meta.main) {
  const r = await benchAgentSteps();
  console.log(
    `agent overhead per step: median ${r.medianMs.toFixed(2)} ms, p95 ${
      r.p95Ms.toFixed(2)
    } ms over ${r.steps} steps (budget 5 ms)`,
  );
}
