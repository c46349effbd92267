/**
 * VAPID (RFC 8292): the server's P-256 key pair, generated on first use and kept in
 * `<home>/vapid.json` (mode 0600), and the ES256 JWT that signs each push request.
 * A file that cannot be read as a key pair is reported and never overwritten.
 */
import { join } from "../../lib/path.ts";
import { b64urlDecode, b64urlEncode } from "./b64url.ts";
import { importP256, rawPublicKey } from "./ece.ts";

export const vapidPath = (home: string) => join(home, "vapid.json");

/** Push services want a contact; Apple refuses a `localhost` one. */
const DEFAULT_SUBJECT = "mailto:reinagent@example.com";
/** RFC 8292 §2: at most 24 hours ahead. */
const JWT_LIFETIME_S = 12 * 3600;

interface VapidFile {
  publicKey: string;
  privateKey: string;
  createdAt: number;
}

export interface VapidKeys {
  /** Raw uncompressed public point, base64url (the browser's `applicationServerKey`). */
  publicKey: string;
  signingKey: CryptoKey;
  subject: string;
}

async function generate(): Promise<VapidFile> {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return {
    publicKey: b64urlEncode(await rawPublicKey(pair.publicKey)),
    privateKey: jwk.d!,
    createdAt: Date.now(),
  };
}

function parseFile(text: string, path: string): VapidFile {
  let v: Partial<VapidFile>;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path} is not valid JSON (${(e as Error).message}); it was left untouched`);
  }
  if (typeof v?.publicKey !== "string" || typeof v.privateKey !== "string") {
    throw new Error(`${path} has no publicKey/privateKey; it was left untouched`);
  }
  return v as VapidFile;
}

/** Loads the key pair, creating it (0600, never replacing a file) when absent. */
export async function loadVapid(home: string): Promise<VapidKeys> {
  const path = vapidPath(home);
  let file: VapidFile;
  try {
    file = parseFile(await Deno.readTextFile(path), path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    file = await generate();
    try {
      // createNew: two servers racing here must not replace each other's key.
      await Deno.writeTextFile(path, JSON.stringify(file, null, 2) + "\n", {
        mode: 0o600,
        createNew: true,
      });
    } catch (w) {
      if (!(w instanceof Deno.errors.AlreadyExists)) throw w;
      file = parseFile(await Deno.readTextFile(path), path);
    }
  }
  let signingKey: CryptoKey;
  try {
    const pub = b64urlDecode(file.publicKey);
    if (pub.length !== 65) throw new Error("public key is not 65 bytes");
    signingKey = await importP256(file.privateKey, pub, "ECDSA");
  } catch (e) {
    throw new Error(`${path} holds no usable P-256 key (${(e as Error).message}); left untouched`);
  }
  const subject = Deno.env.get("REINAGENT_VAPID_SUBJECT") || DEFAULT_SUBJECT;
  return { publicKey: file.publicKey, signingKey, subject };
}

const json64 = (v: unknown) => b64urlEncode(new TextEncoder().encode(JSON.stringify(v)));

/** The `Authorization` header for a push request to `endpoint`. */
export async function vapidAuthorization(
  keys: VapidKeys,
  endpoint: string,
  nowMs = Date.now(),
): Promise<string> {
  const claims = {
    aud: new URL(endpoint).origin,
    exp: Math.floor(nowMs / 1000) + JWT_LIFETIME_S,
    sub: keys.subject,
  };
  const unsigned = `${json64({ typ: "JWT", alg: "ES256" })}.${json64(claims)}`;
  // Web Crypto's ECDSA signature is r || s (64 bytes): exactly JWS ES256's form.
  const sig = new Uint8Array(
    await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      keys.signingKey,
      new TextEncoder().encode(unsigned),
    ),
  );
  return `vapid t=${unsigned}.${b64urlEncode(sig)}, k=${keys.publicKey}`;
}
