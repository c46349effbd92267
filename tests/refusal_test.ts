/**
 * Structured refusal reasons: every way the gate refuses a call leaves a
 * machine-readable `meta.refusal` next to the English text the model reads; a recovered
 * plan's "Allow & continue" switches the task to ask mode like a live approval.
 */
import { until } from "./helpers/until.ts";
import { setup } from "./helpers/approval_harness.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { startTestServer } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { TestClient } from "./helpers/ws_client.ts";
import type { Part, PendingApproval } from "../protocol/index.ts";
import type { ToolResult } from "../tools/types.ts";
import type { SandboxPool } from "../tools/sandbox/pool.ts";
import { ToolRunner } from "../agent/tool_runner.ts";
import { FileTracker } from "../agent/file_tracker.ts";
import { defaultTools } from "../tools/registry.ts";

// deno-lint-ignore no-explicit-any
const refusalOf = (p: Part) => (p.data?.meta as any)?.refusal;

const WRITE = (path: string) => ({
  toolCalls: [{ name: "write_file", args: { path, content: "x" } }],
});

Deno.test("refusals: plan mode, policy deny, reject with and without feedback carry codes", async () => {
  const s = await setup([WRITE("a.txt"), { text: "ok" }]);
  try {
    // Plan mode blocks a write.
    const plan = s.start("plan");
    await plan.done;
    const [p0] = s.results(plan.task.id);
    assertMatch(p0.text!, /Plan mode is read-only/, "the model still reads English");
    assertEquals(refusalOf(p0), { code: "plan_mode", params: { tool: "write_file" } });

    // A deny policy blocks it in full mode.
    const deny = s.start("full", { write_file: "deny" });
    await deny.done;
    assertEquals(refusalOf(s.results(deny.task.id)[0]), {
      code: "policy_deny",
      params: { tool: "write_file" },
    });

    // The user rejects: without feedback, then with it.
    const ask = s.start("ask");
    s.deps.approvals!.decide((await s.waitPending()).id, "reject");
    await ask.done;
    assertEquals(refusalOf(s.results(ask.task.id)[0]), { code: "rejected" });
    const ask2 = s.start("ask");
    s.deps.approvals!.decide((await s.waitPending()).id, "reject", "not now");
    await ask2.done;
    const r = s.results(ask2.task.id)[0];
    assertMatch(r.text!, /Their feedback: not now/);
    assertEquals(refusalOf(r), { code: "rejected", feedback: "not now" });
  } finally {
    await s.close();
  }
});

Deno.test("refusals: stopped while waiting, mode changed, outside the workspace", async () => {
  const s = await setup([WRITE("../escape.txt"), { text: "ok" }]);
  try {
    // Outside the workspace: refused before any checkpoint or worker.
    const full = s.start("full");
    await full.done;
    const out = s.results(full.task.id)[0];
    assertMatch(out.text!, /outside the workspace/);
    assertEquals(refusalOf(out), {
      code: "outside_workspace",
      params: { path: `${s.home}/escape.txt` },
    });
    assert(!(await Deno.stat(`${s.home}/escape.txt`).catch(() => null)), "nothing written");

    // The mode changes to plan while it waits.
    const ask = s.start("ask");
    await s.waitPending();
    s.deps.tasks!.setOptions(ask.task.id, { approval: "plan" });
    s.deps.approvals!.reevaluate(ask.task.id);
    await ask.done;
    assertEquals(refusalOf(s.results(ask.task.id)[0]), {
      code: "mode_changed",
      params: { mode: "plan" },
    });

    // The user stops the run while it waits.
    const ask2 = s.start("ask");
    await s.waitPending();
    await s.deps.runs!.stop(ask2.task.id);
    const stopped = s.results(ask2.task.id)[0];
    assertMatch(stopped.text!, /stopped while this call waited/);
    assertEquals(refusalOf(stopped), { code: "stopped" });
  } finally {
    await s.close();
  }
});

Deno.test("refusals: a skipped question and a rejected plan", async () => {
  const s = await setup([
    {
      toolCalls: [{
        name: "ask_user_question",
        args: { questions: [{ question: "Which?", options: [{ label: "A" }, { label: "B" }] }] },
      }],
    },
    { toolCalls: [{ name: "exit_plan_mode", args: { plan: "1. do it" } }] },
    { text: "ok" },
  ]);
  try {
    const { task, done } = s.start("plan");
    s.deps.approvals!.decide((await s.waitPending()).id, "reject");
    const plan = await s.waitPending();
    assertEquals(plan.kind, "plan");
    s.deps.approvals!.decide(plan.id, "reject", "add tests");
    await done;
    const [q, p] = s.results(task.id);
    assertEquals(refusalOf(q), { code: "questions_skipped" });
    assertEquals(refusalOf(p), { code: "plan_rejected", feedback: "add tests" });
  } finally {
    await s.close();
  }
});

const lastList = (c: TestClient) =>
  (c.events.filter((e) => e.topic === "approvals").at(-1)?.data as {
    approvals: PendingApproval[];
  } | undefined)?.approvals ?? [];

Deno.test("recovery after a restart: plan Allow & continue switches to ask; Continue and Reject say why", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("planner", {
    turns: [
      { toolCalls: [{ name: "exit_plan_mode", args: { plan: "1. write p.txt" } }] },
      { toolCalls: [{ name: "write_file", args: { path: "p.txt", content: "planned" } }] },
      { text: "Done." },
    ] as never,
  });
  mock.register("writer", {
    turns: [WRITE("w.txt"), { text: "Done." }] as never,
    repeatLast: true,
  });
  const home = await homeWithProvider(mock.base, ["planner", "writer"]);
  await Deno.mkdir(`${home}/DefaultProject`, { recursive: true });
  const ids: Record<string, string> = {};
  const s1 = await startTestServer({ home });
  const c1 = await TestClient.connect(s1.base, s1.token);
  try {
    for (
      const [name, model, approval] of [
        ["plan", "planner", "plan"],
        ["cont", "writer", "ask"],
        ["rej", "writer", "ask"],
      ]
    ) {
      const n = lastList(c1).length;
      const { task } = await c1.request("tasks.create", {
        title: name,
        message: "go",
        options: { model: { providerId: "mock", modelId: model }, approval },
      });
      ids[name] = task.id;
      await c1.until(() => lastList(c1).length === n + 1, `${name} waits`);
    }
  } finally {
    await c1.close();
    await s1.kill();
  }
  const s2 = await startTestServer({ home });
  const c = await TestClient.connect(s2.base, s2.token);
  try {
    const { approvals } = await c.request("approvals.list");
    const of = (name: string) => approvals.find((a: PendingApproval) => a.taskId === ids[name])!;
    assertEquals(of("plan").kind, "plan");
    assert(approvals.every((a: PendingApproval) => !a.live));
    for (const id of Object.values(ids)) await c.request("task.subscribe", { id });
    const toolResults = async (name: string) =>
      (await c.request("task.subscribe", { id: ids[name] })).entries.filter((
        e: { role: string },
      ) => e.role === "tool").map((e: { parts: Part[] }) => e.parts[0]) as Part[];

    // Allow & continue on the plan: the task is now in ask mode and the run goes on —
    // so its write asks first, exactly as after approving a live plan.
    await c.request("approval.recover", { id: of("plan").id, action: "allow" });
    await c.until(
      () => lastList(c).some((a) => a.live && a.taskId === ids.plan),
      "the write after the plan asks (ask mode)",
      10_000,
    );
    const { tasks } = await c.request("tasks.list");
    const planTask = tasks.find((t: { id: string }) => t.id === ids.plan);
    assertEquals(planTask.settings.approval, "ask");
    assert(
      c.events.some((e) =>
        e.topic === "tasks" &&
        (e.data as { task?: { id: string; settings: { approval: string } } }).task?.id ===
          ids.plan &&
        (e.data as { task: { settings: { approval: string } } }).task.settings.approval === "ask"
      ),
      "every client was told about the mode change",
    );
    const live = lastList(c).find((a) => a.live && a.taskId === ids.plan)!;
    assertEquals(live.call.name, "write_file");
    await c.request("approval.decide", { id: live.id, decision: "allow" });
    await until(async () => (await toolResults("plan")).length === 2, "plan task done");
    const [planResult] = await toolResults("plan");
    assertEquals(planResult.data?.isError, false);
    assertEquals(await Deno.readTextFile(`${home}/DefaultProject/p.txt`), "planned");

    // Continue: the call counts as interrupted (a code the UI translates).
    await c.request("approval.recover", { id: of("cont").id, action: "continue" });
    // Reject: a rejection with its code.
    await c.request("approval.recover", { id: of("rej").id, action: "reject" });
    await until(
      async () => (await toolResults("cont")).length > 0 && (await toolResults("rej")).length > 0,
      "results written",
    );
    assertEquals(refusalOf((await toolResults("cont"))[0]), { code: "interrupted" });
    const rej = (await toolResults("rej"))[0];
    assertEquals(refusalOf(rej), { code: "rejected" });
    assertMatch(rej.text!, /The user rejected this write_file call/);
  } finally {
    await c.close();
    await s2.stop();
    await mock.close();
  }
});

Deno.test("refusals: a sandbox denial gets the sandbox code; other failures get none", async () => {
  const ws = await Deno.makeTempDir({ prefix: "ra-refuse-sb-" });
  const answers: ToolResult[] = [
    {
      content: "Sandbox denied the operation: read access",
      isError: true,
      meta: { sandboxDenied: true },
    },
    { content: "read_file failed: boom", isError: true },
  ];
  const pool = { run: () => Promise.resolve(answers.shift()!) } as unknown as SandboxPool;
  const runner = new ToolRunner(defaultTools(), pool);
  const ctx = {
    workspace: ws,
    roots: [ws],
    signal: new AbortController().signal,
    tracker: new FileTracker(),
  };
  const call = { id: "c", name: "read_file", args: { path: "a.txt" } };
  const denied = await runner.checkAndRun(call, ctx);
  assertEquals(denied.meta?.refusal, { code: "sandbox" });
  const failed = await runner.checkAndRun(call, ctx);
  assertEquals(failed.meta?.refusal, undefined);
});
