/**
 * The light HTTP/1.1 client (tools/net/http1.ts) against real servers: Deno.serve for
 * well-formed answers, a raw TCP listener for hostile or odd ones.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "./helpers/assert.ts";
import { Http1Error, http1Post } from "../tools/net/http1.ts";

const enc = new TextEncoder();
const never = () => new AbortController().signal;

/** A TCP server answering each connection with `answer(request text)` bytes, then closing. */
function rawServer(answer: (req: string) => Uint8Array | string | Promise<Uint8Array | string>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const requests: string[] = [];
  const served = (async () => {
    for await (const conn of listener) {
      (async () => {
        const buf = new Uint8Array(1 << 20);
        let text = "";
        // The request: its head, then content-length bytes.
        while (true) {
          const n = await conn.read(buf);
          if (n === null) break;
          text += new TextDecoder().decode(buf.subarray(0, n));
          const headEnd = text.indexOf("\r\n\r\n");
          if (headEnd < 0) continue;
          const len = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0);
          if (enc.encode(text).length >= enc.encode(text.slice(0, headEnd + 4)).length + len) break;
        }
        requests.push(text);
        const out = await answer(text);
        try {
          await conn.write(typeof out === "string" ? enc.encode(out) : out);
        } catch { /* the client left */ }
        try {
          conn.close();
        } catch { /* closed */ }
      })();
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: new URL(`http://127.0.0.1:${port}/v1/chat/completions?x=1`),
    requests,
    async close() {
      listener.close();
      await served.catch(() => {});
    },
  };
}

Deno.test("http1: a chunked stream arrives piece by piece, before the server has finished", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const stream = new ReadableStream<Uint8Array>({
      async start(c) {
        c.enqueue(enc.encode(`data: first ${body}\n\n`));
        await gate;
        c.enqueue(enc.encode("data: second\n\n"));
        c.close();
      },
    });
    return new Response(stream, {
      headers: { "content-type": "text/event-stream", "x-echo": req.headers.get("x-key") ?? "" },
    });
  });
  try {
    const url = new URL(`http://127.0.0.1:${server.addr.port}/v1/x`);
    const res = await http1Post(url, { "x-key": "k1" }, enc.encode("hello"), never());
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("x-echo"), "k1");
    assertEquals(res.headers.get("transfer-encoding"), "chunked");
    const reader = res.body.getReader();
    const first = await reader.read();
    assert(!first.done);
    assertEquals(new TextDecoder().decode(first.value), "data: first hello\n\n");
    release();
    let rest = "";
    for (let n = await reader.read(); !n.done; n = await reader.read()) {
      rest += new TextDecoder().decode(n.value);
    }
    assertEquals(rest, "data: second\n\n");
  } finally {
    release();
    await server.shutdown();
  }
});

Deno.test("http1: the request is what it says (method, path, host, headers, length) and error answers keep their status and body", async () => {
  const server = rawServer(() =>
    "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: 27\r\n\r\n" +
    '{"error":{"message":"slow"}}'.slice(0, 27)
  );
  try {
    const res = await http1Post(
      server.url,
      { Authorization: "Bearer sk-x" },
      enc.encode('{"a":"é"}'),
      never(),
    );
    assertEquals([res.status, res.statusText], [429, "Too Many Requests"]);
    assertEquals(await res.text(), '{"error":{"message":"slow"}');
    const req = server.requests[0];
    assertMatch(req, /^POST \/v1\/chat\/completions\?x=1 HTTP\/1\.1\r\n/);
    assertMatch(req, new RegExp(`\r\nhost: ${server.url.host}\r\n`));
    assertMatch(req, /\r\nAuthorization: Bearer sk-x\r\n/);
    // The length in bytes (é is two), not in characters.
    assertMatch(req, /\r\ncontent-length: 10\r\n/);
    assert(req.endsWith('\r\n\r\n{"a":"é"}'), req);
  } finally {
    await server.close();
  }
});

Deno.test("http1: a body without length ends with the connection; an interim 100 answer is skipped; trailers are read", async () => {
  const plain = rawServer(() => "HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nall of it");
  const interim = rawServer(() =>
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n" +
    "4;ext=1\r\ndata\r\n0\r\nx-trailer: t\r\n\r\n"
  );
  try {
    assertEquals(
      await (await http1Post(plain.url, {}, enc.encode(""), never())).text(),
      "all of it",
    );
    const res = await http1Post(interim.url, {}, enc.encode(""), never());
    assertEquals(res.status, 200);
    assertEquals(await res.text(), "data");
  } finally {
    await plain.close();
    await interim.close();
  }
});

Deno.test("http1: hostile or broken answers are clear errors, never guessed", async () => {
  const cases: [string, string | Uint8Array, RegExp][] = [
    ["not HTTP", "SSH-2.0-OpenSSH\r\n\r\n", /not an HTTP\/1\.x answer/],
    [
      "a head over 64 KB",
      `HTTP/1.1 200 OK\r\n${"x-big: " + "a".repeat(70_000)}\r\n\r\n`,
      /too long|larger than 64 KB/,
    ],
    [
      "many header lines",
      `HTTP/1.1 200 OK\r\n${"x: y\r\n".repeat(20_000)}\r\n`,
      /larger than 64 KB/,
    ],
    ["a header without a colon", "HTTP/1.1 200 OK\r\nnocolon\r\n\r\n", /malformed header line/],
    [
      "a bad chunk size",
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n",
      /malformed chunk size/,
    ],
    [
      "a huge chunk size",
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nfffffffff\r\n",
      /malformed chunk size/,
    ],
    [
      "a chunk cut short",
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n10\r\nabc",
      /closed inside a chunk/,
    ],
    [
      "a chunk without its CRLF",
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n",
      /does not end with CRLF/,
    ],
    [
      "a body shorter than its length",
      "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc",
      /closed before the end/,
    ],
    ["a bad length", "HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n", /malformed content-length/],
    [
      "gzip nobody asked for",
      "HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: 0\r\n\r\n",
      /gzip-encoded/,
    ],
    [
      "an unknown transfer coding",
      "HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked\r\n\r\n",
      /unsupported transfer-encoding/,
    ],
    ["nothing at all", "", /closed before an answer/],
  ];
  for (const [what, answer, error] of cases) {
    const server = rawServer(() => answer);
    try {
      const e = await (async () => {
        try {
          await (await http1Post(server.url, {}, enc.encode("{}"), never())).text();
        } catch (e) {
          return e as Error;
        }
        throw new Error(`${what}: no error`);
      })();
      assert(e instanceof Http1Error, `${what}: ${e}`);
      assertMatch(e.message, error, what);
    } finally {
      await server.close();
    }
  }
});

Deno.test("http1: a header that could split the request is refused before anything is sent", async () => {
  const server = rawServer(() => "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n");
  try {
    const bad: Record<string, string>[] = [
      { "x-a": "v\r\nx-injected: 1" },
      { "x-a\r\nx": "v" },
      { "x a": "v" },
      { "x-a": "v\n" },
    ];
    for (const headers of bad) {
      await assertRejects(
        () => http1Post(server.url, headers, enc.encode(""), never()),
        JSON.stringify(headers),
      );
    }
    assertEquals(server.requests.length, 0);
    // Only http: (https goes through fetch).
    await assertRejects(() =>
      http1Post(new URL("https://127.0.0.1/"), {}, enc.encode(""), never())
    );
  } finally {
    await server.close();
  }
});

Deno.test("http1: a stop ends a stream being read; a stopped request is never sent", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(enc.encode("data: one\n\n")); // and nothing more, ever
        },
      }),
    ));
  try {
    const ctl = new AbortController();
    const res = await http1Post(
      new URL(`http://127.0.0.1:${server.addr.port}/`),
      {},
      enc.encode(""),
      ctl.signal,
    );
    const reader = res.body.getReader();
    assert(!(await reader.read()).done);
    const pending = reader.read();
    ctl.abort();
    await assertRejects(() => pending, "the pending read fails when stopped");
    // Stopped before it starts: nothing is sent.
    const raw = rawServer(() => "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n");
    try {
      await assertRejects(() => http1Post(raw.url, {}, enc.encode(""), AbortSignal.abort()));
      assertEquals(raw.requests.length, 0);
    } finally {
      await raw.close();
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("http1: a server that answers and closes before taking the whole body: its answer is reported", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const conn = await listener.accept();
    const buf = new Uint8Array(4096);
    let head = "";
    while (!head.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      head += new TextDecoder().decode(buf.subarray(0, n));
    }
    await conn.write(
      enc.encode("HTTP/1.1 413 Payload Too Large\r\ncontent-length: 9\r\n\r\ntoo large"),
    );
    conn.close(); // most of the body unread
  })();
  try {
    const url = new URL(`http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/`);
    const res = await http1Post(url, {}, new Uint8Array(32 * 1024 * 1024), never());
    assertEquals(res.status, 413);
    assertEquals(await res.text(), "too large");
  } finally {
    listener.close();
    await served;
  }
});

Deno.test("http1: what the model wrote stays body bytes: text shaped like a second request is not one", async () => {
  const server = rawServer(() => "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
  try {
    const hostile = JSON.stringify({
      messages: [{ role: "tool", content: "x\r\n\r\nGET /token HTTP/1.1\r\nhost: evil\r\n\r\n" }],
    });
    const res = await http1Post(
      server.url,
      { "x-api-key": "sk-secret" },
      enc.encode(hostile),
      never(),
    );
    assertEquals(await res.text(), "ok");
    assertEquals(server.requests.length, 1);
    const req = server.requests[0];
    const head = req.slice(0, req.indexOf("\r\n\r\n") + 4);
    // One request, its body exactly the JSON (framed by its byte length), the key only in the head.
    assertEquals(req.slice(head.length), hostile);
    assertMatch(head, new RegExp(`\r\ncontent-length: ${enc.encode(hostile).length}\r\n`));
    assertEquals(head.match(/HTTP\/1\.1/g)?.length, 1);
  } finally {
    await server.close();
  }
});
