import { assert, assertEquals, assertThrows } from "./helpers/assert.ts";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { migrate, openDatabase } from "../store/db.ts";
import { MIGRATIONS } from "../store/migrations.ts";
import { Store } from "../store/store.ts";
import { makeIdGenerator } from "../store/ids.ts";

const tmp = () => Deno.makeTempDir({ prefix: "ra-store-" });

Deno.test("fresh database: WAL, migrations recorded in schema_version", async () => {
  const path = join(await tmp(), "a.db");
  const { db, health } = openDatabase(path);
  assert(health.ok && db);
  const mode = db.prepare("PRAGMA journal_mode").get() as { journal_mode: string };
  assertEquals(mode.journal_mode, "wal");
  const timeout = db.prepare("PRAGMA busy_timeout").get() as Record<string, number>;
  assertEquals(Object.values(timeout)[0], 5000);
  const versions = db.prepare("SELECT version FROM schema_version ORDER BY version").all() as {
    version: number;
  }[];
  assertEquals(versions.map((v) => v.version), MIGRATIONS.map((m) => m.version));
  // Running migrations again is a no-op.
  assertEquals(migrate(db), MIGRATIONS[MIGRATIONS.length - 1].version);
  assertEquals(
    (db.prepare("SELECT count(*) AS n FROM schema_version").get() as { n: number }).n,
    MIGRATIONS.length,
  );
  db.close();
});

Deno.test("a corrupt database file is reported and left byte-for-byte untouched", async () => {
  const path = join(await tmp(), "bad.db");
  const junk = new TextEncoder().encode("this is not a database\n".repeat(200));
  await Deno.writeFile(path, junk);
  const store = new Store(path);
  assertEquals(store.health.ok, false);
  assert(store.health.error?.includes("not a SQLite database"), store.health.error);
  assertEquals(store.repos, null);
  assertEquals(await Deno.readFile(path), junk);
  for (const suffix of ["-wal", "-shm", "-journal"]) {
    await Deno.stat(path + suffix).then(() => assert(false, `${suffix} created`), () => {});
  }
});

Deno.test("a database with a damaged body (valid header) is refused without writing", async () => {
  const path = join(await tmp(), "damaged.db");
  const s = new Store(path);
  s.repos!.tasks.create({ id: "t1", title: "x", projectPath: null });
  s.close();
  // Checkpointed WAL: fold it into the main file, then damage the schema page.
  const db = new DatabaseSync(path);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE");
  db.close();
  const bytes = await Deno.readFile(path);
  bytes.fill(0xAB, 100, 4096); // page 1 after the 100-byte header: sqlite_master
  await Deno.writeFile(path, bytes);
  const store = new Store(path);
  assertEquals(store.health.ok, false, "damaged file must be reported");
  assertEquals(await Deno.readFile(path), bytes);
});

Deno.test("a database from a newer version is refused and left untouched", async () => {
  const path = join(await tmp(), "new.db");
  const s = new Store(path);
  s.close();
  const db = new DatabaseSync(path);
  db.prepare("INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'future', 0)")
    .run();
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  const before = await Deno.readFile(path);
  const store = new Store(path);
  assertEquals(store.health.ok, false);
  assert(store.health.error?.includes("newer"), store.health.error);
  assertEquals(await Deno.readFile(path), before);
});

Deno.test("tasks: create, list order (pinned first, then recent), rename, pin, delete cascades", async () => {
  let clock = 1000;
  const store = new Store(join(await tmp(), "t.db"), () => clock);
  const { tasks, entries } = store.repos!;
  tasks.create({ id: "a", title: "A", projectPath: null });
  clock = 2000;
  tasks.create({ id: "b", title: "B", projectPath: "/p" });
  assertEquals(tasks.list().map((t) => t.id), ["b", "a"]);
  tasks.pin("a", true);
  assertEquals(tasks.list().map((t) => t.id), ["a", "b"]);
  assertEquals(tasks.rename("b", "Bee")?.title, "Bee");
  assertEquals(tasks.rename("zzz", "x"), null);
  entries.append({
    id: "m1",
    taskId: "a",
    role: "user",
    status: "done",
    parts: [{ type: "text", text: "hi" }],
  });
  assertEquals(tasks.get("a")?.entryCount, 1);
  assert(tasks.delete("a"));
  assertEquals(entries.get("m1"), null);
  assertEquals(tasks.delete("a"), false);
  store.close();
});

Deno.test("entries: append positions, upsert replaces parts, latest pages oldest-first", async () => {
  const store = new Store(join(await tmp(), "e.db"));
  const { tasks, entries } = store.repos!;
  tasks.create({ id: "t", title: "T", projectPath: null });
  for (let i = 0; i < 10; i++) {
    entries.append({
      id: `m${i}`,
      taskId: "t",
      role: "user",
      status: "done",
      parts: [{ type: "text", text: `#${i}` }],
    });
  }
  const last3 = entries.latest("t", 3);
  assertEquals(last3.map((e) => e.pos), [8, 9, 10]);
  assertEquals(last3.map((e) => e.parts[0].text), ["#7", "#8", "#9"]);
  assertEquals(entries.latest("t", 2, 8).map((e) => e.pos), [6, 7]);
  const e = entries.get("m0")!;
  entries.upsert({
    ...e,
    status: "stopped",
    parts: [{ type: "thinking", text: "t" }, { type: "text", text: "x", data: { a: 1 } }],
  });
  const again = entries.get("m0")!;
  assertEquals(again.status, "stopped");
  assertEquals(again.parts, [{ type: "thinking", text: "t" }, {
    type: "text",
    text: "x",
    data: { a: 1 },
  }]);
  entries.upsert({ ...again, parts: [{ type: "text", text: "only" }] });
  assertEquals(entries.get("m0")!.parts, [{ type: "text", text: "only" }]);
  store.close();
});

Deno.test("entries: a failing transaction leaves nothing behind", async () => {
  const store = new Store(join(await tmp(), "x.db"));
  const { tasks, entries } = store.repos!;
  assertThrows(() =>
    entries.tx(() => {
      tasks.create({ id: "t", title: "T", projectPath: null });
      throw new Error("boom");
    })
  );
  assertEquals(tasks.get("t"), null);
  store.close();
});

Deno.test("leftover streaming entries become stopped on start", async () => {
  const path = join(await tmp(), "s.db");
  const s1 = new Store(path);
  s1.repos!.tasks.create({ id: "t", title: "T", projectPath: null });
  s1.repos!.entries.append({
    id: "m",
    taskId: "t",
    role: "assistant",
    status: "streaming",
    parts: [{ type: "text", text: "partial" }],
  });
  s1.close();
  const s2 = new Store(path);
  assertEquals(s2.repos!.entries.stopLeftovers(), ["t"]);
  const e = s2.repos!.entries.get("m")!;
  assertEquals(e.status, "stopped");
  assertEquals(e.parts[0].text, "partial");
  assert(typeof e.meta.endedAt === "number");
  s2.close();
});

Deno.test("kv round-trips JSON values", async () => {
  const store = new Store(join(await tmp(), "k.db"));
  const kv = store.repos!.kv;
  assertEquals(kv.get("ui.x"), undefined);
  kv.set("ui.x", { a: [1, "b"] });
  assertEquals(kv.get("ui.x"), { a: [1, "b"] });
  kv.set("ui.x", 2);
  assertEquals(kv.get("ui.x"), 2);
  store.close();
});

Deno.test("kv: getPrefixed returns exactly the keys starting with the prefix", async () => {
  const store = new Store(join(await tmp(), "k.db"));
  const kv = store.repos!.kv;
  assertEquals(kv.getPrefixed("settings.").size, 0);
  kv.set("settings.a", 1);
  kv.set("settings.b.c", { d: [true] });
  kv.set("settings.", "edge"); // the prefix itself is a key starting with it
  // Around the range: "settings" (shorter), "settings/" (next character), "settingsX", "ui.x".
  for (const k of ["settings", "settings/", "settings-", "settingsX", "ui.x", "Settings.a"]) {
    kv.set(k, "outside");
  }
  assertEquals(
    [...kv.getPrefixed("settings.")].sort(),
    [["settings.", "edge"], ["settings.a", 1], ["settings.b.c", { d: [true] }]],
  );
  assertThrows(() => kv.getPrefixed(""), "an empty prefix would read the whole table");
  store.close();
});

Deno.test("ids are time-sortable and match the protocol's id pattern", () => {
  let t = 1;
  const id = makeIdGenerator(() => t, () => 0.5);
  const a = id("t");
  t = 2;
  const b = id("t");
  assert(a < b);
  assert(/^[A-Za-z0-9_-]+$/.test(a));
});

Deno.test("prepared statements are reused per SQL text, see schema changes, and stay bounded", async () => {
  const { db, health } = openDatabase(join(await tmp(), "s.db"));
  assert(health.ok && db);
  db.exec("CREATE TABLE t (a INTEGER)");
  const sql = "SELECT * FROM t ORDER BY a";
  const first = db.prepare(sql);
  assert(db.prepare(sql) === first, "the same SQL text gives the statement prepared before");
  db.prepare("INSERT INTO t (a) VALUES (?)").run(1);
  db.prepare("INSERT INTO t (a) VALUES (?)").run(2);
  const plain = (v: unknown) => JSON.parse(JSON.stringify(v));
  assertEquals(plain(db.prepare(sql).all()), [{ a: 1 }, { a: 2 }]);
  // A reused statement is reset: a get() in between does not leave it mid-way.
  assertEquals(plain(db.prepare(sql).get()), { a: 1 });
  assertEquals(db.prepare(sql).all().length, 2);
  // SQLite prepares a cached statement again after a schema change.
  db.exec("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'");
  assertEquals(plain(db.prepare(sql).get()), { a: 1, b: "x" });
  // SQL built from changing parts does not grow the cache without end.
  for (let i = 0; i < 600; i++) db.prepare(`SELECT ${i} AS n`).get();
  assert(db.prepare(sql) !== first, "the oldest statements were dropped past the cap");
  db.close();
});
