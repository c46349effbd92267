/**
 * Self-update against a local manifest server: a copy of a small file plays
 * "the binary" (`--target`). A wrong checksum or size is refused and leaves the old binary
 * (and no download) in place; the right one replaces it atomically, executable, with the
 * old kept as `.bak`; `--check` only tells; a hostile manifest is refused.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { parseUpdateArgs, updateCommand } from "../server/cli/update_cmd.ts";
import { compareVersions, parseManifest, platformKey } from "../server/update/manifest.ts";
import { checkForUpdate } from "../server/update/check.ts";

const NEW_BINARY = new TextEncoder().encode("#!/bin/sh\necho 'reinagent 9.9.9'\n");
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

function releaseServer(manifest: () => unknown) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const p = new URL(req.url).pathname;
    if (p === "/manifest.json") return Response.json(manifest());
    if (p === "/reinagent-new") return new Response(NEW_BINARY);
    return new Response("not found", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return { base, manifestUrl: `${base}/manifest.json`, close: () => server.shutdown() };
}

async function setup() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-update-" }));
  const target = join(dir, "reinagent");
  await Deno.copyFile(new URL("../deno.json", import.meta.url), target);
  await Deno.chmod(target, 0o755);
  return { dir, target, old: await Deno.readFile(target) };
}

async function cli(argv: string[], home: string) {
  const a = parseUpdateArgs(argv);
  if ("error" in a) throw new Error(a.error);
  const out: string[] = [];
  const err: string[] = [];
  const code = await updateCommand(a, home, {
    line: (s) => out.push(s),
    err: (s) => err.push(s),
  }, "0.1.0");
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const listing = async (dir: string) => {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
};

Deno.test("update refuses a wrong checksum or size and leaves the old binary", async () => {
  const { dir, target, old } = await setup();
  let asset = { url: "/reinagent-new", sha256: "0".repeat(64), size: NEW_BINARY.length };
  const rel = releaseServer(() => ({ version: "9.9.9", platforms: { [platformKey()]: asset } }));
  try {
    const bad = await cli(["--manifest", rel.manifestUrl, "--target", target], dir);
    assertEquals(bad.code, 1);
    assertMatch(bad.err, /update failed, nothing changed: checksum mismatch/);
    assertEquals(await Deno.readFile(target), old);
    assertEquals(await listing(dir), ["reinagent"], "no download or .bak left behind");

    asset = { ...asset, sha256: sha(NEW_BINARY), size: NEW_BINARY.length - 1 };
    const big = await cli(["--manifest", rel.manifestUrl, "--target", target], dir);
    assertEquals(big.code, 1);
    assertMatch(big.err, /larger than the manifest's/);
    asset = { ...asset, size: NEW_BINARY.length + 5 };
    const small = await cli(["--manifest", rel.manifestUrl, "--target", target], dir);
    assertMatch(small.err, /has \d+ bytes, the manifest says/);
    assertEquals(await Deno.readFile(target), old);
    assertEquals(await listing(dir), ["reinagent"]);
  } finally {
    await rel.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("update with the right checksum replaces the binary and keeps the old as .bak", async () => {
  const { dir, target, old } = await setup();
  const asset = { url: "/reinagent-new", sha256: sha(NEW_BINARY), size: NEW_BINARY.length };
  const rel = releaseServer(() => ({ version: "9.9.9", platforms: { [platformKey()]: asset } }));
  try {
    const check = await cli(["--check", "--manifest", rel.manifestUrl, "--target", target], dir);
    assertEquals(check.code, 0);
    assertMatch(check.out, /Update available: 0\.1\.0 → 9\.9\.9/);
    assertEquals(await Deno.readFile(target), old, "--check changes nothing");

    const r = await cli(["--manifest", rel.manifestUrl, "--target", target], dir);
    assertEquals(r.code, 0, r.err);
    assertMatch(r.out, /Updated .* to 9\.9\.9/);
    assertEquals(await Deno.readFile(target), NEW_BINARY);
    assertEquals(await Deno.readFile(`${target}.bak`), old);
    assert(((await Deno.stat(target)).mode! & 0o111) !== 0, "still executable");
    assertEquals(await listing(dir), ["reinagent", "reinagent.bak"]);
    const out = await new Deno.Command(target, { stdout: "piped" }).output();
    assertEquals(new TextDecoder().decode(out.stdout).trim(), "reinagent 9.9.9");

    // The About line: a newer version is offered.
    const c = await checkForUpdate(rel.manifestUrl, "0.1.0");
    assertEquals([c.available, c.latest], [true, "9.9.9"]);
    assertEquals((await checkForUpdate(rel.manifestUrl, "9.9.9")).available, false);
    const same = await cli(["--manifest", rel.manifestUrl, "--target", target], dir);
    assertEquals(same.code, 0);
  } finally {
    await rel.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("manifests are validated; versions compare", () => {
  const base = "https://example.org/releases/manifest.json";
  const ok = parseManifest({
    version: "1.2.3",
    platforms: { "linux-x86_64": { url: "reinagent", sha256: "a".repeat(64), size: 10 } },
  }, base);
  assertEquals(ok.platforms["linux-x86_64"].url, "https://example.org/releases/reinagent");
  const bad = (m: unknown) => {
    try {
      parseManifest(m, base);
      return "";
    } catch (e) {
      return (e as Error).message;
    }
  };
  assertMatch(bad([]), /not a JSON object/);
  assertMatch(bad({ version: "latest", platforms: {} }), /version/);
  assertMatch(
    bad({
      version: "1.0.0",
      platforms: { x: { url: "file:///etc/passwd", sha256: "a".repeat(64), size: 1 } },
    }),
    /only http\(s\)/,
  );
  assertMatch(
    bad({ version: "1.0.0", platforms: { x: { url: "a", sha256: "xyz", size: 1 } } }),
    /sha256/,
  );
  assertMatch(
    bad({ version: "1.0.0", platforms: { x: { url: "a", sha256: "a".repeat(64), size: -1 } } }),
    /size/,
  );
  assertEquals(compareVersions("0.2.0", "0.1.9"), 1);
  assertEquals(compareVersions("0.1.0", "0.1.0"), 0);
  assertEquals(compareVersions("1.0.0-rc.1", "1.0.0"), -1);
  assertEquals(compareVersions("0.10.0", "0.9.0"), 1);
  assert("error" in parseUpdateArgs(["now"]));
});

Deno.test("update through a link replaces the file it leads to; the link stays", async () => {
  const { dir, target, old } = await setup();
  const link = join(dir, "reinagent-link");
  await Deno.symlink(target, link);
  const asset = { url: "/reinagent-new", sha256: sha(NEW_BINARY), size: NEW_BINARY.length };
  const rel = releaseServer(() => ({ version: "9.9.9", platforms: { [platformKey()]: asset } }));
  try {
    const r = await cli(["--manifest", rel.manifestUrl, "--target", link], dir);
    assertEquals(r.code, 0, r.err);
    assert((await Deno.lstat(link)).isSymlink, "the link is still a link");
    assertEquals(await Deno.readFile(target), NEW_BINARY);
    assertEquals(await Deno.readFile(`${target}.bak`), old);
  } finally {
    await rel.close();
    await Deno.remove(dir, { recursive: true });
  }
});
