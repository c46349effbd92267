/**
 * `reinagent skills list|enable|disable NAME` as a user runs them (a real process, a
 * temporary data dir and home folder): the sources, switches written to skills.json, a
 * name found twice needs its key, unknown names and bad arguments are errors, a
 * symlinked skill folder pointing at the data dir is refused, a corrupt file left alone.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { denoDir, ROOT, RUN_FLAGS } from "./helpers/server.ts";
import { skillMd } from "./helpers/zip.ts";
import { parseCli } from "../server/cli/args.ts";

async function write(path: string, text: string) {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

Deno.test("skills CLI: list, enable, disable; ambiguous and unknown names; refused links", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-cliskills-" });
  const home = join(root, "home"), user = join(root, "user");
  const cli = async (...args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...RUN_FLAGS, `${ROOT}main.ts`, "skills", ...args, "--home", home],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      // The skills of ~/.claude etc. are looked up in a home folder of the test's own.
      env: { NO_COLOR: "1", HOME: user, DENO_DIR: denoDir() },
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  };
  try {
    await write(join(home, "skills", "mine", "SKILL.md"), skillMd("mine", "Installed here"));
    await write(join(user, ".claude", "skills", "pdf", "SKILL.md"), skillMd("pdf", "PDF forms"));
    await write(join(user, ".codex", "skills", "pdf", "SKILL.md"), skillMd("pdf", "Codex PDF"));
    await write(join(user, ".agents", "skills", "sheets", "SKILL.md"), skillMd("sheets", "Sheets"));
    await Deno.symlink(home, join(user, ".agents", "skills", "evil"));

    const list = await cli("list");
    assertEquals(list.code, 0, list.stderr);
    assertMatch(list.stdout, /^on {3}reinagent:mine {2}mine$/m);
    assertMatch(list.stdout, /^off {2}claude:pdf {2}pdf$/m);
    assertMatch(list.stdout, /^off {2}agents:sheets {2}sheets$/m);
    assert(!list.stdout.includes("evil"), "the link into the data dir is no skill");
    assertMatch(list.stderr, /evil: refused: it leads to .*data folder/);

    const en = await cli("enable", "sheets");
    assertEquals(en.code, 0, en.stderr);
    assertMatch(en.stdout, /Enabled skill agents:sheets/);
    const amb = await cli("enable", "pdf");
    assertEquals(amb.code, 2);
    assertMatch(amb.stderr, /several places; give one of: claude:pdf, codex:pdf/);
    assertEquals((await cli("enable", "codex:pdf")).code, 0);
    assertEquals((await cli("disable", "mine")).code, 0);
    const unknown = await cli("enable", "nope");
    assertEquals(unknown.code, 2);
    assertMatch(unknown.stderr, /no skill "nope"/);

    const json = JSON.parse((await cli("list", "--json")).stdout);
    const on = json.skills.filter((s: { enabled: boolean }) => s.enabled).map((
      s: { key: string },
    ) => s.key);
    assertEquals(on.sort(), ["agents:sheets", "codex:pdf"]);
    assertEquals(JSON.parse(await Deno.readTextFile(join(home, "skills.json"))), {
      enabled: ["agents:sheets", "codex:pdf"],
      disabled: ["reinagent:mine"],
    });

    // A corrupt switch file: reported, left as it is.
    await Deno.writeTextFile(join(home, "skills.json"), "[1,");
    const broken = await cli("disable", "sheets");
    assertEquals(broken.code, 1);
    assertMatch(broken.stderr, /skills\.json is not valid/);
    assertEquals(await Deno.readTextFile(join(home, "skills.json")), "[1,");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("skills CLI: argument rules", () => {
  const ok = parseCli(["skills", "enable", "pdf", "--project", "/p"]);
  assertEquals("command" in ok && ok.command, {
    kind: "skills",
    action: "enable",
    name: "pdf",
    project: "/p",
  });
  for (
    const [args, re] of [
      [["skills"], /list, enable or disable/],
      [["skills", "remove", "x"], /list, enable or disable/],
      [["skills", "enable"], /needs one NAME/],
      [["skills", "list", "x"], /takes no NAME/],
      [["skills", "enable", "x", "--json"], /unknown option/],
    ] as const
  ) {
    const r = parseCli([...args]);
    assert("error" in r, `${args.join(" ")} is refused`);
    assertMatch(r.error, re);
  }
});
