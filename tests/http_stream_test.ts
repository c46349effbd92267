/**
 * postSse (agent/providers/http_stream.ts) against a real Deno.serve over plain http, as a
 * local model server is reached: streaming, error answers, stopping.
 */
import { assert, assertEquals, assertRejects } from "./helpers/assert.ts";
import { postSse } from "../agent/providers/http_stream.ts";
import { ProviderError } from "../agent/providers/errors.ts";

const enc = new TextEncoder();
const never = () => new AbortController().signal;

Deno.test("postSse: a stream arrives event by event, before the server has finished", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const seen: { headers: Headers; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push({ headers: req.headers, body: await req.text() });
    return new Response(
      new ReadableStream<Uint8Array>({
        async start(c) {
          c.enqueue(enc.encode("data: first\n\n"));
          await gate;
          c.enqueue(enc.encode("event: end\ndata: second\n\n"));
          c.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/v1/chat/completions`;
    const events = postSse(url, { "x-key": "k1" }, { model: "m" }, never());
    const first = await events.next();
    assertEquals(first.value, { event: "message", data: "first" });
    release();
    const rest = [];
    for await (const ev of events) rest.push(ev);
    assertEquals(rest, [{ event: "end", data: "second" }]);
    assertEquals(seen[0].body, `{"model":"m"}`);
    assertEquals(seen[0].headers.get("x-key"), "k1");
    assertEquals(seen[0].headers.get("accept"), "text/event-stream");
  } finally {
    await server.shutdown();
  }
});

Deno.test("postSse: an error answer keeps its status and the server's message", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      await req.body?.cancel();
      return Response.json({ error: { message: "model not loaded" } }, { status: 404 });
    },
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/v1/chat/completions`;
    let caught: unknown;
    try {
      for await (const _ of postSse(url, {}, {}, never())) { /* none expected */ }
    } catch (e) {
      caught = e;
    }
    assert(caught instanceof ProviderError, String(caught));
    assertEquals(caught.info.status, 404);
    assert(caught.info.message.includes("model not loaded"), caught.info.message);
  } finally {
    await server.shutdown();
  }
});

Deno.test("postSse: a stop ends a stream being read and closes it on the server's side", async () => {
  let cancelled!: () => void;
  const serverSawCancel = new Promise<void>((r) => (cancelled = r));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(enc.encode("data: one\n\n")); // and nothing more, ever
        },
        cancel() {
          cancelled();
        },
      }),
    ));
  try {
    const ctl = new AbortController();
    const url = `http://127.0.0.1:${server.addr.port}/`;
    const events = postSse(url, {}, {}, ctl.signal);
    assertEquals((await events.next()).value, { event: "message", data: "one" });
    const pending = events.next();
    ctl.abort();
    let caught: unknown;
    try {
      await pending;
    } catch (e) {
      caught = e;
    }
    assert(caught instanceof ProviderError && caught.info.category === "aborted", String(caught));
    await serverSawCancel;
    // Stopped before it starts: a clear "stopped" error, not a network one.
    await assertRejects(async () => {
      for await (const _ of postSse(url, {}, {}, AbortSignal.abort())) { /* none */ }
    });
  } finally {
    await server.shutdown();
  }
});
