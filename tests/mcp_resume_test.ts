/**
 * Resumable `/mcp` streams: every event has an id and the stream says `retry`; a client
 * whose stream dropped reconnects with Last-Event-ID and gets what it missed. The store
 * is per session and bounded. Attacks: a made-up event id, and one of another session,
 * resume nothing.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { EVENT_LIMITS, SessionEventStore } from "../server/mcp/server/event_store.ts";
import { startTestServer } from "./helpers/server.ts";

const msg = (id: number) => ({ jsonrpc: "2.0" as const, id, result: { n: id } });

Deno.test("event store: replays one stream after an id, skips priming events, stays bounded", async () => {
  const s = new SessionEventStore({ events: 5, chars: EVENT_LIMITS.chars });
  const prime = await s.storeEvent("a", {} as never);
  await s.storeEvent("a", msg(1));
  await s.storeEvent("b", msg(2));
  const third = await s.storeEvent("a", msg(3));
  const seen: [string, unknown][] = [];
  const stream = await s.replayEventsAfter(prime, {
    send: (id, m) => Promise.resolve(void seen.push([id, m])),
  });
  assertEquals(stream, "a");
  assertEquals(seen.map(([, m]) => m), [msg(1), msg(3)]);
  assertEquals(seen[1][0], third);
  assertEquals(await s.getStreamIdForEventId("made-up"), undefined);
  for (let i = 4; i < 20; i++) await s.storeEvent("a", msg(i));
  assertEquals(s.size, 5);
  assertEquals(await s.getStreamIdForEventId(prime), undefined, "the oldest were dropped");
  // Another store (another session) knows nothing of these ids.
  assertEquals(await new SessionEventStore().getStreamIdForEventId(third), undefined);
});

/** The SSE events of a response body, read until `enough` says stop. */
async function events(
  res: Response,
  enough: (evs: Record<string, string>[]) => boolean,
): Promise<Record<string, string>[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  const out: Record<string, string>[] = [];
  while (!enough(out)) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let cut;
    while ((cut = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const ev: Record<string, string> = {};
      for (const line of block.split("\n")) {
        const i = line.indexOf(":");
        if (i > 0) ev[line.slice(0, i)] = (ev[line.slice(0, i)] ?? "") + line.slice(i + 1).trim();
      }
      if (Object.keys(ev).length) out.push(ev);
    }
  }
  await reader.cancel();
  return out;
}

Deno.test("mcp /mcp: a dropped stream resumes with Last-Event-ID; foreign ids resume nothing", async () => {
  const s = await startTestServer();
  try {
    const headers = {
      authorization: `Bearer ${s.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const open = async () => {
      const init = await fetch(`${s.base}/mcp`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "resume-test", version: "0" },
          },
        }),
      });
      const sid = init.headers.get("mcp-session-id")!;
      await init.body?.cancel();
      const h = { ...headers, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
      const note = await fetch(`${s.base}/mcp`, {
        method: "POST",
        headers: h,
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      });
      await note.body?.cancel();
      return h;
    };
    const h = await open();
    const call = await fetch(`${s.base}/mcp`, {
      method: "POST",
      headers: h,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "list_tasks", arguments: {} },
      }),
    });
    assertMatch(call.headers.get("content-type") ?? "", /text\/event-stream/);
    // The stream drops right after its first event (the id to resume from, and `retry`).
    const [first] = await events(call, (e) => e.length >= 1);
    assert(first.id, "the first event has an id");
    assertEquals(first.retry, "1000");

    const resumed = await fetch(`${s.base}/mcp`, {
      method: "GET",
      headers: { ...h, accept: "text/event-stream", "last-event-id": first.id },
    });
    assertEquals(resumed.status, 200);
    const replay = await events(resumed, (e) => e.some((x) => x.data?.includes('"id":2')));
    const answer = replay.find((x) => x.data?.includes('"id":2'))!;
    assert(answer.id && answer.id !== first.id, "the replayed answer has its own id");
    assertMatch(answer.data, /"result"/);

    // Attack: a made-up id, and a real id presented in another session.
    const madeUp = await fetch(`${s.base}/mcp`, {
      method: "GET",
      headers: { ...h, accept: "text/event-stream", "last-event-id": "00000000-1" },
    });
    assertEquals(madeUp.status, 400);
    await madeUp.body?.cancel();
    const other = await open();
    const foreign = await fetch(`${s.base}/mcp`, {
      method: "GET",
      headers: { ...other, accept: "text/event-stream", "last-event-id": answer.id },
    });
    assertEquals(foreign.status, 400);
    await foreign.body?.cancel();
  } finally {
    await s.stop();
  }
});
