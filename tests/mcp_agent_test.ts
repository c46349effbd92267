/**
 * MCP tools in real agent turns (mock LLM, real store, real server-everything child):
 * the model is offered `mcp__<server>__<tool>` with the server's schema, its call runs
 * through the gate and the runner and lands in the timeline with the MCP details;
 * a server's `deny` policy refuses, and a broken server is reported while the turn runs.
 */
import { until } from "./helpers/until.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { entries, env, runTask } from "./helpers/agent_env.ts";
import { everythingStdio, mcpPackagesAvailable } from "./helpers/mcp_servers.ts";
import { saveServers } from "../server/mcp/config.ts";
import { MCP_TOPIC, type McpEvent } from "../protocol/mcp_servers.ts";
import { mockProvider } from "./helpers/seed.ts";
import { toConversation } from "../server/agent/history.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";

const available = await mcpPackagesAvailable();
const opts = { ignore: !available };

const toolResults = (list: ReturnType<typeof entries>) =>
  list.filter((e) => e.role === "tool").flatMap((e) => e.parts);

Deno.test("the model calls an MCP tool: schema offered, result in the timeline", opts, async () => {
  const e = await env();
  try {
    await saveServers(e.deps.home, [everythingStdio()]);
    const model = e.scenario({
      turns: [
        { toolCalls: [{ name: "mcp__everything__echo", args: { message: "from the model" } }] },
        { text: "done" },
      ],
    });
    const { task, outcome } = await runTask(e, model, "echo something", "t", "full");
    assertEquals(outcome?.kind, "done");
    const [result] = toolResults(entries(e, task.id));
    assertEquals(result.text, "Echo: from the model");
    const data = result.data as { isError: boolean; meta: { mcp: { server: string } } };
    assertEquals(data.isError, false);
    assertEquals(data.meta.mcp.server, "everything");
    const req = e.mock.requests(model.modelId)[0].body as { tools: { function: unknown }[] };
    const spec = req.tools.map((t) => t.function as { name: string; parameters: unknown })
      .find((f) => f.name === "mcp__everything__echo");
    assert(spec, "the tool is offered");
    assertEquals((spec.parameters as { required: string[] }).required, ["message"]);
    // The context breakdown counts the connected server's tools as MCP.
    const ctx = { ...e.deps, client: { id: "t", topics: new Set<string>(), deliver: () => {} } };
    const r = await runOp(ctx as unknown as OpContext, "task.contextBreakdown", {
      id: task.id,
      category: "mcp",
    });
    assert(r.ok);
    const b = r.result as { categories: { key: string; items: number }[]; text: { text: string } };
    assert(b.categories.find((c) => c.key === "mcp")!.items > 5);
    assertMatch(b.text.text, /mcp__everything__echo/);
  } finally {
    await e.close();
  }
});

Deno.test(
  "a server's deny policy refuses its tools; a broken server is reported, the turn runs",
  opts,
  async () => {
    const e = await env();
    try {
      await saveServers(e.deps.home, [
        { ...everythingStdio(), toolPolicies: { echo: "deny" } },
        { id: "broken", enabled: true, transport: "stdio", command: "/no/such/mcp", args: [] },
      ]);
      const model = e.scenario({
        turns: [
          { toolCalls: [{ name: "mcp__everything__echo", args: { message: "x" } }] },
          { text: "ok" },
        ],
      });
      const { task, outcome } = await runTask(e, model, "try", "t", "full");
      assertEquals(outcome?.kind, "done");
      const [result] = toolResults(entries(e, task.id));
      assertMatch(result.text ?? "", /denied the mcp__everything__echo tool in its MCP server/);
      const failuresNow = () =>
        e.events.filter((ev) => ev.topic === MCP_TOPIC)
          .map((ev) => ev.data as McpEvent).filter((d) => d.kind === "failure");
      await until(() => failuresNow().length > 0, "the failure event");
      const failures = failuresNow();
      assert(
        failures.some((f) => f.kind === "failure" && f.id === "broken" && f.phase === "spawn"),
      );
    } finally {
      await e.close();
    }
  },
);

Deno.test(
  "images an MCP tool returns reach a vision model after the step's results",
  opts,
  async () => {
    const e = await env();
    try {
      await saveServers(e.deps.home, [everythingStdio()]);
      const scenario = {
        turns: [
          {
            toolCalls: [
              { id: "i1", name: "mcp__everything__get-tiny-image", args: {} },
              { id: "i2", name: "mcp__everything__echo", args: { message: "x" } },
            ],
          },
          { text: "I see it" },
        ],
      };
      e.mock.register("mcp-vision", scenario);
      e.mock.register("mcp-blind", scenario);
      e.deps.store.repos!.providers.put({
        ...mockProvider(e.mock.base, ["mcp-vision", "mcp-blind"]),
        id: "pv",
      });
      for (const modelId of ["mcp-vision", "mcp-blind"]) {
        const { task, outcome } = await runTask(
          e,
          { providerId: "pv", modelId },
          "look",
          "t",
          "full",
        );
        assertEquals(outcome?.kind, "done");
        type Msg = { role: string; content: unknown };
        const second = e.mock.requests(modelId)[1].body as { messages: Msg[] };
        const roles = second.messages.map((m) => m.role);
        const withImage = second.messages.filter((m) =>
          Array.isArray(m.content) &&
          (m.content as { type: string }[]).some((c) => c.type === "image_url")
        );
        if (modelId === "mcp-vision") {
          // Both tool results directly after the call, then the images as one user message.
          assertEquals(roles.slice(-3), ["tool", "tool", "user"]);
          assertEquals(withImage.length, 1);
          assertMatch(JSON.stringify(withImage[0].content), /get-tiny-image.*not from the user/);
          // The next turn's history (rebuilt from the store) says the same.
          const conv = toConversation(entries(e, task.id), undefined, { vision: true });
          const imgs = conv.filter((m) =>
            m.role === "user" && m.content.some((c) => c.type === "image")
          );
          assertEquals(imgs.length, 1);
        } else {
          assertEquals(withImage.length, 0, "no images for a model without vision");
          assertEquals(roles.at(-1), "tool");
        }
      }
    } finally {
      await e.close();
    }
  },
);
