/** Real image files for tests, made with the same codecs the image worker uses. */
import { Buffer } from "node:buffer";
import pngjs from "pngjs";
import jpegJs from "jpeg-js";
import omggif from "omggif";

interface PngLib {
  PNG: {
    sync: {
      read(b: Uint8Array): { width: number; height: number; data: Uint8Array };
      write(
        png: { width: number; height: number; data: Uint8Array },
        opts?: Record<string, unknown>,
      ): Uint8Array;
    };
  };
}
const { PNG } = pngjs as unknown as PngLib;
const jpeg = jpegJs as unknown as {
  decode(b: Uint8Array, o: Record<string, unknown>): {
    width: number;
    height: number;
    data: Uint8Array;
  };
  encode(i: { width: number; height: number; data: Uint8Array }, q: number): { data: Uint8Array };
};
const gif = omggif as unknown as {
  GifWriter: new (buf: Uint8Array, w: number, h: number, opts?: Record<string, unknown>) => {
    addFrame(x: number, y: number, w: number, h: number, px: Uint8Array, o: unknown): void;
    end(): number;
  };
};

/** Test files are made quickly: their size does not matter, only their pixels. */
const FAST = { deflateLevel: 1, filterType: 1 };

const plain = (b: Uint8Array) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice();

/** Vertical stripes 100 px wide, red / green / blue (compresses well, so it is small). */
export function stripes(width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  const colours = [[255, 0, 0], [0, 255, 0], [0, 0, 255]];
  for (let x = 0; x < width; x++) rgba.set([...colours[Math.floor(x / 100) % 3], 255], x * 4);
  for (let y = 1; y < height; y++) rgba.copyWithin(y * width * 4, 0, width * 4);
  return rgba;
}

/** An RGB PNG of `stripes`. */
export function patternPng(width: number, height: number): Uint8Array {
  const data = Buffer.from(stripes(width, height));
  return plain(PNG.sync.write({ width, height, data }, { colorType: 2, ...FAST }));
}

/** An RGB PNG of random pixels (does not compress: ~3 bytes a pixel). */
export function noisePng(width: number, height: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i += 65536) {
    crypto.getRandomValues(rgba.subarray(i, Math.min(rgba.length, i + 65536)));
  }
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  return plain(
    PNG.sync.write({ width, height, data: Buffer.from(rgba) }, { colorType: 2, ...FAST }),
  );
}

export function jpegOf(width: number, height: number): Uint8Array {
  return plain(jpeg.encode({ width, height, data: stripes(width, height) }, 80).data);
}

/** A GIF of `frames` frames, each one colour of a 3-colour palette. */
export function gifOf(width: number, height: number, frames: number): Uint8Array {
  const buf = new Uint8Array(width * height * frames + 4096);
  const w = new gif.GifWriter(buf, width, height, {
    palette: [0xff0000, 0x00ff00, 0x0000ff, 0x000000],
    loop: 0,
  });
  for (let f = 0; f < frames; f++) {
    w.addFrame(0, 0, width, height, new Uint8Array(width * height).fill(f % 3), {});
  }
  return buf.slice(0, w.end());
}

/** The 33 bytes of a PNG signature and IHDR chunk claiming `width`×`height` (RGBA, 8 bit). */
export function pngHeader(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  b.set(new TextEncoder().encode("IHDR"), 12);
  const v = new DataView(b.buffer);
  v.setUint32(16, width);
  v.setUint32(20, height);
  b.set([8, 6, 0, 0, 0], 24);
  return b;
}

/** Decodes a PNG or JPEG back to its size and RGBA pixels. */
export function decodeImage(
  bytes: Uint8Array,
): { width: number; height: number; rgba: Uint8Array } {
  if (bytes[0] === 0x89) {
    const img = PNG.sync.read(Buffer.from(bytes));
    return { width: img.width, height: img.height, rgba: plain(img.data) };
  }
  const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
  return { width: img.width, height: img.height, rgba: img.data };
}
