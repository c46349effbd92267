import { assertEquals } from "./helpers/assert.ts";
import { EventHub, type HubClient } from "../server/sessions/hub.ts";
import type { TopicEvent } from "../protocol/topics.ts";

/** Free-form topics and data: these tests are about the hub's mechanics, not the map. */
type AnyTopics = Record<string, unknown>;

function client(topics: string[]): HubClient<AnyTopics> & { got: TopicEvent<AnyTopics>[] } {
  const got: TopicEvent<AnyTopics>[] = [];
  return { id: "c", topics: new Set(topics), got, deliver: (e) => got.push(...e) };
}

Deno.test("hub: coalesces a topic's latest queued event by key, keeps order, numbers seq", () => {
  const hub = new EventHub<AnyTopics>(1000);
  const c = client(["a", "b"]);
  const other = client(["z"]);
  hub.add(c);
  hub.add(other);
  hub.publish("a", 1, "k");
  hub.publish("b", 2);
  hub.publish("a", 3, "k"); // the latest of topic a has key k: replaced
  hub.flush();
  assertEquals(c.got.map((e) => [e.topic, e.seq, e.data]), [["a", 1, 3], ["b", 2, 2]]);
  assertEquals(other.got, []);
  hub.publish("a", 4, "k"); // after a flush the key starts fresh
  hub.flush();
  assertEquals(c.got.at(-1)?.data, 4);
  assertEquals(hub.lastSeq, 3);
});

Deno.test("hub: merge concatenates deltas; another event of the topic ends the run", () => {
  const hub = new EventHub<AnyTopics>(1000);
  const c = client(["t"]);
  hub.add(c);
  const cat = (a: unknown, b: unknown) => String(a) + String(b);
  hub.publish("t", "he", "d", cat);
  hub.publish("t", "llo", "d", cat);
  hub.publish("t", "FULL", "e");
  hub.publish("t", "!", "d", cat); // must come after FULL, not merge into "hello"
  hub.flush();
  assertEquals(c.got.map((e) => e.data), ["hello", "FULL", "!"]);
});

Deno.test("hub: flushes by itself after the interval", async () => {
  const hub = new EventHub<AnyTopics>(5);
  const c = client(["a"]);
  hub.add(c);
  hub.publish("a", "x");
  assertEquals(c.got.length, 0);
  await new Promise((r) => setTimeout(r, 30));
  assertEquals(c.got.length, 1);
  hub.close();
});

Deno.test("hub: replay after seq, unknown epoch or evicted range needs a snapshot", () => {
  const hub = new EventHub<AnyTopics>(1000, 3);
  for (let i = 1; i <= 5; i++) {
    hub.publish(i % 2 ? "a" : "b", i);
    hub.flush();
  }
  assertEquals(hub.replay(hub.epoch, 3, new Set(["a", "b"]))?.map((e) => e.seq), [4, 5]);
  assertEquals(hub.replay(hub.epoch, 2, new Set(["a"]))?.map((e) => e.seq), [3, 5]);
  assertEquals(hub.replay(hub.epoch, 1, new Set(["a"])), null, "seq 2 was evicted");
  assertEquals(hub.replay("other-epoch", 4, new Set(["a"])), null);
  assertEquals(hub.replay(hub.epoch, 99, new Set(["a"])), null);
  assertEquals(hub.replay(hub.epoch, 5, new Set(["a"])), []);
});

Deno.test("hub: the replay ring keeps at most its byte budget, always the newest event", () => {
  const hub = new EventHub<AnyTopics>(1000, 5000, 1100);
  const big = "x".repeat(300);
  for (let i = 1; i <= 10; i++) {
    hub.publish("a", { i, big });
    hub.flush();
  }
  const kept = hub.replay(hub.epoch, 7, new Set(["a"]))!;
  assertEquals(kept.map((e) => e.seq), [8, 9, 10], "three ~345-byte frames fit in 1100 bytes");
  assertEquals(hub.replay(hub.epoch, 6, new Set(["a"])), null, "seq 7 was evicted by size");
  // One event larger than the whole budget is still kept (the newest always stays).
  hub.publish("a", { huge: "y".repeat(5000) });
  hub.flush();
  assertEquals(hub.replay(hub.epoch, 10, new Set(["a"]))!.map((e) => e.seq), [11]);
});

Deno.test("hub: a replayed event is what was sent then, even if its data object changed", () => {
  const hub = new EventHub<AnyTopics>(1000);
  const data = { status: "running" };
  hub.publish("a", data);
  hub.flush();
  data.status = "done";
  assertEquals(hub.replay(hub.epoch, 0, new Set(["a"]))![0].data, { status: "running" });
});

Deno.test("hub: with flushMs 0 a burst is delivered once, coalesced, right after the current work — no timer", async () => {
  const hub = new EventHub<AnyTopics>(0);
  const c = client(["t"]);
  hub.add(c);
  const real = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  // Deno's first setTimeout — or clearTimeout, even of nothing — loads Node's timers
  // (~15 ms): a headless run must not need either here.
  globalThis.setTimeout = (() => {
    throw new Error("setTimeout called");
  }) as unknown as typeof setTimeout;
  globalThis.clearTimeout = (() => {
    throw new Error("clearTimeout called");
  }) as unknown as typeof clearTimeout;
  try {
    const cat = (a: unknown, b: unknown) => String(a) + String(b);
    hub.publish("t", "he", "d", cat);
    hub.publish("t", "llo", "d", cat);
    assertEquals(c.got, [], "not delivered synchronously");
    await Promise.resolve();
    assertEquals(c.got.map((e) => e.data), ["hello"]);
    hub.publish("t", "again");
    hub.flush(); // an explicit flush first: the queued microtask then sends nothing twice
    await Promise.resolve();
    assertEquals(c.got.map((e) => e.data), ["hello", "again"]);
  } finally {
    globalThis.setTimeout = real;
    globalThis.clearTimeout = realClear;
  }
});

Deno.test("hub: events dropped from the replay ring are let go of soon, not kept until half of it is dead", () => {
  const hub = new EventHub<AnyTopics>(1000, 5000);
  for (let i = 1; i <= 7000; i++) {
    hub.publish("a", { i });
    hub.flush();
  }
  assertEquals(hub.replay(hub.epoch, 2000, new Set(["a"]))!.length, 5000);
  const held = (hub as unknown as { ring: unknown[] }).ring.length;
  if (held > 5000 + 1024) throw new Error(`${held} events held for a ring of 5000`);
});
