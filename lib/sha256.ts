/**
 * SHA-256 (FIPS 180-4), synchronous and dependency-free, for short inputs: ids, folder
 * names, token fingerprints. `node:crypto` costs ~40 ms and ~8 MB to import, more than
 * these few hundred bytes ever cost to hash here. File contents use lib/content_hash.ts.
 */

/** Round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Int32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

/** Initial state: the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = [
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
];

const encoder = new TextEncoder();

/** The SHA-256 digest (32 bytes) of `data` (a string is hashed as its UTF-8 bytes). */
export function sha256(data: Uint8Array | string): Uint8Array<ArrayBuffer> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  const h = Int32Array.from(H0);
  const w = new Int32Array(64);
  const full = bytes.length - (bytes.length % 64);
  for (let off = 0; off < full; off += 64) compress(h, w, bytes, off);
  // The tail, a 1 bit, zeros, then the length in bits (big-endian 64-bit): one or two blocks.
  const rest = bytes.length - full;
  const tail = new Uint8Array(rest < 56 ? 64 : 128);
  tail.set(bytes.subarray(full));
  tail[rest] = 0x80;
  const bits = tail.length - 8;
  const hi = Math.floor(bytes.length / 0x20000000); // bytes.length * 8 / 2^32
  const lo = (bytes.length * 8) >>> 0;
  tail[bits] = hi >>> 24,
    tail[bits + 1] = hi >>> 16,
    tail[bits + 2] = hi >>> 8,
    tail[bits + 3] = hi;
  tail[bits + 4] = lo >>> 24, tail[bits + 5] = lo >>> 16, tail[bits + 6] = lo >>> 8;
  tail[bits + 7] = lo;
  for (let off = 0; off < tail.length; off += 64) compress(h, w, tail, off);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i] >>> 24, out[i * 4 + 1] = h[i] >>> 16, out[i * 4 + 2] = h[i] >>> 8;
    out[i * 4 + 3] = h[i];
  }
  return out;
}

/** The SHA-256 of `data` as 64 lowercase hex digits (what `createHash("sha256")…digest("hex")` gives). */
export function sha256Hex(data: Uint8Array | string): string {
  return toHex(sha256(data));
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]];
  return s;
}

/** One 64-byte block at `off` of `b` into the state `h` (`w` is scratch). */
function compress(h: Int32Array, w: Int32Array, b: Uint8Array, off: number): void {
  for (let i = 0; i < 16; i++, off += 4) {
    w[i] = (b[off] << 24) | (b[off + 1] << 16) | (b[off + 2] << 8) | b[off + 3];
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15], y = w[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = h[0], b1 = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b1) ^ (a & c) ^ (b1 & c))) | 0;
    hh = g, g = f, f = e, e = (d + t1) | 0, d = c, c = b1, b1 = a, a = (t1 + t2) | 0;
  }
  h[0] = (h[0] + a) | 0, h[1] = (h[1] + b1) | 0, h[2] = (h[2] + c) | 0, h[3] = (h[3] + d) | 0;
  h[4] = (h[4] + e) | 0, h[5] = (h[5] + f) | 0, h[6] = (h[6] + g) | 0, h[7] = (h[7] + hh) | 0;
}
