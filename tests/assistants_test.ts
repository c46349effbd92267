/**
 * Assistants end to end in-process with the mock LLM: the persona reaches
 * the system prompt the model receives, the bound model / effort / MCP servers apply
 * once, the global default, and the files' validation (bad frontmatter reported and
 * kept, hostile ids refused, built-ins read-only, sizes bounded).
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { type Env, env } from "./helpers/agent_env.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import type { AssistantInput, AssistantList, ProtocolError } from "../protocol/index.ts";
import { saveServers } from "../server/mcp/config.ts";
import type { McpServerConfig } from "../protocol/mcp_servers.ts";
import { parseAssistantFile, renderAssistantFile } from "../server/agent/assistants/format.ts";

function ops(e: Env) {
  const client: HubClient = { id: "t", topics: new Set(), deliver: () => {} };
  const ctx: OpContext = { ...e.deps, client };
  return {
    // deno-lint-ignore no-explicit-any
    async op<T = any>(op: string, args: unknown = {}): Promise<T> {
      const out = await runOp(ctx, op, args);
      if (!out.ok) throw new Error(`${op} failed: ${out.error.code}: ${out.error.message}`);
      return out.result as T;
    },
    async fail(op: string, args: unknown = {}): Promise<ProtocolError> {
      const out = await runOp(ctx, op, args);
      if (out.ok) throw new Error(`${op} was expected to fail`);
      return out.error;
    },
    async idle(taskId: string) {
      const end = Date.now() + 8000;
      while (e.deps.runs!.isRunning(taskId) || e.deps.tasks!.get(taskId).status !== "idle") {
        if (Date.now() > end) throw new Error("the run did not end");
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

const input = (over: Partial<AssistantInput> = {}): AssistantInput => ({
  id: "reviewer",
  name: "Strict reviewer",
  description: "Finds bugs",
  icon: "🔍",
  model: null,
  effort: null,
  skills: [],
  mcpServers: [],
  persona: "You are PERSONA-MARKER-42, a strict reviewer.",
  ...over,
});

/** The system prompt of the model's requests (the title side request filtered out). */
const systems = (e: Env, modelId: string): string[] =>
  e.mock.requests(modelId).filter((r) => !JSON.stringify(r.body).includes("short titles"))
    .map((r) => (r.body.messages as { role: string; content: string }[])[0])
    .map((m) => m.role === "system" ? m.content : "");

Deno.test(
  "an assistant's persona is in the system prompt the model receives; general has none",
  async () => {
    const e = await env();
    const o = ops(e);
    try {
      const model = e.scenario({ turns: [{ text: "ok" }], repeatLast: true });
      await o.op("assistants.save", { assistant: input(), create: "new" });
      const { task } = await o.op("tasks.create", {
        title: "t",
        message: "review this",
        options: { model, assistant: "reviewer" },
      });
      await o.idle(task.id);
      const [sys] = systems(e, model.modelId);
      assertMatch(
        sys,
        /^# Assistant persona: Strict reviewer\nFinds bugs\n\nYou are PERSONA-MARKER-42/,
      );
      assertMatch(sys, /You are ReinAgent/, "the base prompt is kept after the persona");
      assertEquals(e.deps.tasks!.get(task.id).settings.assistantId, "reviewer");
      // The context viewer shows the same system prompt.
      const view = await o.op("task.contextBreakdown", { id: task.id, category: "system" });
      assertEquals(view.text.text, sys);

      // An edit applies to the next turn; switching to general removes the section.
      await o.op("assistants.save", {
        assistant: input({ persona: "EDITED-PERSONA" }),
        create: "replace",
      });
      await o.op("task.send", { id: task.id, text: "again" });
      await o.idle(task.id);
      assertMatch(systems(e, model.modelId)[1], /EDITED-PERSONA/);
      await o.op("task.setAssistant", { id: task.id, assistantId: "general" });
      await o.op("task.send", { id: task.id, text: "and again" });
      await o.idle(task.id);
      const last = systems(e, model.modelId)[2];
      assert(!last.includes("Assistant persona"), "general adds no persona");
      assertMatch(last, /^You are ReinAgent/);
    } finally {
      await e.close();
    }
  },
);

Deno.test(
  "the global default applies to a new task; a built-in persona reaches the model",
  async () => {
    const e = await env();
    const o = ops(e);
    try {
      const model = e.scenario({ turns: [{ text: "ok" }], repeatLast: true });
      const list = await o.op<AssistantList>("assistants.setDefault", { id: "translator" });
      assertEquals(list.defaultId, "translator");
      assertEquals(list.assistants.filter((a) => a.builtin).map((a) => a.id), [
        "general",
        "coder",
        "writer",
        "translator",
      ]);
      const { task } = await o.op("tasks.create", {
        title: "t",
        message: "你好",
        options: { model },
      });
      await o.idle(task.id);
      assertEquals(e.deps.tasks!.get(task.id).settings.assistantId, "translator");
      assertMatch(systems(e, model.modelId)[0], /^# Assistant persona: Translator\n/);
      assertMatch(systems(e, model.modelId)[0], /professional translator/);
    } finally {
      await e.close();
    }
  },
);

Deno.test("the bound model and effort apply once; the user's later choice wins", async () => {
  const e = await env();
  const o = ops(e);
  try {
    const bound = e.scenario({ turns: [{ text: "from bound" }], repeatLast: true });
    const other = e.scenario({ turns: [{ text: "from other" }], repeatLast: true });
    await o.op("assistants.save", {
      assistant: input({ id: "pinned", model: bound, effort: "high" }),
      create: "new",
    });
    // A new task with the assistant (no draft model chosen) runs on the bound model.
    const { task } = await o.op("tasks.create", {
      title: "t",
      message: "go",
      options: { assistant: "pinned" },
    });
    await o.idle(task.id);
    assertEquals(e.deps.tasks!.get(task.id).settings.model, bound);
    assertEquals(e.deps.tasks!.get(task.id).settings.effort, "high");
    assertEquals(systems(e, bound.modelId).length, 1);
    // The user picks another model: the assistant does not take it back.
    await o.op("task.setOptions", { id: task.id, model: other, effort: "low" });
    await o.op("task.send", { id: task.id, text: "next" });
    await o.idle(task.id);
    assertEquals(systems(e, bound.modelId).length, 1, "no second request to the bound model");
    assertEquals(systems(e, other.modelId).length, 1);
    assertMatch(systems(e, other.modelId)[0], /PERSONA-MARKER-42/, "the persona stays");
    assertEquals(e.deps.tasks!.get(task.id).settings.effort, "low");

    // A model picked in the draft wins over the bound one at creation.
    const { task: t2 } = await o.op("tasks.create", {
      title: "t2",
      message: "go",
      options: { assistant: "pinned", model: other },
    });
    await o.idle(t2.id);
    assertEquals(e.deps.tasks!.get(t2.id).settings.model, other);
    assertEquals(e.deps.tasks!.get(t2.id).settings.effort, "high");

    // Switching an existing task to the assistant applies its binding once, then again the user's.
    await o.op("task.setOptions", { id: t2.id, model: other });
    const { task: t3 } = await o.op("task.setAssistant", { id: t2.id, assistantId: "pinned" });
    assertEquals(t3.settings.model, bound);
    // A bound model that is gone is not applied (the task keeps its own).
    e.deps.store.repos!.providers.delete(bound.providerId);
    await o.op("task.setOptions", { id: t2.id, model: other });
    const { task: t4 } = await o.op("task.setAssistant", { id: t2.id, assistantId: "pinned" });
    assertEquals(t4.settings.model, other);
    // Saving an assistant bound to a model that does not exist is refused.
    const err = await o.fail("assistants.save", {
      assistant: input({ id: "ghost", model: { providerId: "nope", modelId: "x" } }),
      create: "new",
    });
    assertEquals(err.code, "invalid_args");
  } finally {
    await e.close();
  }
});

Deno.test("bound MCP servers: only their tools are offered to the task's model", async () => {
  const e = await env();
  const o = ops(e);
  try {
    const stdio = (id: string): McpServerConfig => ({
      id,
      enabled: true,
      transport: "stdio",
      command: "node",
      args: ["server.js"],
    });
    const fake = (id: string) => ({
      config: stdio(id),
      ready: true,
      dead: null,
      protocolVersion: "x",
      tools: [{ name: "ping", inputSchema: { type: "object", properties: {} } }],
      stderrTail: () => [],
    });
    const conns = new Map([["alpha", fake("alpha")], ["beta", fake("beta")]]);
    // deno-lint-ignore no-explicit-any
    (e.deps.mcp!.pool as any).get = (c: McpServerConfig) => Promise.resolve(conns.get(c.id));
    await saveServers(e.deps.home, [stdio("alpha"), stdio("beta")]);
    const model = e.scenario({ turns: [{ text: "ok" }], repeatLast: true });
    await o.op("assistants.save", {
      assistant: input({ id: "alpha-only", mcpServers: ["alpha"] }),
      create: "new",
    });
    const toolNames = () =>
      ((e.mock.requests(model.modelId).at(-1)!.body.tools ?? []) as {
        function: { name: string };
      }[])
        .map((t) => t.function.name).filter((n) => n.startsWith("mcp__"));
    const { task } = await o.op("tasks.create", {
      title: "t",
      message: "go",
      options: { model, assistant: "alpha-only" },
    });
    await o.idle(task.id);
    assertEquals(e.deps.tasks!.get(task.id).settings.mcpServers, ["alpha"]);
    assertEquals(toolNames(), ["mcp__alpha__ping"]);
    await o.op("task.setAssistant", { id: task.id, assistantId: "general" });
    await o.op("task.send", { id: task.id, text: "more" });
    await o.idle(task.id);
    assertEquals(toolNames().sort(), ["mcp__alpha__ping", "mcp__beta__ping"]);
  } finally {
    await e.close();
  }
});

Deno.test(
  "assistant files: bad ones reported and kept, hostile ids refused, built-ins read-only",
  async () => {
    const e = await env();
    const o = ops(e);
    try {
      const dir = `${e.deps.home}/assistants`;
      await Deno.mkdir(dir);
      const broken = "---\nname: Broken\neffort: turbo\n---\nhello\n";
      await Deno.writeTextFile(`${dir}/broken.md`, broken);
      await Deno.writeTextFile(`${dir}/open.md`, "---\nname: never closed\nhello\n");
      await Deno.writeTextFile(`${dir}/Bad Name.md`, "hello");
      await Deno.writeTextFile(`${dir}/coder.md`, "a shadow of a built-in");
      await Deno.writeTextFile(`${dir}/huge.md`, "x".repeat(100 * 1024));
      await Deno.writeTextFile(`${e.deps.home}/secret.txt`, "TOKEN");
      await Deno.symlink(`${e.deps.home}/secret.txt`, `${dir}/link.md`);
      await Deno.writeTextFile(`${dir}/plain.md`, "Just a persona, no frontmatter.\n");
      const list = await o.op<AssistantList>("assistants.list");
      const problem = (name: string) =>
        list.problems.find((p) => p.path.endsWith(`/${name}`))?.message;
      assertMatch(problem("broken.md")!, /effort "turbo" is not one of/);
      assertMatch(problem("open.md")!, /never ends/);
      assertMatch(problem("Bad Name.md")!, /not a valid id/);
      assertMatch(problem("coder.md")!, /built-in assistant's id/);
      assertMatch(problem("huge.md")!, /larger than 96 KB/);
      assertMatch(problem("link.md")!, /symbolic link/);
      const plain = list.assistants.find((a) => a.id === "plain")!;
      assertEquals([plain.name, plain.persona], ["plain", "Just a persona, no frontmatter."]);
      assert(!list.assistants.some((a) => a.persona.includes("TOKEN")));

      // The broken file is never overwritten or deleted from here.
      const replace = await o.fail("assistants.save", {
        assistant: input({ id: "broken" }),
        create: "replace",
      });
      assertEquals(replace.code, "conflict");
      assertMatch(replace.message, /not overwritten/);
      assertEquals(
        (await o.fail("assistants.save", { assistant: input({ id: "broken" }), create: "new" }))
          .code,
        "conflict",
      );
      assertEquals((await o.fail("assistants.delete", { id: "broken" })).code, "conflict");
      assertEquals(await Deno.readTextFile(`${dir}/broken.md`), broken);

      // Hostile ids never reach the file system.
      for (const id of ["../escape", "a/b", ".hidden", "x.md", "", "A", "-x", "a".repeat(49)]) {
        const err = await o.fail("assistants.save", { assistant: input({ id }), create: "new" });
        assertEquals(err.code, "invalid_args", id);
        assertEquals(
          (await o.fail("task.setAssistant", { id: "t1", assistantId: id })).code,
          "invalid_args",
        );
      }
      assertEquals((await o.fail("assistants.delete", { id: "../secret" })).code, "invalid_args");
      // Bounded sizes.
      assertEquals(
        (await o.fail("assistants.save", {
          assistant: input({ persona: "x".repeat(24_001) }),
          create: "new",
        })).code,
        "invalid_args",
      );
      // A persona at the character limit in Chinese is still a file the catalog reads.
      await o.op("assistants.save", {
        assistant: input({ id: "zh", persona: "中".repeat(24_000) }),
        create: "new",
      });
      const zh = (await o.op<AssistantList>("assistants.list")).assistants.find((a) =>
        a.id === "zh"
      );
      assertEquals(zh?.persona.length, 24_000);
      assertEquals(
        (await o.fail("assistants.save", { assistant: input({ skills: ["a b"] }), create: "new" }))
          .code,
        "invalid_args",
      );
      // Built-ins are read-only.
      assertEquals(
        (await o.fail("assistants.save", { assistant: input({ id: "coder" }), create: "replace" }))
          .code,
        "conflict",
      );
      assertEquals(
        (await o.fail("assistants.save", { assistant: input({ id: "coder" }), create: "new" }))
          .code,
        "conflict",
      );
      assertEquals((await o.fail("assistants.delete", { id: "general" })).code, "conflict");
      assertEquals((await o.fail("assistants.setDefault", { id: "nope" })).code, "not_found");

      // Create, duplicate-style new id, default, delete: the default falls back to general.
      await o.op("assistants.save", { assistant: input(), create: "new" });
      assertEquals(
        (await o.fail("assistants.save", { assistant: input(), create: "new" })).code,
        "conflict",
      );
      await o.op("assistants.setDefault", { id: "reviewer" });
      const after = await o.op<AssistantList>("assistants.delete", { id: "reviewer" });
      assertEquals(after.defaultId, "general");
      assert(!after.assistants.some((a) => a.id === "reviewer"));
    } finally {
      await e.close();
    }
  },
);

Deno.test("an assistant file round-trips through render and parse", () => {
  const a = input({
    name: "Multi\nline",
    model: { providerId: "openrouter", modelId: "anthropic/claude-x" },
    effort: "medium",
    skills: ["pdf", "docx"],
    mcpServers: ["github"],
    persona: "Line one\n---\nLine two",
  });
  const parsed = parseAssistantFile("reviewer", "/x/reviewer.md", renderAssistantFile(a));
  assert(!("problem" in parsed));
  assertEquals(parsed.name, "Multi line");
  assertEquals(parsed.model, a.model);
  assertEquals([parsed.effort, parsed.skills, parsed.mcpServers], ["medium", ["pdf", "docx"], [
    "github",
  ]]);
  assertEquals(parsed.persona, "Line one\n---\nLine two");
  assertMatch(
    (parseAssistantFile("x", "/x.md", "---\ncolor: red\n---\nhi") as { problem: string }).problem,
    /unknown frontmatter key "color"/,
  );
});
