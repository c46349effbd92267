/**
 * Memory files and their ops: frontmatter files as the source of truth, the
 * FTS index following hand edits, corrupt files reported and never overwritten, hostile
 * ids and paths refused, delete and wipe moving files to the trash.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { opHarness } from "./helpers/op_context.ts";
import { MemoryFiles, slugFor } from "../store/memory/files.ts";
import { bucketOf, MemoryError } from "../store/memory/paths.ts";
import { formatFrontmatter, parseFrontmatter } from "../store/memory/frontmatter.ts";
import { Store } from "../store/store.ts";
import type { MemoryBucketView } from "../protocol/memory.ts";
import { memorySection } from "../server/agent/memory_reminder.ts";

const fields = (title: string, body = "Body of " + title) => ({
  title,
  body,
  description: "when it matters",
  type: "user" as const,
});

async function rejects(fn: () => Promise<unknown>, code: string, re?: RegExp): Promise<string> {
  try {
    await fn();
  } catch (e) {
    assert(e instanceof MemoryError, `a MemoryError, got ${e}`);
    assertEquals(e.code, code, e.message);
    if (re) assertMatch(e.message, re);
    return e.message;
  }
  throw new Error("expected a refusal");
}

Deno.test("frontmatter: round trip, and strict parsing of broken files", () => {
  const text = formatFrontmatter({ title: 'Say "hi": ok', unreviewed: true, n: 3 }, "Line 1\n");
  const p = parseFrontmatter(text);
  assert(p.ok);
  assertEquals(p.meta, { title: 'Say "hi": ok', unreviewed: true, n: 3 });
  assertEquals(p.body, "Line 1\n");
  assertEquals(parseFrontmatter("---\ntitle: plain words\n---\n").ok, true);
  for (
    const bad of ["no fence", "---\ntitle: x\n", "---\ntitle: [1, 2]\n---\n", "---\n: x\n---\n"]
  ) {
    assertEquals(parseFrontmatter(bad).ok, false, bad);
  }
  assertEquals(parseFrontmatter("---\ntitle: a\ntitle: b\n---\n").ok, false, "duplicate key");
});

Deno.test("memory files: create, list, read, update, accept, delete to the trash", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-mem-" });
  const files = new MemoryFiles(root);
  const g = files.bucket("global");
  const a = await files.create(g, fields("Prefers tabs"), { source: "tool", unreviewed: true });
  assertEquals(a.id, "prefers-tabs");
  const b = await files.create(g, fields("Prefers tabs"), { source: "user", unreviewed: false });
  assertEquals(b.id, "prefers-tabs-2", "a second title gets a fresh id");
  const text = await Deno.readTextFile(`${root}/global/prefers-tabs.md`);
  assertMatch(text, /^---\ntitle: "Prefers tabs"\n/);
  assertMatch(text, /unreviewed: true/);
  const { items, problems } = await files.list(g);
  assertEquals(items.map((i) => i.id).sort(), ["prefers-tabs", "prefers-tabs-2"]);
  assertEquals(problems, []);
  assertEquals((await files.accept(g, "prefers-tabs")).unreviewed, false);
  const up = await files.update(g, "prefers-tabs", { body: "Tabs, width 4" }, {
    source: "user",
    unreviewed: false,
  });
  assertEquals((await files.read(g, "prefers-tabs")).body, up.body);
  const trash = await files.remove(g, "prefers-tabs");
  assertMatch(trash, /\.trash\/global\/.*-prefers-tabs\.md$/);
  assertMatch(await Deno.readTextFile(trash), /Tabs, width 4/);
  await rejects(() => files.read(g, "prefers-tabs"), "not_found");
  // Chinese titles have no ASCII words: a generic id.
  assertEquals(slugFor("使用中文回答", new Set()), "memory");
  assertEquals(slugFor("使用中文回答", new Set(["memory"])), "memory-2");
});

Deno.test("memory files: a corrupt file is reported, never overwritten or accepted", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-mem-" });
  const files = new MemoryFiles(root);
  const g = files.bucket("global");
  await files.create(g, fields("Good one"), { source: "user", unreviewed: false });
  const broken = "---\ntitle: [not closed\nthis is not frontmatter\n";
  await Deno.writeTextFile(`${root}/global/broken.md`, broken);
  await Deno.writeTextFile(`${root}/global/Bad Name.md`, "---\ntitle: x\n---\n");
  const { items, problems } = await files.list(g);
  assertEquals(items.map((i) => i.id), ["good-one"]);
  assertEquals(problems.map((p) => p.file).sort(), ["Bad Name.md", "broken.md"]);
  assertMatch(problems.find((p) => p.file === "broken.md")!.error, /not closed|key: value/);
  await rejects(() => files.read(g, "broken"), "corrupt", /left as it is/);
  await rejects(
    () => files.update(g, "broken", { body: "x" }, { source: "tool", unreviewed: true }),
    "corrupt",
  );
  await rejects(() => files.accept(g, "broken"), "corrupt");
  await rejects(
    () => files.create(g, fields("x"), { id: "broken", source: "tool", unreviewed: true }),
    "exists",
  );
  await rejects(() => files.remove(g, "broken"), "corrupt", undefined);
  assertEquals(await Deno.readTextFile(`${root}/global/broken.md`), broken, "bytes untouched");
  // The user may move it to the trash (nothing is lost).
  await files.remove(g, "broken", { corruptToo: true });
  assertEquals((await files.list(g)).problems.map((p) => p.file), ["Bad Name.md"]);
});

Deno.test("memory files: hostile ids and project paths are refused; symlinks are not followed", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-mem-" });
  const outside = await Deno.makeTempDir({ prefix: "ra-mem-out-" });
  const files = new MemoryFiles(root);
  const g = files.bucket("global");
  for (
    const id of [
      "../x",
      "../../etc/passwd",
      "a/b",
      "..",
      ".hidden",
      "/etc/passwd",
      "UPPER",
      "a".repeat(65),
      "x\0y",
    ]
  ) {
    await rejects(() => files.read(g, id), "invalid", /not a memory id/);
    await rejects(
      () => files.create(g, fields("t"), { id, source: "tool", unreviewed: true }),
      "invalid",
    );
    await rejects(() => files.remove(g, id, { corruptToo: true }), "invalid");
  }
  for (const p of ["relative/dir", "", null, "/a\0b"]) {
    let threw = false;
    try {
      bucketOf(root, "project", p);
    } catch (e) {
      threw = e instanceof MemoryError && e.code === "invalid";
    }
    assert(threw, `project path ${JSON.stringify(p)} refused`);
  }
  // A project's path never becomes a path: `..` in it only changes the hash.
  const proj = files.bucket("project", "/tmp/../../etc");
  assertMatch(proj.dir, new RegExp(`^${root}/projects/[0-9a-f]{16}$`));
  // A symlinked memory file is reported, and a write never goes through it.
  await files.create(g, fields("Seed"), { source: "user", unreviewed: false });
  await Deno.writeTextFile(`${outside}/target.md`, "---\ntitle: outside\n---\nsecret\n");
  await Deno.symlink(`${outside}/target.md`, `${root}/global/linked.md`);
  const { problems } = await files.list(g);
  assertMatch(problems.find((p) => p.file === "linked.md")!.error, /symbolic link/);
  await rejects(() => files.read(g, "linked"), "corrupt");
  await rejects(
    () => files.update(g, "linked", { body: "pwn" }, { source: "tool", unreviewed: true }),
    "corrupt",
  );
  assertEquals(
    await Deno.readTextFile(`${outside}/target.md`),
    "---\ntitle: outside\n---\nsecret\n",
  );
  // A bucket folder that is a symlink is refused for writes.
  const p2 = files.bucket("project", "/some/project");
  await Deno.mkdir(`${root}/projects`, { recursive: true });
  await Deno.symlink(outside, p2.dir);
  await rejects(
    () => files.create(p2, fields("Leak"), { source: "tool", unreviewed: true }),
    "refused",
  );
  assertEquals([...Deno.readDirSync(outside)].map((e) => e.name), ["target.md"]);
  // Oversized fields are refused with the limit named.
  await rejects(
    () => files.create(g, fields("t", "x".repeat(8001)), { source: "tool", unreviewed: true }),
    "invalid",
    /8000/,
  );
});

Deno.test("memory search: FTS over the files follows hand edits; short queries use LIKE", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-mem-" });
  const store = new Store(`${home}/reinagent.db`);
  try {
    const files = new MemoryFiles(`${home}/memory`, store.repos!.memoryIndex);
    const g = files.bucket("global");
    await files.create(g, fields("Deploy with rsync", "Production deploys use rsync over ssh."), {
      source: "user",
      unreviewed: false,
    });
    await files.create(g, fields("Editor", "The user edits in Helix."), {
      source: "user",
      unreviewed: false,
    });
    assertEquals((await files.search(g, "rsync")).map((h) => h.item.id), ["deploy-with-rsync"]);
    assertMatch((await files.search(g, "helix"))[0].snippet, /Helix/);
    assertEquals((await files.search(g, "Hx")).length, 0);
    assertEquals(
      (await files.search(g, "sy")).map((h) => h.item.id),
      ["deploy-with-rsync"],
      "LIKE for 2 chars",
    );
    // Edited by hand (the file is the truth): found by its new words, not the old.
    await Deno.writeTextFile(
      `${home}/memory/global/editor.md`,
      "---\ntitle: Editor\n---\nThe user edits in Zed now.\n",
    );
    assertEquals((await files.search(g, "Zed now")).map((h) => h.item.id), ["editor"]);
    assertEquals((await files.search(g, "Helix")).length, 0);
    assertEquals(store.repos!.memoryIndex.size("global"), 2);
    await Deno.remove(`${home}/memory/global/editor.md`);
    await files.list(g);
    assertEquals(store.repos!.memoryIndex.size("global"), 1);
  } finally {
    store.close();
  }
});

Deno.test("memory ops: save, accept, search, delete, wipe (with confirm), settings", async () => {
  const h = await opHarness();
  try {
    const proj = await Deno.makeTempDir({ prefix: "ra-mem-proj-" });
    const b = { scope: "project", projectPath: proj };
    const saved = await h.op("memory.save", {
      ...b,
      title: "Run tests with deno task test",
      description: "",
      type: "project",
      body: "Use `deno task test`.",
    });
    assertEquals(saved.item.unreviewed, false, "the user wrote it");
    assertEquals(saved.bucket.items.length, 1);
    assertEquals(h.topics.has("memory"), false);
    const list: MemoryBucketView = await h.op("memory.list", b);
    assert(h.topics.has("memory"), "list subscribes to the memory topic");
    assertEquals(list.settings, { extraction: false });
    assertMatch(list.dir, /\/memory\/projects\/[0-9a-f]{16}$/);
    assertEquals((await h.op("memory.search", { ...b, q: "deno task" })).hits.length, 1);
    assertEquals(
      (await h.fail("memory.read", { ...b, id: "../../reinagent" })).code,
      "invalid_args",
    );
    const dflt: MemoryBucketView = await h.op("memory.list", { scope: "project" });
    assertEquals(dflt.projectPath, `${h.home}/DefaultProject`, "no path = the default project");
    assertEquals(
      (await h.fail("memory.list", { scope: "project", projectPath: "rel" })).code,
      "invalid_args",
    );
    assertEquals((await h.fail("memory.wipe", { ...b, confirm: "yes" })).code, "invalid_args");
    // A corrupt file: listed as a problem; saving over it is a conflict; bytes kept.
    const dir = list.dir;
    await Deno.writeTextFile(`${dir}/broken.md`, "not a memory");
    const again: MemoryBucketView = await h.op("memory.list", b);
    assertEquals(again.problems.map((p) => p.file), ["broken.md"]);
    const err = await h.fail("memory.save", {
      ...b,
      id: "broken",
      title: "x",
      description: "",
      type: "user",
      body: "x",
    });
    assertEquals(err.code, "conflict");
    assertEquals(await Deno.readTextFile(`${dir}/broken.md`), "not a memory");
    const wiped = await h.op("memory.wipe", { ...b, confirm: "wipe" });
    assertEquals(wiped.moved, 2);
    assertEquals(wiped.bucket.items.length + wiped.bucket.problems.length, 0);
    assertEquals([...Deno.readDirSync(wiped.trash)].map((e) => e.name).sort(), [
      "broken.md",
      "run-tests-with-deno-task-test.md",
    ]);
    assertEquals(await h.op("memory.setSettings", { extraction: true }), { extraction: true });
    // A corrupt settings file is reported and never overwritten.
    await Deno.writeTextFile(`${h.home}/memory/settings.json`, "{oops");
    const l3: MemoryBucketView = await h.op("memory.list", { scope: "global" });
    assertEquals(l3.settings.extraction, false, "defaults apply");
    assertMatch(l3.problems[0].error, /settings\.json is not valid/);
    assertEquals((await h.fail("memory.setSettings", { extraction: true })).code, "conflict");
    assertEquals(await Deno.readTextFile(`${h.home}/memory/settings.json`), "{oops");
  } finally {
    await h.close();
  }
});

Deno.test("memory reminder: accepted only, ≤ 30 per bucket, ≤ 16 K characters", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-mem-" });
  const files = new MemoryFiles(root);
  const g = files.bucket("global");
  const p = files.bucket("project", "/work/some-project");
  assertEquals(await memorySection(files, "/work/some-project"), null, "nothing accepted");
  for (let i = 0; i < 40; i++) {
    await files.create(g, { ...fields(`Global ${i}`), description: "d".repeat(300) }, {
      source: "user",
      unreviewed: false,
    });
  }
  await files.create(p, fields("Secret proposal"), { source: "tool", unreviewed: true });
  await files.create(p, fields("Project fact"), { source: "user", unreviewed: false });
  const s = (await memorySection(files, "/work/some-project"))!;
  assert(s.length <= 16_000, `${s.length} characters`);
  assert(!s.includes("Secret proposal"), "proposals are not in the reminder");
  assert(s.indexOf("## This project\n- project-fact") < s.indexOf("## Global"), "project first");
  const globals = s.split("\n").filter((l) => l.startsWith("- global-"));
  assert(globals.length <= 30, `${globals.length} listed`);
  assertMatch(s, /\(\d+ more: use memory list or search\)/);
});
