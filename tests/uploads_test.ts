/** `POST /api/uploads` and `GET /api/uploads/<id>` through the real server process. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { COMPOSER_LIMITS } from "../protocol/index.ts";
import { PNG_1PX } from "./helpers/png.ts";

const post = (s: TestServer, query: string, body: BodyInit | null, headers: HeadersInit = {}) =>
  fetch(`${s.base}/api/uploads${query}`, {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${s.token}`, ...headers },
  });

const get = (s: TestServer, path: string, auth = true) =>
  fetch(`${s.base}${path}`, { headers: auth ? { authorization: `Bearer ${s.token}` } : {} });

async function uploadsOnDisk(home: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const d of Deno.readDir(`${home}/uploads`)) out.push(d.name);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out;
}

Deno.test("uploads: store an image and a text file, serve them back with the right type", async () => {
  const s = await startTestServer();
  try {
    const r = await post(s, "?name=shot.png&mime=image/png", PNG_1PX);
    assertEquals(r.status, 201);
    const { attachment } = await r.json();
    assertMatch(attachment.id, /^u[0-9a-f]{32}$/);
    assertEquals([attachment.name, attachment.mime, attachment.kind, attachment.size], [
      "shot.png",
      "image/png",
      "image",
      PNG_1PX.length,
    ]);
    const back = await get(s, `/api/uploads/${attachment.id}`);
    assertEquals(back.status, 200);
    assertEquals(back.headers.get("content-type"), "image/png");
    assertEquals(new Uint8Array(await back.arrayBuffer()), PNG_1PX);

    // Name and type in headers; a non-image file is served as a download.
    const t = await post(s, "", "hello", {
      "x-upload-name": encodeURIComponent("笔记 1.txt"),
      "content-type": "text/plain",
    });
    assertEquals(t.status, 201);
    const txt = (await t.json()).attachment;
    assertEquals([txt.name, txt.kind], ["笔记 1.txt", "file"]);
    const tb = await get(s, `/api/uploads/${txt.id}`);
    assertEquals(tb.headers.get("content-type"), "application/octet-stream");
    assertMatch(tb.headers.get("content-disposition")!, /^attachment;/);
    assertEquals(await tb.text(), "hello");
  } finally {
    await s.stop();
  }
});

Deno.test("uploads: size limits (declared and streamed), bad names and types change nothing", async () => {
  const s = await startTestServer();
  try {
    const big = new Uint8Array(COMPOSER_LIMITS.imageBytes + 1);
    const r1 = await post(s, "?name=big.png&mime=image/png", big);
    assertEquals(r1.status, 413);
    const e1 = await r1.json();
    assertEquals(e1.error.code, "too_large");
    assertMatch(e1.error.message, /at most 10 MB/);
    // No Content-Length (a stream): stopped once past the limit.
    const chunks = async function* () {
      for (let i = 0; i < 11; i++) yield new Uint8Array(1024 * 1024);
    };
    const r2 = await post(s, "?name=big.png&mime=image/png", ReadableStream.from(chunks()));
    assertEquals(r2.status, 413);
    await r2.body?.cancel();
    // The same size is fine for a non-image file (limit 20 MB).
    const r3 = await post(s, "?name=big.bin&mime=application/octet-stream", big);
    assertEquals(r3.status, 201);
    await r3.body?.cancel();
    const kept = await uploadsOnDisk(s.home);
    assertEquals(kept.length, 1, "rejected uploads leave nothing behind");

    for (
      const [q, code] of [
        ["?name=..&mime=text/plain", "bad_name"],
        ["?name=a%2F..%2F..%2Ftoken&mime=text/plain", "bad_name"],
        ["?name=a%5Cb.txt&mime=text/plain", "bad_name"],
        ["?name=%20&mime=text/plain", "bad_name"],
        [`?name=${"x".repeat(201)}&mime=text/plain`, "bad_name"],
        ["?mime=text/plain", "bad_name"],
        ["?name=a.txt&mime=not a type", "bad_type"],
        ["?name=a.txt", "bad_type"],
      ] as const
    ) {
      const r = await post(s, q, "data", { "content-type": "" });
      assertEquals(r.status, 400, q);
      assertEquals((await r.json()).error.code, code, q);
    }
    const empty = await post(s, "?name=e.txt&mime=text/plain", new Uint8Array(0));
    assertEquals(empty.status, 400);
    await empty.body?.cancel();
    assertEquals((await uploadsOnDisk(s.home)).length, 1);
  } finally {
    await s.stop();
  }
});

Deno.test("uploads: auth, origin, methods and no path traversal", async () => {
  const s = await startTestServer();
  try {
    const noAuth = await fetch(`${s.base}/api/uploads?name=a.txt&mime=text/plain`, {
      method: "POST",
      body: "x",
    });
    assertEquals(noAuth.status, 401);
    await noAuth.body?.cancel();
    const foreign = await post(s, "?name=a.txt&mime=text/plain", "x", {
      origin: "https://evil.example",
    });
    assertEquals(foreign.status, 403);
    await foreign.body?.cancel();
    assertEquals((await uploadsOnDisk(s.home)).length, 0);

    const ok = (await (await post(s, "?name=a.txt&mime=text/plain", "x")).json()).attachment;
    const unauth = await get(s, `/api/uploads/${ok.id}`, false);
    assertEquals(unauth.status, 401);
    await unauth.body?.cancel();
    for (
      const p of [
        "/api/uploads/..%2Ftoken",
        "/api/uploads/%2E%2E/token",
        `/api/uploads/${ok.id}/../../token`,
        `/api/uploads/${ok.id}%2Fmeta.json`,
        "/api/uploads/u" + "0".repeat(32),
      ]
    ) {
      const r = await get(s, p);
      assert(r.status === 404, `${p}: ${r.status}`);
      const body = await r.text();
      assert(!body.includes(s.token), "the token never leaks");
    }
    const put = await fetch(`${s.base}/api/uploads/${ok.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${s.token}` },
    });
    assertEquals(put.status, 405);
    await put.body?.cancel();
    const list = await get(s, "/api/uploads");
    assertEquals(list.status, 405);
    await list.body?.cancel();
  } finally {
    await s.stop();
  }
});
