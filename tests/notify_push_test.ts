/**
 * Web Push end to end: the real server (a child process) sends to a local push service
 * (a Deno.serve standing in for FCM/Mozilla), which checks the VAPID signature and
 * decrypts each message with the subscription's private key — as a browser would.
 * The Demo model waits for an approval (mode ask), then finishes; a stopped run sends
 * nothing; switches turn events off; a 410 answer drops the device.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { startTestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { decryptBody, newSubscriber, verifyVapid } from "./helpers/push_receiver.ts";
import type {
  NotifyEvent,
  NotifyTopicEvent,
  PendingApproval,
  TaskSummary,
} from "../protocol/index.ts";

interface Received {
  path: string;
  headers: Headers;
  payload: NotifyEvent & { v: number; url: string };
}

function pushService(sub: Awaited<ReturnType<typeof newSubscriber>>) {
  const got: Received[] = [];
  const problems: string[] = [];
  let answer = 201;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    try {
      assertEquals(req.method, "POST");
      assertEquals(req.headers.get("content-encoding"), "aes128gcm");
      assert(Number(req.headers.get("ttl")) > 0, "TTL header");
      await verifyVapid(req.headers.get("authorization") ?? "", req.url);
      const body = new Uint8Array(await req.arrayBuffer());
      const payload = JSON.parse(await decryptBody(sub, body));
      got.push({ path: url.pathname, headers: req.headers, payload });
    } catch (e) {
      problems.push(String(e));
      return new Response("bad", { status: 400 });
    }
    return new Response(null, { status: answer });
  });
  return {
    got,
    problems,
    endpoint: `http://127.0.0.1:${server.addr.port}/push/device-1`,
    answerWith(status: number) {
      answer = status;
    },
    close: () => server.shutdown(),
  };
}

const waitFor = async (cond: () => boolean, what: string, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

Deno.test("web push: waiting and finished reach a local push service, encrypted and signed", async () => {
  const sub = await newSubscriber();
  const push = pushService(sub);
  const s = await startTestServer({ env: { REINAGENT_PUSH_ALLOW_HTTP: "1" } });
  const c = await TestClient.connect(s.base, s.token);
  try {
    const { publicKey } = await c.request("push.key");
    assertEquals((await c.request("push.key")).publicKey, publicKey, "generated once");
    const st = await Deno.stat(`${s.home}/vapid.json`);
    assertEquals(st.mode! & 0o777, 0o600);

    // Bad registrations are refused and store nothing.
    const bad = await c.failure("push.register", {
      endpoint: "http://10.1.2.3/push",
      p256dh: sub.p256dh,
      auth: sub.auth,
    });
    assertEquals(bad.code, "invalid_args");
    assertEquals(
      (await c.failure("push.register", {
        endpoint: push.endpoint,
        p256dh: sub.p256dh.slice(0, 40),
        auth: sub.auth,
      })).code,
      "invalid_args",
    );
    const reg = await c.request("push.register", {
      endpoint: push.endpoint,
      p256dh: sub.p256dh,
      auth: sub.auth,
    });
    assertEquals(reg.device.service, new URL(push.endpoint).host);
    assert(!JSON.stringify(reg).includes("device-1"), "the endpoint itself is never sent back");
    const snap = await c.request("notify.subscribe");
    assertEquals(snap.events, { waiting: true, finished: true, failed: true, branch: true });
    assertEquals(snap.devices.length, 1);

    // The Demo model asks to write a file: the task waits for an approval.
    const { task } = await c.request("tasks.create", {
      message: "please write a note file",
      options: { model: { providerId: "demo", modelId: "demo" }, approval: "ask" },
    });
    await waitFor(() => push.got.length >= 1, "the waiting push");
    const waiting = push.got[0].payload;
    assertEquals(waiting.kind, "waiting");
    assertEquals(waiting.reason, "approval");
    assertEquals(waiting.taskId, task.id);
    assertEquals(waiting.url, `#/t/${task.id}`);
    assertEquals(waiting.v, 1);
    assertEquals(push.got[0].headers.get("urgency"), "high");
    // The same event reached the page over the notify topic.
    await c.until(
      () =>
        c.events.some((e) =>
          e.topic === "notify" && (e.data as NotifyTopicEvent).kind === "event" &&
          (e.data as { event: NotifyEvent }).event.kind === "waiting"
        ),
      "notify event on the socket",
    );

    const { approvals } = await c.request<{ approvals: PendingApproval[] }>("approvals.list");
    await c.request("approval.decide", { id: approvals[0].id, decision: "allow" });
    await waitFor(() => push.got.length >= 2, "the finished push");
    assertEquals(push.got[1].payload.kind, "finished");
    assertEquals(push.got[1].payload.taskId, task.id);
    assertEquals(push.got[1].headers.get("urgency"), "normal");
    assertEquals(push.problems, []);

    // Switch "finished" off: the next run that finishes sends nothing.
    await c.request("notify.setEvents", { events: { finished: false } });
    await c.request("task.send", { id: task.id, text: "show me around" });
    await c.until(
      () =>
        c.events.some((e) =>
          e.topic === "tasks" && (e.data as { task?: TaskSummary }).task?.id === task.id &&
          (e.data as { task: TaskSummary }).task.status === "idle" &&
          (e.data as { task: TaskSummary }).task.entryCount > 6
        ),
      "the second run to end",
      15_000,
    );
    await new Promise((r) => setTimeout(r, 400));
    assertEquals(push.got.length, 2, "finished is switched off");

    // A test message; then the push service says the device is gone: it is dropped.
    const t = await c.request("push.test", { endpoint: push.endpoint });
    assertEquals(t.ok, true);
    assertEquals(push.got.length, 3);
    push.answerWith(410);
    const gone = await c.request("push.test", { endpoint: push.endpoint });
    assertEquals(gone.status, 410);
    assertEquals((await c.request("notify.subscribe")).devices, []);
    assertEquals(push.problems, []);
  } finally {
    await c.close();
    await s.stop();
    await push.close();
  }
});
