/** Integration: the real server process, real HTTP and WebSocket clients. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startTestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import type { TaskSummary } from "../protocol/index.ts";

Deno.test("http: 401 without token, 200 with; query token sets cookie and cleans the URL", async () => {
  const s = await startTestServer();
  try {
    const no = await fetch(`${s.base}/api/health`);
    assertEquals(no.status, 401);
    await no.body?.cancel();
    const wrongPage = await fetch(`${s.base}/`);
    assertEquals(wrongPage.status, 401);
    assertMatch(await wrongPage.text(), /token/);

    const ok = await fetch(`${s.base}/api/health`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    assertEquals(ok.status, 200);
    assertEquals((await ok.json()).store.ok, true);

    const first = await fetch(`${s.base}/?token=${s.token}`, { redirect: "manual" });
    assertEquals(first.status, 302);
    assertEquals(first.headers.get("location"), "/");
    const cookie = first.headers.get("set-cookie")!;
    assertMatch(cookie, /HttpOnly/);
    assertMatch(cookie, /SameSite=Strict/);
    const page = await fetch(`${s.base}/`, { headers: { cookie: cookie.split(";")[0] } });
    assertEquals(page.status, 200);
    assertMatch(page.headers.get("content-type")!, /text\/html/);
    assertMatch(page.headers.get("content-security-policy")!, /default-src 'self'/);
    const html = await page.text();
    const js = html.match(/src="(\/assets\/app\.js\?v=\w+)"/)![1];

    const asset = await fetch(`${s.base}${js}`, {
      headers: { cookie: cookie.split(";")[0], "accept-encoding": "gzip" },
    });
    assertEquals(asset.status, 200);
    assertMatch(asset.headers.get("content-type")!, /javascript/);
    const etag = asset.headers.get("etag")!;
    await asset.arrayBuffer();
    const again = await fetch(`${s.base}${js}`, {
      headers: { cookie: cookie.split(";")[0], "if-none-match": etag },
    });
    assertEquals(again.status, 304);
    await again.body?.cancel();

    const wrong = await fetch(`${s.base}/api/health?token=nope`);
    assertEquals(wrong.status, 401, "loopback is never locked out, but a wrong token is refused");
    await wrong.body?.cancel();
    const missing = await fetch(`${s.base}/nope`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    assertEquals(missing.status, 404);
    await missing.body?.cancel();
  } finally {
    await s.stop();
  }
});

Deno.test("gzip: the bundle is served compressed to clients that accept it", async () => {
  const s = await startTestServer();
  try {
    // Deno's fetch decompresses transparently; ask via a raw TCP request to see the header.
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(s.base).port) });
    await conn.write(new TextEncoder().encode(
      `GET /assets/app.js HTTP/1.1\r\nHost: 127.0.0.1:${
        new URL(s.base).port
      }\r\nAuthorization: Bearer ${s.token}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`,
    ));
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf);
    conn.close();
    const head = new TextDecoder().decode(buf.subarray(0, n ?? 0));
    assertMatch(head, /content-encoding: gzip/i);
  } finally {
    await s.stop();
  }
});

Deno.test("websocket: origin checked; two clients see each other's task changes in order", async () => {
  const s = await startTestServer();
  const a = await TestClient.connect(s.base, s.token);
  const b = await TestClient.connect(s.base, s.token);
  try {
    const evil = await fetch(`${s.base}/ws?token=${s.token}`, {
      headers: {
        upgrade: "websocket",
        connection: "upgrade",
        origin: "http://evil.example",
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      },
    });
    assertEquals(evil.status, 403);
    await evil.body?.cancel();

    assertEquals(a.hello.store.ok, true);
    assertEquals(a.hello.epoch, b.hello.epoch);
    const tasksEvents = () =>
      b.events.filter((e) => e.topic === "tasks").map((e) =>
        e.data as { kind: string; task?: TaskSummary; id?: string }
      );

    const { task } = await a.request("tasks.create", { title: "First" });
    await b.until(() => tasksEvents().some((e) => e.task?.title === "First"), "create event");
    await a.request("tasks.rename", { id: task.id, title: "Renamed" });
    await b.until(() => tasksEvents().some((e) => e.task?.title === "Renamed"), "rename event");
    await a.request("tasks.pin", { id: task.id, pinned: true });
    await b.until(() => tasksEvents().some((e) => e.task?.pinned === true), "pin event");
    await a.request("tasks.delete", { id: task.id });
    await b.until(() => tasksEvents().some((e) => e.kind === "delete"), "delete event");

    const seen = tasksEvents().map((e) =>
      e.kind === "delete" ? "delete" : `${e.task!.title}/${e.task!.pinned}`
    );
    assertEquals(seen, ["First/false", "Renamed/false", "Renamed/true", "delete"]);
    const seqs = b.events.map((e) => e.seq);
    assertEquals(seqs, [...seqs].sort((x, y) => x - y), "seq increases");
    assertEquals((await b.request("tasks.list")).tasks, []);
  } finally {
    await a.close();
    await b.close();
    await s.stop();
  }
});

Deno.test("websocket: a subscribed client sees messages sent by another; bad requests change nothing", async () => {
  const s = await startTestServer();
  const a = await TestClient.connect(s.base, s.token);
  const b = await TestClient.connect(s.base, s.token);
  try {
    const { task, entry } = await a.request("tasks.create", { message: "hello from A" });
    assertEquals(task.title, "hello from A");
    assertEquals(entry.parts[0].text, "hello from A");
    const snap = await b.request("task.subscribe", { id: task.id });
    assertEquals(snap.entries[0].parts[0].text, "hello from A");
    // The first message started a (Demo) run: a message sent now waits in the steering
    // queue (not appended); removed from the queue, it is never sent.
    const early = await a.request("task.send", { id: task.id, text: "too early" });
    assertEquals(early.entry, null);
    assertEquals(early.queued.text, "too early");
    await a.request("queue.remove", { id: task.id, itemId: early.queued.id });
    type Evt = { kind: string; run?: unknown; entry?: { role: string; parts: { text: string }[] } };
    const mine = () =>
      b.events.filter((e) => e.topic === `task:${task.id}`).map((e) => e.data as Evt);
    await b.until(() => mine().some((e) => e.kind === "run" && e.run === null), "run end", 10_000);
    await a.request("task.send", { id: task.id, text: "second" });
    await b.until(
      () => mine().some((e) => e.entry?.role === "user" && e.entry.parts[0].text === "second"),
      "entry event",
    );
    assertEquals(mine().some((e) => e.entry?.parts[0]?.text === "too early"), false);

    assertEquals((await a.failure("tasks.rename", { id: task.id })).code, "invalid_args");
    assertEquals((await a.failure("no.such.op")).code, "unknown_op");
    assertEquals((await a.failure("task.send", { id: "missing", text: "x" })).code, "not_found");
    a.ws.send("{not json");
    await a.until(() => false, "nothing", 100).catch(() => {});
    const after = await b.request("task.subscribe", { id: task.id });
    assertEquals(after.entries.filter((e: { role: string }) => e.role === "user").length, 2);
    assertEquals(
      after.task.title,
      "From A",
      "the Demo run set the local-rule title; bad requests changed nothing",
    );
  } finally {
    await a.close();
    await b.close();
    await s.stop();
  }
});

Deno.test("websocket: a reconnecting client replays what it missed after its seq", async () => {
  const s = await startTestServer();
  const a = await TestClient.connect(s.base, s.token);
  let b = await TestClient.connect(s.base, s.token);
  try {
    const { task } = await a.request("tasks.create", { title: "one" });
    await b.until(() => b.events.length === 1, "first event");
    const lastSeq = b.events[0].seq;
    await b.close();
    await a.request("tasks.rename", { id: task.id, title: "two" });
    await new Promise((r) => setTimeout(r, 80)); // let the hub flush
    b = await TestClient.connect(s.base, s.token);
    const r = await b.request("events.resume", {
      epoch: b.hello.epoch,
      afterSeq: lastSeq,
      topics: [],
    });
    assertEquals(r.replayed, true);
    await b.until(() => b.events.length === 1, "replayed event");
    assertEquals((b.events[0].data as { task: TaskSummary }).task.title, "two");
    const stale = await b.request("events.resume", { epoch: "old-epoch", afterSeq: 1, topics: [] });
    assertEquals(stale.replayed, false);
  } finally {
    await a.close();
    await b.close();
    await s.stop();
  }
});

Deno.test("restart keeps tasks and messages; the server ran with an empty cwd", async () => {
  const s1 = await startTestServer();
  const c1 = await TestClient.connect(s1.base, s1.token);
  const { task } = await c1.request("tasks.create", { message: "persist me" });
  await c1.close();
  await s1.stop();
  const s2 = await startTestServer({ home: s1.home });
  const c2 = await TestClient.connect(s2.base, s2.token);
  try {
    assertEquals(s2.token, s1.token, "token survives a restart");
    const snap = await c2.request("task.subscribe", { id: task.id });
    assertEquals(snap.entries[0].parts[0].text, "persist me");
  } finally {
    await c2.close();
    await s2.stop();
  }
});

Deno.test("a corrupt database: server starts, reports it, refuses task ops, file untouched", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-corrupt-" });
  const junk = new TextEncoder().encode("definitely not sqlite ".repeat(100));
  await Deno.writeFile(`${home}/reinagent.db`, junk);
  const s = await startTestServer({ home });
  const c = await TestClient.connect(s.base, s.token);
  try {
    assertEquals(c.hello.store.ok, false);
    assertMatch(c.hello.store.error!, /not a SQLite database/);
    assertMatch(s.output(), /left untouched/);
    assertEquals((await c.failure("tasks.list")).code, "store_unavailable");
    const h = await fetch(`${s.base}/api/health`, {
      headers: { authorization: `Bearer ${s.token}` },
    });
    assertEquals((await h.json()).ok, false);
    const page = await fetch(`${s.base}/`, { headers: { authorization: `Bearer ${s.token}` } });
    assertEquals(page.status, 200, "the UI is still served so the banner can show");
    await page.body?.cancel();
  } finally {
    await c.close();
    await s.stop();
  }
  assertEquals(await Deno.readFile(`${home}/reinagent.db`), junk);
  assert(true);
});
