/** The agent loop end to end in-process: real store, real adapters, the mock LLM. */
import { until } from "./helpers/until.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { entries, env, runTask } from "./helpers/agent_env.ts";
import type { Entry, TaskEvent, TasksEvent } from "../protocol/index.ts";
import { INTERRUPTED, toConversation } from "../server/agent/history.ts";

Deno.test("loop: tool call → real tool result → final answer; usage and order persisted", async () => {
  const e = await env();
  try {
    await Deno.writeTextFile(`${e.deps.home}/DefaultProject/hello.txt`, "hi there\n");
    const model = e.scenario({
      turns: [
        {
          thinking: "Look first.",
          text: "Listing.",
          toolCalls: [{ name: "list_dir", args: { path: "." } }],
          usage: { input: 50, output: 10, cacheRead: 25 },
        },
        { text: "Found hello.txt.", usage: { input: 80, output: 5 } },
      ],
    });
    const { task, outcome } = await runTask(e, model, "what is here?");
    assertEquals(outcome?.kind, "done");
    assertEquals(e.deps.store.repos!.tasks.get(task.id)!.lastRun, "done");
    const tl = entries(e, task.id);
    assertEquals(tl.map((x) => [x.role, x.status]), [["user", "done"], ["assistant", "done"], [
      "tool",
      "done",
    ], ["assistant", "done"]]);
    assertEquals(tl[1].parts.map((p) => p.type), ["thinking", "text", "tool_call"]);
    assertEquals(tl[1].parts[2].data?.args, { path: "." });
    assertMatch(tl[2].parts[0].text!, /hello\.txt\s+9 B/);
    assertEquals(tl[1].meta.usage, {
      input: 50,
      output: 10,
      cacheRead: 25,
      cacheWrite: 0,
      reasoning: 0,
    });
    assertEquals(tl[3].parts[0].text, "Found hello.txt.");
    assert(typeof tl[1].parts[0].data?.endedAt === "number", "thinking block has an end time");
    // The second request carried the tool result back to the model.
    const agentCalls = e.mock.requests(model.modelId).filter((r) =>
      !JSON.stringify(r.body).includes("short titles")
    );
    const second = agentCalls[1].body.messages as unknown[];
    assertEquals(second.at(-1), {
      role: "tool",
      tool_call_id: "call_1",
      content: tl[2].parts[0].text!,
    });
    // The system prompt and the reminder block (date) were sent.
    const first = agentCalls[0].body.messages as { role: string; content: string }[];
    assertMatch(first[0].content, /Workspace root: .*DefaultProject/);
    assertMatch(first[1].content, /^<system-reminder>\nCurrent date: \d{4}-\d{2}-\d{2}/);
    const task2 = e.deps.store.repos!.tasks.get(task.id)!;
    assertEquals([task2.status, task2.unread], ["idle", true]);
  } finally {
    await e.close();
  }
});

Deno.test("loop: max steps marks truncatedBy and Continue resumes", async () => {
  const e = await env();
  try {
    const loopTurn = { text: "again", toolCalls: [{ name: "list_dir", args: {} }] };
    const model = e.scenario({ turns: [loopTurn], repeatLast: true });
    // effort low = 200 steps; force a tiny budget through a custom run instead:
    const { task } = e.deps.tasks!.create({
      message: "loop forever",
      options: { model, effort: "default", approval: "ask" },
    });
    const runs = e.deps.runs!;
    // default effort + ask → 100 steps; the mock repeats tool calls forever.
    const outcome = await runs.start(task.id);
    assertEquals(outcome, { kind: "maxSteps", steps: 100 });
    const last = entries(e, task.id).filter((x) => x.role === "assistant").at(-1)!;
    assertEquals(last.meta.truncatedBy, "maxSteps");
    assertEquals(e.deps.store.repos!.tasks.get(task.id)!.lastRun, "maxSteps");
    const agentCalls = e.mock.requests(model.modelId).filter((r) =>
      !JSON.stringify(r.body).includes("short titles")
    );
    assertEquals(agentCalls.length, 100);
    // Continue picks up where it stopped.
    const more = e.deps.runs!.start(task.id);
    const calls = () =>
      e.mock.requests(model.modelId).filter((r) => !JSON.stringify(r.body).includes("short titles"))
        .length;
    await until(() => calls() > 100, "the continued run's first model call");
    await e.deps.runs!.stop(task.id);
    assertEquals((await more)?.kind, "stopped");
    assertEquals(e.deps.store.repos!.tasks.get(task.id)!.lastRun, "stopped");
    const after = e.mock.requests(model.modelId).filter((r) =>
      !JSON.stringify(r.body).includes("short titles")
    );
    assert(after.length > 100, "continued with more model calls");
  } finally {
    await e.close();
  }
});

Deno.test("loop: stop aborts a slow stream within 1 s and keeps the partial text", async () => {
  const e = await env();
  try {
    const model = e.scenario(
      { turns: [{ text: "word ".repeat(400), chunk: 5, delayMs: 20 }] },
      "anthropic-messages",
    );
    const { task } = e.deps.tasks!.create({ message: "talk", options: { model } });
    const done = e.deps.runs!.start(task.id);
    while (!(entries(e, task.id)[1]?.parts[0]?.text)) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    assertEquals(await e.deps.runs!.stop(task.id), true);
    assert(performance.now() - t0 < 1000, `stop took ${performance.now() - t0} ms`);
    assertEquals((await done)?.kind, "stopped");
    const a = entries(e, task.id)[1];
    assertEquals(a.status, "stopped");
    assert(a.parts[0].text!.startsWith("word word"));
    assertEquals(e.deps.runs!.isRunning(task.id), false);
    // The task records the stop (not "done"), and every client was told.
    const t = e.deps.store.repos!.tasks.get(task.id)!;
    assertEquals([t.status, t.lastRun], ["idle", "stopped"]);
    e.deps.hub.flush();
    const last = e.events.filter((x) => x.topic === "tasks").map((x) => x.data as TasksEvent)
      .filter((x) => x.kind === "upsert" && x.task.id === task.id).at(-1);
    assertEquals(last?.kind === "upsert" && last.task.lastRun, "stopped");
  } finally {
    await e.close();
  }
});

Deno.test("loop: provider error becomes an error entry with category and hint; not retried on 401", async () => {
  const e = await env();
  try {
    const model = e.scenario(
      { turns: [{ text: "x", fail: { status: 401, message: "bad key" } }] },
      "google-generative-ai",
    );
    const { task, outcome } = await runTask(e, model, "hi");
    assertEquals(outcome?.kind, "error");
    const err = entries(e, task.id).find((x) => x.role === "error")!;
    const info = err.meta.error as { category: string; hint: string; status: number };
    assertEquals([info.category, info.status], ["auth", 401]);
    assertMatch(info.hint, /API key/);
    const t = e.deps.store.repos!.tasks.get(task.id)!;
    assertEquals([t.status, t.lastRun], ["idle", "failed"]);
  } finally {
    await e.close();
  }
});

Deno.test("loop: 429 then success publishes a live retry state, then clears it", async () => {
  const e = await env();
  try {
    const model = e.scenario({
      turns: [{ text: "ok now", fail: { status: 503, message: "overloaded", times: 1 } }],
    }, "openai-responses");
    const { task, outcome } = await runTask(e, model, "hi", "no auto title");
    assertEquals(outcome?.kind, "done");
    e.deps.hub.flush();
    const runs = e.events.filter((x) =>
      x.topic === `task:${task.id}` && (x.data as TaskEvent).kind === "run"
    )
      .map((x) => (x.data as Extract<TaskEvent, { kind: "run" }>).run);
    const retrying = runs.find((r) => r?.retry);
    assertEquals(retrying?.retry?.attempt, 1);
    assertEquals(retrying?.retry?.max, 10);
    assertMatch(retrying!.retry!.message, /overloaded/);
    assertEquals(runs.at(-1), null, "run ended");
  } finally {
    await e.close();
  }
});

Deno.test("loop: an unavailable model is reported, never replaced by another", async () => {
  const e = await env();
  try {
    const { task } = e.deps.tasks!.create({
      message: "hi",
      options: { model: { providerId: "nope", modelId: "x" } },
    });
    assertEquals(await e.deps.runs!.start(task.id), null);
    const err = entries(e, task.id).at(-1)!;
    assertEquals(err.role, "error");
    assertMatch(err.parts[0].text!, /there is no provider "nope"/);
    // It failed (before, the task went back to "idle" and the phone said "Done").
    assertEquals(e.deps.store.repos!.tasks.get(task.id)!.lastRun, "failed");
  } finally {
    await e.close();
  }
});

Deno.test("demo model: streams thinking and text and really lists and reads the workspace", async () => {
  const e = await env();
  try {
    await Deno.writeTextFile(`${e.deps.home}/DefaultProject/notes.md`, "# Notes\nline two\n");
    const { task, outcome } = await runTask(
      e,
      { providerId: "demo", modelId: "demo" },
      "hi there, show me around",
    );
    assertEquals(outcome?.kind, "done");
    const tl = entries(e, task.id);
    const calls = tl.flatMap((x) =>
      x.parts.filter((p) => p.type === "tool_call").map((p) => p.data?.name)
    );
    // Nothing was asked to be written: it only lists and reads.
    assertEquals(calls, ["list_dir", "read_file"]);
    assertEquals(
      await Deno.stat(`${e.deps.home}/DefaultProject/demo-note.md`).catch(() => null),
      null,
    );
    const read = tl.find((x) => x.role === "tool" && x.parts[0].data?.name === "read_file")!;
    assertMatch(read.parts[0].text!, /# Notes/);
    assertMatch(tl.at(-1)!.parts.find((p) => p.type === "text")!.text!, /Demo/);
    assert(tl.some((x) => x.parts.some((p) => p.type === "thinking")));
    assertEquals(
      e.deps.store.repos!.tasks.get(task.id)!.title,
      "Show me around",
      "local title rule for Demo",
    );
  } finally {
    await e.close();
  }
});

Deno.test("demo model: a new install (mode edit) writes the note it is asked for, without asking", async () => {
  const e = await env();
  try {
    const { task, outcome } = await runTask(
      e,
      { providerId: "demo", modelId: "demo" },
      "please write a note file",
    );
    assertEquals(outcome?.kind, "done");
    const calls = entries(e, task.id).flatMap((x) =>
      x.parts.filter((p) => p.type === "tool_call").map((p) => p.data?.name)
    );
    assertEquals(calls, ["list_dir", "write_file"], "empty workspace: nothing to read");
    assertMatch(
      await Deno.readTextFile(`${e.deps.home}/DefaultProject/demo-note.md`),
      /Written by the ReinAgent Demo model/,
    );
    assertEquals(e.deps.approvals!.list(), [], "edit mode lets file changes run");
  } finally {
    await e.close();
  }
});

Deno.test("demo model: asksForFile tells a request for a file from a look around", async () => {
  const { asksForFile } = await import("../agent/providers/demo.ts");
  for (
    const yes of ["write a note file", "Create notes.md", "save it to a file", "帮我写一个笔记文件"]
  ) {
    assert(asksForFile(yes), yes);
  }
  for (const no of ["hi there, show me around", "what files are here?", "read the file list"]) {
    assert(!asksForFile(no), no);
  }
});

Deno.test("text deltas reach clients coalesced into few events", async () => {
  const e = await env();
  try {
    const model = e.scenario({ turns: [{ text: "a".repeat(2000), chunk: 1 }] });
    const { task } = await runTask(e, model, "stream");
    e.deps.hub.flush();
    const deltas = e.events.filter((x) =>
      x.topic === `task:${task.id}` && (x.data as TaskEvent).kind === "delta"
    );
    const text = deltas.map((x) => (x.data as { text: string }).text).join("");
    assertEquals(text, "a".repeat(2000));
    assert(deltas.length < 2000, `${deltas.length} delta events for 2000 chunks`);
  } finally {
    await e.close();
  }
});

Deno.test("history: orphan results dropped, missing results get a synthetic interrupted result", () => {
  const mk = (id: string, role: Entry["role"], parts: Entry["parts"], pos: number): Entry => ({
    id,
    taskId: "t",
    pos,
    role,
    status: "done",
    createdAt: 0,
    updatedAt: 0,
    parts,
    meta: {},
  });
  const conv = toConversation([
    mk("1", "user", [{ type: "text", text: "go" }], 1),
    mk("2", "tool", [{
      type: "tool_result",
      text: "orphan",
      data: { toolCallId: "zzz", name: "x", isError: false },
    }], 2),
    mk("3", "assistant", [{ type: "text", text: "calling" }, {
      type: "tool_call",
      data: { id: "c1", name: "list_dir", args: {} },
    }, { type: "tool_call", data: { id: "c2", name: "read_file", args: { path: "a" } } }], 3),
    mk("4", "tool", [{
      type: "tool_result",
      text: "listing",
      data: { toolCallId: "c1", name: "list_dir", isError: false },
    }], 4),
    mk("5", "user", [{ type: "text", text: "next" }], 5),
    mk("6", "assistant", [], 6),
  ]);
  assertEquals(conv.map((m) => m.role), ["user", "assistant", "tool", "tool", "user"]);
  assertEquals(conv[2], {
    role: "tool",
    toolCallId: "c1",
    name: "list_dir",
    content: "listing",
    isError: false,
  });
  assertEquals(conv[3], {
    role: "tool",
    toolCallId: "c2",
    name: "read_file",
    content: INTERRUPTED,
    isError: true,
  });
});

Deno.test("several tasks run at once; each finishes with its own answer", async () => {
  const e = await env();
  try {
    const m1 = e.scenario({ turns: [{ text: "first answer", chunk: 2, delayMs: 5 }] });
    const m2 = e.scenario(
      { turns: [{ text: "second answer", chunk: 2, delayMs: 5 }] },
      "anthropic-messages",
    );
    const t1 = e.deps.tasks!.create({ title: "one", message: "a", options: { model: m1 } }).task;
    const t2 = e.deps.tasks!.create({ title: "two", message: "b", options: { model: m2 } }).task;
    const r1 = e.deps.runs!.start(t1.id);
    const r2 = e.deps.runs!.start(t2.id);
    assertEquals(e.deps.runs!.activeCount, 2);
    assertEquals([(await r1)?.kind, (await r2)?.kind], ["done", "done"]);
    assertEquals(entries(e, t1.id).at(-1)!.parts[0].text, "first answer");
    assertEquals(entries(e, t2.id).at(-1)!.parts[0].text, "second answer");
  } finally {
    await e.close();
  }
});

Deno.test("titles: local rule and cleaning of model output", async () => {
  const { localTitle, cleanTitle } = await import("../server/agent/title.ts");
  assertEquals(localTitle("Hello! please help me fix the login bug?"), "Fix the login bug");
  assertEquals(localTitle("你好，请帮我写一个排序函数？"), "写一个排序函数");
  assertEquals(localTitle("   "), "New task");
  assertEquals(cleanTitle('<think>hmm</think>"Fix Login Bug."'), "Fix Login Bug");
  assertEquals(cleanTitle(""), null);
});

Deno.test("exec output streams live to clients while the command runs", async () => {
  const e = await env();
  try {
    const model = e.scenario({
      turns: [{
        toolCalls: [{
          name: "exec_command",
          args: { command: "echo first; sleep 0.3; echo second" },
        }],
      }, { text: "ok" }],
    });
    // The loop is under test, not the gate: no approval for the command.
    const { task } = await runTask(e, model, "run it", "no auto title", "full");
    e.deps.hub.flush();
    const outputs = e.events.filter((x) =>
      x.topic === `task:${task.id}` && (x.data as TaskEvent).kind === "output"
    )
      .map((x) => x.data as { callId: string; text: string });
    assert(outputs.length >= 2, `output arrived in pieces (${outputs.length})`);
    assertEquals(outputs.map((o) => o.text).join(""), "first\nsecond\n");
    assertEquals(outputs[0].callId, "call_1");
  } finally {
    await e.close();
  }
});
