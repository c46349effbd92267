/**
 * Notes: notebooks and notes are folders and `.md` files
 * under `<data dir>/notebooks/`; names that would escape or hide are refused; corrupt and
 * oversize files are reported and never overwritten; a save based on an old version is a
 * conflict; assist and "organise this conversation" are side requests to the mock LLM.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { entries, env, runTask } from "./helpers/agent_env.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import type { NotebooksView, NotebookView, NoteDoc } from "../protocol/index.ts";
import { NOTES_LIMITS } from "../protocol/index.ts";
import { assistNote } from "../server/notes/assist.ts";
import { noteNameFrom, transcriptOf } from "../server/notes/organise.ts";
import { adapterFor } from "../agent/providers/index.ts";
import { resolveModel } from "../server/providers/catalog.ts";

async function setup() {
  const e = await env();
  const client = { id: "t", topics: new Set<string>(), deliver: () => {} };
  const ctx = { ...e.deps, client } as OpContext;
  const op = async <T>(name: string, args: unknown): Promise<T> => {
    const r = await runOp(ctx, name, args);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.result as T;
  };
  const fail = async (name: string, args: unknown) => {
    const r = await runOp(ctx, name, args);
    assert(!r.ok, `${name} should fail: ${JSON.stringify(r)}`);
    return r.error;
  };
  const root = `${e.deps.home}/notebooks`;
  return { e, ctx, client, op, fail, root };
}

Deno.test("notes: notebooks and notes live as folders and .md files through their lifecycle", async () => {
  const { e, op, fail, client, root } = await setup();
  try {
    const first = await op<NotebooksView>("notes.list", {});
    assertEquals(first.notebooks, [{ name: "default", notes: 0 }]);
    assertEquals(first.root, root);
    assert(client.topics.has("notes"), "listing subscribes to the notes topic");

    await op("notes.createNotebook", { name: "Work 2026" });
    const doc = await op<NoteDoc>("notes.create", { notebook: "Work 2026", name: "Plan" });
    assertEquals(doc.body, "");
    const saved = await op<{ version: string }>("notes.save", {
      notebook: "Work 2026",
      note: "Plan",
      body: "# The plan\n\nShip notes.",
      baseVersion: doc.version,
    });
    assertEquals(await Deno.readTextFile(`${root}/Work 2026/Plan.md`), "# The plan\n\nShip notes.");
    assert(saved.version !== doc.version);

    // A second "Plan" gets a free name; the list shows the heading as the title.
    const second = await op<NoteDoc>("notes.create", { notebook: "Work 2026", name: "Plan" });
    assertEquals(second.name, "Plan 2");
    const list = await op<NotebookView>("notes.notes", { notebook: "Work 2026" });
    assertEquals(list.notes.map((n) => n.name).sort(), ["Plan", "Plan 2"]);
    assertEquals(list.notes.find((n) => n.name === "Plan")?.title, "The plan");
    assertEquals(list.notes.find((n) => n.name === "Plan")?.preview, "Ship notes.");

    // A file written by another editor is a note too (the files are the truth).
    await Deno.writeTextFile(`${root}/Work 2026/笔记 one.md`, "从外面写的");
    const read = await op<NoteDoc>("notes.read", { notebook: "Work 2026", note: "笔记 one" });
    assertEquals(read.body, "从外面写的");

    const renamed = await op<NotebookView>("notes.rename", {
      notebook: "Work 2026",
      note: "Plan 2",
      to: "Ideas",
    });
    assert(renamed.notes.some((n) => n.name === "Ideas"));
    const clash = await runOp(
      { ...e.deps, client } as OpContext,
      "notes.rename",
      { notebook: "Work 2026", note: "Ideas", to: "Plan" },
    );
    assert(!clash.ok && clash.error.code === "conflict", "a rename never replaces a note");
    // Another case is another file on this disk: never replaced either.
    await op("notes.create", { notebook: "Work 2026", name: "ideas" });
    const caseClash = await runOp(
      { ...e.deps, client } as OpContext,
      "notes.rename",
      { notebook: "Work 2026", note: "ideas", to: "Ideas" },
    );
    assert(!caseClash.ok && caseClash.error.code === "conflict", JSON.stringify(caseClash));
    await op("notes.delete", { notebook: "Work 2026", note: "ideas" });

    const after = await op<NotebookView>("notes.delete", { notebook: "Work 2026", note: "Ideas" });
    assert(!after.notes.some((n) => n.name === "Ideas"));
    const trash = [...Deno.readDirSync(`${root}/.trash`)].map((x) => x.name);
    assert(trash.some((n) => n.endsWith("Work 2026-Ideas.md")), "deleted notes go to the trash");

    await op("notes.createNotebook", { name: "Home" });
    assertEquals(
      (await fail("notes.renameNotebook", { name: "Work 2026", to: "Home" })).code,
      "conflict",
    );
    assertEquals(
      (await fail("notes.renameNotebook", { name: "default", to: "Other" })).code,
      "invalid_args",
    );
    await op("notes.deleteNotebook", { name: "Home" });
    const moved = await op<NotebooksView>("notes.renameNotebook", {
      name: "Work 2026",
      to: "Work",
    });
    assertEquals(moved.notebooks.map((b) => b.name), ["default", "Work"]);
    assert(await Deno.readTextFile(`${root}/Work/Plan.md`));
    await op("notes.renameNotebook", { name: "Work", to: "Work 2026" });

    const books = await op<NotebooksView>("notes.deleteNotebook", { name: "Work 2026" });
    assertEquals(books.notebooks.map((b) => b.name), ["default"]);
    assert([...Deno.readDirSync(`${root}/.trash`)].some((x) => x.name.endsWith("Work 2026")));
  } finally {
    await e.close();
  }
});

Deno.test("notes: hostile names are refused and corrupt or oversize files are reported, never overwritten", async () => {
  const { e, op, fail, root } = await setup();
  try {
    await op("notes.list", {});
    await Deno.writeTextFile(`${e.deps.home}/secret.md`, "do not touch");
    for (
      const bad of [
        "../secret",
        "..",
        ".trash",
        ".hidden",
        "a/b",
        "a\\b",
        "nul",
        "CON.txt",
        "x\u0000y",
        "tail.",
        " lead",
        "x".repeat(81),
      ]
    ) {
      const err = await fail("notes.read", { notebook: "default", note: bad });
      assertEquals(err.code, "invalid_args", bad);
      assertEquals((await fail("notes.createNotebook", { name: bad })).code, "invalid_args", bad);
      assertEquals((await fail("notes.read", { notebook: bad, note: "x" })).code, "invalid_args");
    }
    assertEquals(await Deno.readTextFile(`${e.deps.home}/secret.md`), "do not touch");

    // A link out of the notebook is not followed.
    await Deno.symlink(`${e.deps.home}/secret.md`, `${root}/default/link.md`);
    assertEquals(
      (await fail("notes.read", { notebook: "default", note: "link" })).code,
      "not_found",
    );

    await Deno.writeFile(`${root}/default/binary.md`, new Uint8Array([0xff, 0xfe, 0x00, 0xc3]));
    await Deno.writeTextFile(`${root}/default/huge.md`, "x".repeat(NOTES_LIMITS.fileBytes + 1));
    const view = await op<NotebookView>("notes.notes", { notebook: "default" });
    const problems = Object.fromEntries(view.problems.map((p) => [p.file, p.error]));
    assertMatch(problems["binary.md"], /not UTF-8/);
    assertMatch(problems["huge.md"], /more than/);
    assertMatch(problems["link.md"], /not a valid note/);
    const err = await fail("notes.save", {
      notebook: "default",
      note: "binary",
      body: "overwritten",
      baseVersion: "abc",
    });
    assertEquals(err.code, "conflict");
    assertMatch(err.message, /not UTF-8/);
    assertEquals(
      await Deno.readFile(`${root}/default/binary.md`),
      new Uint8Array([0xff, 0xfe, 0x00, 0xc3]),
    );
    const tooLong = await fail("notes.save", {
      notebook: "default",
      note: "huge",
      body: "x".repeat(NOTES_LIMITS.bodyChars + 1),
      baseVersion: "abc",
    });
    assertEquals(tooLong.code, "invalid_args");
    // Under the character limit but over the byte limit (CJK is 3 bytes each): refused, so
    // no save can make a note that would then read as corrupt.
    const fine = await op<NoteDoc>("notes.create", { notebook: "default", name: "wide" });
    const wide = await fail("notes.save", {
      notebook: "default",
      note: "wide",
      body: "字".repeat(NOTES_LIMITS.bodyChars),
      baseVersion: fine.version,
    });
    assertEquals(wide.code, "too_large");
    assertEquals(await Deno.readTextFile(`${root}/default/wide.md`), "");

    // A notebook that is a link elsewhere is reported, not listed or followed.
    await Deno.mkdir(`${e.deps.home}/outside`);
    await Deno.symlink(`${e.deps.home}/outside`, `${root}/linked`);
    const books = await op<NotebooksView>("notes.list", {});
    assert(!books.notebooks.some((b) => b.name === "linked"));
    assertEquals(books.problems.map((p) => p.file), ["linked"]);
    assertEquals((await fail("notes.notes", { notebook: "linked" })).code, "not_found");

    // A list reads only the start of each note: a character cut at that window is fine.
    const big = `# Big one\n${"a".repeat(8192 - 11)}字${"b".repeat(20_000)}`;
    await Deno.writeTextFile(`${root}/default/big.md`, big);
    const listed = await op<NotebookView>("notes.notes", { notebook: "default" });
    const card = listed.notes.find((n) => n.name === "big");
    assertEquals(card?.title, "Big one");
    assertEquals(card?.size, new TextEncoder().encode(big).length);
    assert(!listed.problems.some((p) => p.file === "big.md"));
    assertEquals((await op<NoteDoc>("notes.read", { notebook: "default", note: "big" })).body, big);

    // The user may still delete a corrupt file (to the trash).
    await op("notes.delete", { notebook: "default", note: "binary" });
  } finally {
    await e.close();
  }
});

Deno.test("notes: a save based on an old version is a conflict and writes nothing", async () => {
  const { e, op, fail, root } = await setup();
  try {
    const doc = await op<NoteDoc>("notes.create", { notebook: "default", name: "Shared" });
    const a = await op<{ version: string }>("notes.save", {
      notebook: "default",
      note: "Shared",
      body: "tab A",
      baseVersion: doc.version,
    });
    // Another editor changed the file.
    await Deno.writeTextFile(`${root}/default/Shared.md`, "changed outside");
    const err = await fail("notes.save", {
      notebook: "default",
      note: "Shared",
      body: "tab A again",
      baseVersion: a.version,
    });
    assertEquals(err.code, "conflict");
    assertMatch(err.message, /changed on disk/);
    assertEquals(await Deno.readTextFile(`${root}/default/Shared.md`), "changed outside");

    // Two saves from the same version at once: one wins, the other is a conflict.
    const fresh = await op<NoteDoc>("notes.read", { notebook: "default", note: "Shared" });
    const both = await Promise.all(
      ["one", "two"].map((body) =>
        runOp(
          { ...e.deps, client: { id: "x", topics: new Set(), deliver: () => {} } },
          "notes.save",
          {
            notebook: "default",
            note: "Shared",
            body,
            baseVersion: fresh.version,
          },
        )
      ),
    );
    assertEquals(both.filter((r) => r.ok).length, 1);
    assertEquals(both.filter((r) => !r.ok && r.error.code === "conflict").length, 1);

    await Deno.remove(`${root}/default/Shared.md`);
    const gone = await fail("notes.save", {
      notebook: "default",
      note: "Shared",
      body: "x",
      baseVersion: fresh.version,
    });
    assertMatch(gone.message, /deleted or renamed/);
  } finally {
    await e.close();
  }
});

Deno.test("notes.assist: the model's answer for each action; Demo, failures and timeouts are clear errors", async () => {
  const { e, fail, ctx } = await setup();
  try {
    const m = e.scenario({
      turns: [{ text: "```markdown\n- short summary\n```" }],
      repeatLast: true,
    });
    const r = await runOp(ctx, "notes.assist", {
      text: "A long note.",
      action: "summarise",
      model: m,
    });
    assert(r.ok, JSON.stringify(r));
    assertEquals(r.result, { text: "- short summary", model: `${m.providerId}/${m.modelId}` });
    const req = e.mock.requests(m.modelId)[0].body as {
      messages: { role: string; content: string }[];
      tools?: unknown[];
    };
    assertMatch(req.messages[0].content, /summarise a Markdown note/);
    assertMatch(req.messages[1].content, /<note>\nA long note.\n<\/note>/);
    assert(!req.tools?.length);
    for (const action of ["grammar", "continue"]) {
      assert((await runOp(ctx, "notes.assist", { text: "x", action, model: m })).ok, action);
    }
    const systemOf = (i: number) =>
      (e.mock.requests(m.modelId)[i].body as { messages: { content: string }[] }).messages[0]
        .content;
    assertMatch(systemOf(1), /correct spelling/);
    assertMatch(systemOf(2), /continue a Markdown note/);

    assertMatch((await fail("notes.assist", { text: "x", action: "summarise" })).message, /Demo/);
    assertEquals(
      (await fail("notes.assist", { text: "x", action: "rm -rf", model: m })).code,
      "invalid_args",
    );
    const failing = e.scenario({ turns: [{ fail: { status: 500, message: "boom upstream" } }] });
    const f = await fail("notes.assist", { text: "x", action: "grammar", model: failing });
    assertEquals(f.code, "upstream");
    assertMatch(f.message, /boom upstream/);

    const slow = e.scenario({ turns: [{ text: "slow slow slow", chunk: 1, delayMs: 200 }] });
    const target = resolveModel(e.deps.store.repos!, slow);
    const adapter = await adapterFor(target.provider.format);
    const t0 = Date.now();
    const err = await assistNote({ ...target, adapter }, "continue", "x", 300).catch((x) => x);
    assertMatch(String(err), /did not answer within 0\.3 s/);
    assert(Date.now() - t0 < 3000);
  } finally {
    await e.close();
  }
});

Deno.test("notes.organise: the task's conversation becomes a new note named by its title", async () => {
  const { e, op, fail, root } = await setup();
  try {
    const m = e.scenario({
      turns: [
        { text: "Use a mutex around the cache; tests in cache_test.ts." },
        { text: "# Cache race / fix: notes\n\n- Guard the cache with a mutex.\n" },
      ],
      sequential: true,
    });
    const { task } = await runTask(e, m, "Why does the cache race?", "Cache race");
    assertEquals(entries(e, task.id).length >= 2, true);
    const doc = await op<NoteDoc>("notes.organise", { taskId: task.id, notebook: "default" });
    assertEquals(doc.name, "Cache race fix notes");
    assertEquals(
      await Deno.readTextFile(`${root}/default/Cache race fix notes.md`),
      "# Cache race / fix: notes\n\n- Guard the cache with a mutex.",
    );
    const sent = e.mock.requests(m.modelId)[1].body as { messages: { content: string }[] };
    assertMatch(sent.messages[1].content, /## User\nWhy does the cache race\?/);
    assertMatch(sent.messages[1].content, /## Assistant\nUse a mutex around the cache/);

    assertEquals(
      (await fail("notes.organise", { taskId: task.id, notebook: "nope" })).code,
      "not_found",
    );
    assertEquals(
      (await fail("notes.organise", { taskId: "missing", notebook: "default" })).code,
      "not_found",
    );
    const { task: empty } = e.deps.tasks!.create({ title: "empty", options: { model: m } });
    assertMatch(
      (await fail("notes.organise", { taskId: empty.id, notebook: "default" })).message,
      /empty/,
    );
  } finally {
    await e.close();
  }
});

Deno.test("organise helpers: safe names and a bounded transcript", () => {
  assertEquals(noteNameFrom("../../etc/passwd"), "etc passwd");
  assertEquals(noteNameFrom("..."), null);
  assertEquals(noteNameFrom("会议 **记录**"), "会议 记录");
  const big = transcriptOf([{
    id: "1",
    taskId: "t",
    pos: 1,
    role: "user",
    status: "done",
    createdAt: 0,
    updatedAt: 0,
    parts: [{ type: "text", text: "y".repeat(NOTES_LIMITS.organiseChars * 2) }],
    meta: {},
  }]);
  assert(big.length < NOTES_LIMITS.organiseChars + 40);
  assert(big.startsWith("(earlier part left out)"));
});
