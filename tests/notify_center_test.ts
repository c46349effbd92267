/**
 * The notify center inside the server: task changes published on the hub become events
 * on the `notify` topic — failed runs too, and a question is told from an approval —
 * only while their switch is on; a stop says nothing; it is no client in the count.
 */
import { assertEquals } from "./helpers/assert.ts";
import { createServices } from "../server/services.ts";
import { setup } from "./helpers/approval_harness.ts";
import { startApp } from "../server/app.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { newSubscriber } from "./helpers/push_receiver.ts";
import type { EvtMsg, NotifyTopicEvent } from "../protocol/index.ts";

Deno.test("notify center: failed and finished runs notify while switched on; a stop does not", async () => {
  const home = await Deno.makeTempDir();
  const deps = createServices({ home, flushMs: 1 });
  const got: NotifyTopicEvent[] = [];
  deps.hub.add({
    id: "watcher",
    topics: new Set(["notify"]),
    deliver: (events: EvtMsg[]) => got.push(...events.map((e) => e.data as NotifyTopicEvent)),
  });
  try {
    assertEquals(deps.hub.clientCount, 1, "the notify center is not counted as a client");
    const repos = deps.store.repos!;
    const { task } = deps.tasks!.create({ title: "Build it" });
    const step = (f: () => unknown) => {
      deps.tasks!.publish(f() as never);
      deps.hub.flush(); // the center hears it
      deps.hub.flush(); // and its event reaches the watcher
    };
    step(() => repos.tasks.setStatus(task.id, "running"));
    step(() => repos.tasks.finishRun(task.id, "failed"));
    step(() => repos.tasks.setStatus(task.id, "running"));
    step(() => repos.tasks.finishRun(task.id, "stopped"));
    deps.notify!.setEvents({ failed: false });
    deps.hub.flush();
    step(() => repos.tasks.setStatus(task.id, "running"));
    step(() => repos.tasks.finishRun(task.id, "failed"));
    step(() => repos.tasks.setStatus(task.id, "running"));
    step(() => repos.tasks.finishRun(task.id, "done"));
    const kinds = got.map((e) => e.kind === "event" ? e.event.kind : `settings`);
    assertEquals(kinds, ["failed", "settings", "finished"]);
    const first = got[0];
    assertEquals(first.kind === "event" && first.event.taskTitle, "Build it");
    assertEquals(deps.notify!.events(), {
      waiting: true,
      finished: true,
      failed: false,
      branch: true,
    });
  } finally {
    deps.notify?.close();
    deps.hub.close();
    await deps.mcp?.close();
    deps.store.close();
  }
});

Deno.test("notify center: a task waiting on ask_user_question is told as a question", async () => {
  const q = { question: "Which DB?", options: [{ label: "SQLite" }, { label: "Postgres" }] };
  const s = await setup([
    { toolCalls: [{ name: "ask_user_question", args: { questions: [q] } }] },
    { text: "Thanks." },
  ]);
  const got: NotifyTopicEvent[] = [];
  s.deps.hub.add({
    id: "watcher",
    topics: new Set(["notify"]),
    deliver: (events: EvtMsg[]) => got.push(...events.map((e) => e.data as NotifyTopicEvent)),
  });
  try {
    const { task, done } = s.start("ask");
    const pending = await s.waitPending();
    for (let i = 0; i < 100 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const first = got[0];
    assertEquals(first?.kind === "event" && [first.event.kind, first.event.reason], [
      "waiting",
      "question",
    ]);
    assertEquals(first.kind === "event" && first.event.taskId, task.id);
    s.deps.approvals!.decide(pending.id, "allow", undefined, [
      { question: "Which DB?", answers: ["SQLite"] },
    ]);
    await done;
    for (let i = 0; i < 100 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    assertEquals(got.map((e) => e.kind === "event" && e.event.kind), ["waiting", "finished"]);
  } finally {
    await s.close();
  }
});

Deno.test("a token reset forgets every push device (they pair again)", async () => {
  const home = await Deno.makeTempDir();
  const app = await startApp({ home, port: 0 });
  try {
    const c = await TestClient.connect(app.base, app.auth.token);
    const sub = await newSubscriber();
    await c.request("push.register", {
      endpoint: "https://push.example.com/send/abc",
      p256dh: sub.p256dh,
      auth: sub.auth,
      device: "Phone",
    });
    assertEquals((await c.request("notify.subscribe")).devices.length, 1);
    await app.auth.reset();
    await c.close();
    const again = await TestClient.connect(app.base, app.auth.token);
    assertEquals((await again.request("notify.subscribe")).devices, []);
    await again.close();
  } finally {
    await app.close();
  }
});

Deno.test("notify center: tasks from before the start are known by their stored state (a light read)", async () => {
  const home = await Deno.makeTempDir();
  const first = createServices({ home, flushMs: 1 });
  const { task } = first.tasks!.create({ title: "Earlier" });
  first.store.repos!.tasks.setStatus(task.id, "running");
  first.store.repos!.tasks.finishRun(task.id, "done");
  first.notify?.close();
  first.hub.close();
  await first.mcp?.close();
  first.store.close();

  const deps = createServices({ home, flushMs: 1 });
  const got: string[] = [];
  deps.hub.add({
    id: "watcher",
    topics: new Set(["notify"]),
    deliver: (events: EvtMsg[]) =>
      events.forEach((e) => {
        const d = e.data as NotifyTopicEvent;
        if (d.kind === "event") got.push(`${d.event.kind}:${d.event.taskTitle}`);
      }),
  });
  try {
    assertEquals(deps.store.repos!.tasks.states().get(task.id), {
      status: "idle",
      lastRun: "done",
    });
    const repos = deps.store.repos!;
    const step = (f: () => unknown) => {
      deps.tasks!.publish(f() as never);
      deps.hub.flush();
      deps.hub.flush();
    };
    // The same state again is no transition; a new run that fails is.
    step(() => repos.tasks.get(task.id));
    step(() => repos.tasks.setStatus(task.id, "running"));
    step(() => repos.tasks.finishRun(task.id, "failed"));
    assertEquals(got, ["failed:Earlier"]);
  } finally {
    deps.notify?.close();
    deps.hub.close();
    await deps.mcp?.close();
    deps.store.close();
  }
});
