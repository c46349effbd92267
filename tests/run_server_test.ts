/** Agent runs through the real server process: multi-client streams, stop, crash recovery. */
import { assert, assertEquals } from "./helpers/assert.ts";
import { startTestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import type { Entry, TaskEvent } from "../protocol/index.ts";

/**
 * Text of the assistant entry as seen by a client: the subscribe snapshot (`base`)
 * plus entry and delta events.
 */
function streamedText(c: TestClient, taskId: string, base: Entry[] = []): string {
  const snap = base.filter((e) => e.role === "assistant").at(-1);
  let entryId = snap?.id ?? "";
  let text = snap?.parts.filter((p) => p.type === "text").map((p) => p.text).join("") ?? "";
  for (const e of c.events) {
    if (e.topic !== `task:${taskId}`) continue;
    const d = e.data as TaskEvent;
    if (d.kind === "entry" && d.entry.role === "assistant") {
      if (d.entry.updatedAt < (snap?.updatedAt ?? 0) && d.entry.id === snap?.id) continue;
      entryId = d.entry.id;
      text = d.entry.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
    } else if (d.kind === "delta" && d.entryId === entryId && d.type === "text") text += d.text;
  }
  return text;
}

Deno.test("two clients see the same stream; the second one stops the run", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("slow", { turns: [{ text: "tick ".repeat(300), chunk: 5, delayMs: 15 }] });
  const s = await startTestServer({ home: await homeWithProvider(mock.base, ["slow"]) });
  const a = await TestClient.connect(s.base, s.token);
  const b = await TestClient.connect(s.base, s.token);
  try {
    const { task } = await a.request("tasks.create", {
      title: "stream",
      message: "go",
      options: { model: { providerId: "mock", modelId: "slow" } },
    });
    // b joins mid-stream (a, the creator, follows from the start).
    await a.until(() => streamedText(a, task.id).length > 60, "streaming on a");
    const snapB = await b.request("task.subscribe", { id: task.id });
    await b.until(() => streamedText(b, task.id, snapB.entries).length > 200, "streaming on b");
    const t0 = performance.now();
    const r = await b.request("task.stop", { id: task.id });
    assertEquals(r.stopped, true);
    assert(performance.now() - t0 < 1000, "stopped within 1 s");
    const final = (c: TestClient) =>
      c.events.map((e) => e.data as TaskEvent).filter((
        d,
      ): d is Extract<TaskEvent, { kind: "entry" }> => d.kind === "entry")
        .map((d) => d.entry).filter((x) => x.role === "assistant").at(-1);
    await a.until(() => final(a)?.status === "stopped", "a sees stopped").catch((e) => {
      console.log(
        JSON.stringify(
          a.events.map((
            x,
          ) => [
            x.topic,
            (x.data as TaskEvent).kind,
            (x.data as { entry?: Entry }).entry?.status,
            (x.data as { entry?: Entry }).entry?.role,
          ]),
        ),
      );
      throw e;
    });
    await b.until(() => final(b)?.status === "stopped", "b sees stopped");
    const textA = final(a)!.parts[0].text!;
    assertEquals(final(b)!.parts[0].text, textA, "both clients agree");
    // b joined mid-stream: snapshot + deltas must rebuild the text exactly (none lost,
    // none twice) — rebuild it from the events that came before the final entry.
    const beforeFinal = b.events.slice(
      0,
      b.events.findIndex((e) =>
        (e.data as TaskEvent).kind === "entry" &&
        (e.data as { entry: Entry }).entry.status === "stopped"
      ),
    );
    const rebuilt = streamedText({ events: beforeFinal } as TestClient, task.id, snapB.entries);
    assertEquals(rebuilt, textA, "mid-stream subscribe loses nothing");
    assert(textA.length > 100 && textA.length < 1500, `partial text kept (${textA.length})`);
    const runEnded = (c: TestClient) =>
      c.events.some((e) =>
        e.topic === `task:${task.id}` && (e.data as TaskEvent).kind === "run" &&
        (e.data as { run: unknown }).run === null
      );
    await a.until(() => runEnded(a), "run null on a");
    const list = await a.request("tasks.list");
    assertEquals(list.tasks[0].status, "idle");
  } finally {
    await a.close();
    await b.close();
    await s.stop();
    await mock.close();
  }
});

Deno.test("killed mid-stream: after restart the entry is stopped with the text up to ≤300 ms before the kill", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("long", { turns: [{ text: "abcdefghij".repeat(500), chunk: 10, delayMs: 10 }] });
  const home = await homeWithProvider(mock.base, ["long"]);
  const s1 = await startTestServer({ home });
  const c = await TestClient.connect(s1.base, s1.token);
  const { task } = await c.request("tasks.create", {
    title: "crash",
    message: "go",
    options: { model: { providerId: "mock", modelId: "long" } },
  });
  await c.request("task.subscribe", { id: task.id });
  const seen: { t: number; len: number }[] = [];
  await c.until(() => {
    seen.push({ t: performance.now(), len: streamedText(c, task.id).length });
    return seen.at(-1)!.len > 1500;
  }, "streaming");
  await new Promise((r) => setTimeout(r, 400));
  seen.push({ t: performance.now(), len: streamedText(c, task.id).length });
  const killedAt = performance.now();
  await s1.kill();
  await c.closed;
  const before300 = seen.filter((x) => x.t <= killedAt - 300).at(-1)!.len;

  const s2 = await startTestServer({ home });
  const c2 = await TestClient.connect(s2.base, s2.token);
  try {
    const snap = await c2.request("task.subscribe", { id: task.id });
    const a = (snap.entries as Entry[]).find((e) => e.role === "assistant")!;
    assertEquals(a.status, "stopped");
    const kept = a.parts[0].text!.length;
    assert(kept >= before300, `persisted ${kept} chars, client had ${before300} at kill−300 ms`);
    assert(typeof a.meta.endedAt === "number");
    assertEquals(snap.run, null);
    assertEquals(snap.task.status, "idle");
  } finally {
    await c2.close();
    await s2.stop();
    await mock.close();
  }
});
