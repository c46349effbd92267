/**
 * The release pipeline's manifest (scripts/release/manifest.ts, run by
 * .github/workflows/release.yml) is what `reinagent update` accepts: written for one
 * stand-in binary per target, read back by the updater's own parser, its checksums match
 * SHA256SUMS, and served over HTTP it updates this machine's "binary" end to end.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import { parseManifest, platformKey } from "../server/update/manifest.ts";
import { parseUpdateArgs, updateCommand } from "../server/cli/update_cmd.ts";
import { TARGETS } from "../scripts/compile.ts";
import { platformOf } from "../scripts/release/manifest.ts";

const SCRIPT = new URL("../scripts/release/manifest.ts", import.meta.url).pathname;

/** The script as the workflow runs it. */
async function runScript(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--allow-read", "--allow-write", SCRIPT, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function releaseDir(targets: string[]) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-release-" }));
  for (const t of targets) {
    const name = `reinagent-${t}${t.includes("windows") ? ".exe" : ""}`;
    await Deno.writeTextFile(join(dir, name), `#!/bin/sh\necho 'reinagent 9.9.9 ${t}'\n`);
  }
  return dir;
}

Deno.test("the release manifest is what self-update parses, for every target", async () => {
  const dir = await releaseDir(TARGETS);
  const base = "https://example.com/releases/download/v9.9.9/";
  const r = await runScript([
    "--dir",
    dir,
    "--version",
    "9.9.9",
    "--base-url",
    base,
    "--require-all",
  ]);
  assertEquals(r.code, 0, r.stderr);
  const json = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
  const parsed = parseManifest(json, base);
  assertEquals(parsed, json, "the parser keeps every field as written");
  assertEquals(parsed.version, "9.9.9");
  // Each key is the one the binary for that target computes for itself.
  assertEquals(
    Object.keys(parsed.platforms).sort(),
    TARGETS.map((t) => platformOf(t)!).sort(),
  );
  assert(parsed.platforms["linux-x86_64"].url.endsWith("/reinagent-x86_64-unknown-linux-gnu"));
  assert(parsed.platforms["windows-x86_64"].url.endsWith(".exe"));
  // SHA256SUMS lists the same digests, in the format `sha256sum -c` reads.
  const sums = await Deno.readTextFile(join(dir, "SHA256SUMS"));
  for (const [key, asset] of Object.entries(parsed.platforms)) {
    const name = decodeURIComponent(new URL(asset.url).pathname.split("/").pop()!);
    assert(sums.includes(`${asset.sha256}  ${name}\n`), `${key} in SHA256SUMS`);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("the release manifest script refuses an incomplete or mislabelled release", async () => {
  const dir = await releaseDir([TARGETS[0]]);
  const args = ["--dir", dir, "--base-url", "https://example.com/d/"];
  const missing = await runScript([...args, "--version", "1.0.0", "--require-all"]);
  assertEquals(missing.code, 1);
  assertMatch(missing.stderr, /missing binaries for/);
  const badVersion = await runScript([...args, "--version", "v1.0"]);
  assertEquals(badVersion.code, 1);
  assertMatch(badVersion.stderr, /not a version/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a served release updates this machine's binary through `reinagent update`", async () => {
  const host = TARGETS.find((t) => platformOf(t) === platformKey());
  if (!host) return; // a machine no release is built for
  const dir = await releaseDir([host]);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const name = decodeURIComponent(new URL(req.url).pathname.slice(1));
    const file = await Deno.readFile(join(dir, name)).catch(() => null);
    return file ? new Response(file) : new Response("not found", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}/`;
  try {
    const r = await runScript(["--dir", dir, "--version", "9.9.9", "--base-url", base]);
    assertEquals(r.code, 0, r.stderr);
    const target = join(dir, "installed-reinagent");
    await Deno.writeTextFile(target, "old");
    const a = parseUpdateArgs(["--manifest", `${base}manifest.json`, "--target", target]);
    if ("error" in a) throw new Error(a.error);
    const err: string[] = [];
    const code = await updateCommand(a, dir, { line: () => {}, err: (s) => err.push(s) }, "0.1.0");
    assertEquals(code, 0, err.join("\n"));
    assertMatch(await Deno.readTextFile(target), /reinagent 9\.9\.9/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("install.sh installs the checked binary and refuses a wrong checksum", async () => {
  const host = TARGETS.find((t) => platformOf(t) === platformKey());
  if (!host || Deno.build.os === "windows") return;
  const dir = await releaseDir([host]);
  const served = (name: string) => Deno.readFile(join(dir, name)).catch(() => null);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const file = await served(decodeURIComponent(new URL(req.url).pathname.slice(1)));
    return file ? new Response(file) : new Response("not found", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}/`;
  const install = async (into: string) => {
    const out = await new Deno.Command("sh", {
      args: [new URL("../install.sh", import.meta.url).pathname],
      env: { REINAGENT_DOWNLOAD_URL: base, REINAGENT_INSTALL_DIR: into },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
  };
  try {
    const r = await runScript(["--dir", dir, "--version", "9.9.9", "--base-url", base]);
    assertEquals(r.code, 0, r.stderr);
    const good = await install(join(dir, "bin"));
    assertEquals(good.code, 0, good.text);
    assertMatch(good.text, /reinagent 9\.9\.9/);
    // A binary that does not match SHA256SUMS is never installed.
    const sums = await Deno.readTextFile(join(dir, "SHA256SUMS"));
    await Deno.writeTextFile(
      join(dir, "SHA256SUMS"),
      sums.replace(/^[0-9a-f]/, (c) => c === "0" ? "1" : "0"),
    );
    const bad = await install(join(dir, "bin2"));
    assertEquals(bad.code, 1, bad.text);
    assertMatch(bad.text, /checksum mismatch/);
    assertEquals(await Deno.stat(join(dir, "bin2", "reinagent")).catch(() => null), null);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
