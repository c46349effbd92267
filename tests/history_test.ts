/**
 * Timeline history ops through the real server process and the mock LLM: paging older entries, edit & resend (hard truncate + re-run), retry, branch
 * (exact copy), `busy` while running, bad ids and bad args changing nothing; plus the
 * checkpoint fold that keeps rewind working after a truncation.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { Store } from "../store/store.ts";
import type { Entry, TaskEvent, TaskSummary } from "../protocol/index.ts";

const MODEL = { providerId: "mock", modelId: "chat" };
const SLOW = { providerId: "mock", modelId: "slow" };

async function withServer(
  fn: (c: TestClient, s: TestServer, mock: ReturnType<typeof startMockLlm>) => Promise<void>,
  seed?: (home: string) => void,
) {
  const mock = startMockLlm({ quiet: true });
  mock.register("chat", {
    turns: [{ text: "answer one" }, { text: "answer two" }, { text: "answer three" }],
    repeatLast: true,
  });
  mock.register("slow", { turns: [{ text: "tick ".repeat(400), chunk: 4, delayMs: 15 }] });
  const home = await homeWithProvider(mock.base, ["chat", "slow"]);
  seed?.(home);
  const s = await startTestServer({ home });
  const c = await TestClient.connect(s.base, s.token);
  try {
    await fn(c, s, mock);
  } finally {
    await c.close();
    await s.stop();
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
}

async function entriesOf(c: TestClient, id: string): Promise<Entry[]> {
  return (await c.request("task.subscribe", { id })).entries;
}

async function idle(c: TestClient, id: string) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { task } = await c.request("task.subscribe", { id });
    if ((task as TaskSummary).status !== "running") {
      const r = await c.request("task.subscribe", { id });
      if (r.run === null) return;
    }
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error("task did not become idle");
}

const texts = (list: Entry[]) =>
  list.map((e) => `${e.role}:${e.parts.map((p) => p.text ?? "").join("")}`);

/** Messages the mock received in its latest request for `model`. */
function lastRequestTexts(mock: ReturnType<typeof startMockLlm>, model: string): string[] {
  const body = mock.requests(model).at(-1)!.body as {
    messages: { role: string; content: unknown }[];
  };
  return body.messages.filter((m) => m.role !== "system").map((m) =>
    `${m.role}:${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`
  );
}

Deno.test("history: edit & resend truncates after the message, replaces its text and re-runs", async () => {
  await withServer(async (c, s, mock) => {
    const other = await TestClient.connect(s.base, s.token);
    try {
      const { task } = await c.request("tasks.create", {
        message: "first",
        options: { model: MODEL },
      });
      await idle(c, task.id);
      await c.request("task.send", { id: task.id, text: "second" });
      await idle(c, task.id);
      let list = await entriesOf(c, task.id);
      assertEquals(texts(list), [
        "user:first",
        "assistant:answer one",
        "user:second",
        "assistant:answer two",
      ]);
      await other.request("task.subscribe", { id: task.id });
      const second = list[2];
      const before = mock.requests("chat").length;
      const r = await c.request("task.editResend", {
        id: task.id,
        entryId: second.id,
        text: "second, edited",
      });
      assertEquals(r.entry.id, second.id, "the message keeps its id");
      assertEquals(r.entry.parts, [{ type: "text", text: "second, edited" }]);
      await idle(c, task.id);
      list = await entriesOf(c, task.id);
      assertEquals(texts(list), [
        "user:first",
        "assistant:answer one",
        "user:second, edited",
        "assistant:answer two",
      ]);
      assert(list[3].id !== second.id && list[3].pos === second.pos + 1, "a new reply after it");
      assertEquals(mock.requests("chat").length, before + 1, "ran once more");
      const sent = lastRequestTexts(mock, "chat");
      assert(sent.some((m) => m.includes("second, edited")), "the model got the new text");
      assert(!sent.some((m) => m.includes("answer two")), "the old reply was not sent");
      // The other client was told: truncate after the message, then the new text.
      const evs = other.events.filter((e) => e.topic === `task:${task.id}`).map((e) =>
        e.data as TaskEvent
      );
      const cut = evs.findIndex((d) => d.kind === "truncate");
      assert(cut >= 0, "truncate event");
      assertEquals(evs[cut], { kind: "truncate", afterPos: second.pos, total: 3 });
      const upd = evs.slice(cut).find((d) => d.kind === "entry" && d.entry.id === second.id);
      assert(upd && upd.kind === "entry" && upd.entry.parts[0].text === "second, edited");
      const { task: t2 } = await c.request("task.subscribe", { id: task.id });
      assertEquals(t2.entryCount ?? list.length, list.length);
    } finally {
      await other.close();
    }
  });
});

Deno.test("history: retry re-sends the reply's user prompt; branch copies exactly", async () => {
  await withServer(async (c, _s, mock) => {
    const { task } = await c.request("tasks.create", {
      message: "first",
      options: { model: MODEL, effort: "low", approval: "ask" },
    });
    await idle(c, task.id);
    await c.request("task.send", { id: task.id, text: "second" });
    await idle(c, task.id);
    let list = await entriesOf(c, task.id);
    const reply = list[3];
    const n = mock.requests("chat").length;
    const r = await c.request("task.retry", { id: task.id, entryId: reply.id });
    assertEquals(r.entry.id, list[2].id, "answers with the re-sent user message");
    await idle(c, task.id);
    list = await entriesOf(c, task.id);
    assertEquals(texts(list), [
      "user:first",
      "assistant:answer one",
      "user:second",
      "assistant:answer two",
    ]);
    assert(list[3].id !== reply.id, "a new reply");
    assertEquals(mock.requests("chat").length, n + 1);

    // Branch at the first reply: a new task with the same settings and project.
    const src = (await c.request("task.subscribe", { id: task.id })).task as TaskSummary;
    const b = await c.request("task.branch", { id: task.id, entryId: list[1].id });
    const branch = b.task as TaskSummary;
    assert(branch.id !== task.id);
    assertEquals(branch.title, `Branch: ${src.title}`);
    assertEquals(branch.projectPath, task.projectPath);
    assertEquals(branch.settings.model, MODEL);
    assertEquals(branch.settings.effort, "low");
    assertEquals(branch.settings.approval, "ask");
    assertEquals(branch.status, "idle");
    const copied = await entriesOf(c, branch.id);
    const strip = (e: Entry) => ({
      pos: e.pos,
      role: e.role,
      status: e.status,
      parts: e.parts,
      meta: e.meta,
      createdAt: e.createdAt,
    });
    assertEquals(copied.map(strip), list.slice(0, 2).map(strip), "an exact copy up to the reply");
    assert(copied.every((e) => e.taskId === branch.id && !list.some((x) => x.id === e.id)));
    assertEquals(texts(await entriesOf(c, task.id)), texts(list), "the source is unchanged");
    // The branch is a real task: it can continue on its own.
    await c.request("task.send", { id: branch.id, text: "in the branch" });
    await idle(c, branch.id);
    assertEquals((await entriesOf(c, branch.id)).length, 4);
    assertEquals((await entriesOf(c, task.id)).length, 4);
  });
});

Deno.test("history: busy while running, bad ids and bad args change nothing", async () => {
  await withServer(async (c) => {
    const { task } = await c.request("tasks.create", { message: "hi", options: { model: MODEL } });
    await idle(c, task.id);
    const list = await entriesOf(c, task.id);
    const [user, reply] = list;
    const { task: other } = await c.request("tasks.create", {
      message: "other",
      options: { model: SLOW },
    });
    // While `other` runs, every history op on it is refused.
    const otherList = await entriesOf(c, other.id);
    for (
      const [op, args] of [
        ["task.editResend", { id: other.id, entryId: otherList[0].id, text: "x" }],
        ["task.retry", { id: other.id, entryId: otherList.at(-1)!.id }],
        ["task.branch", { id: other.id, entryId: otherList.at(-1)!.id }],
      ] as const
    ) {
      const e = await c.failure(op, args);
      assertEquals(e.code, "busy", op);
    }
    const busy = await c.failure("task.editResend", {
      id: other.id,
      entryId: otherList[0].id,
      text: "x",
    });
    assertEquals(busy.code, "busy");
    assertMatch(busy.message, /running/);
    await c.request("task.stop", { id: other.id });

    const bad: [string, unknown, string][] = [
      ["task.editResend", { id: task.id, entryId: reply.id, text: "x" }, "not_found"],
      ["task.editResend", { id: task.id, entryId: otherList[0].id, text: "x" }, "not_found"],
      ["task.editResend", { id: task.id, entryId: "nope", text: "x" }, "not_found"],
      ["task.editResend", { id: "t-missing", entryId: user.id, text: "x" }, "not_found"],
      ["task.editResend", { id: task.id, entryId: user.id, text: "" }, "invalid_args"],
      ["task.retry", { id: task.id, entryId: user.id }, "not_found"],
      ["task.branch", { id: task.id, entryId: user.id }, "not_found"],
      ["task.branch", { id: task.id }, "invalid_args"],
      ["task.entriesBefore", { id: task.id, beforePos: 0 }, "invalid_args"],
      ["task.entriesBefore", { id: task.id, beforePos: 5, limit: 5000 }, "invalid_args"],
      ["task.entriesBefore", { id: "t-missing", beforePos: 5 }, "not_found"],
    ];
    const tasksBefore = (await c.request("tasks.list")).tasks.length;
    for (const [op, args, code] of bad) {
      const e = await c.failure(op, args);
      assertEquals(e.code, code, `${op} ${JSON.stringify(args)}`);
      assert(e.message.length > 5, "a clear message");
    }
    assertEquals(texts(await entriesOf(c, task.id)), texts(list), "nothing changed");
    assertEquals((await c.request("tasks.list")).tasks.length, tasksBefore, "no task created");
  });
});

Deno.test("history: pages older entries before a position", async () => {
  let taskId = "";
  await withServer(async (c) => {
    const snap = await c.request("task.subscribe", { id: taskId });
    assertEquals(snap.total, 1234);
    assertEquals(snap.entries.length, 500);
    assertEquals(snap.entries[0].pos, 735);
    let first = snap.entries[0].pos;
    const p1 = await c.request("task.entriesBefore", { id: taskId, beforePos: first });
    assertEquals(p1.entries.length, 500);
    assertEquals(p1.entries[0].pos, 235);
    assertEquals(p1.entries.at(-1).pos, 734);
    assertEquals(p1.remaining, 234);
    assertEquals(p1.total, 1234);
    assertEquals(p1.entries[10].parts[0].text, `message 245`);
    first = p1.entries[0].pos;
    const p2 = await c.request("task.entriesBefore", { id: taskId, beforePos: first, limit: 1000 });
    assertEquals(p2.entries.length, 234);
    assertEquals(p2.entries[0].pos, 1);
    assertEquals(p2.remaining, 0);
    const p3 = await c.request("task.entriesBefore", { id: taskId, beforePos: 1 });
    assertEquals(p3, { entries: [], total: 1234, remaining: 0 });
    const small = await c.request("task.entriesBefore", { id: taskId, beforePos: 11, limit: 3 });
    assertEquals(small.entries.map((e: Entry) => e.pos), [8, 9, 10]);
    assertEquals(small.remaining, 7);
  }, (home) => {
    const store = new Store(`${home}/reinagent.db`);
    const r = store.repos!;
    const t = r.tasks.create({ id: "t-long", title: "long", projectPath: null });
    taskId = t.id;
    r.entries.tx(() => {
      for (let i = 1; i <= 1234; i++) {
        r.entries.append({
          id: `m-${i}`,
          taskId,
          role: i % 2 ? "user" : "assistant",
          status: "done",
          parts: [{ type: "text", text: `message ${i}` }],
        });
      }
    });
    store.close();
  });
});

Deno.test("checkpoints: folding deleted turns keeps the earliest pre-image and latest post", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ra-fold-" });
  const store = new Store(`${dir}/db.sqlite`);
  try {
    const r = store.repos!;
    r.tasks.create({ id: "t1", title: "t", projectPath: null });
    const row = (
      turnId: string,
      turnPos: number,
      path: string,
      pre: string | null,
      post: string | null,
      skipped: string | null = null,
    ) =>
      r.checkpoints.insert({
        taskId: "t1",
        turnId,
        turnPos,
        path,
        preHash: pre,
        postHash: post,
        preSize: 1,
        source: "tool",
        skipped,
      });
    row("u1", 1, "/w/a", "a0", "a1");
    row("u3", 3, "/w/a", "a1", "a2");
    row("u3", 3, "/w/b", null, "b1");
    row("u5", 5, "/w/b", "b1", "b2");
    row("u5", 5, "/w/c", "c0", "c1", "too large");
    row("u0", 0, "/w/z", "z0", "z1");
    r.checkpoints.foldAfter("t1", "u1", 1);
    const rows = r.checkpoints.since("t1", 0).map((
      x,
    ) => [x.turnId, x.turnPos, x.path, x.preHash, x.postHash, x.skipped]);
    assertEquals(
      rows.sort(),
      [
        ["u0", 0, "/w/z", "z0", "z1", null],
        ["u1", 1, "/w/a", "a0", "a2", null],
        ["u1", 1, "/w/b", null, "b2", null],
        ["u1", 1, "/w/c", "c0", "c1", "too large"],
      ].sort(),
    );
    r.checkpoints.foldAfter("t1", "u1", 1); // nothing later: unchanged
    assertEquals(r.checkpoints.since("t1", 0).length, 4);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
