/**
 * Byte helpers on web APIs, so start-up paths need neither `node:buffer` nor `node:crypto`.
 * (Encoding base64 is `bytes.toBase64()`, built in.)
 */

/**
 * Whether `a` and `b` hold the same bytes, in time that depends only on their lengths
 * (for secrets: a mismatch at the first byte takes as long as one at the last).
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/**
 * The bytes of standard base64 `text` (whitespace and missing padding allowed), or null
 * when it is not base64 — where `Buffer.from(text, "base64")` silently decoded garbage.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.fromBase64(text);
  } catch {
    return null;
  }
}
