/**
 * Who is shown an MCP server's question (elicitation): in real turns (mock LLM, real
 * store and hub, a real HTTP MCP server that asks during its tool), the question goes to
 * the clients that have the asking task open — a client that has another task open, or
 * none, receives nothing of it (no event, not in its `mcp.elicitations`) — and is
 * answered from there. When no client has the task open it is asked of every client;
 * when the last viewer closes the task or disconnects, it moves to every client.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import { type EvtMsg, MCP_TOPIC, taskTopic } from "../protocol/index.ts";
import type { McpElicitation } from "../protocol/mcp_servers.ts";
import { saveServers } from "../server/mcp/config.ts";
import { startElicitServer } from "./helpers/mcp_elicit_server.ts";

interface Client {
  hub: HubClient;
  events: EvtMsg[];
  // deno-lint-ignore no-explicit-any
  op<T = any>(op: string, args?: unknown): Promise<T>;
}

async function env() {
  const srv = startElicitServer();
  const home = await Deno.makeTempDir({ prefix: "ra-elicit-route-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  await saveServers(home, [
    { id: "asker", enabled: true, transport: "http", command: "", args: [], url: srv.url },
  ]);
  const deps = createServices({ home, flushMs: 5 });
  const mock = startMockLlm({ quiet: true });
  mock.register("asks", {
    turns: [
      { toolCalls: [{ id: "q1", name: "mcp__asker__ask", args: {} }] },
      { text: "done" },
      { toolCalls: [{ id: "q2", name: "mcp__asker__ask", args: {} }] },
      { text: "done again" },
    ],
  });
  deps.store.repos!.providers.put({ ...mockProvider(mock.base, ["asks"]), id: "p" });
  const clients: Client[] = [];
  /** A client as a window's WebSocket is: the default topics, plus `tasks` it has open. */
  const client = (name: string): Client => {
    const events: EvtMsg[] = [];
    const hub: HubClient = {
      id: name,
      topics: new Set(["tasks", "approvals", MCP_TOPIC]),
      deliver: (e) => void events.push(...e),
    };
    deps.hub.add(hub);
    const ctx: OpContext = { ...deps, client: hub };
    const c: Client = {
      hub,
      events,
      async op(op, args = {}) {
        const out = await runOp(ctx, op, args);
        if (!out.ok) throw new Error(`${op} failed: ${out.error.code}: ${out.error.message}`);
        // deno-lint-ignore no-explicit-any
        return out.result as any;
      },
    };
    clients.push(c);
    return c;
  };
  const task = (title: string) =>
    deps.tasks!.create({
      title,
      options: { model: { providerId: "p", modelId: "asks" }, approval: "full" },
    }).task;
  return {
    deps,
    client,
    task,
    /** Sends the message that makes the model call the asking tool; the run's end. */
    run(taskId: string) {
      deps.tasks!.send(taskId, "ask me", [], {});
      return deps.runs!.start(taskId);
    },
    async close() {
      await deps.runs!.stopAll();
      await deps.mcp!.close();
      deps.hub.close();
      deps.store.close();
      await mock.close();
      await srv.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** Every question a client was sent, by any event. */
const seen = (c: Client): McpElicitation[] =>
  c.events.flatMap((e) => {
    const d = e.data as { kind?: string; list?: McpElicitation[] };
    return (d.kind === "mcpQuestions" || d.kind === "elicitations") && d.list ? d.list : [];
  });

const until = async (cond: () => boolean, what: string, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

Deno.test("an MCP question goes to the asking task's clients only, and is answered there", async () => {
  const e = await env();
  try {
    const t1 = e.task("asks");
    const t2 = e.task("other");
    const desk = e.client("desk"); // has t1 open
    const phone = e.client("phone"); // has t1 open too
    const other = e.client("other"); // has another task open
    const idle = e.client("idle"); // has no task open
    await desk.op("task.subscribe", { id: t1.id });
    await phone.op("task.subscribe", { id: t1.id });
    await other.op("task.subscribe", { id: t2.id });

    const ran = e.run(t1.id);
    await until(() => seen(desk).length > 0 && seen(phone).length > 0, "the question");
    const q = seen(desk)[0];
    assertEquals(q.taskIds, [t1.id]);
    assertEquals(q.everyone, false);
    const on = desk.events.find((x) => JSON.stringify(x.data).includes(q.id))!;
    assertEquals(on.topic, taskTopic(t1.id), "on the task's topic");
    // Another task's client and a client with no task open got nothing of it …
    e.deps.hub.flush();
    for (const c of [other, idle]) {
      assert(!JSON.stringify(c.events).includes(q.id), `${c.hub.id} received the question`);
      assertEquals((await c.op("mcp.elicitations")).list, [], `${c.hub.id} lists it`);
    }
    // … while the task's clients list it (and a client opening the task gets it).
    assertEquals((await phone.op("mcp.elicitations")).list.map((x: McpElicitation) => x.id), [
      q.id,
    ]);
    assertEquals(
      (await idle.op("mcp.elicitations", { taskId: t1.id })).list.map((x: McpElicitation) => x.id),
      [q.id],
    );

    // Answered from the phone: the form closes for the desk too, the tool gets the values.
    await phone.op("mcp.elicitationAnswer", {
      id: q.id,
      action: "accept",
      content: { name: "Ada", team: "red" },
    });
    await ran;
    const last = (c: Client) =>
      c.events.filter((x) => (x.data as { kind?: string }).kind === "mcpQuestions").at(-1);
    assertEquals((last(desk)!.data as { list: unknown[] }).list, []);
    const result = e.deps.store.repos!.entries.latest(t1.id, 100).find((x) => x.role === "tool")!;
    assertMatch(result.parts[0].text!, /"action":"accept".*"name":"Ada","team":"red"/);
    assert(!JSON.stringify(other.events).includes(q.id), "nor later");
  } finally {
    await e.close();
  }
});

Deno.test("nobody has the task open: every client is asked", async () => {
  const e = await env();
  try {
    const t1 = e.task("asks");
    const a = e.client("a");
    const b = e.client("b");
    const ran = e.run(t1.id);
    await until(() => seen(a).length > 0 && seen(b).length > 0, "the question for everyone");
    const q = seen(a)[0];
    assertEquals(q.everyone, true);
    assertEquals(q.taskIds, [t1.id], "it still names the task");
    assertEquals(a.events.find((x) => JSON.stringify(x.data).includes(q.id))!.topic, MCP_TOPIC);
    await b.op("mcp.elicitationAnswer", { id: q.id, action: "decline" });
    await ran;
  } finally {
    await e.close();
  }
});

Deno.test("the last viewer closes the task or leaves: the question goes to every client", async () => {
  const e = await env();
  try {
    const t1 = e.task("asks");
    const viewer = e.client("viewer");
    const bystander = e.client("bystander");
    await viewer.op("task.subscribe", { id: t1.id });
    let ran = e.run(t1.id);
    await until(() => seen(viewer).length > 0, "the question");
    let q = seen(viewer)[0];
    assert(!JSON.stringify(bystander.events).includes(q.id));
    // The viewer switches to another task.
    await viewer.op("task.unsubscribe", { id: t1.id });
    await until(() => seen(bystander).some((x) => x.id === q.id), "the question for everyone");
    assertEquals(seen(bystander).find((x) => x.id === q.id)!.everyone, true);
    await bystander.op("mcp.elicitationAnswer", { id: q.id, action: "cancel" });
    await ran;

    // Again, and this time the viewer disconnects.
    const before = seen(bystander).length;
    await viewer.op("task.subscribe", { id: t1.id });
    ran = e.run(t1.id);
    await until(() => seen(viewer).some((x) => x.id !== q.id), "a second question");
    q = seen(viewer).find((x) => x.id !== q.id)!;
    e.deps.hub.remove(viewer.hub);
    await until(
      () => seen(bystander).slice(before).some((x) => x.id === q.id),
      "the question after the viewer left",
    );
    await bystander.op("mcp.elicitationAnswer", { id: q.id, action: "decline" });
    await ran;
  } finally {
    await e.close();
  }
});
