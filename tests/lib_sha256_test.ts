/**
 * lib/sha256.ts against node:crypto (the values name folders and keys on disk, so they must
 * never change), lib/content_hash.ts (JS and native give the same hex), and lib/bytes.ts.
 */
import { createHash } from "node:crypto";
import { assert, assertEquals, assertThrows } from "./helpers/assert.ts";
import { sha256, sha256Hex, toHex } from "../lib/sha256.ts";
import {
  contentHash,
  contentHashHex,
  hashReadyFor,
  loadNativeHash,
  nativeHashLoaded,
} from "../lib/content_hash.ts";
import { constantTimeEqual, fromBase64 } from "../lib/bytes.ts";
import { fileUrlToPath } from "../lib/file_url.ts";
import { homeDir } from "../lib/home_dir.ts";

const nodeHex = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");
const random = (n: number) => {
  const b = new Uint8Array(n);
  for (let off = 0; off < n; off += 65536) crypto.getRandomValues(b.subarray(off, off + 65536));
  return b;
};

Deno.test("sha256: known vectors (FIPS 180-4)", () => {
  assertEquals(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assertEquals(
    sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assertEquals(
    sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assertEquals(sha256("abc").length, 32);
  assertEquals(toHex(sha256("abc")), sha256Hex("abc"));
});

Deno.test("sha256: equals node:crypto on thousands of random inputs, every length 0..300", () => {
  for (let len = 0; len <= 300; len++) {
    for (let i = 0; i < 12; i++) {
      const b = random(len);
      assertEquals(sha256Hex(b), nodeHex(b), `length ${len}`);
    }
  }
  // The padding boundaries (one block vs two for the length) and block edges, many times.
  for (const len of [55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 129]) {
    for (let i = 0; i < 200; i++) {
      const b = random(len);
      assertEquals(sha256Hex(b), nodeHex(b), `length ${len}`);
    }
  }
  // A view into a larger buffer hashes only its own bytes.
  const big = random(500);
  const view = big.subarray(17, 17 + 120);
  assertEquals(sha256Hex(view), nodeHex(view));
});

Deno.test("sha256: strings are hashed as UTF-8, like createHash().update(string)", () => {
  const samples = [
    "",
    "/home/user/项目",
    "\u0000default",
    "emoji 🧪🚀 and ZWJ 👩‍💻",
    "é".repeat(56),
    "日本語テキスト".repeat(20),
    "\ud800 lone surrogate",
  ];
  for (let i = 0; i < 500; i++) {
    const codes = Array.from({ length: i % 90 }, () => Math.floor(Math.random() * 0x2ffff));
    samples.push(String.fromCodePoint(...codes.map((c) => (c >= 0xd800 && c < 0xe000 ? 65 : c))));
  }
  for (const s of samples) assertEquals(sha256Hex(s), nodeHex(s), JSON.stringify(s));
});

Deno.test("sha256: a 1 MB input", () => {
  const b = random(1024 * 1024);
  assertEquals(sha256Hex(b), nodeHex(b));
  const odd = random(1024 * 1024 + 37);
  assertEquals(sha256Hex(odd), nodeHex(odd));
});

Deno.test("content hash: the JS and the native hasher give the same hex", async () => {
  const inputs = [0, 1, 64, 1000, 70_000, 300_000].map(random);
  // Small inputs hashed before the native hasher is loaded: the JS one.
  const before = inputs.map((b) => b.length < 64 * 1024 ? contentHashHex(b) : null);
  await hashReadyFor(10); // small: nothing to wait for
  await hashReadyFor(1 << 20);
  assert(nativeHashLoaded(), "node:crypto loaded on demand for a large input");
  await loadNativeHash(); // once: a second call is the same load
  for (const [i, b] of inputs.entries()) {
    assertEquals(contentHashHex(b), nodeHex(b));
    assertEquals(await contentHash(b), nodeHex(b));
    if (before[i] !== null) assertEquals(before[i], nodeHex(b));
  }
});

Deno.test("constantTimeEqual: equal, different, different lengths, empty", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  assert(constantTimeEqual(enc("secret-token"), enc("secret-token")));
  assert(!constantTimeEqual(enc("secret-token"), enc("secret-tokeN")));
  assert(!constantTimeEqual(enc("Secret-token"), enc("secret-token")));
  assert(!constantTimeEqual(enc("secret"), enc("secret-token")));
  assert(!constantTimeEqual(enc("secret-token"), enc("secret")));
  assert(constantTimeEqual(new Uint8Array(), new Uint8Array()));
  assert(!constantTimeEqual(new Uint8Array([0]), new Uint8Array()));
  for (let i = 0; i < 200; i++) {
    const a = random(32), b = Uint8Array.from(a);
    assert(constantTimeEqual(a, b));
    b[i % 32] ^= 1 << (i % 8);
    assert(!constantTimeEqual(a, b), "a one-bit difference anywhere is found");
  }
  assert(constantTimeEqual(sha256("x"), sha256("x")));
});

Deno.test("base64: round trip; not base64 is null (Buffer decoded garbage)", () => {
  for (const len of [0, 1, 2, 3, 4, 5, 100, 1001]) {
    const b = random(len);
    assertEquals(fromBase64(b.toBase64()), b);
    assertEquals(b.toBase64(), btoa(String.fromCharCode(...b)));
  }
  assertEquals(fromBase64("QQ"), new Uint8Array([65]), "missing padding is accepted");
  assertEquals(fromBase64("QUJD\nREVG"), new TextEncoder().encode("ABCDEF"));
  assertEquals(fromBase64("Q"), null);
  assertEquals(fromBase64("QQ=a"), null);
  assertEquals(fromBase64("@@@@"), null);
});

Deno.test("fileUrlToPath: like node:url for this program's URLs", () => {
  assertEquals(fileUrlToPath("file:///opt/app/main.ts", false), "/opt/app/main.ts");
  assertEquals(fileUrlToPath(new URL("file:///a%20b/%E9%A1%B9.ts"), false), "/a b/项.ts");
  assertEquals(fileUrlToPath("file:///C:/Users/x/main.ts", true), "C:\\Users\\x\\main.ts");
  assertEquals(fileUrlToPath("file://server/share/a.ts", true), "\\\\server\\share\\a.ts");
  assertThrows(() => fileUrlToPath("https://example.com/a.ts", false));
  assertThrows(() => fileUrlToPath("file:///a%2Fb", false));
  assertThrows(() => fileUrlToPath("file://host/a", false));
  const here = fileUrlToPath(import.meta.url);
  assertEquals(here, import.meta.filename);
});

Deno.test("homeDir: HOME (USERPROFILE on Windows), as node:os homedir()", async () => {
  const { homedir } = await import("node:os");
  assertEquals(homeDir(), homedir());
  const key = Deno.build.os === "windows" ? "USERPROFILE" : "HOME";
  const saved = Deno.env.get(key);
  try {
    Deno.env.set(key, "/tmp/some-home");
    assertEquals(homeDir(), "/tmp/some-home");
    Deno.env.delete(key);
    assert(homeDir().length > 0, "falls back to the passwd entry");
  } finally {
    if (saved !== undefined) Deno.env.set(key, saved);
  }
});
