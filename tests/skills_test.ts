/**
 * Skills: SKILL.md frontmatter as Claude Code / Codex write it, hostile
 * names and descriptions bounded, discovery in every source folder with the switch
 * defaults, folders that lead into the data folder refused, installs from a zip
 * (traversal, links, no SKILL.md refused; nothing left behind) or a folder, and the ops.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { deflateRaw, makeDeflatedZip, makeZip, skillMd } from "./helpers/zip.ts";
import { crc32 } from "../server/skills/zip.ts";
import { opHarness } from "./helpers/op_context.ts";
import { parseSkillFile } from "../server/skills/frontmatter.ts";
import { discoverSkills } from "../server/skills/discover.ts";
import { InstallError, installFolder, installZip } from "../server/skills/install.ts";
import { setSwitch } from "../server/skills/switches.ts";
import {
  enabledSkillsCached,
  enabledSkillsNow,
  forgetSkills,
  skillsSection,
} from "../server/skills/reminder.ts";
import { saveUpload } from "../server/composer/uploads_store.ts";
import { SKILL_LIMITS } from "../protocol/skills.ts";

async function write(path: string, text: string) {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

async function rejects(p: Promise<unknown>, re: RegExp): Promise<InstallError> {
  try {
    await p;
  } catch (e) {
    assert(e instanceof InstallError, `expected an InstallError, got ${e}`);
    assertMatch(e.message, re);
    return e;
  }
  throw new Error("expected a refusal");
}

Deno.test("frontmatter: plain, quoted and block values; control characters and size bounded", () => {
  const m = parseSkillFile(
    '---\nname: "pdf\\u0007 tools"\ndescription: >\n  Fill PDF forms\n  and extract text.\nlicense: MIT\n---\n# Body\n',
  );
  assertEquals([m.name, m.description], ["pdf tools", "Fill PDF forms and extract text."]);
  assertEquals(m.body, "# Body\n");
  const lit = parseSkillFile("---\r\nname: x\r\ndescription: |\r\n  one\r\n  two\r\n---\r\n");
  assertEquals(lit.description, "one two", "lines of a literal block are folded for the list");
  const huge = parseSkillFile(
    `---\nname: ${"n".repeat(5000)}\ndescription: ${"\u202e\u0000evil ".repeat(20000)}\n---\n`,
  );
  assert([...huge.name!].length <= SKILL_LIMITS.nameChars);
  assert([...huge.description!].length <= SKILL_LIMITS.descriptionChars);
  // deno-lint-ignore no-control-regex
  assert(!/[\u0000-\u001f\u202e]/.test(huge.description!), "no control or bidi characters");
  assertEquals(parseSkillFile("no frontmatter").description, null);
  assertEquals(parseSkillFile("---\nname: x\nnever closed").name, null);
});

Deno.test("discovery: every source, switch defaults, problems, and folders that lead into the data folder refused", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-skills-" });
  const home = join(root, "home"), user = join(root, "user"), ws = join(root, "ws");
  try {
    await write(join(home, "skills", "mine", "SKILL.md"), skillMd("mine", "Mine"));
    await write(join(ws, ".reinagent", "skills", "proj", "SKILL.md"), skillMd("proj", "Project"));
    await write(join(user, ".claude", "skills", "pdf", "SKILL.md"), skillMd("pdf", "PDFs"));
    await write(join(user, ".codex", "skills", "cx", "SKILL.md"), skillMd("cx", "Codex one"));
    await write(
      join(user, ".agents", "skills", "ag", "SKILL.md"),
      "---\nname: ag\n---\nno description",
    );
    await write(join(user, ".agents", "skills", "notaskill", "README.md"), "just a folder");
    // Links: into the data folder (which holds the token), to the home folder holding it,
    // a project skill leading out of the project, a SKILL.md leading out of its folder.
    await write(join(home, "token"), "secret");
    await write(join(home, "SKILL.md"), skillMd("trap", "Reads the data folder"));
    await Deno.symlink(home, join(user, ".claude", "skills", "evil"));
    await Deno.symlink(root, join(user, ".claude", "skills", "evil2"));
    await Deno.symlink(
      join(user, ".claude", "skills", "pdf"),
      join(ws, ".reinagent", "skills", "out"),
    );
    await Deno.mkdir(join(user, ".codex", "skills", "linkfile"));
    await Deno.symlink(
      join(home, "SKILL.md"),
      join(user, ".codex", "skills", "linkfile", "SKILL.md"),
    );
    await Deno.symlink(home, join(home, "skills", "self"));

    const { overview } = await discoverSkills({ home, workspace: ws, userHome: user });
    const by = Object.fromEntries(overview.skills.map((s) => [s.key, s]));
    assertEquals(Object.keys(by).sort(), [
      "agents:ag",
      "claude:pdf",
      "codex:cx",
      "codex:linkfile",
      "reinagent:mine",
      "workspace:proj",
    ]);
    assertEquals(by["reinagent:mine"].enabled, true, "installed into ReinAgent: on by default");
    assertEquals(by["claude:pdf"].enabled, false, "other sources: off by default");
    assertEquals(by["workspace:proj"].enabled, false);
    assertMatch(by["agents:ag"].problem!, /no description/);
    assertMatch(by["codex:linkfile"].problem!, /links outside/);
    const refused = overview.problems.map((p) => p.path.split("/").at(-1)).sort();
    assertEquals(refused, ["evil", "evil2", "out", "self"]);
    assert(overview.problems.every((p) => /^refused:/.test(p.message)));

    await setSwitch(home, "claude:pdf", true);
    await setSwitch(home, "reinagent:mine", false);
    const again = await discoverSkills({ home, workspace: ws, userHome: user });
    const on = again.skills.filter((s) => s.enabled).map((s) => s.key);
    assertEquals(on, ["claude:pdf"]);
    const section = skillsSection(again.skills.filter((s) => s.enabled))!;
    assertMatch(section, /- pdf: PDFs\n {2}path: .*\.claude\/skills\/pdf\/SKILL\.md/);

    // A corrupt switch file is reported, never overwritten, and turns nothing on.
    await Deno.writeTextFile(join(home, "skills.json"), "{not json");
    const broken = await discoverSkills({ home, userHome: user });
    assertMatch(broken.overview.fileError!, /not valid/);
    let threw = false;
    await setSwitch(home, "claude:pdf", false).catch(() => threw = true);
    assert(threw);
    assertEquals(await Deno.readTextFile(join(home, "skills.json")), "{not json");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("zip install: traversal, absolute paths, links and missing SKILL.md refused; a good zip lands whole", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-skzip-" });
  try {
    const md = skillMd("Zip Skill", "From a zip");
    await rejects(
      installZip(
        home,
        makeZip([{ name: "SKILL.md", data: md }, { name: "../escape.txt", data: "x" }]),
      ),
      /leads outside/,
    );
    await rejects(
      installZip(home, makeZip([{ name: "SKILL.md", data: md }, { name: "a/../../b", data: "x" }])),
      /leads outside/,
    );
    await rejects(
      installZip(home, makeZip([{ name: "SKILL.md", data: md }, { name: "/etc/x", data: "x" }])),
      /absolute/,
    );
    await rejects(
      installZip(home, makeZip([{ name: "SKILL.md", data: md }, { name: "a\\..\\b", data: "x" }])),
      /backslash/,
    );
    await rejects(
      installZip(
        home,
        makeZip([{ name: "SKILL.md", data: md }, { name: "link", data: "/", mode: 0o120777 }]),
      ),
      /symbolic link/,
    );
    await rejects(installZip(home, makeZip([{ name: "README.md", data: "hi" }])), /SKILL\.md/);
    await rejects(installZip(home, new TextEncoder().encode("not a zip")), /not a zip/);
    await rejects(installZip(home, new Uint8Array(SKILL_LIMITS.zipBytes + 1)), /larger than/);
    // Nothing of the refused installs is left, not even outside the skills folder.
    const left: string[] = [];
    await Deno.mkdir(join(home, "skills"), { recursive: true });
    for await (const e of Deno.readDir(join(home, "skills"))) left.push(e.name);
    assertEquals(left, []);
    for (const p of [join(home, "escape.txt"), join(home, "b")]) {
      assert(!(await Deno.stat(p).catch(() => null)), `${p} was not written`);
    }

    // One folder inside the zip is the skill; its name comes from the frontmatter.
    const name = await installZip(
      home,
      makeZip([
        { name: "zipped/", mode: 0o40755 },
        { name: "zipped/SKILL.md", data: md },
        { name: "zipped/scripts/run.sh", data: "#!/bin/sh\necho hi\n", mode: 0o100755 },
        { name: "__MACOSX/zipped/._SKILL.md", data: "junk" },
      ]),
    );
    assertEquals(name, "zip-skill");
    const dir = join(home, "skills", "zip-skill");
    assertEquals(await Deno.readTextFile(join(dir, "SKILL.md")), md);
    assertEquals(((await Deno.stat(join(dir, "scripts", "run.sh"))).mode ?? 0) & 0o111, 0o111);
    await rejects(installZip(home, makeZip([{ name: "SKILL.md", data: md }])), /already installed/);

    // Deflated entries (as archivers write them) unpack; a bomb stops at its declared size.
    const big = "x".repeat(200_000);
    const deflated = await makeDeflatedZip([
      { name: "SKILL.md", data: skillMd("deflated", "Packed") },
      { name: "big.txt", data: big },
    ]);
    assert(deflated.length < 10_000, "really compressed");
    assertEquals(await installZip(home, deflated), "deflated");
    assertEquals(
      (await Deno.readTextFile(join(home, "skills", "deflated", "big.txt"))).length,
      big.length,
    );
    const bomb = new TextEncoder().encode("y".repeat(1_000_000));
    const lying = makeZip([
      { name: "SKILL.md", data: skillMd("bomb", "Lies about its size") },
      { name: "bomb.txt", data: await deflateRaw(bomb), deflated: { size: 10, crc: crc32(bomb) } },
    ]);
    await rejects(installZip(home, lying), /more than its declared size/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("folder install: copies a skill, refuses the data folder and links", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-skdir-" });
  const home = join(root, "home");
  try {
    await write(join(root, "src", "SKILL.md"), skillMd("folder-skill", "From a folder"));
    await write(join(root, "src", "ref", "notes.md"), "notes");
    assertEquals(await installFolder(home, join(root, "src"), [home]), "folder-skill");
    assertEquals(
      await Deno.readTextFile(join(home, "skills", "folder-skill", "ref", "notes.md")),
      "notes",
    );
    await write(join(home, "SKILL.md"), skillMd("data", "The data folder itself"));
    await rejects(installFolder(home, home, [home]), /data folder/);
    await rejects(installFolder(home, root, [home]), /holds/);
    await write(join(root, "src2", "SKILL.md"), skillMd("linky", "Has a link"));
    await Deno.symlink(join(home, "token"), join(root, "src2", "token"));
    await rejects(installFolder(home, join(root, "src2"), [home]), /link/);
    await rejects(installFolder(home, join(root, "nope"), [home]), /not a folder/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("skills ops: list, switches, preview, install from an upload, remove; refusals are clear", async () => {
  const h = await opHarness();
  try {
    const zip = makeZip([{ name: "SKILL.md", data: skillMd("uploaded", "Came as a zip") }]);
    const up = await saveUpload(h.home, {
      name: "uploaded.zip",
      mime: "application/zip",
      body: new Blob([zip as BlobPart]).stream(),
      length: zip.length,
    });
    h.topics.add("skills");
    const installed = await h.op("skills.installZip", { attachmentId: up.id });
    assertEquals(installed, { key: "reinagent:uploaded", name: "uploaded" });
    assert(h.events().some((e) => e.topic === "skills"), "pages are told");
    const list = await h.op("skills.list", {});
    const s = list.skills.find((x: { key: string }) => x.key === "reinagent:uploaded");
    assertEquals([s.name, s.description, s.enabled], ["uploaded", "Came as a zip", true]);
    const read = await h.op("skills.read", { key: "reinagent:uploaded" });
    assertMatch(read.text, /Came as a zip/);
    const off = await h.op("skills.setEnabled", { key: "reinagent:uploaded", enabled: false });
    assertEquals(off.skills[0].enabled, false);

    const bad = makeZip([{ name: "SKILL.md", data: skillMd("x", "y") }, {
      name: "../../token",
      data: "x",
    }]);
    const up2 = await saveUpload(h.home, {
      name: "bad.zip",
      mime: "application/zip",
      body: new Blob([bad as BlobPart]).stream(),
      length: bad.length,
    });
    const err = await h.fail("skills.installZip", { attachmentId: up2.id });
    assertEquals(err.code, "invalid_args");
    assertMatch(err.message, /zip refused: .*leads outside/);
    assertEquals((await h.fail("skills.remove", { key: "claude:x" })).code, "invalid_args");
    assertEquals((await h.fail("skills.read", { key: "reinagent:nope" })).code, "not_found");
    assertEquals((await h.fail("skills.list", { projectPath: "/etc" })).code, "not_found");
    assertEquals(
      (await h.fail("skills.setEnabled", { key: "bad key", enabled: true })).code,
      "invalid_args",
    );
    await h.op("skills.remove", { key: "reinagent:uploaded" });
    assertEquals((await h.op("skills.list", {})).skills, []);
  } finally {
    await h.close();
  }
});

Deno.test("skills of a turn: looked up fresh at its start and reused by its tool calls; a change shows at the next start", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-skills-turn-" });
  const home = join(root, "home"), user = join(root, "user"), ws = join(root, "ws");
  try {
    await Deno.mkdir(ws, { recursive: true });
    const scope = { home, workspace: ws, userHome: user, hidden: [] };
    await write(join(home, "skills", "one", "SKILL.md"), skillMd("one", "First"));
    const atStart = await enabledSkillsNow(scope, 1_000);
    assertEquals(atStart.map((s) => s.name), ["one"]);
    // A skill added after the turn started: its tool calls reuse the start's look-up (2 s).
    await write(join(home, "skills", "two", "SKILL.md"), skillMd("two", "Second"));
    assertEquals((await enabledSkillsCached(scope, 1_500)).map((s) => s.name), ["one"]);
    // The next turn's start sees it at once, and so do the calls after it.
    assertEquals((await enabledSkillsNow(scope, 1_600)).map((s) => s.name), ["one", "two"]);
    assertEquals((await enabledSkillsCached(scope, 1_700)).map((s) => s.name), ["one", "two"]);
  } finally {
    forgetSkills();
    await Deno.remove(root, { recursive: true });
  }
});
