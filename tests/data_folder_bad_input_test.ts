/**
 * A data folder that cannot take a write — a full disk, a database locked by another
 * program, a read-only file system — gives a clear message and changes nothing.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { opHarness } from "./helpers/op_context.ts";
import { reinagent } from "./helpers/cli.ts";
import { DatabaseSync } from "node:sqlite";
import { createServices } from "../server/services.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";

/** The store's own connection (the settings below are per connection). */
const connectionOf = (store: unknown) => (store as { db: DatabaseSync }).db;

Deno.test("a full disk: the op says so, nothing saved, nothing lost", async () => {
  const h = await opHarness();
  try {
    await h.op("kv.set", { key: "ui.kept", value: "before" });
    const db = connectionOf(h.store);
    const { page_count } = db.prepare("PRAGMA page_count").get() as { page_count: number };
    // SQLite's own limit makes it fail exactly as a full disk does (SQLITE_FULL).
    db.exec(`PRAGMA max_page_count = ${page_count}`);
    const err = await h.fail("kv.set", { key: "ui.big", value: "x".repeat(30_000) });
    assertEquals(err.code, "store_unavailable");
    assertMatch(err.message, /disk holding the data folder is full: nothing was saved/);
    assertEquals((await h.op("kv.get", { key: "ui.kept" })).value, "before");
    assertEquals((await h.op("kv.get", { key: "ui.big" })).value, null);
  } finally {
    await h.close();
  }
});

Deno.test("a database locked by another program: the op says so and can be retried", async () => {
  const h = await opHarness();
  const other = new DatabaseSync(`${h.home}/reinagent.db`);
  try {
    connectionOf(h.store).exec("PRAGMA busy_timeout = 50");
    other.exec("BEGIN EXCLUSIVE");
    const err = await h.fail("kv.set", { key: "ui.a", value: 1 });
    assertEquals(err.code, "store_unavailable");
    assertMatch(err.message, /locked by another program: nothing was saved/);
    other.exec("ROLLBACK");
    await h.op("kv.set", { key: "ui.a", value: 1 });
    assertEquals((await h.op("kv.get", { key: "ui.a" })).value, 1);
  } finally {
    other.close();
    await h.close();
  }
});

const bwrap = new Deno.Command("bwrap", { args: ["--version"], stdout: "null", stderr: "null" })
  .output().then((o) => o.success, () => false);

Deno.test({
  name: "a data dir on a read-only file system: each command says so and exits 1",
  ignore: Deno.build.os !== "linux",
}, async (t) => {
  if (!(await bwrap)) {
    console.warn("bubblewrap is missing: the read-only mount cannot be made here");
    return;
  }
  const home = await Deno.makeTempDir({ prefix: "ra-ro-" });
  const made = await reinagent(["providers", "list", "--home", home]);
  assertEquals(made.code, 0, made.stderr);
  const before = await Deno.readFile(`${home}/reinagent.db`);
  for (const args of [["serve", "--port", "0"], ["providers", "list"], ["doctor"]]) {
    await t.step(args[0], async () => {
      // The same program in a mount namespace where the data dir is read-only.
      const out = await new Deno.Command("bwrap", {
        args: [
          ...["--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--ro-bind", home, home],
          Deno.execPath(),
          ...["run", "-A", "--config", new URL("../deno.json", import.meta.url).pathname],
          new URL("../main.ts", import.meta.url).pathname,
          ...args,
          "--home",
          home,
        ],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 1, text);
      assert(/read-only file system/.test(text), text);
      assert(!/allow-all|os error/.test(text), `a plain message: ${text}`);
    });
  }
  assertEquals(await Deno.readFile(`${home}/reinagent.db`), before, "left as it was");
  await Deno.remove(home, { recursive: true });
});

Deno.test("the disk filling up while an answer streams ends the run, not the server", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-full-run-" });
  const mock = startMockLlm({ quiet: true });
  const words = Array.from({ length: 4000 }, (_, i) => `word${i}`).join(" ");
  mock.register("long", { turns: [{ text: words, chunk: 40, delayMs: 2 }] });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["long"]));
  const db = connectionOf(deps.store);
  try {
    const { task } = deps.tasks!.create({
      title: "full",
      message: "go",
      options: { model: { providerId: "mock", modelId: "long" }, approval: "full" },
    });
    const run = deps.runs!.start(task.id).catch((e) => e);
    // Once the answer is under way, the disk is full.
    while (!mock.requests("long").length) await new Promise((r) => setTimeout(r, 5));
    const { page_count } = db.prepare("PRAGMA page_count").get() as { page_count: number };
    db.exec(`PRAGMA max_page_count = ${page_count}`);
    await run; // ends (with an error) instead of an uncaught exception in a timer
    db.exec("PRAGMA max_page_count = 1073741823");
    assertEquals(deps.tasks!.get(task.id).status, "idle", "the task is not left running");
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});
