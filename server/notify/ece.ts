/**
 * Web Push message encryption (RFC 8291) in the `aes128gcm` content coding (RFC 8188),
 * with Web Crypto only: one record, so a payload must fit in 4096 − 86 − 17 bytes.
 * `npm:web-push` works under Deno too, but it cannot be given the ephemeral key and salt
 * (so the RFC's test vector cannot check our path) and it brings a dozen Node packages.
 */
import { b64urlDecode, b64urlEncode } from "./b64url.ts";

const RECORD_SIZE = 4096;
/** Header (salt 16, rs 4, idlen 1, key 65) + GCM tag 16 + the record delimiter 1. */
export const MAX_PLAINTEXT = RECORD_SIZE - 86 - 17;

const enc = new TextEncoder();
const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

async function hmac(key: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, data));
}

/** HKDF with one output block (every length here is at most 32 bytes). */
async function hkdf(
  salt: Uint8Array<ArrayBuffer>,
  ikm: Uint8Array<ArrayBuffer>,
  info: Uint8Array<ArrayBuffer>,
  length: number,
) {
  const prk = await hmac(salt, ikm);
  return (await hmac(prk, concat(info, Uint8Array.of(1)))).slice(0, length);
}

/** A P-256 key pair's raw public point (65 bytes, uncompressed). */
export async function rawPublicKey(key: CryptoKey): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.exportKey("raw", key));
}

/** Checks a subscription's keys: a P-256 point and a 16-byte secret. */
export function subscriptionKeys(p256dh: string, auth: string) {
  const ua = b64urlDecode(p256dh);
  const secret = b64urlDecode(auth);
  if (ua.length !== 65 || ua[0] !== 4) {
    throw new Error("p256dh must be an uncompressed P-256 public key (65 bytes)");
  }
  if (secret.length !== 16) throw new Error("auth must be a 16-byte secret");
  return { ua, secret };
}

export interface EncryptOptions {
  /** Fixed ephemeral key pair and salt: only the RFC test vector sets them. */
  ephemeral?: CryptoKeyPair;
  salt?: Uint8Array<ArrayBuffer>;
}

/** Encrypts `plaintext` for a subscription (`p256dh`, `auth`); returns the request body. */
export async function encryptPayload(
  p256dh: string,
  auth: string,
  plaintext: Uint8Array<ArrayBuffer>,
  opts: EncryptOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  if (plaintext.length > MAX_PLAINTEXT) {
    throw new Error(`push payload is ${plaintext.length} bytes; at most ${MAX_PLAINTEXT}`);
  }
  const { ua, secret } = subscriptionKeys(p256dh, auth);
  const uaKey = await crypto.subtle.importKey(
    "raw",
    ua,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const as = opts.ephemeral ??
    await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
      "deriveBits",
    ]) as CryptoKeyPair;
  const asPublic = await rawPublicKey(as.publicKey);
  const salt = opts.salt ?? crypto.getRandomValues(new Uint8Array(16));
  const ecdh = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: uaKey }, as.privateKey, 256),
  );
  // RFC 8291 §3.4: the auth secret and both public keys bind the key to this subscription.
  const ikm = await hkdf(
    secret,
    ecdh,
    concat(enc.encode("WebPush: info\0"), ua, asPublic),
    32,
  );
  const cek = await hkdf(salt, ikm, enc.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, enc.encode("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  // One record, the last: the plaintext then the delimiter 0x02 (no padding).
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv: nonce },
      key,
      concat(plaintext, Uint8Array.of(2)),
    ),
  );
  const header = new Uint8Array(21);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header.set(salt, 0);
  header[20] = asPublic.length;
  return concat(header, asPublic, sealed);
}

/** Imports a P-256 private key from its raw `d` and public point (for fixed keys). */
export function importP256(
  d: string,
  publicKey: Uint8Array,
  alg: "ECDH" | "ECDSA",
): Promise<CryptoKey> {
  const jwk: JsonWebKey = {
    kty: "EC",
    crv: "P-256",
    d,
    x: b64urlEncode(publicKey.subarray(1, 33)),
    y: b64urlEncode(publicKey.subarray(33, 65)),
    ext: true,
  };
  return crypto.subtle.importKey(
    "jwk",
    jwk,
    { name: alg, namedCurve: "P-256" },
    true,
    alg === "ECDH" ? ["deriveBits"] : ["sign"],
  );
}
