/**
 * The loop on its own: no server, no store, no hub. A scripted adapter answers, tools
 * are plain definitions, and what the loop reports is read as its typed events.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  type Adapter,
  type AgentEvent,
  driveLoop,
  type Gate,
  type LlmMessage,
  type LoopInput,
  type StreamEvent,
  type StreamRequest,
} from "../agent/index.ts";
import { ProviderError } from "../agent/providers/errors.ts";
import { defineTool } from "../tools/define.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { int, obj, str } from "../protocol/schema.ts";
import { ok } from "../tools/types.ts";

/** Answers with the next script on each request; records what it was sent. */
function scripted(steps: (StreamEvent[] | Error)[]): Adapter & { requests: StreamRequest[] } {
  const requests: StreamRequest[] = [];
  return {
    requests,
    async *stream(req) {
      requests.push(structuredClone(req));
      const next = steps.shift();
      if (!next) throw new Error("no more answers scripted");
      if (next instanceof Error) throw next;
      for (const ev of next) yield await Promise.resolve(ev);
    },
  };
}

const call = (index: number, id: string, name: string, args: Record<string, unknown>) =>
  [
    { type: "tool_call_start", index, id, name },
    { type: "tool_call", index, id, name, args },
  ] as StreamEvent[];

const text = (t: string): StreamEvent[] => [{ type: "text", delta: t }, {
  type: "stop",
  reason: "end",
}];

/** A read tool that records when it ran and can be held open to show concurrency. */
function tools() {
  const running: string[] = [];
  let maxAtOnce = 0;
  let open = 0;
  const look = defineTool<{ what: string }>({
    name: "look",
    description: "Looks.",
    args: obj({ what: str({ max: 100 }) }),
    kind: "read",
    placement: "main",
    async execute(args) {
      open++;
      maxAtOnce = Math.max(maxAtOnce, open);
      running.push(args.what);
      await new Promise((r) => setTimeout(r, 5));
      open--;
      return ok(`saw ${args.what}`);
    },
  });
  const change = defineTool<{ n: number }>({
    name: "change",
    description: "Changes.",
    args: obj({ n: int({ min: 1, max: 9 }) }),
    kind: "write",
    placement: "main",
    execute: (args) => ok(`changed ${args.n}`),
  });
  return { registry: new ToolRegistry([look, change]), running, maxAtOnce: () => maxAtOnce };
}

function input(adapter: Adapter, registry: ToolRegistry, extra: Partial<LoopInput> = {}) {
  const messages: LlmMessage[] = [{ role: "user", content: [{ type: "text", text: "go" }] }];
  return {
    adapter,
    buildRequest: (m: LlmMessage[]): StreamRequest => ({
      provider: {
        id: "p",
        name: "P",
        format: "openai-chat-completions",
        baseUrl: "http://127.0.0.1:9",
        apiKey: "",
        enabled: true,
        models: [],
      },
      model: {
        id: "m",
        name: "m",
        enabled: true,
        contextWindow: null,
        maxOutput: null,
        vision: null,
        effortLevels: null,
        defaultEffort: null,
        source: "manual",
        price: null,
      },
      system: "s",
      messages: m,
      tools: registry.specs(),
      effort: "default",
      maxTokens: 100,
    }),
    messages,
    tools: registry,
    workspace: "/nonexistent",
    maxSteps: 5,
    signal: new AbortController().signal,
    now: () => 0,
    ...extra,
  } as LoopInput;
}

async function collect(i: LoopInput) {
  const events: AgentEvent[] = [];
  const outcome = await driveLoop(i, (ev) => events.push(structuredClone(ev)));
  return { events, outcome, types: events.map((e) => e.type) };
}

Deno.test("a step with tool calls: events in order, reads concurrent, results fed back", async () => {
  const t = tools();
  const adapter = scripted([
    [
      { type: "text", delta: "Looking." },
      ...call(0, "a", "look", { what: "x" }),
      ...call(1, "b", "look", { what: "y" }),
      ...call(2, "c", "change", { n: 2 }),
      { type: "usage", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 0 } },
      { type: "stop", reason: "tool_use" },
    ],
    text("Done."),
  ]);
  const i = input(adapter, t.registry);
  const { events, outcome, types } = await collect(i);
  assertEquals(outcome, { kind: "done", steps: 2 });
  assertEquals(types.slice(0, 3), ["step", "message_start", "message_streaming"]);
  const finished = events.filter((e) => e.type === "tool_call_finished");
  assertEquals(finished.map((e) => e.type === "tool_call_finished" && e.result.content), [
    "saw x",
    "saw y",
    "changed 2",
  ]);
  // The two reads ran side by side; the write after them.
  assertEquals(t.maxAtOnce(), 2);
  const end = events.find((e) => e.type === "message_end");
  assert(end?.type === "message_end" && end.status === "done" && end.stopReason === "tool_use");
  assertEquals(end.usage?.input, 10);
  // Each call: requested while streaming, then approved, started, finished.
  const forC = events.filter((e) => "call" in e && e.call.id === "c").map((e) => e.type);
  assertEquals(forC, [
    "tool_call_requested",
    "tool_call_approved",
    "tool_call_started",
    "tool_call_finished",
  ]);
  // The second request carries the answer and the three results, in order.
  const second = adapter.requests[1].messages;
  assertEquals(second.map((m) => m.role), ["user", "assistant", "tool", "tool", "tool"]);
  assertEquals(i.messages.at(-1)?.role, "assistant");
});

Deno.test("one check per call: unknown tool and bad arguments never reach the gate", async () => {
  const t = tools();
  const gated: string[] = [];
  const gate: Gate = (c) => {
    gated.push(c.name);
    return Promise.resolve(
      c.name === "change"
        ? { allow: false, reason: "No changes today.", refusal: { code: "rejected" } }
        : { allow: true },
    );
  };
  const adapter = scripted([
    [
      ...call(0, "a", "nope", {}),
      ...call(1, "b", "look", { what: 3 }),
      ...call(2, "c", "change", { n: 1 }),
      { type: "stop", reason: "tool_use" },
    ],
    text("ok"),
  ]);
  const { events } = await collect(input(adapter, t.registry, { gate }));
  assertEquals(gated, ["change"]);
  const results = events.flatMap((e) => e.type === "tool_call_finished" ? [e.result] : []);
  assert(results[0].content.startsWith('Unknown tool "nope". Available tools: look, change.'));
  assert(results[1].content.includes("args.what"), results[1].content);
  assertEquals(results[2], {
    content: "No changes today.",
    isError: true,
    meta: { refusal: { code: "rejected" } },
  });
  assertEquals(events.filter((e) => e.type === "tool_call_started").length, 0);
  assertEquals(t.running, []);
});

Deno.test("a retry is announced while it waits, then cleared when the answer streams", async () => {
  const t = tools();
  const busy = new ProviderError({ message: "busy", category: "server", status: 503 });
  const adapter = scripted([busy, text("hello")]);
  const { events, outcome } = await collect(input(adapter, t.registry));
  assertEquals(outcome, { kind: "done", steps: 1 });
  const retries = events.flatMap((e) => e.type === "retry" ? [e.notice?.attempt ?? null] : []);
  assertEquals(retries[0], 1);
  assertEquals(retries.at(-1), null);
  const at = (type: string) => events.findIndex((e) => e.type === type);
  assert(at("retry") < at("message_streaming"));
});

Deno.test("the step budget ends a run that keeps calling tools", async () => {
  const t = tools();
  const again = () =>
    [...call(0, "a", "look", { what: "x" }), {
      type: "stop",
      reason: "tool_use",
    }] as StreamEvent[];
  const adapter = scripted([again(), again()]);
  const { outcome, types } = await collect(input(adapter, t.registry, { maxSteps: 2 }));
  assertEquals(outcome, { kind: "maxSteps", steps: 2 });
  assertEquals(types.at(-1), "max_steps");
});

Deno.test("a refusal ends the run as done with the reason, and an error is an event", async () => {
  const t = tools();
  const refused = await collect(input(
    scripted([[{ type: "text", delta: "I can't." }, { type: "stop", reason: "refusal" }]]),
    t.registry,
  ));
  assertEquals(refused.outcome, { kind: "done", steps: 1, stop: "refusal" });
  const bad = new ProviderError({ message: "bad key", category: "auth", status: 401 });
  const failed = await collect(input(scripted([bad]), t.registry));
  assertEquals(failed.outcome.kind, "error");
  assertEquals(failed.types.slice(-2), ["message_end", "error"]);
});

Deno.test("a stop during a tool call: the call reports it, the run is stopped", async () => {
  const ac = new AbortController();
  const slow = defineTool<Record<string, never>>({
    name: "slow",
    description: "Slow.",
    args: obj({}),
    kind: "exec",
    placement: "main",
    execute: (_a, ctx) =>
      new Promise((resolve) => {
        ac.abort();
        ctx.signal.addEventListener("abort", () => resolve({ content: "killed", isError: true }));
        if (ctx.signal.aborted) resolve({ content: "killed", isError: true });
      }),
  });
  const adapter = scripted([[...call(0, "a", "slow", {}), { type: "stop", reason: "tool_use" }]]);
  const { outcome, events } = await collect(
    input(adapter, new ToolRegistry([slow]), { signal: ac.signal }),
  );
  assertEquals(outcome, { kind: "stopped", steps: 1 });
  const done = events.find((e) => e.type === "tool_call_finished");
  assert(done?.type === "tool_call_finished");
  assertEquals(done.result.content, "The user stopped the run before this tool call finished.");
});
