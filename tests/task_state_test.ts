/**
 * The server's record of a task's state: how the last run ended (persisted, published,
 * reset to "interrupted" after a restart, backfilled by migration 7 for older data),
 * the steering queue's count in the summary, and `reinagent tasks` printing the same
 * words as the UI.
 */
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import { type EvtMsg, type TasksEvent, taskState, type TaskSummary } from "../protocol/index.ts";
import { migrate } from "../store/db.ts";
import { MIGRATIONS } from "../store/migrations.ts";
import { Store } from "../store/store.ts";
import { taskLines, taskTable } from "../server/cli/tasks_cmd.ts";

const until = async (cond: () => boolean, what: string, ms = 8000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** The latest published summary of a task. */
const published = (events: EvtMsg[], id: string): TaskSummary | undefined =>
  events.filter((e) => e.topic === "tasks").map((e) => e.data as TasksEvent)
    .flatMap((d) => d.kind === "upsert" && d.task.id === id ? [d.task] : []).at(-1);

Deno.test("a stopped run with a queued message: the summary says so, live and after a restart", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-state-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  const mock = startMockLlm({ quiet: true });
  mock.register("slow", { turns: [{ text: "word ".repeat(300), chunk: 5, delayMs: 15 }] });
  let deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["slow"]));
  const events: EvtMsg[] = [];
  const client: HubClient = {
    id: "c",
    topics: new Set(["tasks"]),
    deliver: (e) => void events.push(...e),
  };
  deps.hub.add(client);
  // deno-lint-ignore no-explicit-any
  const op = async (name: string, args: unknown): Promise<any> => {
    const r = await runOp({ ...deps, client }, name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.result;
  };
  try {
    const { task } = await op("tasks.create", {
      title: "stopper",
      message: "go",
      options: { model: { providerId: "mock", modelId: "slow" } },
    });
    await until(() => deps.runs!.isRunning(task.id), "run start");
    const sent = await op("task.send", { id: task.id, text: "and then this" });
    assert(sent.queued, "queued while running");
    deps.hub.flush();
    assertEquals(published(events, task.id)?.queued, 1, "the queue's count is published");
    assertEquals(taskState(published(events, task.id)!), "running");
    await op("task.stop", { id: task.id });
    deps.hub.flush();
    const after = published(events, task.id)!;
    assertEquals([after.status, after.lastRun, after.queued], ["idle", "stopped", 1]);
    // Before: "idle" with entries → the phone said "Done".
    assertEquals(taskState(after), "queued");
    // Removing the queued message leaves the stop.
    const { queue } = await op("queue.list", { id: task.id });
    await op("queue.remove", { id: task.id, itemId: queue[0].id });
    deps.hub.flush();
    assertEquals(taskState(published(events, task.id)!), "stopped");

    // A run that was going when the process died is "interrupted" at the next start.
    deps.store.repos!.tasks.setStatus(task.id, "running");
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    deps = createServices({ home, flushMs: 5 });
    const t = deps.store.repos!.tasks.get(task.id)!;
    assertEquals([t.status, t.lastRun, taskState(t)], ["idle", "interrupted", "interrupted"]);
  } finally {
    await deps.runs?.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("migration 7 backfills how each task's last run ended from its timeline", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(
    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  for (const m of MIGRATIONS.filter((m) => m.version < 7)) {
    db.exec(m.sql);
    db.prepare("INSERT INTO schema_version VALUES (?, ?, 0)").run(m.version, m.name);
  }
  const task = db.prepare(
    "INSERT INTO task (id, title, status, created_at, updated_at) VALUES (?, ?, ?, 0, 0)",
  );
  let pos = 0;
  const msg = db.prepare(
    "INSERT INTO message (id, task_id, pos, role, status, meta, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
  );
  const add = (t: string, role: string, status = "done", meta = "{}") =>
    msg.run(`m${++pos}`, t, pos, role, status, meta);
  task.run("done", "done", "idle");
  add("done", "user");
  add("done", "assistant");
  task.run("stopped", "stopped", "idle");
  add("stopped", "user");
  add("stopped", "assistant", "stopped");
  task.run("failed", "failed", "error");
  add("failed", "user");
  add("failed", "error", "error");
  task.run("capped", "capped", "idle");
  add("capped", "user");
  add("capped", "assistant", "done", '{"truncatedBy":"maxSteps"}');
  task.run("cut", "cut", "idle");
  add("cut", "user");
  add("cut", "assistant");
  add("cut", "tool");
  task.run("unanswered", "unanswered", "idle");
  add("unanswered", "user");
  add("unanswered", "assistant");
  add("unanswered", "user");
  task.run("fresh", "fresh", "idle");
  assertEquals(migrate(db), MIGRATIONS.at(-1)!.version);
  const rows = db.prepare("SELECT id, status, last_run FROM task ORDER BY id").all() as {
    id: string;
    status: string;
    last_run: string | null;
  }[];
  assertEquals(Object.fromEntries(rows.map((r) => [r.id, [r.status, r.last_run]])), {
    capped: ["idle", "maxSteps"],
    cut: ["idle", "interrupted"],
    done: ["idle", "done"],
    failed: ["idle", "failed"],
    fresh: ["idle", null],
    stopped: ["idle", "stopped"],
    unanswered: ["idle", "interrupted"],
  });
  db.close();
});

Deno.test("reinagent tasks: the same words as the sidebar and the phone home", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-state-cli-" });
  const store = new Store(`${home}/reinagent.db`);
  const r = store.repos!;
  r.tasks.create({ id: "t1", title: "Fix the login bug", projectPath: null });
  r.tasks.finishRun("t1", "stopped");
  r.tasks.create({ id: "t2", title: "Write the notes", projectPath: null });
  r.tasks.finishRun("t2", "done");
  r.kv.set("queue.t2", [{ id: "q1", text: "then this", attachments: [], createdAt: 0 }]);
  r.tasks.create({ id: "t3", title: "Never ran", projectPath: null });
  store.close();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...RUN_FLAGS, `${ROOT}main.ts`, "tasks", "--home", home, "--json"],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const dec = new TextDecoder();
    assertEquals(out.code, 0, dec.decode(out.stderr));
    const lines = JSON.parse(dec.decode(out.stdout));
    const by = Object.fromEntries(
      lines.map((l: { id: string; state: string; word: string }) => [l.id, [l.state, l.word]]),
    );
    assertEquals(by, {
      t1: ["stopped", "Stopped"],
      t2: ["queued", "Message queued"],
      t3: ["new", ""],
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
  // The plain table: one line per task, the word first.
  const t = (id: string, extra: Partial<TaskSummary>) =>
    ({
      id,
      title: id,
      projectPath: null,
      pinned: false,
      status: "idle",
      lastRun: null,
      queued: 0,
      unread: false,
      createdAt: 0,
      updatedAt: 0,
      entryCount: 1,
      settings: { model: null, effort: null, approval: null },
      ...extra,
    }) as TaskSummary;
  const table = taskTable(
    taskLines(
      [t("a", { status: "running" }), t("b", { lastRun: "failed" }), t("c", {})],
      new Set(),
    ),
  );
  assertEquals(table.length, 4);
  assertMatch(table[0], /^STATE\s+TITLE\s+WORKSPACE\s+UPDATED\s+ID$/);
  assertMatch(table[1], /^Running\s+a\s/);
  assertMatch(table[2], /^Failed\s+b\s/);
  assertMatch(table[3], /^—\s+c\s/);
});
