/**
 * The receiving end of Web Push, as a browser's push service and the browser do it:
 * a subscription key pair, decryption of an `aes128gcm` body (RFC 8188/8291) and the
 * check of a VAPID `Authorization` header (RFC 8292). Written independently of the
 * server's sender so a shared mistake cannot pass.
 */

export const encodeBase64Url = (b: Uint8Array) =>
  btoa(Array.from(b, (c) => String.fromCharCode(c)).join("")).replaceAll("+", "-")
    .replaceAll("/", "_").replace(/=+$/, "");
export const decodeBase64Url = (s: string): Bytes =>
  Uint8Array.from(atob(s.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));

const te = new TextEncoder();
type Bytes = Uint8Array<ArrayBuffer>;
const cat = (...p: Uint8Array[]): Bytes => {
  const o = new Uint8Array(p.reduce((n, x) => n + x.length, 0));
  let i = 0;
  for (const x of p) o.set(x, (i += x.length) - x.length);
  return o;
};

async function hkdfBits(salt: Bytes, ikm: Bytes, info: Bytes, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt, info }, key, bytes * 8),
  );
}

export interface Subscriber {
  keys: CryptoKeyPair;
  p256dh: string;
  auth: string;
  authBytes: Bytes;
}

export async function newSubscriber(): Promise<Subscriber> {
  const keys = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ]) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey));
  const authBytes = crypto.getRandomValues(new Uint8Array(16));
  return { keys, p256dh: encodeBase64Url(raw), auth: encodeBase64Url(authBytes), authBytes };
}

/** Decrypts a push body with the subscriber's private key and auth secret. */
export async function decryptBody(sub: Subscriber, body: Bytes): Promise<string> {
  const salt = body.slice(0, 16);
  const idlen = body[20];
  const asPublic = body.slice(21, 21 + idlen);
  const ciphertext = body.slice(21 + idlen);
  const uaPublic = decodeBase64Url(sub.p256dh);
  const asKey = await crypto.subtle.importKey(
    "raw",
    asPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const ecdh = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: asKey }, sub.keys.privateKey, 256),
  );
  const ikm = await hkdfBits(
    sub.authBytes,
    ecdh,
    cat(te.encode("WebPush: info\0"), uaPublic, asPublic),
    32,
  );
  const cek = await hkdfBits(salt, ikm, te.encode("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdfBits(salt, ikm, te.encode("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const plain = new Uint8Array(
    await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext),
  );
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--; // padding
  if (plain[end] !== 2) throw new Error("last record has no 0x02 delimiter");
  return new TextDecoder().decode(plain.slice(0, end));
}

/** Checks `vapid t=<jwt>, k=<key>`: ES256 signature by k, aud, exp within 24 h, sub. */
export async function verifyVapid(
  header: string,
  endpoint: string,
  expectKey?: string,
): Promise<Record<string, unknown>> {
  const m = header.match(/^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/);
  if (!m) throw new Error(`not a VAPID header: ${header}`);
  const [, h, p, s, k] = m;
  if (expectKey && k !== expectKey) throw new Error("k is not the server's public key");
  const head = JSON.parse(new TextDecoder().decode(decodeBase64Url(h)));
  if (head.alg !== "ES256" || head.typ !== "JWT") throw new Error(`bad JWT header ${head}`);
  const pub = await crypto.subtle.importKey(
    "raw",
    decodeBase64Url(k),
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["verify"],
  );
  const sig = decodeBase64Url(s);
  if (sig.length !== 64) throw new Error("ES256 signature must be 64 bytes (r || s)");
  const ok = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    pub,
    sig,
    te.encode(`${h}.${p}`),
  );
  if (!ok) throw new Error("VAPID signature does not verify");
  const claims = JSON.parse(new TextDecoder().decode(decodeBase64Url(p)));
  if (claims.aud !== new URL(endpoint).origin) throw new Error(`aud ${claims.aud}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error(`exp ${claims.exp}`);
  if (!/^(mailto:|https:)/.test(String(claims.sub))) throw new Error(`sub ${claims.sub}`);
  return claims;
}
