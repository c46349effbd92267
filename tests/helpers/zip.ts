/** Writes zip files for tests (stored entries, any names — including hostile ones). */
import { crc32 } from "../../server/skills/zip.ts";

export interface ZipItem {
  name: string;
  data?: string | Uint8Array;
  /** Unix mode in the external attributes (e.g. 0o120777 for a symlink). */
  mode?: number;
  /** `data` is already deflated: the original's size and CRC. */
  deflated?: { size: number; crc: number };
}

/** Deflates `data` as a zip entry stores it (raw deflate). */
export async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(
    new CompressionStream("deflate-raw"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A zip whose entries are deflated (method 8), as archivers write them. */
export async function makeDeflatedZip(
  items: { name: string; data: string }[],
): Promise<Uint8Array> {
  const enc = new TextEncoder();
  const packed = await Promise.all(items.map(async (it) => {
    const raw = enc.encode(it.data);
    return { name: it.name, raw, comp: await deflateRaw(raw) };
  }));
  return makeZip(
    packed.map((p) => ({
      name: p.name,
      data: p.comp,
      deflated: { size: p.raw.length, crc: crc32(p.raw) },
    })),
  );
}

export function makeZip(items: ZipItem[]): Uint8Array {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const it of items) {
    const name = enc.encode(it.name);
    const data = typeof it.data === "string" ? enc.encode(it.data) : it.data ?? new Uint8Array();
    const crc = it.deflated?.crc ?? crc32(data);
    const size = it.deflated?.size ?? data.length;
    const method = it.deflated ? 8 : 0;
    const local = new Uint8Array(30 + name.length + data.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 0x800, true);
    lv.setUint16(8, method, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, data.length, true);
    lv.setUint32(22, size, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    local.set(data, 30 + name.length);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 0x031e, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x800, true);
    cv.setUint16(10, method, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(38, ((it.mode ?? 0o100644) << 16) >>> 0, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const cdSize = centrals.reduce((s, c) => s + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, items.length, true);
  ev.setUint16(10, items.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  const out = new Uint8Array(offset + cdSize + 22);
  let at = 0;
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A SKILL.md text. */
export const skillMd = (name: string, description: string, body = "Do the thing.") =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${body}\n`;
