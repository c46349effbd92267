/** lib/sha1.ts against git's own object ids and the standard test vectors. */
import { assertEquals } from "./helpers/assert.ts";
import { sha1Hex } from "../lib/sha1.ts";
import { gitBlobOid } from "../server/agent/git_objects.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("sha1: the standard vectors", () => {
  assertEquals(sha1Hex(enc("")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  assertEquals(sha1Hex(enc("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  assertEquals(
    sha1Hex(enc("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
    "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
  );
  assertEquals(sha1Hex(enc("a".repeat(1_000_000))), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  assertEquals(sha1Hex(enc("ab"), enc("c")), sha1Hex(enc("abc")), "parts are concatenated");
});

Deno.test("sha1: blob ids are git's (git hash-object)", async () => {
  for (const size of [0, 1, 55, 56, 63, 64, 65, 1000, 70_000]) {
    const bytes = new Uint8Array(size).map((_, i) => (i * 31 + size) & 0xff);
    const git = new Deno.Command("git", {
      args: ["hash-object", "--no-filters", "--stdin"],
      stdin: "piped",
      stdout: "piped",
    }).spawn();
    const w = git.stdin.getWriter();
    await w.write(bytes);
    await w.close();
    const out = new TextDecoder().decode((await git.output()).stdout).trim();
    assertEquals(gitBlobOid(bytes), out, `${size} bytes`);
  }
});
