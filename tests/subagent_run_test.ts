/**
 * Sub-agents end to end in-process: real store, runs, tools and approval gate, the
 * mock LLM playing the parent and (through `branches`) the sub-agent.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { entries, env } from "./helpers/agent_env.ts";
import type { SubagentRun } from "../protocol/index.ts";

const EXPLORER = "type: explorer)";
const agentCall = (extra: Record<string, unknown> = {}) => ({
  name: "agent",
  args: {
    description: "Find the notes",
    prompt: "List the workspace and report the files.",
    subagent_type: "explorer",
    ...extra,
  },
});

const agentRequests = (e: Awaited<ReturnType<typeof env>>, modelId: string) =>
  e.mock.requests(modelId).filter((r) => !JSON.stringify(r.body).includes("short titles"));

const waitFor = async (what: string, ok: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

Deno.test("foreground sub-agent: its own tools, facts header + report back to the parent, transcript stored", async () => {
  const e = await env();
  try {
    await Deno.writeTextFile(`${e.deps.home}/DefaultProject/notes.txt`, "hello\n");
    const model = e.scenario({
      turns: [{ toolCalls: [agentCall()] }, { text: "The sub-agent found notes.txt." }],
      branches: [{
        when: EXPLORER,
        turns: [
          {
            toolCalls: [{ name: "list_dir", args: { path: "." } }],
            usage: { input: 30, output: 5 },
          },
          { text: "Report: notes.txt is the only file.", usage: { input: 40, output: 6 } },
        ],
      }],
    });
    const { task } = e.deps.tasks!.create({ title: "t", message: "look", options: { model } });
    const outcome = await e.deps.runs!.start(task.id);
    assertEquals(outcome?.kind, "done");
    const tl = entries(e, task.id);
    assertEquals(tl.map((x) => x.role), ["user", "assistant", "tool", "assistant"]);
    const result = tl[2].parts[0];
    assertEquals(result.data?.isError, false);
    assertMatch(
      result.text!,
      /^\[sub-agent sa\S+ · type explorer · 1 tool call · [\d.]+ s · 81 tokens \(in 70, out 11\) · 2 steps · /,
    );
    assertMatch(result.text!, /\n\nReport: notes\.txt is the only file\.$/);
    // The parent's next request carried exactly that back.
    const reqs = agentRequests(e, model.modelId);
    const parentLast = reqs.at(-1)!.body.messages as { role: string; content: string }[];
    assertEquals(parentLast.at(-1)!.content, result.text);
    // The sub-agent's requests: its own system prompt and only the explorer's tools.
    const sub = reqs.filter((r) => JSON.stringify(r.body).includes(EXPLORER));
    assertEquals(sub.length, 2);
    const names = (sub[0].body.tools as { function: { name: string } }[]).map((t) =>
      t.function.name
    );
    assertEquals(names.sort(), ["glob", "grep", "list_dir", "read_file"]);
    // The parent's agent tool lists the types.
    const parentTools = reqs[0].body.tools as { function: { name: string; description: string } }[];
    const agentSpec = parentTools.find((t) => t.function.name === "agent")!;
    assertMatch(agentSpec.function.description, /- explorer: Read-only research/);
    assertMatch(agentSpec.function.description, /- test-runner: /);
    // Stored: the run and its transcript (survive a restart), the card's facts in meta.
    const run = (result.data?.meta as { subagent: SubagentRun }).subagent;
    assertEquals([run.status, run.toolCalls, run.steps, run.background], ["done", 1, 2, false]);
    const stored = e.deps.store.repos!.subagents.getRun(run.id)!;
    assertEquals(stored.status, "done");
    assertEquals(stored.report, "Report: notes.txt is the only file.");
    const transcript = e.deps.store.repos!.subagents.entries(run.id);
    assertEquals(transcript.map((x) => x.role), ["user", "assistant", "tool", "assistant"]);
    assertEquals(transcript[0].parts[0].text, "List the workspace and report the files.");
    assertMatch(transcript[2].parts[0].text!, /notes\.txt/);
    // Every client of the task heard about the run.
    e.deps.hub.flush();
    const evs = e.events.filter((x) => x.topic === `task:${task.id}`)
      .map((x) => x.data as { kind: string; run?: SubagentRun })
      .filter((x) => x.kind === "subagent");
    assertEquals(evs.at(-1)?.run?.status, "done");
  } finally {
    await e.close();
  }
});

Deno.test("background sub-agents run in parallel while the parent goes on; subagent_output wait:true returns the report", async () => {
  const e = await env();
  try {
    const slow = {
      text: "still looking ",
      chunk: 2,
      delayMs: 15,
      toolCalls: [{ name: "list_dir", args: {} }],
    };
    const model = e.scenario({
      turns: [
        {
          toolCalls: [
            agentCall({ run_in_background: true, prompt: "First: count files." }),
            agentCall({ run_in_background: true, prompt: "Second: count folders." }),
          ],
        },
        { text: "Both started; I go on.", toolCalls: [{ name: "list_dir", args: {} }] },
        {
          toolCalls: [{
            name: "subagent_output",
            args: { id: "$match:Background sub-agent (\\S+) started", wait: true },
          }],
        },
        { text: "Parent done." },
      ],
      branches: [
        { when: "First: count", turns: [slow, { text: "First report." }] },
        { when: "Second: count", turns: [slow, { text: "Second report." }] },
      ],
    });
    const { task } = e.deps.tasks!.create({ title: "t", message: "go", options: { model } });
    const done = e.deps.runs!.start(task.id);
    const subs = e.deps.runs!.subagents;
    // Both run at the same time.
    await waitFor(
      "two running sub-agents",
      () => subs.list(task.id).filter((r) => r.status === "running").length === 2,
    );
    assertEquals((await done)?.kind, "done");
    const tl = entries(e, task.id);
    const started = tl.filter((x) => x.role === "tool" && x.parts[0].data?.name === "agent");
    assertEquals(started.length, 2);
    assertMatch(
      started[0].parts[0].text!,
      /^Background sub-agent sa\S+ started \(explorer: Find the notes\)/,
    );
    const output = tl.find((x) =>
      x.role === "tool" && x.parts[0].data?.name === "subagent_output"
    )!;
    assertMatch(output.parts[0].text!, /^\[sub-agent sa\S+ · type explorer · 1 tool call · /);
    assertMatch(output.parts[0].text!, /\n\nFirst report\.$/);
    assertEquals(tl.at(-1)!.parts[0].text, "Parent done.");
    await waitFor("both ended", () => subs.list(task.id).every((r) => r.status === "done"));
    // Another task cannot read them.
    const other = e.deps.tasks!.create({ title: "o" }).task;
    const ctl = subs.control({
      taskId: other.id,
    } as never, "c1");
    const r = await ctl.output({ id: subs.list(task.id)[0].id }, new AbortController().signal);
    assertMatch(r.content, /No sub-agent with id/);
  } finally {
    await e.close();
  }
});

Deno.test("Stop aborts the parent and a foreground sub-agent, and background ones that outlived their turn", async () => {
  const e = await env();
  try {
    const slow = { text: "word ".repeat(300), chunk: 3, delayMs: 20 };
    const model = e.scenario({
      turns: [{ toolCalls: [agentCall()] }, { text: "never" }],
      branches: [{ when: EXPLORER, turns: [slow] }],
    });
    const { task } = e.deps.tasks!.create({ title: "t", message: "go", options: { model } });
    const done = e.deps.runs!.start(task.id);
    const subs = e.deps.runs!.subagents;
    await waitFor("the sub-agent streaming", () => {
      const run = subs.list(task.id)[0];
      return !!run && e.deps.store.repos!.subagents.entries(run.id).length >= 2;
    });
    const t0 = performance.now();
    assertEquals(await e.deps.runs!.stop(task.id), true);
    assert(performance.now() - t0 < 1000, `stop took ${performance.now() - t0} ms`);
    assertEquals((await done)?.kind, "stopped");
    const run = subs.list(task.id)[0];
    assertEquals(run.status, "stopped");
    const tr = e.deps.store.repos!.subagents.entries(run.id);
    assertEquals(tr.at(-1)!.status, "stopped");
    const result = entries(e, task.id).find((x) => x.role === "tool")!;
    assertEquals(result.parts[0].data?.isError, true);

    // A background one keeps going after its turn ended; Stop of the task stops it.
    const bg = e.scenario({
      turns: [{ toolCalls: [agentCall({ run_in_background: true })] }, { text: "started it" }],
      branches: [{ when: EXPLORER, turns: [slow] }],
    });
    const t2 = e.deps.tasks!.create({ title: "b", message: "go", options: { model: bg } }).task;
    assertEquals((await e.deps.runs!.start(t2.id))?.kind, "done");
    assertEquals(subs.list(t2.id)[0].status, "running");
    assertEquals(e.deps.runs!.isRunning(t2.id), false);
    assertEquals(await e.deps.runs!.stop(t2.id), true);
    assertEquals(subs.list(t2.id)[0].status, "stopped");
  } finally {
    await e.close();
  }
});

Deno.test("a sub-agent's approvals go through the parent's gate, labelled with the sub-agent", async () => {
  const e = await env();
  try {
    const model = e.scenario({
      turns: [
        { toolCalls: [agentCall({ subagent_type: "test-runner", description: "Run the tests" })] },
        { text: "Tests reported." },
      ],
      branches: [{
        when: "type: test-runner)",
        turns: [
          { toolCalls: [{ name: "exec_command", args: { command: "echo sub-agent-ran" } }] },
          { text: "All good: sub-agent-ran printed." },
        ],
      }],
    });
    // edit mode: commands ask first.
    const { task } = e.deps.tasks!.create({
      title: "t",
      message: "go",
      options: { model, approval: "edit" },
    });
    const done = e.deps.runs!.start(task.id);
    await waitFor("the approval", () => e.deps.approvals!.list().some((p) => p.live));
    const p = e.deps.approvals!.list().find((x) => x.live)!;
    assertEquals(p.taskId, task.id);
    assertEquals(p.call.name, "exec_command");
    assertEquals(p.summary, "test-runner sub-agent · $ echo sub-agent-ran");
    assertEquals(p.subagent?.type, "test-runner");
    assertEquals(p.subagent?.description, "Run the tests");
    const parentCall = entries(e, task.id)[1].parts.find((x) => x.type === "tool_call")!;
    assertEquals(p.subagent?.callId, parentCall.data?.id);
    assertEquals(e.deps.store.repos!.tasks.get(task.id)!.status, "waiting");
    assert(e.deps.approvals!.decide(p.id, "allow"));
    assertEquals((await done)?.kind, "done");
    const result = entries(e, task.id).find((x) => x.role === "tool")!;
    assertMatch(result.parts[0].text!, /type test-runner · 1 tool call/);
    const run = e.deps.runs!.subagents.list(task.id)[0];
    const tr = e.deps.store.repos!.subagents.entries(run.id);
    assertMatch(tr.find((x) => x.role === "tool")!.parts[0].text!, /sub-agent-ran/);

    // Plan mode: the same sub-agent's command is refused by the parent's gate.
    const plan = e.deps.tasks!.create({
      title: "p",
      message: "go",
      options: { model, approval: "plan" },
    }).task;
    assertEquals((await e.deps.runs!.start(plan.id))?.kind, "done");
    const planRun = e.deps.runs!.subagents.list(plan.id)[0];
    const refused = e.deps.store.repos!.subagents.entries(planRun.id).find((x) =>
      x.role === "tool"
    )!;
    assertMatch(refused.parts[0].text!, /Plan mode is read-only/);
  } finally {
    await e.close();
  }
});

Deno.test("unknown type and a user type with unknown tools and its own model", async () => {
  const e = await env();
  try {
    const other = e.scenario({ turns: [{ text: "Reviewed by the pinned model." }] });
    const ws = `${e.deps.home}/DefaultProject`;
    await Deno.mkdir(`${ws}/.reinagent/agents`, { recursive: true });
    await Deno.writeTextFile(
      `${ws}/.reinagent/agents/pinned.md`,
      `---\ndescription: Pinned\ntools: Read, teleport\nmodel: ${other.providerId}/${other.modelId}\n---\nReview things.\n`,
    );
    const model = e.scenario({
      turns: [
        {
          toolCalls: [
            { name: "agent", args: { description: "x", prompt: "p", subagent_type: "nope" } },
          ],
        },
        { toolCalls: [agentCall({ subagent_type: "pinned" })] },
        { text: "done" },
      ],
    });
    const { task } = e.deps.tasks!.create({ title: "t", message: "go", options: { model } });
    assertEquals((await e.deps.runs!.start(task.id))?.kind, "done");
    const results = entries(e, task.id).filter((x) => x.role === "tool").map((x) => x.parts[0]);
    assertMatch(
      results[0].text!,
      /Unknown subagent_type "nope"\. Available: explorer, general, code-reviewer, test-runner, pinned\./,
    );
    assertMatch(results[1].text!, /type pinned · 0 tool calls/);
    assertMatch(results[1].text!, /⚠ tools not available, ignored: teleport/);
    assertMatch(results[1].text!, /Reviewed by the pinned model\.$/);
    assertEquals(e.mock.requests(other.modelId).length, 1);
    const sent = e.mock.requests(other.modelId)[0].body.tools as { function: { name: string } }[];
    assertEquals(sent.map((t) => t.function.name), ["read_file"]);
  } finally {
    await e.close();
  }
});

Deno.test("ops and restarts: the transcript op (own task only), a run left running becomes interrupted", async () => {
  const e = await env();
  const { runOp } = await import("../server/ops/dispatch.ts");
  const { createServices } = await import("../server/services.ts");
  try {
    const model = e.scenario({
      turns: [{ toolCalls: [agentCall()] }, { text: "ok" }],
      branches: [{ when: EXPLORER, turns: [{ text: "Nothing here." }] }],
    });
    const { task } = e.deps.tasks!.create({ title: "t", message: "go", options: { model } });
    await e.deps.runs!.start(task.id);
    const ctx = { ...e.deps, client: { id: "c", topics: new Set<string>(), deliver() {} } };
    const list = await runOp(ctx, "subagents.list", { taskId: task.id });
    assert(list.ok);
    const runs = (list.result as { runs: SubagentRun[] }).runs;
    assertEquals(runs.length, 1);
    const tr = await runOp(ctx, "subagent.transcript", { taskId: task.id, runId: runs[0].id });
    assert(tr.ok);
    const got = tr.result as { run: SubagentRun; entries: { role: string }[]; truncated: boolean };
    assertEquals([got.run.status, got.entries.map((x) => x.role), got.truncated], [
      "done",
      ["user", "assistant"],
      false,
    ]);
    // Another task's id cannot read it; bad ids are refused by the schema.
    const other = e.deps.tasks!.create({ title: "o" }).task;
    const denied = await runOp(ctx, "subagent.transcript", { taskId: other.id, runId: runs[0].id });
    assertEquals(!denied.ok && denied.error.code, "not_found");
    const bad = await runOp(ctx, "subagent.transcript", { taskId: task.id, runId: "../x" });
    assertEquals(!bad.ok && bad.error.code, "invalid_args");
    // The context breakdown shows the agent tool as the turn sent it (with the types).
    const b = await runOp(ctx, "task.contextBreakdown", { id: task.id, category: "tools" });
    assert(b.ok);
    const toolsText = (b.result as { text: { text: string } }).text.text;
    const sentAgent = (agentRequests(e, model.modelId)[0].body.tools as {
      function: { name: string; description: string };
    }[]).find((t) => t.function.name === "agent")!;
    const shown = (JSON.parse(toolsText) as { name: string; description: string }[])
      .find((t) => t.name === "agent")!;
    assertEquals(shown.description, sentAgent.function.description);

    // A run (and a sub-agent's approval) left by a process that died.
    const repos = e.deps.store.repos!;
    repos.subagents.putRun({ ...runs[0], id: "sa_left", status: "running", endedAt: null });
    repos.pending.put({
      id: "a_left",
      taskId: task.id,
      taskTitle: "t",
      call: { id: "c1", name: "exec_command", args: { command: "ls" } },
      kind: "exec",
      summary: "explorer sub-agent · $ ls",
      createdAt: 1,
      live: true,
      subagent: { runId: "sa_left", type: "explorer", description: "d", callId: "x" },
    });
    const again = createServices({ home: e.deps.home, db: `${e.deps.home}/reinagent.db` });
    try {
      assertEquals(again.store.repos!.subagents.getRun("sa_left")!.status, "interrupted");
      assertEquals(again.approvals!.list().filter((p) => p.id === "a_left").length, 0);
      assertEquals(again.store.repos!.subagents.getRun(runs[0].id)!.status, "done");
    } finally {
      await again.runs!.stopAll();
      again.hub.close();
      again.store.close();
    }
  } finally {
    await e.close();
  }
});

Deno.test("a sub-agent that never finishes stops at 25 steps with ⚠ max steps; an alias model is noted", async () => {
  const e = await env();
  try {
    const ws = `${e.deps.home}/DefaultProject`;
    await Deno.mkdir(`${ws}/.claude/agents`, { recursive: true });
    await Deno.writeTextFile(
      `${ws}/.claude/agents/looper.md`,
      "---\nname: looper\ndescription: Loops\ntools: LS\nmodel: sonnet\n---\nKeep listing.\n",
    );
    const model = e.scenario({
      turns: [{ toolCalls: [agentCall({ subagent_type: "looper" })] }, { text: "ok" }],
      branches: [{
        when: "type: looper)",
        turns: [{ text: "listing again", toolCalls: [{ name: "list_dir", args: {} }] }],
        repeatLast: true,
      }],
    });
    const { task } = e.deps.tasks!.create({ title: "t", message: "go", options: { model } });
    assertEquals((await e.deps.runs!.start(task.id))?.kind, "done");
    const result = entries(e, task.id).find((x) => x.role === "tool")!.parts[0];
    assertMatch(result.text!, /type looper · 25 tool calls · .* · 25 steps · /);
    assertMatch(result.text!, /\n⚠ max steps \(25\) reached: the text below may be intermediate/);
    assertMatch(
      result.text!,
      /\n⚠ model "sonnet" is not a provider\/model reference; used the task's model/,
    );
    assertMatch(result.text!, /\n\nlisting again$/);
    const run = (result.data?.meta as { subagent: SubagentRun }).subagent;
    assertEquals([run.status, run.steps, run.maxSteps], ["maxSteps", 25, 25]);
    const sub = agentRequests(e, model.modelId).filter((r) =>
      JSON.stringify(r.body).includes("type: looper)")
    );
    assertEquals(sub.length, 25);
  } finally {
    await e.close();
  }
});
