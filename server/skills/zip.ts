/**
 * A small, strict zip reader for skill uploads (no dependency): stored and deflated
 * entries only, sizes bounded before and while inflating (a zip bomb stops at the cap),
 * CRC checked. It refuses what an unpacker could be tricked with — absolute paths, `..`,
 * backslashes, drive letters, control characters, symlinks, encryption, zip64.
 */

export class ZipError extends Error {}

export interface ZipEntry {
  /** Path segments inside the zip (validated). */
  segments: string[];
  dir: boolean;
  /** Unix executable bit set by the zipper. */
  exec: boolean;
  data: Uint8Array;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The segments of an entry name, or the reason it is refused. */
export function entrySegments(name: string): { segments: string[]; dir: boolean } | string {
  if (!name) return "an entry has an empty name";
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    return `entry ${JSON.stringify(name)} has control characters`;
  }
  if (name.includes("\\")) return `entry ${JSON.stringify(name)} uses backslashes`;
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) {
    return `entry ${JSON.stringify(name)} is an absolute path`;
  }
  const dir = name.endsWith("/");
  const segments = (dir ? name.slice(0, -1) : name).split("/");
  for (const s of segments) {
    if (s === "..") return `entry ${JSON.stringify(name)} leads outside the folder (..)`;
    if (s === "" || s === ".") return `entry ${JSON.stringify(name)} has an empty or "." segment`;
    if (s.length > 255) return `entry ${JSON.stringify(name.slice(0, 60))}… has a too long name`;
  }
  return { segments, dir };
}

async function inflate(data: Uint8Array, max: number): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(
    new DecompressionStream("deflate-raw"),
  );
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) throw new ZipError(`an entry unpacks to more than its declared size`);
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof ZipError) throw e;
    throw new ZipError(`an entry is not valid deflate data: ${(e as Error).message}`);
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Reads every entry of `zip`; throws {@link ZipError} with the reason when refused. */
export async function readZip(
  zip: Uint8Array,
  limits: { files: number; bytes: number },
): Promise<ZipEntry[]> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError("this is not a zip file (no end of central directory)");
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || cdOffset === 0xffffffff) {
    throw new ZipError("zip64 files are not supported");
  }
  if (count > limits.files) throw new ZipError(`the zip has more than ${limits.files} entries`);
  if (cdOffset + cdSize > eocd) throw new ZipError("the zip's central directory is damaged");
  const dec = new TextDecoder();
  const out: ZipEntry[] = [];
  let total = 0;
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > eocd || view.getUint32(p, true) !== 0x02014b50) {
      throw new ZipError("the zip's central directory is damaged");
    }
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    const compSize = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const mode = view.getUint32(p + 38, true) >>> 16;
    const local = view.getUint32(p + 42, true);
    const name = dec.decode(zip.subarray(p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
    const seg = entrySegments(name);
    if (typeof seg === "string") throw new ZipError(seg);
    if (flags & 1) throw new ZipError(`entry ${name} is encrypted`);
    if ((mode & 0xf000) === 0xa000) throw new ZipError(`entry ${name} is a symbolic link`);
    if (seg.dir) {
      out.push({ ...seg, exec: false, data: new Uint8Array() });
      continue;
    }
    total += size;
    if (total > limits.bytes) {
      throw new ZipError(`the zip unpacks to more than ${Math.round(limits.bytes / 1048576)} MB`);
    }
    if (local + 30 > zip.length || view.getUint32(local, true) !== 0x04034b50) {
      throw new ZipError(`entry ${name} is damaged`);
    }
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + compSize > zip.length) throw new ZipError(`entry ${name} is truncated`);
    const raw = zip.subarray(start, start + compSize);
    let data: Uint8Array;
    if (method === 0) data = raw;
    else if (method === 8) data = await inflate(raw, size);
    else throw new ZipError(`entry ${name} uses an unsupported compression (${method})`);
    if (data.length !== size) throw new ZipError(`entry ${name} has the wrong size`);
    if (crc32(data) !== crc) throw new ZipError(`entry ${name} is damaged (CRC mismatch)`);
    out.push({ ...seg, exec: (mode & 0o111) !== 0, data });
  }
  return out;
}
