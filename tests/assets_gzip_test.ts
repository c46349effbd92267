/**
 * The embedded UI assets (server/http/assets.ts) without node:crypto / node:zlib: each
 * ETag is still the first 16 hex digits of the body's SHA-256, and the gzipped body
 * (CompressionStream, made once) inflates back to exactly the body.
 */
import { createHash } from "node:crypto";
import { assert, assertEquals } from "./helpers/assert.ts";
import { ASSETS, gzipped, SHELL_URLS } from "../server/http/assets.ts";

const inflate = (gz: Uint8Array<ArrayBuffer>) =>
  new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).bytes();

Deno.test("assets: the ETag is the body's SHA-256 (16 hex digits), as before", () => {
  for (const [path, a] of Object.entries(ASSETS)) {
    const hex = createHash("sha256").update(a.body).digest("hex");
    assertEquals(a.etag, `"${hex.slice(0, 16)}"`, path);
  }
  const js = ASSETS["/assets/app.js"];
  assert(SHELL_URLS.includes(`/assets/app.js?v=${js.etag.slice(1, 9)}`), "versioned by its hash");
});

Deno.test("assets: gzipped once, inflating to the same bytes", async () => {
  for (const [path, a] of Object.entries(ASSETS)) {
    const gz = await gzipped(a);
    assertEquals(gz[0], 0x1f, `${path}: gzip magic`);
    assertEquals(gz[1], 0x8b, `${path}: gzip magic`);
    assertEquals(await inflate(gz), a.body, path);
    assert((await gzipped(a)) === gz, `${path}: compressed once, then kept`);
  }
  const js = ASSETS["/assets/app.js"];
  assert((await gzipped(js)).length < js.body.length / 2, "the bundle compresses well");
});
