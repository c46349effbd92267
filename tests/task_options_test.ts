/**
 * A task keeps the options it was made with: every option left open is bound to the
 * default of that moment (ops, imports, old rows by migration), and a later change of
 * a default reaches new tasks only.
 */
import { DatabaseSync } from "node:sqlite";
import { assert, assertEquals } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import type { PendingApproval, TaskSettings } from "../protocol/index.ts";
import { migrate } from "../store/db.ts";
import { MIGRATIONS } from "../store/migrations.ts";

async function services(turns: unknown[]) {
  const home = await Deno.makeTempDir({ prefix: "ra-bind-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  const mock = startMockLlm({ quiet: true });
  const model = `bind-${crypto.randomUUID()}`;
  mock.register(model, { turns: turns as never, repeatLast: true });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, [model]));
  const ctx = {
    ...deps,
    client: { id: "ui", topics: new Set<string>(), deliver() {} },
  } as unknown as OpContext;
  const op = async <T>(name: string, args: unknown): Promise<T> => {
    const out = await runOp(ctx, name, args);
    if (!out.ok) throw new Error(`${name}: ${out.error.message}`);
    return out.result as T;
  };
  return {
    home,
    deps,
    op,
    ref: { providerId: "mock", modelId: model },
    async close() {
      await deps.runs!.stopAll();
      deps.hub.close();
      deps.store.close();
      await mock.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

type Created = { task: { id: string; title: string; settings: TaskSettings } };

Deno.test("a task made while the default was ask still asks before a write after the default became full", async () => {
  const s = await services([
    { toolCalls: [{ name: "write_file", args: { path: "out.txt", content: "hi" } }] },
    { text: "Done." },
  ]);
  try {
    await s.op("settings.set", { defaultApproval: "ask" });
    // The user picks a model only; the approval mode stays the default's.
    const { task } = await s.op<Created>("tasks.create", { options: { model: s.ref } });
    await s.op("settings.set", { defaultApproval: "full" });

    // Either the write waits for the user, or the run ends without asking.
    const asked = new Promise<PendingApproval>((resolve) => {
      s.deps.hub.observe({
        id: "watch",
        topics: new Set(["approvals"]),
        deliver: (evs) => {
          for (const e of evs) {
            const p = (e.data as { approvals: PendingApproval[] }).approvals?.[0];
            if (p) resolve(p);
          }
        },
      });
    });
    const finished = new Promise<"finished">((resolve) =>
      s.deps.runs!.onFinish(() => resolve("finished"))
    );
    await s.op("task.send", { id: task.id, text: "write it" });
    const first = await Promise.race([asked, finished]);
    assert(first !== "finished", "the write ran without asking");
    assertEquals([first.call.name, first.kind], ["write_file", "write"]);
    assertEquals(s.deps.store.repos!.tasks.get(task.id)!.settings.approval, "ask");
    assert(s.deps.approvals!.decide(first.id, "reject"));
    await finished;
    await Deno.stat(`${s.home}/DefaultProject/out.txt`).then(
      () => assert(false, "written although rejected"),
      () => {},
    );
  } finally {
    await s.close();
  }
});

Deno.test("every open option is written into a new task; a new default reaches new tasks only", async () => {
  const s = await services([{ text: "ok" }]);
  try {
    await s.op("settings.set", {
      defaultApproval: "plan",
      defaultEffort: "high",
      sandboxLevel: "read-only",
    });
    const a = (await s.op<Created>("tasks.create", {})).task;
    // No default model was ever chosen: the task runs with the Demo, and keeps it.
    assertEquals(a.settings.model, { providerId: "demo", modelId: "demo" });
    assertEquals([a.settings.effort, a.settings.approval, a.settings.sandbox], [
      "high",
      "plan",
      "read-only",
    ]);
    await s.op("settings.setDefaultModel", s.ref);
    await s.op("settings.set", {
      defaultApproval: "full",
      defaultEffort: "low",
      sandboxLevel: "off",
    });
    const b = (await s.op<Created>("tasks.create", { options: { effort: "medium" } })).task;
    assertEquals(b.settings.model, s.ref);
    assertEquals([b.settings.effort, b.settings.approval, b.settings.sandbox], [
      "medium",
      "full",
      "off",
    ]);
    const again = s.deps.store.repos!.tasks.get(a.id)!.settings;
    assertEquals([again.model, again.effort, again.approval, again.sandbox], [
      { providerId: "demo", modelId: "demo" },
      "high",
      "plan",
      "read-only",
    ]);
    // Back to "the default" is the default of now, bound again.
    const reset = await s.op<Created>("task.setOptions", { id: a.id, approval: null });
    assertEquals(reset.task.settings.approval, "full");
    await s.op("settings.set", { defaultApproval: "ask" });
    assertEquals(s.deps.store.repos!.tasks.get(a.id)!.settings.approval, "full");
  } finally {
    await s.close();
  }
});

Deno.test("migration 12 binds the open options of existing tasks to the defaults of then", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(
    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  for (const m of MIGRATIONS.filter((m) => m.version < 12)) {
    db.exec(m.sql);
    db.prepare("INSERT INTO schema_version VALUES (?, ?, 0)").run(m.version, m.name);
  }
  const kv = db.prepare("INSERT INTO kv (key, value, updated_at) VALUES (?, ?, 0)");
  kv.run("settings.defaultApproval", JSON.stringify("ask"));
  kv.run("settings.defaultEffort", JSON.stringify("not-a-level")); // getSettings ignores it
  kv.run("settings.defaultModel", JSON.stringify({ providerId: "p", modelId: "m" }));
  const task = db.prepare(
    "INSERT INTO task (id, title, settings, created_at, updated_at) VALUES (?, ?, ?, 0, 0)",
  );
  task.run("open", "open", JSON.stringify({ model: null, effort: null, approval: null }));
  task.run("bare", "bare", "{}");
  task.run(
    "chosen",
    "chosen",
    JSON.stringify({
      model: { providerId: "q", modelId: "n" },
      effort: "max",
      approval: "plan",
      goal: { text: "g", paused: false, setAt: 1 },
    }),
  );
  assertEquals(migrate(db), MIGRATIONS.at(-1)!.version);
  const settings = (id: string) =>
    JSON.parse(
      (db.prepare("SELECT settings FROM task WHERE id = ?").get(id) as { settings: string })
        .settings,
    );
  const bound = {
    model: { providerId: "p", modelId: "m" },
    effort: "default",
    approval: "ask",
    sandbox: "workspace-write",
  };
  assertEquals(settings("open"), bound);
  assertEquals(settings("bare"), bound);
  assertEquals(settings("chosen"), {
    model: { providerId: "q", modelId: "n" },
    effort: "max",
    approval: "plan",
    goal: { text: "g", paused: false, setAt: 1 },
    sandbox: "workspace-write",
  });
  db.close();
});

Deno.test("migration 12 without any stored default: the built-in ones (the Demo, edit)", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(
    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
  );
  for (const m of MIGRATIONS.filter((m) => m.version < 12)) {
    db.exec(m.sql);
    db.prepare("INSERT INTO schema_version VALUES (?, ?, 0)").run(m.version, m.name);
  }
  db.prepare(
    "INSERT INTO task (id, title, settings, created_at, updated_at) VALUES ('t', 't', '{}', 0, 0)",
  ).run();
  migrate(db);
  const row = db.prepare("SELECT settings FROM task").get() as { settings: string };
  assertEquals(JSON.parse(row.settings), {
    model: { providerId: "demo", modelId: "demo" },
    effort: "default",
    approval: "edit",
    sandbox: "workspace-write",
  });
  db.close();
});

Deno.test("a task's own sandbox level: set per task (lowering is announced), read by the gate", async () => {
  const s = await services([
    { toolCalls: [{ name: "exec_command", args: { command: "echo hi" } }] },
    { text: "Done." },
  ]);
  try {
    const { task } = await s.op<Created>("tasks.create", {
      options: { model: s.ref, approval: "full" },
    });
    assertEquals(task.settings.sandbox, "workspace-write");
    const off = await s.op<Created>("task.setOptions", { id: task.id, sandbox: "off" });
    assertEquals(off.task.settings.sandbox, "off");
    const notice = s.deps.safety.recent().at(-1)!;
    assertEquals(notice.changes, [{
      what: "taskSandbox",
      taskId: task.id,
      taskTitle: task.title,
      from: "workspace-write",
      to: "off",
    }]);
    // The system setting still sandboxes; this task's commands would not be: it asks once.
    const asked = new Promise<PendingApproval>((resolve) => {
      s.deps.hub.observe({
        id: "watch",
        topics: new Set(["approvals"]),
        deliver: (evs) => {
          for (const e of evs) {
            const p = (e.data as { approvals: PendingApproval[] }).approvals?.[0];
            if (p) resolve(p);
          }
        },
      });
    });
    await s.op("task.send", { id: task.id, text: "run it" });
    const p = await asked;
    assertEquals([p.kind, p.unsandboxed], ["unsandboxed", "off"]);
    const finished = new Promise((resolve) => s.deps.runs!.onFinish(resolve));
    assert(s.deps.approvals!.decide(p.id, "reject"));
    await finished;
    // null = the system setting of now, bound again.
    const back = await s.op<Created>("task.setOptions", { id: task.id, sandbox: null });
    assertEquals(back.task.settings.sandbox, "workspace-write");
  } finally {
    await s.close();
  }
});

Deno.test("a task in a folder too wide for an agent asks before changes, unless told otherwise", async () => {
  const s = await services([{ text: "ok" }]);
  try {
    await s.op("settings.set", { defaultApproval: "full" });
    const wide = await s.op<Created>("tasks.create", {
      projectPath: "/",
      options: { model: s.ref },
    });
    assertEquals(wide.task.settings.approval, "ask", "the root: asks whatever the default");
    const chosen = await s.op<Created>("tasks.create", {
      projectPath: "/",
      options: { model: s.ref, approval: "full" },
    });
    assertEquals(chosen.task.settings.approval, "full", "the user's own choice for this task");
    const plain = await s.op<Created>("tasks.create", { options: { model: s.ref } });
    assertEquals(plain.task.settings.approval, "full", "elsewhere the default");
  } finally {
    await s.close();
  }
});
