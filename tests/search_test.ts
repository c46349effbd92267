/**
 * Search across tasks: the FTS5 trigram index (migration 6), its
 * incremental upkeep, ranking, snippet limits, short and CJK queries, FTS syntax in
 * queries, and the `search.query` / `task.contextBreakdown` ops.
 */
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { Store } from "../store/store.ts";
import { MIGRATIONS } from "../store/migrations.ts";
import { ftsPhrase, INDEX_BATCH, likePattern, matchWindow, SearchRepo } from "../store/search.ts";
import type { Entry, EntryRole, EntryStatus } from "../protocol/index.ts";
import { countCjk, estimateTokens, SEARCH_LIMITS } from "../protocol/search.ts";
import { opHarness } from "./helpers/op_context.ts";

let clock = 1_700_000_000_000;
const now = () => ++clock;

async function tempStore(): Promise<{ store: Store; dir: string; close(): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "ra-search-" });
  const store = new Store(`${dir}/reinagent.db`, now);
  return {
    store,
    dir,
    async close() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

let ids = 0;
function add(
  store: Store,
  taskId: string,
  role: EntryRole,
  text: string,
  status: EntryStatus = "done",
): Entry {
  return store.repos!.entries.append({
    id: `m${++ids}`,
    taskId,
    role,
    status,
    parts: [{ type: "text", text }],
  });
}
const task = (store: Store, id: string, title: string) =>
  store.repos!.tasks.create({ id, title, projectPath: null });

Deno.test("search: titles rank before full-text hits; snippets mark the match", async () => {
  const s = await tempStore();
  try {
    task(s.store, "t1", "Notes");
    add(s.store, "t1", "user", "Please refactor the tokenizer module for speed");
    task(s.store, "t2", "Tokenizer rewrite");
    add(s.store, "t2", "user", "unrelated words only");
    task(s.store, "t3", "Other");
    add(s.store, "t3", "assistant", "The TOKENIZER now handles CJK.");
    const r = s.store.repos!.entries.search("tokenizer");
    assertEquals(r.mode, "fts");
    assertEquals(r.tasks[0].taskId, "t2", "title match first");
    assertEquals(r.tasks[0].titleMatch, { before: "", match: "Tokenizer", after: " rewrite" });
    assertEquals(r.tasks[0].snippets.length, 0);
    assertEquals(new Set(r.tasks.slice(1).map((t) => t.taskId)), new Set(["t1", "t3"]));
    const t1 = r.tasks.find((t) => t.taskId === "t1")!;
    assertEquals(t1.titleMatch, null);
    assertEquals(t1.snippets.length, 1);
    assertEquals(t1.snippets[0].match, "tokenizer");
    assertEquals(t1.snippets[0].before, "Please refactor the ");
    assertEquals(t1.snippets[0].role, "user");
    const t3 = r.tasks.find((t) => t.taskId === "t3")!;
    assertEquals(t3.snippets[0].match, "TOKENIZER", "case-insensitive, original case kept");
  } finally {
    await s.close();
  }
});

Deno.test("search: at most 5 snippets per task and 20 tasks; hits counts all", async () => {
  const s = await tempStore();
  try {
    for (let t = 0; t < 25; t++) {
      task(s.store, `t${t}`, `Task ${t}`);
      for (let i = 0; i < 8; i++) add(s.store, `t${t}`, "user", `entry ${i} has the needle word`);
    }
    const r = s.store.repos!.entries.search("needle");
    assertEquals(r.tasks.length, SEARCH_LIMITS.tasks);
    for (const t of r.tasks) {
      assertEquals(t.snippets.length, SEARCH_LIMITS.snippetsPerTask);
      assertEquals(t.hits, 8);
      const pos = t.snippets.map((x) => x.pos);
      assertEquals(pos, [...pos].sort((a, b) => a - b), "snippets in timeline order");
    }
  } finally {
    await s.close();
  }
});

Deno.test("search: CJK, 1–2 character queries (LIKE) and FTS syntax characters", async () => {
  const s = await tempStore();
  try {
    task(s.store, "tc", "中文任务");
    add(s.store, "tc", "assistant", "我们需要实现全文搜索功能，支持中文。");
    task(s.store, "ts", "Syntax");
    add(s.store, "ts", "user", 'He said "quote" AND (maybe) NEAR x* col:umn - 100% done_ok');
    const e = s.store.repos!.entries;

    const cjk = e.search("全文搜索");
    assertEquals(cjk.mode, "fts");
    assertEquals(cjk.tasks.map((t) => t.taskId), ["tc"]);
    assertEquals(cjk.tasks[0].snippets[0].match, "全文搜索");
    assertEquals(cjk.tasks[0].snippets[0].before, "我们需要实现");

    const two = e.search("中文");
    assertEquals(two.mode, "like");
    assertEquals(two.tasks[0].taskId, "tc", "title 中文任务 first");
    assert(two.tasks[0].titleMatch !== null);
    assertEquals(two.tasks[0].snippets[0].match, "中文");

    const one = e.search("%");
    assertEquals(one.mode, "like");
    assertEquals(one.tasks.map((t) => t.taskId), ["ts"], "% is literal, not a wildcard");
    assertEquals(e.search("_").tasks.map((t) => t.taskId), ["ts"]);
    assertEquals(e.search("zz").tasks, []);

    for (const q of ['"quote"', "AND (maybe)", "x*", "col:umn", "NEAR", "- 100", '"', "(", "*^"]) {
      const r = e.search(q); // must not throw
      if ([...q].length >= 3 && q !== "*^") {
        assertEquals(r.tasks.map((t) => t.taskId), ["ts"], `query ${q}`);
      }
    }
    assertEquals(e.search('"unbalanced').tasks, []);
  } finally {
    await s.close();
  }
});

Deno.test("search: empty query lists recent tasks; streaming text is not indexed", async () => {
  const s = await tempStore();
  try {
    task(s.store, "a", "Alpha");
    task(s.store, "b", "Beta");
    const recent = s.store.repos!.entries.search("   ");
    assertEquals(recent.mode, "recent");
    assertEquals(recent.tasks.map((t) => t.taskId), ["b", "a"]);

    const live = add(s.store, "a", "assistant", "partial streamed answer", "streaming");
    assertEquals(s.store.repos!.entries.search("streamed").tasks, []);
    live.parts = [{ type: "text", text: "final streamed answer" }];
    live.status = "done";
    s.store.repos!.entries.upsert(live);
    assertEquals(s.store.repos!.entries.search("final streamed").tasks.map((t) => t.taskId), [
      "a",
    ]);
    // A tool entry is never indexed.
    add(s.store, "b", "tool", "toolonly output");
    assertEquals(s.store.repos!.entries.search("toolonly").tasks, []);
  } finally {
    await s.close();
  }
});

Deno.test("search: index follows edits, deleted entries and deleted tasks", async () => {
  const s = await tempStore();
  try {
    const repos = s.store.repos!;
    task(s.store, "a", "A");
    const e = add(s.store, "a", "user", "original wording");
    add(s.store, "a", "assistant", "reply about giraffes");
    const search = new SearchRepo(
      (s.store as unknown as { db: DatabaseSync }).db,
    );
    assertEquals(search.size(), 0, "queued, not yet written");
    repos.entries.flushSearchIndex();
    assertEquals(search.size(), 2);
    e.parts = [{ type: "text", text: "changed wording" }];
    repos.entries.upsert(e);
    assertEquals(repos.entries.search("original").tasks, []);
    assertEquals(repos.entries.search("changed").tasks.length, 1);
    assertEquals(search.size(), 2);
    // Text removed: the document goes.
    e.parts = [];
    repos.entries.upsert(e);
    repos.entries.flushSearchIndex();
    assertEquals(search.size(), 1);
    // Truncating the timeline (entries after a position) removes their documents.
    add(s.store, "a", "user", "later question about otters");
    repos.entries.flushSearchIndex();
    assertEquals(search.size(), 2);
    const db = (s.store as unknown as { db: DatabaseSync }).db;
    db.prepare("DELETE FROM message WHERE task_id = ? AND pos > ?").run("a", 2);
    assertEquals(search.size(), 1);
    assertEquals(repos.entries.search("otters").tasks, []);
    assertEquals(repos.entries.search("giraffes").tasks.length, 1);
    // Deleting the task removes its documents (cascade + trigger).
    repos.tasks.delete("a");
    assertEquals(search.size(), 0);
    assertEquals(repos.entries.search("giraffes").tasks, []);
  } finally {
    await s.close();
  }
});

Deno.test("search: index writes are batched; a queue lost at exit is caught up", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ra-search-q-" });
  const path = `${dir}/reinagent.db`;
  try {
    let store = new Store(path, now);
    const count = (st: Store) =>
      (st as unknown as { db: DatabaseSync }).db.prepare("SELECT count(*) AS n FROM search_doc")
        .get() as { n: number };
    task(store, "a", "A");
    for (let i = 0; i < INDEX_BATCH - 1; i++) add(store, "a", "user", `batched item ${i}`);
    assertEquals(count(store).n, 0, "nothing written yet");
    add(store, "a", "assistant", "the batch is full now");
    assertEquals(count(store).n, INDEX_BATCH, "one batch written");
    add(store, "a", "user", "left in the queue: pelican");
    add(store, "a", "user", "also queued, then deleted");
    store.repos!.tasks.create({ id: "gone", title: "Gone", projectPath: null });
    add(store, "gone", "user", "pelican in a task that is deleted");
    store.repos!.tasks.delete("gone");
    assertEquals(count(store).n, INDEX_BATCH);
    // A search flushes the queue first (the deleted task's entry is skipped).
    assertEquals(store.repos!.entries.search("pelican").tasks.map((t) => t.taskId), ["a"]);
    assertEquals(count(store).n, INDEX_BATCH + 2);
    // Entries still queued when the process ends are indexed before the next search.
    add(store, "a", "assistant", "flamingo written just before exit");
    store.close();
    store = new Store(path, now);
    try {
      assertEquals(store.repos!.entries.search("flamingo").tasks.map((t) => t.taskId), ["a"]);
      assertEquals(count(store).n, INDEX_BATCH + 3);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search: entries left streaming by a crash become searchable once stopped", async () => {
  const s = await tempStore();
  try {
    task(s.store, "a", "A");
    add(s.store, "a", "assistant", "interrupted zebra text", "streaming");
    assertEquals(s.store.repos!.entries.search("zebra").tasks, []);
    s.store.repos!.entries.stopLeftovers();
    assertEquals(s.store.repos!.entries.search("zebra").tasks.map((t) => t.taskId), ["a"]);
  } finally {
    await s.close();
  }
});

Deno.test("search: migration 6 backfills a database that already has entries", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ra-search-mig-" });
  const path = `${dir}/reinagent.db`;
  try {
    const db = new DatabaseSync(path);
    db.exec("PRAGMA foreign_keys = ON");
    db.exec(
      "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    );
    for (const m of MIGRATIONS.filter((m) => m.version < 6)) {
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_version VALUES (?, ?, 0)").run(m.version, m.name);
    }
    db.exec(`
      INSERT INTO task (id, title, created_at, updated_at) VALUES ('old', 'Old task', 1, 1);
      INSERT INTO message (id, task_id, pos, role, status, created_at, updated_at) VALUES
        ('m1', 'old', 1, 'user', 'done', 1, 1),
        ('m2', 'old', 2, 'assistant', 'done', 1, 1),
        ('m3', 'old', 3, 'tool', 'done', 1, 1);
      INSERT INTO part (message_id, idx, type, text) VALUES
        ('m1', 0, 'text', 'first part about walruses'),
        ('m2', 0, 'thinking', 'hidden thoughts on walruses'),
        ('m2', 1, 'text', 'second'),
        ('m2', 2, 'text', 'joined walrus answer'),
        ('m3', 0, 'tool_result', 'walrus tool output');
    `);
    db.close();
    const store = new Store(path);
    try {
      assert(store.health.ok, store.health.error);
      const r = store.repos!.entries.search("walrus");
      assertEquals(r.tasks.length, 1);
      assertEquals(r.tasks[0].hits, 2, "user + assistant text; not thinking, not tool");
      assertEquals(r.tasks[0].snippets.map((x) => x.entryId), ["m1", "m2"]);
      assertMatch(r.tasks[0].snippets[1].before, /second joined $/, "parts joined in order");
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search helpers: phrase quoting, LIKE escaping, windows", () => {
  assertEquals(ftsPhrase('a "b" c'), '"a ""b"" c"');
  assertEquals(likePattern("50%_x\\"), "%50\\%\\_x\\\\%");
  const long = "x".repeat(100) + "MATCH" + "y".repeat(100);
  const w = matchWindow(long, "match", 10)!;
  assertEquals(w, { before: "…xxxxxxxxxx", match: "MATCH", after: "yyyyyyyyyy…" });
  assertEquals(matchWindow("a\n\n  b needle\tc", "needle"), {
    before: "a b ",
    match: "needle",
    after: " c",
  });
  // A cut never splits a surrogate pair.
  const emoji = "😀".repeat(30) + "hit" + "😀".repeat(30);
  const e = matchWindow(emoji, "hit", 5)!;
  assert(!/[\ud800-\udbff]$|^…?[\udc00-\udfff]/.test(e.before), "split pair before");
  assert(!/^[\udc00-\udfff]|[\ud800-\udbff]…?$/.test(e.after), "split pair after");
  assertEquals(matchWindow("abc", "zzz"), null);
});

Deno.test("context estimate: CJK × 2 ÷ 3, other characters ÷ 4", () => {
  assertEquals(estimateTokens(""), 0);
  assertEquals(estimateTokens("abcdefgh"), 2);
  assertEquals(estimateTokens("上下文"), 2);
  assertEquals(countCjk("上下文 abc ，。"), 5);
  assertEquals(estimateTokens("上下文" + "abcd".repeat(3)), 5);
  assertEquals(estimateTokens("𠀀𠀀𠀀"), 2, "supplementary Han counts once per character");
});

Deno.test("ops: search.query validates, answers; task.contextBreakdown by category", async () => {
  const h = await opHarness();
  try {
    const repos = h.store.repos!;
    repos.tasks.create({ id: "tq", title: "Query task", projectPath: null });
    repos.entries.append({
      id: "mq1",
      taskId: "tq",
      role: "user",
      status: "done",
      parts: [{ type: "text", text: "explain the 上下文 ring please" }],
    });
    const r = await h.op("search.query", { q: "ring" });
    assertEquals(r.tasks[0].snippets[0].entryId, "mq1");
    assertEquals((await h.fail("search.query", {})).code, "invalid_args");
    assertEquals((await h.fail("search.query", { q: "x".repeat(201) })).code, "invalid_args");
    assertEquals((await h.fail("search.query", { q: 5 })).code, "invalid_args");

    const b = await h.op("task.contextBreakdown", { id: "tq" });
    assertEquals(b.categories.map((c: { key: string }) => c.key), [
      "messages",
      "system",
      "tools",
      "user",
      "skills",
      "mcp",
    ]);
    const cat = (k: string) => b.categories.find((c: { key: string }) => c.key === k);
    assertEquals(cat("messages").items, 1);
    assert(cat("system").tokens > 100, "system prompt estimated");
    assert(cat("tools").items >= 10, "tool specs counted");
    assertEquals(cat("skills").tokens, 0);
    assertEquals(cat("mcp").tokens, 0);
    assertEquals(b.model, "demo/demo");
    // Demo: window 32000, max output 4000 → 0.7 × 28000.
    assertEquals(b.compaction, { watermark: 19_600, window: 32_000, windowKnown: true });
    assertEquals(b.text, undefined);
    assertEquals(
      b.totalTokens,
      b.categories.reduce((s: number, c: { tokens: number }) => s + c.tokens, 0),
    );

    const m = await h.op("task.contextBreakdown", { id: "tq", category: "messages" });
    assertEquals(m.text.format, "json");
    const sent = JSON.parse(m.text.text);
    assertEquals(sent[0].content[0].text, "explain the 上下文 ring please");
    assertEquals(
      m.categories.find((c: { key: string }) => c.key === "messages").chars,
      m.text.text.length,
    );
    const sys = await h.op("task.contextBreakdown", { id: "tq", category: "system" });
    assertMatch(sys.text.text, /# Environment/);
    const user = await h.op("task.contextBreakdown", { id: "tq", category: "user" });
    assertMatch(user.text.text, /^<system-reminder>\nCurrent date: \d{4}-\d\d-\d\d/);

    assertEquals((await h.fail("task.contextBreakdown", { id: "nope" })).code, "not_found");
    assertEquals(
      (await h.fail("task.contextBreakdown", { id: "tq", category: "other" })).code,
      "invalid_args",
    );
  } finally {
    await h.close();
  }
});

Deno.test("search: snippets show Markdown as text (no **, backticks or link targets), match kept", async () => {
  const s = await tempStore();
  try {
    task(s.store, "tm", "Markdown");
    add(
      s.store,
      "tm",
      "assistant",
      "## Result\n\nThe **walrus** diet uses `kumquat_jam` — see [the notes](https://example.com/n).",
    );
    const hit = s.store.repos!.entries.search("walrus").tasks[0].snippets[0];
    assertEquals(hit.match, "walrus");
    assertEquals(hit.before, "Result The ");
    assertEquals(hit.after, " diet uses kumquat_jam — see the notes.");
    const code = s.store.repos!.entries.search("kumquat").tasks[0].snippets[0];
    assertEquals([code.before.endsWith("uses "), code.match], [true, "kumquat"]);
    // A query for the Markdown itself still finds and marks it.
    assertEquals(s.store.repos!.entries.search("**walrus").tasks[0].snippets[0].match, "**walrus");
  } finally {
    await s.close();
  }
});

Deno.test("plainMarkdown: emphasis, code, links, headings, lists, quotes, tables", async () => {
  const { plainMarkdown } = await import("../store/plain_text.ts");
  assertEquals(
    plainMarkdown("## Fix **the** `parser` — [docs](https://x.dev)"),
    "Fix the parser — docs",
  );
  assertEquals(
    plainMarkdown("- [x] done *now*, snake_case_name, 2 * 3"),
    "done now, snake_case_name, 2 * 3",
  );
  assertEquals(plainMarkdown("> __bold__ ~~gone~~ ![alt](a.png)"), "bold gone alt");
  assertEquals(plainMarkdown("```ts\nlet a = 1;\n```").trim(), "let a = 1;");
  assertEquals(plainMarkdown("| **a** | b |\n|:--|--:|").split("\n")[1], "");
});
