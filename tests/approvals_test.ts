/** The approval gate: modes × kinds, decisions, live mode changes, other clients, restarts. */
import { setup } from "./helpers/approval_harness.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { judge, summarise } from "../server/sessions/approvals.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { startTestServer } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { TestClient } from "./helpers/ws_client.ts";
import type { PendingApproval, TaskSettings } from "../protocol/index.ts";

const base: TaskSettings = { model: null, effort: null, approval: null };

Deno.test("judge: every mode × permission kind, policies override, plan stays read-only", () => {
  const table: Record<string, Record<string, string>> = {
    plan: { read: "allow", write: "deny", exec: "deny" },
    ask: { read: "allow", write: "ask", exec: "ask" },
    edit: { read: "allow", write: "allow", exec: "ask" },
    full: { read: "allow", write: "allow", exec: "allow" },
  };
  for (const [mode, kinds] of Object.entries(table)) {
    for (const [kind, want] of Object.entries(kinds)) {
      assertEquals(judge(base, mode as "ask", "some_tool", kind), want, `${mode}/${kind}`);
    }
  }
  const allowWrite = { ...base, toolPolicies: { write_file: "allow" as const } };
  assertEquals(judge(allowWrite, "ask", "write_file", "write"), "allow");
  assertEquals(
    judge(allowWrite, "plan", "write_file", "write"),
    "deny",
    "plan mode wins over allow",
  );
  const denyRead = { ...base, toolPolicies: { read_file: "deny" as const } };
  assertEquals(judge(denyRead, "full", "read_file", "read"), "deny");
  const askAlways = { ...base, toolPolicies: { list_dir: "ask" as const } };
  assertEquals(judge(askAlways, "full", "list_dir", "read"), "ask");
  assertEquals(
    judge(base, "plan", "exit_plan_mode", "write"),
    "allow",
    "meta tools are never gated",
  );
  assertEquals(
    summarise({ name: "write_file", args: { path: "a.ts", content: "1\n2" } }),
    "write_file a.ts (2 lines)",
  );
  assertEquals(summarise({ name: "exec_command", args: { command: "ls  -la" } }), "$ ls -la");
});

const WRITE_THEN_DONE = [
  {
    text: "Writing.",
    toolCalls: [{ name: "write_file", args: { path: "out.txt", content: "hello" } }],
  },
  { text: "Done." },
];

Deno.test("ask mode: a write waits; allow runs it; the task shows waiting meanwhile", async () => {
  const s = await setup(WRITE_THEN_DONE);
  try {
    const { task, done } = s.start("ask");
    const p = await s.waitPending();
    assertEquals([p.call.name, p.kind, p.summary], [
      "write_file",
      "write",
      "write_file out.txt (1 line)",
    ]);
    assertEquals(s.deps.store.repos!.tasks.get(task.id)!.status, "waiting");
    await Deno.stat(`${s.ws}/out.txt`).then(
      () => assert(false, "not written before approval"),
      () => {},
    );
    assert(s.deps.approvals!.decide(p.id, "allow"));
    assertEquals((await done)?.kind, "done");
    assertEquals(await Deno.readTextFile(`${s.ws}/out.txt`), "hello");
    assertEquals(s.deps.approvals!.list(), []);
  } finally {
    await s.close();
  }
});

Deno.test("reject returns an error result with the user's feedback; always allow stops asking", async () => {
  const s = await setup([
    { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "a" } }] },
    { toolCalls: [{ name: "write_file", args: { path: "b.txt", content: "b" } }] },
    { toolCalls: [{ name: "write_file", args: { path: "c.txt", content: "c" } }] },
    { text: "Done." },
  ]);
  try {
    const { task, done } = s.start("ask");
    s.deps.approvals!.decide((await s.waitPending()).id, "reject", "use b.txt instead");
    s.deps.approvals!.decide((await s.waitPending()).id, "always");
    assertEquals((await done)?.kind, "done"); // c.txt needed no approval
    const r = s.results(task.id);
    assert(r[0].data?.isError);
    assertMatch(
      r[0].text!,
      /The user rejected this write_file call\. Their feedback: use b\.txt instead/,
    );
    assertEquals(r.slice(1).map((x) => x.data?.isError), [false, false]);
    assertEquals(s.deps.store.repos!.tasks.get(task.id)!.settings.toolPolicies, {
      write_file: "allow",
    });
    await Deno.stat(`${s.ws}/a.txt`).then(() => assert(false, "rejected write happened"), () => {});
  } finally {
    await s.close();
  }
});

Deno.test("switching mode while a run waits applies at once (full allows, plan refuses)", async () => {
  const s = await setup([
    { toolCalls: [{ name: "write_file", args: { path: "x.txt", content: "x" } }] },
    { toolCalls: [{ name: "write_file", args: { path: "y.txt", content: "y" } }] },
    { text: "Done." },
    { toolCalls: [{ name: "write_file", args: { path: "z.txt", content: "z" } }] },
    { text: "Done again." },
  ]);
  try {
    const { task, done } = s.start("ask");
    await s.waitPending();
    s.deps.tasks!.setOptions(task.id, { approval: "full" });
    s.deps.approvals!.reevaluate(task.id);
    // The second call: in full mode there is no prompt at all.
    assertEquals((await done)?.kind, "done");
    assertEquals(await Deno.readTextFile(`${s.ws}/x.txt`), "x");
    assertEquals(await Deno.readTextFile(`${s.ws}/y.txt`), "y");

    s.deps.tasks!.setOptions(task.id, { approval: "ask" });
    s.deps.tasks!.send(task.id, "again");
    const again = s.deps.runs!.start(task.id);
    await s.waitPending();
    s.deps.tasks!.setOptions(task.id, { approval: "plan" });
    s.deps.approvals!.reevaluate(task.id);
    await again;
    const last = s.results(task.id).at(-1)!;
    assert(last.data?.isError);
    assertMatch(last.text!, /approval mode changed to plan/);
  } finally {
    await s.close();
  }
});

Deno.test("approval from a second client; restart with a pending approval offers recovery", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("writer", { turns: WRITE_THEN_DONE as never });
  const home = await homeWithProvider(mock.base, ["writer"]);
  await Deno.mkdir(`${home}/DefaultProject`, { recursive: true });
  const s1 = await startTestServer({ home });
  const desk = await TestClient.connect(s1.base, s1.token);
  const phone = await TestClient.connect(s1.base, s1.token);
  const lastList = (c: TestClient) =>
    (c.events.filter((e) => e.topic === "approvals").at(-1)?.data as {
      approvals: PendingApproval[];
    } | undefined)?.approvals ?? [];
  try {
    const model = { providerId: "mock", modelId: "writer" };
    await desk.request("tasks.create", {
      title: "one",
      message: "go",
      options: { model, approval: "ask" },
    });
    await phone.until(() => lastList(phone).length === 1, "phone sees the approval");
    await phone.request("approval.decide", { id: lastList(phone)[0].id, decision: "allow" });
    await desk.until(
      () =>
        lastList(desk).length === 0 && desk.events.some((e) =>
          e.topic === "tasks" &&
          (e.data as { task?: { id: string; status: string } }).task?.status === "idle"
        ),
      "desk sees it done",
    );
    assertEquals(await Deno.readTextFile(`${home}/DefaultProject/out.txt`), "hello");
    assertEquals(
      (await phone.failure("approval.decide", { id: "nope", decision: "allow" })).code,
      "not_found",
    );

    // A second task waits; the server dies.
    await Deno.remove(`${home}/DefaultProject/out.txt`);
    await desk.request("tasks.create", {
      title: "two",
      message: "go",
      options: { model, approval: "ask" },
    });
    await desk.until(() => lastList(desk).length === 1, "pending again");
  } finally {
    await desk.close();
    await phone.close();
    await s1.kill();
  }
  const s2 = await startTestServer({ home });
  const c = await TestClient.connect(s2.base, s2.token);
  try {
    const { approvals } = await c.request("approvals.list");
    assertEquals(approvals.length, 1);
    assertEquals(approvals[0].live, false, "offered for recovery, not as a live question");
    assertEquals(
      (await c.failure("approval.decide", { id: approvals[0].id, decision: "allow" })).code,
      "not_found",
    );
    await c.request("task.subscribe", { id: approvals[0].taskId });
    await c.request("approval.recover", { id: approvals[0].id, action: "allow" });
    await c.until(
      () =>
        c.events.some((e) =>
          e.topic === `task:${approvals[0].taskId}` &&
          (e.data as { run?: unknown; kind: string }).kind === "run" &&
          (e.data as { run: unknown }).run === null
        ),
      "continued run ends",
      10_000,
    );
    assertEquals(await Deno.readTextFile(`${home}/DefaultProject/out.txt`), "hello");
    assertEquals((await c.request("approvals.list")).approvals, []);
  } finally {
    await c.close();
    await s2.stop();
    await mock.close();
  }
});

Deno.test("plan mode: writes refused, exit_plan_mode waits; approval switches to ask and the work proceeds", async () => {
  const s = await setup([
    { toolCalls: [{ name: "write_file", args: { path: "p.txt", content: "too early" } }] },
    { toolCalls: [{ name: "exit_plan_mode", args: { plan: "1. write p.txt" } }] },
    { toolCalls: [{ name: "write_file", args: { path: "p.txt", content: "planned" } }] },
    { text: "Done." },
  ]);
  try {
    const { task, done } = s.start("plan");
    const plan = await s.waitPending();
    assertEquals([plan.kind, plan.call.args.plan], ["plan", "1. write p.txt"]);
    assertEquals(s.deps.approvals!.decideAll("allow"), 0, "Allow all never approves a plan");
    s.deps.approvals!.decide(plan.id, "allow");
    // Now in ask mode: the write asks.
    const write = await s.waitPending();
    assertEquals(s.deps.store.repos!.tasks.get(task.id)!.settings.approval, "ask");
    s.deps.approvals!.decide(write.id, "allow");
    assertEquals((await done)?.kind, "done");
    const r = s.results(task.id);
    assertMatch(r[0].text!, /Plan mode is read-only: write_file is not allowed/);
    assertMatch(r[1].text!, /approved the plan/);
    assertEquals(await Deno.readTextFile(`${s.ws}/p.txt`), "planned");
  } finally {
    await s.close();
  }
});

Deno.test("ask_user_question waits for answers; answers reach the model, not the stored call", async () => {
  const q = {
    question: "Which DB?",
    options: [{ label: "SQLite", recommended: true }, { label: "Postgres" }],
  };
  const s = await setup([
    { toolCalls: [{ name: "ask_user_question", args: { questions: [q] } }] },
    {
      toolCalls: [{
        name: "ask_user_question",
        args: { questions: [{ question: "bad", options: [{ label: "only one" }] }] },
      }],
    },
    {
      toolCalls: [{
        name: "todo_write",
        args: {
          todos: [{ content: "pick a DB", status: "completed" }, {
            content: "build",
            status: "in_progress",
          }],
        },
      }],
    },
    { text: "Done." },
  ]);
  try {
    const { task, done } = s.start("full");
    const p = await s.waitPending();
    assertEquals(p.kind, "question");
    s.deps.approvals!.decide(p.id, "allow", undefined, [{
      question: "Which DB?",
      answers: ["SQLite"],
    }]);
    assertEquals((await done)?.kind, "done");
    const r = s.results(task.id);
    assertMatch(r[0].text!, /Q: Which DB\?\nA: SQLite/);
    // Checked against the tool's schema before the gate asks anyone.
    assertMatch(r[1].text!, /args\.questions\[0\]\.options must have at least 2 items/);
    assertMatch(r[2].text!, /Todo list updated \(1\/2 done\)/);
    const call = s.deps.store.repos!.entries.latest(task.id, 100).find((e) =>
      e.parts[0]?.type === "tool_call"
    )!;
    assertEquals("__answer" in (call.parts[0].data!.args as object), false);
  } finally {
    await s.close();
  }
});
