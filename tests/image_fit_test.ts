/**
 * Images over the models' limit are resized (tools/image_fit.ts, the image worker): real
 * PNG, JPEG and GIF files made here, decoded again to check what would be sent; files that
 * cannot be decoded, or claim more pixels than are decoded, get a clear reason.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { type FitOutcome, fitPlan, IMAGE_LIMIT } from "../tools/image_fit.ts";
import { downscale, fitImage } from "../tools/image_resize.ts";
import { imageInfo } from "../tools/image_info.ts";
import { fitResultImage, ImageFitter } from "../tools/sandbox/image_fitter.ts";
import { readFile } from "../tools/read_file.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { decodeImage, gifOf, jpegOf, noisePng, patternPng, pngHeader } from "./helpers/images.ts";

const signal = new AbortController().signal;

const fitted = (o: FitOutcome) => {
  if (!o.ok) throw new Error(`not fitted: ${o.reason}`);
  return o;
};

Deno.test("fitPlan: within the limit goes as it is; larger is resized; WebP and huge claims are refused", () => {
  const png = (width: number, height: number) => ({
    mimeType: "image/png" as const,
    width,
    height,
  });
  assertEquals(IMAGE_LIMIT, { bytes: 3_750_000, side: 2000 });
  assertEquals(fitPlan(png(2000, 1000), 3_750_000), { kind: "send" });
  assertEquals(fitPlan(png(2001, 1000), 1000), { kind: "resize" });
  assertEquals(fitPlan(png(100, 100), 3_750_001), { kind: "resize" });
  const webp = { mimeType: "image/webp" as const, width: 3000, height: 2000 };
  assertEquals(fitPlan(webp, 1000), { kind: "send" }, "a WebP within the hard limits goes");
  assertMatch(
    (fitPlan({ ...webp, width: 9000 }, 1000) as { reason: string }).reason,
    /WebP images cannot be resized/,
  );
  const bomb = fitPlan(png(60000, 60000), 1000);
  assertEquals(bomb.kind, "refuse");
  assertMatch((bomb as { reason: string }).reason, /3600 megapixels/);
});

Deno.test("downscale: area averages in premultiplied alpha", () => {
  // 2×2 → 1×1: red, blue, and two transparent pixels whose colour must not count.
  const rgba = new Uint8Array([
    255,
    0,
    0,
    255,
    0,
    0,
    255,
    255,
    0,
    255,
    0,
    0,
    0,
    255,
    0,
    0,
  ]);
  const out = downscale({ width: 2, height: 2, rgba }, 1, 1);
  assertEquals([...out.rgba], [128, 0, 128, 128]);
  // 3 → 2 columns: the middle pixel is split between both.
  const row = new Uint8Array([0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255]);
  assertEquals([...downscale({ width: 3, height: 1, rgba: row }, 2, 1).rgba], [
    30,
    30,
    30,
    255,
    150,
    150,
    150,
    255,
  ]);
});

Deno.test("fitImage: a 3000×2400 PNG becomes 2000×1600 and stays a PNG", async () => {
  const big = patternPng(3000, 2400);
  assertEquals(fitPlan(imageInfo(big)!, big.length).kind, "resize");
  const out = fitted(await fitImage(big));
  assertEquals([out.mimeType, out.width, out.height], ["image/png", 2000, 1600]);
  const back = decodeImage(out.data);
  assertEquals([back.width, back.height], [2000, 1600]);
  // The pattern's colours survive the averaging (a stripe 100 px wide stays red).
  assertEquals([...back.rgba.subarray(0, 4)], [255, 0, 0, 255]);
});

Deno.test("fitImage: a PNG over the byte limit becomes a JPEG within it; a JPEG stays a JPEG", async () => {
  const noisy = noisePng(1200, 1100);
  assert(noisy.length > IMAGE_LIMIT.bytes, `noise PNG is ${noisy.length} bytes`);
  const out = fitted(await fitImage(noisy));
  assertEquals(out.mimeType, "image/jpeg");
  assert(out.data.length <= IMAGE_LIMIT.bytes);
  const back = decodeImage(out.data);
  assert(Math.max(back.width, back.height) <= IMAGE_LIMIT.side);

  const jpeg = jpegOf(3000, 1000);
  const j = fitted(await fitImage(jpeg));
  assertEquals([j.mimeType, j.width, j.height], ["image/jpeg", 2000, 667]);
});

Deno.test("fitImage: the first frame of an animated GIF, as PNG, with its frame count", async () => {
  const gif = gifOf(2400, 600, 3);
  const out = fitted(await fitImage(gif));
  assertEquals([out.mimeType, out.width, out.height, out.frames], ["image/png", 2000, 500, 3]);
});

Deno.test("fitImage: undecodable and oversized images give a reason, never a throw", async () => {
  // A valid PNG header over garbage.
  const corrupt = new Uint8Array(5000);
  corrupt.set(pngHeader(3000, 3000));
  corrupt.fill(7, 33);
  const bad = await fitImage(corrupt);
  assertEquals(bad.ok, false);
  assertMatch((bad as { reason: string }).reason, /could not be decoded/);
  // A header that claims 3.6 gigapixels is not decoded at all.
  const bomb = new Uint8Array(100);
  bomb.set(pngHeader(60000, 60000));
  assertMatch((await fitImage(bomb) as { reason: string }).reason, /megapixels/);
  assertMatch(
    (await fitImage(new TextEncoder().encode("hello")) as { reason: string }).reason,
    /not a PNG, JPEG, GIF or WebP/,
  );
});

Deno.test("ImageFitter: resizes in a worker without permissions; reports a corrupt file and a timeout", async () => {
  const fitter = new ImageFitter();
  try {
    const out = fitted(await fitter.fit(patternPng(2400, 1200)));
    assertEquals([out.width, out.height], [2000, 1000]);
    const corrupt = new Uint8Array(2000);
    corrupt.set(pngHeader(2500, 2500));
    const bad = await fitter.fit(corrupt);
    assertMatch((bad as { reason: string }).reason, /could not be decoded/);
  } finally {
    fitter.close();
  }
  // A decoder that does not answer in time is ended; the image is reported, not waited on.
  const slow = new ImageFitter(60_000, 1);
  try {
    const late = await slow.fit(patternPng(2400, 1200));
    assertMatch((late as { reason: string }).reason, /took longer than/);
  } finally {
    slow.close();
  }
});

Deno.test("read_file + fitResultImage: a too-large image is sent resized with a note; a corrupt one is named", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-imgfit-" }));
  await Deno.writeFile(`${dir}/wide.png`, patternPng(4000, 1000));
  const corrupt = new Uint8Array(4000);
  corrupt.set(pngHeader(2600, 2600));
  await Deno.writeFile(`${dir}/broken.png`, corrupt);
  const fitter = new ImageFitter();
  try {
    const raw = await readFile.execute({ path: "wide.png" }, { workspace: dir, signal });
    assert(raw.imageToFit instanceof Uint8Array, "left to fit");
    assertEquals(raw.meta?.images, undefined);
    const r = await fitResultImage(raw, fitter);
    assertEquals(r.imageToFit, undefined);
    assertMatch(r.content, /^wide\.png is an image \(PNG, 4000×1000 px, .*\)\. Sent resized/);
    assertMatch(r.content, /from 4000×1000 to 2000×500 px \(PNG, [\d.]+ KB\)/);
    const sent = (r.meta?.images as { mimeType: string; data: string }[])[0];
    const back = decodeImage(Uint8Array.fromBase64(sent.data));
    assertEquals([back.width, back.height], [2000, 500]);
    assertEquals((r.meta?.image as { sent: { width: number } }).sent.width, 2000);

    const b = await fitResultImage(
      await readFile.execute({ path: "broken.png" }, { workspace: dir, signal }),
      fitter,
    );
    assertEquals(b.isError, false);
    assertMatch(b.content, /could not be resized: it could not be decoded .*Not attached/);
    assertEquals(b.meta?.images, undefined);
    assertEquals((b.meta?.image as { attached: boolean }).attached, false);

    // A file the model made to claim 3.6 gigapixels is never handed to a decoder.
    const bomb = new Uint8Array(64);
    bomb.set(pngHeader(60000, 60000));
    await Deno.writeFile(`${dir}/bomb.png`, bomb);
    const c = await readFile.execute({ path: "bomb.png" }, { workspace: dir, signal });
    assertEquals(c.imageToFit, undefined);
    assertMatch(c.content, /could not be resized: at 3600 megapixels .*Not attached/);
  } finally {
    fitter.close();
  }
});

Deno.test("a 5000×4000 PNG read_file reads reaches a vision model resized to fit, with a note", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-imgfit-run-" });
  const ws = `${home}/DefaultProject`;
  await Deno.mkdir(ws);
  await Deno.writeFile(`${ws}/poster.png`, patternPng(5000, 4000));
  const mock = startMockLlm({ quiet: true });
  mock.register("fit-vision", {
    turns: [{ toolCalls: [{ name: "read_file", args: { path: "poster.png" } }] }, {
      text: "stripes",
    }],
  });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["fit-vision"]));
  type Msg = { role: string; content: unknown };
  try {
    const { task } = deps.tasks!.create({
      title: "poster",
      message: "what is on poster.png?",
      options: { model: { providerId: "mock", modelId: "fit-vision" }, approval: "full" },
    });
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    const second = mock.requests("fit-vision")[1].body as { messages: Msg[] };
    const tool = second.messages.find((m) => m.role === "tool")!;
    assertMatch(String(tool.content), /Sent resized from 5000×4000 to 2000×1600 px \(PNG/);
    const parts = second.messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content as { type: string; image_url?: { url: string } }[] : []
    ).filter((c) => c.type === "image_url");
    assertEquals(parts.length, 1);
    const url = parts[0].image_url!.url;
    assertMatch(url, /^data:image\/png;base64,/);
    const sent = Uint8Array.fromBase64(url.slice(url.indexOf(",") + 1));
    assert(sent.length <= IMAGE_LIMIT.bytes);
    const back = decodeImage(sent);
    assertEquals([back.width, back.height], [2000, 1600]);
    // What the timeline kept is the resized image (the card shows what the model saw).
    const stored = deps.store.repos!.entries.latest(task.id, 100).flatMap((e) => e.parts)
      .find((p) => p.type === "tool_result")!;
    const meta = stored.data!.meta as Record<string, unknown>;
    assertEquals("imageToFit" in stored.data!, false);
    assertEquals((meta.image as { sent: { width: number } }).sent.width, 2000);
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
  }
});
