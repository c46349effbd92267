/**
 * SHA-1 (FIPS 180-4), synchronous and dependency-free: git names its objects by it, and
 * the checkpoint store compares file contents with the blob ids of git's index. Importing
 * `node:crypto` for it would load Deno's Node layer at every start (~40 ms, ~8 MB).
 * Not for security: git's ids are content addresses here, checked against git's own bytes.
 */

/** SHA-1 of the concatenation of `parts`, as 40 lowercase hex digits. */
export function sha1Hex(...parts: Uint8Array[]): string {
  const length = parts.reduce((n, p) => n + p.length, 0);
  // Message + 0x80 + zero padding + 64-bit big-endian bit length, in 64-byte blocks.
  const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
  let at = 0;
  for (const p of parts) {
    padded.set(p, at);
    at += p.length;
  }
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  let h0 = 0x67452301, h1 = 0xefcdab89, h2 = 0x98badcfe, h3 = 0x10325476, h4 = 0xc3d2e1f0;
  const w = new Int32Array(80);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getInt32(block + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16];
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4;
    for (let i = 0; i < 80; i++) {
      const f = i < 20
        ? ((b & c) | (~b & d)) + 0x5a827999
        : i < 40
        ? (b ^ c ^ d) + 0x6ed9eba1
        : i < 60
        ? ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc
        : (b ^ c ^ d) + 0xca62c1d6;
      const t = (((a << 5) | (a >>> 27)) + f + e + w[i]) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, "0")).join("");
}
