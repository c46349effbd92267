/**
 * The shrinking of an image (decode, downscale, encode), run in the image worker
 * (`sandbox/image_worker.ts`, no permissions at all), so a codec bug or a hostile file
 * cannot reach files or the network, and the server's thread never blocks on it.
 *
 * Codecs: `pngjs` (PNG in and out), `jpeg-js` (JPEG in and out), `omggif` (GIF in, the
 * first frame), all pure JavaScript and loaded with dynamic imports, so a start never pays
 * for them and `deno compile` still carries them. WebP has no pure-JavaScript decoder (the
 * maintained ones are WebAssembly files fetched from disk, which a worker without read
 * permission and the compiled binary cannot load): a WebP within the hard limits goes as it
 * is, a larger one is named, not sent.
 */
import { type ImageInfo, imageInfo } from "./image_info.ts";
import { type FitOutcome, fitPlan, IMAGE_LIMIT, MAX_DECODE_PIXELS, mb } from "./image_fit.ts";

/** Re-encoded JPEGs: small enough, and text in a screenshot stays readable. */
const JPEG_QUALITY = 85;

interface Pixels {
  width: number;
  height: number;
  /** RGBA, 8 bits a channel. */
  rgba: Uint8Array;
  frames?: number;
}

interface PngCodec {
  PNG: {
    sync: {
      read(b: Uint8Array): { width: number; height: number; data: Uint8Array };
      write(
        png: { width: number; height: number; data: Uint8Array },
        opts: { colorType: number; deflateLevel: number },
      ): Uint8Array;
    };
  };
}
interface JpegCodec {
  decode(b: Uint8Array, opts: Record<string, unknown>): {
    width: number;
    height: number;
    data: Uint8Array;
  };
  encode(img: { width: number; height: number; data: Uint8Array }, q: number): {
    data: Uint8Array;
  };
}
interface GifCodec {
  GifReader: new (b: Uint8Array) => {
    width: number;
    height: number;
    numFrames(): number;
    decodeAndBlitFrameRGBA(frame: number, px: Uint8Array): void;
  };
}

// The specifiers are literal so that `deno compile` includes the packages.
const png = async () => (await import("pngjs")) as unknown as PngCodec;
const jpeg = async () => ((await import("jpeg-js")) as { default: unknown }).default as JpegCodec;
const gif = async () => (await import("omggif")) as unknown as GifCodec;

/** A plain Uint8Array over a codec's Buffer (a Buffer does not survive postMessage as one). */
const plain = (b: Uint8Array) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

async function decode(bytes: Uint8Array, info: ImageInfo): Promise<Pixels> {
  if (info.mimeType === "image/png") {
    const { Buffer } = await import("node:buffer");
    const { PNG } = await png();
    const img = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return { width: img.width, height: img.height, rgba: plain(img.data) };
  }
  if (info.mimeType === "image/jpeg") {
    const img = (await jpeg()).decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: MAX_DECODE_PIXELS / 1e6,
      maxMemoryUsageInMB: 1024,
    });
    return { width: img.width, height: img.height, rgba: img.data };
  }
  if (info.mimeType === "image/gif") {
    const { GifReader } = await gif();
    const reader = new GifReader(bytes);
    if (reader.width * reader.height > MAX_DECODE_PIXELS) throw new Error("too many pixels");
    const rgba = new Uint8Array(reader.width * reader.height * 4);
    reader.decodeAndBlitFrameRGBA(0, rgba);
    return { width: reader.width, height: reader.height, rgba, frames: reader.numFrames() };
  }
  throw new Error(`${info.mimeType} cannot be decoded here`);
}

/**
 * For each target pixel, the source pixels it covers and how much of each: target `i`
 * covers source `[i·s, (i+1)·s)` with `s = src / dst`, so the weights of one sum to 1.
 */
function spans(src: number, dst: number) {
  const s = src / dst;
  const first = new Int32Array(dst);
  const count = new Int32Array(dst);
  const offset = new Int32Array(dst + 1);
  const weights: number[] = [];
  for (let i = 0; i < dst; i++) {
    const start = i * s, end = Math.min(src, (i + 1) * s);
    const j0 = Math.floor(start), j1 = Math.min(src, Math.ceil(end));
    first[i] = j0;
    count[i] = j1 - j0;
    offset[i] = weights.length;
    for (let j = j0; j < j1; j++) weights.push((Math.min(end, j + 1) - Math.max(start, j)) / s);
  }
  offset[dst] = weights.length;
  return { first, count, offset, weight: Float32Array.from(weights) };
}

/**
 * Shrinks RGBA pixels by area averaging, in premultiplied alpha (a transparent pixel's
 * colour does not bleed into its neighbours). One source row at a time, so memory stays
 * at the target's size.
 */
export function downscale(src: Pixels, dw: number, dh: number): Pixels {
  const { width: sw, height: sh, rgba } = src;
  const xs = spans(sw, dw), ys = spans(sh, dh);
  const xFirst = xs.first, xCount = xs.count, xOffset = xs.offset, xWeight = xs.weight;
  const out = new Uint8Array(dw * dh * 4);
  const row = new Float32Array(dw * 4);
  const acc = new Float32Array(dw * 4);
  const n = dw * 4;
  let rowOf = -1;
  for (let y = 0; y < dh; y++) {
    acc.fill(0);
    const yo = ys.offset[y], y0 = ys.first[y], yn = ys.count[y];
    for (let k = 0; k < yn; k++) {
      const sy = y0 + k;
      // A source row on the border of two target rows is computed once.
      if (rowOf !== sy) {
        horizontalPass(rgba, sy * sw * 4, dw, xFirst, xCount, xOffset, xWeight, row);
        rowOf = sy;
      }
      const w = ys.weight[yo + k];
      for (let t = 0; t < n; t++) acc[t] += row[t] * w;
    }
    const base = y * n;
    for (let t = 0; t < n; t += 4) {
      const a = acc[t + 3];
      if (a <= 0) continue; // fully transparent stays 0,0,0,0
      out[base + t] = Math.round(acc[t] / a);
      out[base + t + 1] = Math.round(acc[t + 1] / a);
      out[base + t + 2] = Math.round(acc[t + 2] / a);
      out[base + t + 3] = Math.round(a);
    }
  }
  return { width: dw, height: dh, rgba: out };
}

/** One source row averaged to the target's width (colours premultiplied by alpha). */
function horizontalPass(
  rgba: Uint8Array,
  base: number,
  dw: number,
  first: Int32Array,
  count: Int32Array,
  offset: Int32Array,
  weight: Float32Array,
  row: Float32Array,
): void {
  for (let i = 0; i < dw; i++) {
    let r = 0, g = 0, b = 0, a = 0;
    const o = offset[i];
    let p = base + first[i] * 4;
    for (let k = 0, c = count[i]; k < c; k++, p += 4) {
      const w = weight[o + k] * rgba[p + 3];
      r += rgba[p] * w;
      g += rgba[p + 1] * w;
      b += rgba[p + 2] * w;
      a += w;
    }
    const q = i * 4;
    row[q] = r;
    row[q + 1] = g;
    row[q + 2] = b;
    row[q + 3] = a;
  }
}

function hasAlpha(px: Pixels): boolean {
  for (let i = 3; i < px.rgba.length; i += 4) if (px.rgba[i] !== 255) return true;
  return false;
}

/** JPEG has no alpha: transparent parts become white, as a viewer shows them. */
function onWhite(px: Pixels): Uint8Array {
  const out = new Uint8Array(px.rgba.length);
  for (let i = 0; i < out.length; i += 4) {
    const a = px.rgba[i + 3];
    for (let c = 0; c < 3; c++) out[i + c] = (px.rgba[i + c] * a + 255 * (255 - a) + 127) / 255;
    out[i + 3] = 255;
  }
  return out;
}

async function encodePng(px: Pixels): Promise<Uint8Array> {
  const { Buffer } = await import("node:buffer");
  const { PNG } = await png();
  const data = Buffer.from(px.rgba.buffer, px.rgba.byteOffset, px.rgba.byteLength);
  const out = PNG.sync.write({ width: px.width, height: px.height, data }, {
    colorType: hasAlpha(px) ? 6 : 2,
    deflateLevel: 6,
  });
  return plain(out).slice();
}

async function encodeJpeg(px: Pixels): Promise<Uint8Array> {
  const out = (await jpeg()).encode(
    { width: px.width, height: px.height, data: onWhite(px) },
    JPEG_QUALITY,
  );
  return plain(out.data).slice();
}

/** The size that fits `side` on the long edge, keeping the aspect ratio. */
export function fittedSize(width: number, height: number, side: number) {
  const s = Math.min(1, side / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * s)), height: Math.max(1, Math.round(height * s)) };
}

/**
 * The image made to fit `limit`: scaled to its side, as PNG when the source was lossless
 * (screenshots and diagrams stay sharp) unless that is too large, else JPEG; smaller
 * again while it is still too large. Never throws: an image that cannot be decoded gives
 * the reason.
 */
export async function fitImage(bytes: Uint8Array, limit = IMAGE_LIMIT): Promise<FitOutcome> {
  const info = imageInfo(bytes);
  if (!info) return { ok: false, reason: "it is not a PNG, JPEG, GIF or WebP image" };
  const plan = fitPlan(info, bytes.length, limit);
  if (plan.kind === "refuse") return { ok: false, reason: plan.reason };
  let src: Pixels;
  try {
    src = await decode(bytes, info);
  } catch (e) {
    const why = String((e as Error)?.message ?? e).split("\n")[0].slice(0, 200);
    return { ok: false, reason: `it could not be decoded (${why})` };
  }
  if (src.width * src.height > MAX_DECODE_PIXELS || !src.width || !src.height) {
    return { ok: false, reason: "its decoded size is not usable" };
  }
  const lossless = info.mimeType !== "image/jpeg";
  let side = Math.min(limit.side, Math.max(src.width, src.height));
  for (let attempt = 0; attempt < 6; attempt++) {
    const size = fittedSize(src.width, src.height, side);
    const px = size.width === src.width && size.height === src.height
      ? src
      : downscale(src, size.width, size.height);
    const frames = src.frames && src.frames > 1 ? { frames: src.frames } : {};
    if (lossless) {
      const data = await encodePng(px);
      if (data.length <= limit.bytes) {
        return { ok: true, mimeType: "image/png", data, ...size, ...frames };
      }
    }
    const data = await encodeJpeg(px);
    if (data.length <= limit.bytes) {
      return { ok: true, mimeType: "image/jpeg", data, ...size, ...frames };
    }
    side = Math.floor(side * 0.75);
  }
  return { ok: false, reason: `it stays larger than ${mb(limit.bytes)} even when shrunk` };
}
