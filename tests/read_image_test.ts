/** read_file of images: header sniffing, size limits, and the image reaching a vision model. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { imageInfo } from "../tools/image_info.ts";
import { readFile } from "../tools/read_file.ts";
import { IMAGE_LIMIT } from "../tools/image_fit.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";

const signal = new AbortController().signal;

/** A valid 1×1 PNG (red pixel). */
const PNG = Uint8Array.fromBase64(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
);
/** A 2×3 GIF header with its trailer. */
const GIF = new Uint8Array([
  ...new TextEncoder().encode("GIF89a"),
  2,
  0,
  3,
  0,
  0,
  0,
  0,
  0x3b,
]);

function jpegHeader(w: number, h: number): Uint8Array {
  // SOI, an APP0 segment to skip, then SOF0 with the size.
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    4,
    0,
    0,
    0xff,
    0xc0,
    0,
    11,
    8,
    h >> 8,
    h & 255,
    w >> 8,
    w & 255,
    1,
    1,
    0x11,
    0,
    0,
    0,
    0,
    0,
  ]);
}

function webpVp8x(w: number, h: number): Uint8Array {
  const b = new Uint8Array(30);
  b.set(new TextEncoder().encode("RIFF"), 0);
  b.set(new TextEncoder().encode("WEBPVP8X"), 8);
  const W = w - 1, H = h - 1;
  b.set([W & 255, (W >> 8) & 255, W >> 16, H & 255, (H >> 8) & 255, H >> 16], 24);
  return b;
}

Deno.test("imageInfo: PNG, GIF, JPEG and WebP sizes from their headers; other bytes are not images", () => {
  assertEquals(imageInfo(PNG), { mimeType: "image/png", width: 1, height: 1 });
  assertEquals(imageInfo(GIF), { mimeType: "image/gif", width: 2, height: 3 });
  assertEquals(imageInfo(jpegHeader(640, 480)), {
    mimeType: "image/jpeg",
    width: 640,
    height: 480,
  });
  assertEquals(imageInfo(webpVp8x(300, 200)), { mimeType: "image/webp", width: 300, height: 200 });
  assertEquals(imageInfo(new TextEncoder().encode("hello")), null);
  assertEquals(imageInfo(new Uint8Array([0xff, 0xd8, 0x00])), null);
});

Deno.test("read_file: an image comes back as an image part; one too large is left to resize; a huge WebP is named", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-img-" }));
  const ctx = { workspace: dir, signal };
  await Deno.writeFile(`${dir}/dot.png`, PNG);
  const r = await readFile.execute({ path: "dot.png" }, ctx);
  assertEquals(r.isError, false, r.content);
  assertEquals(r.content, "dot.png is an image (PNG, 1×1 px, 70 B).");
  assertEquals(r.meta?.images, [{ mimeType: "image/png", data: PNG.toBase64() }]);
  const huge = new Uint8Array(IMAGE_LIMIT.bytes + 1);
  huge.set(jpegHeader(9000, 100));
  await Deno.writeFile(`${dir}/big.jpg`, huge);
  const big = await readFile.execute({ path: "big.jpg" }, ctx);
  assertEquals(big.isError, false);
  assertEquals(big.content, "big.jpg is an image (JPEG, 9000×100 px, 3.6 MB).");
  // The bytes go to the image worker (tests/image_fit_test.ts), not to the model as they are.
  assertEquals(big.meta?.images, undefined);
  assertEquals((big.imageToFit as Uint8Array).length, huge.length);
  await Deno.writeFile(`${dir}/wide.webp`, webpVp8x(9000, 100));
  const webp = await readFile.execute({ path: "wide.webp" }, ctx);
  assertMatch(
    webp.content,
    /WEBP, 9000×100 px.*could not be resized: WebP images cannot be resized/,
  );
  assertEquals(webp.meta?.images, undefined);
  assertEquals(webp.imageToFit, undefined);
});

Deno.test("a PNG read_file reads reaches a vision model's request as an image part; a blind model gets a note", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-img-run-" });
  const ws = `${home}/DefaultProject`;
  await Deno.mkdir(ws);
  await Deno.writeFile(`${ws}/shot.png`, PNG);
  const mock = startMockLlm({ quiet: true });
  const scenario = {
    turns: [{ toolCalls: [{ name: "read_file", args: { path: "shot.png" } }] }, { text: "red" }],
  };
  mock.register("img-vision", scenario);
  mock.register("img-blind", scenario);
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["img-vision", "img-blind"]));
  type Msg = { role: string; content: unknown };
  try {
    for (const modelId of ["img-vision", "img-blind"]) {
      const { task } = deps.tasks!.create({
        title: modelId,
        message: "what colour is shot.png?",
        options: { model: { providerId: "mock", modelId }, approval: "full" },
      });
      assertEquals((await deps.runs!.start(task.id))?.kind, "done");
      const second = mock.requests(modelId)[1].body as { messages: Msg[] };
      const tool = second.messages.find((m) => m.role === "tool")!;
      const parts = second.messages.flatMap((m) =>
        Array.isArray(m.content) ? m.content as { type: string; image_url?: { url: string } }[] : []
      ).filter((c) => c.type === "image_url");
      if (modelId === "img-vision") {
        assertEquals(parts.length, 1);
        assertEquals(parts[0].image_url?.url, `data:image/png;base64,${PNG.toBase64()}`);
        assertEquals(second.messages.at(-1)?.role, "user");
        assert(!String(tool.content).includes("not shown"));
      } else {
        assertEquals(parts.length, 0);
        assertMatch(
          String(tool.content),
          /image itself is not shown: this model does not take images/,
        );
      }
    }
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
  }
});

/** A one-page PDF whose text layer says "Hello PDF". */
const PDF = `%PDF-1.4
1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj
4 0 obj<</Length 44>>stream
BT /F1 24 Tf 20 100 Td (Hello PDF) Tj ET
endstream endobj
5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj
trailer<</Root 1 0 R>>
%%EOF`;

Deno.test("read_file of a PDF returns its text by page, also inside the sandbox worker", async () => {
  const { SandboxPool } = await import("../tools/sandbox/pool.ts");
  const { ToolRunner } = await import("../agent/tool_runner.ts");
  const { FileTracker } = await import("../agent/file_tracker.ts");
  const { defaultTools } = await import("../tools/registry.ts");
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-pdf-" }));
  await Deno.writeTextFile(`${dir}/doc.pdf`, PDF);
  await Deno.writeTextFile(`${dir}/bad.pdf`, "%PDF-1.4 nothing else");
  const pool = new SandboxPool();
  const runner = new ToolRunner(defaultTools(), pool);
  const rctx = { workspace: dir, roots: [dir], signal, tracker: new FileTracker() };
  try {
    const r = await runner.checkAndRun(
      { id: "1", name: "read_file", args: { path: "doc.pdf" } },
      rctx,
    );
    assertEquals(r.isError, false, r.content);
    assertEquals(r.content, "     1\t--- page 1 ---\n     2\tHello PDF");
    assertEquals(r.meta?.pdfPages, 1);
    const bad = await runner.checkAndRun(
      { id: "2", name: "read_file", args: { path: "bad.pdf" } },
      rctx,
    );
    assert(bad.isError);
    assertMatch(bad.content, /Cannot read the text of bad\.pdf/);
  } finally {
    pool.closeAll();
  }
});
