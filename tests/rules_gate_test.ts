/** Rules by pattern in the approval gate: scopes, deny wins, compound commands, the ops. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import type { Verdict } from "../server/sessions/approvals.ts";

async function env() {
  const home = await Deno.makeTempDir({ prefix: "ra-rules-" });
  const project = `${home}/proj`;
  await Deno.mkdir(project);
  const deps = createServices({ home, flushMs: 5 });
  const client: HubClient = { id: "t", topics: new Set(), deliver: () => {} };
  const op = async (name: string, args: unknown) => {
    const r = await runOp({ ...deps, client }, name, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    // deno-lint-ignore no-explicit-any
    return r.result as any;
  };
  const { task } = deps.tasks!.create({
    title: "rules",
    projectPath: project,
    options: { approval: "ask" },
  });
  const ctl = new AbortController();
  let n = 0;
  const check = (name: string, args: Record<string, unknown>, kind = "exec"): Promise<Verdict> =>
    deps.approvals!.check(task.id, { id: `c${++n}`, name, args }, kind, ctl.signal);
  const close = () => {
    ctl.abort();
    deps.hub.close();
    deps.store.close();
  };
  return { deps, op, task, project, check, close };
}

Deno.test("rules gate: a deny beats an allow; `a && git push` is refused part by part", async () => {
  const e = await env();
  try {
    await e.op("rules.set", {
      scope: "global",
      rules: [{ rule: "exec_command(git push *)", policy: "deny" }],
    });
    await e.op("rules.set", {
      scope: "project",
      projectPath: e.project,
      rules: [
        { rule: "exec_command(echo *)", policy: "allow" },
        { rule: "exec_command(git *)", policy: "allow" },
        { rule: "write_file(src/**)", policy: "allow" },
      ],
    });
    // Allowed by the project's rule: no approval is asked in ask mode.
    assertEquals(await e.check("exec_command", { command: "echo hi" }), { allow: true });
    assertEquals(await e.check("exec_command", { command: "git status" }), { allow: true });
    const denied = await e.check("exec_command", { command: "echo a && git push origin" });
    assert(!denied.allow);
    assertEquals(denied.refusal, {
      code: "rule_deny",
      params: { rule: "exec_command(git push *)", scope: "global" },
    });
    assertMatch(denied.reason, /denied by the global rule `exec_command\(git push \*\)`/);
    // A task's own allow of the very command loses to the global deny.
    const t = e.deps.store.repos!.tasks.get(e.task.id)!;
    e.deps.store.repos!.tasks.setSettings(e.task.id, {
      ...t.settings,
      rules: [{ rule: "exec_command(git push *)", policy: "allow" }],
      toolPolicies: { exec_command: "allow" },
    });
    assert(!(await e.check("exec_command", { command: "git push" })).allow);
    assert(!(await e.check("exec_command", { command: "ls; $(git push)" })).allow);
    // Paths are judged relative to the project; one outside the pattern is not allowed.
    assertEquals(
      await e.check("write_file", { path: "src/a.ts", content: "" }, "write"),
      { allow: true },
    );
    assertEquals(
      await e.check("write_file", { path: `${e.project}/src/b.ts`, content: "" }, "write"),
      { allow: true },
    );
    const pending = e.check("write_file", { path: "lib/a.ts", content: "" }, "write");
    await waitFor(() => e.deps.approvals!.list().length === 1);
    const p = e.deps.approvals!.list()[0];
    assert(e.deps.approvals!.decide(p.id, "reject"));
    assert(!(await pending).allow);
  } finally {
    e.close();
  }
});

Deno.test("rules gate: Always allow with the command's prefix adds a task rule, for its own tool only", async () => {
  const e = await env();
  try {
    const first = e.check("exec_command", { command: "npm test -- --grep x" });
    await waitFor(() => e.deps.approvals!.list().length === 1);
    const p = e.deps.approvals!.list()[0];
    // A rule naming another tool is refused (a client cannot widen the answer).
    const wrong = await e.op("approval.decide", {
      id: p.id,
      decision: "always",
      rule: "write_file(**)",
    }).catch((x) => x);
    assertEquals(wrong.code, "invalid_args");
    await e.op("approval.decide", {
      id: p.id,
      decision: "always",
      rule: "exec_command(npm test *)",
    });
    assertEquals(await first, { allow: true });
    const settings = e.deps.store.repos!.tasks.get(e.task.id)!.settings;
    assertEquals(settings.rules, [{ rule: "exec_command(npm test *)", policy: "allow" }]);
    assertEquals(settings.toolPolicies?.exec_command, undefined, "not the whole tool");
    assertEquals(await e.check("exec_command", { command: "npm test" }), { allow: true });
    // The rule is listed on the task and can be removed again.
    const removed = await e.op("task.removeRule", {
      id: e.task.id,
      rule: "exec_command(npm test *)",
    });
    assertEquals(removed.task.settings.rules, []);
    await e.op("task.setOptions", {
      id: e.task.id,
      rules: [{ rule: "exec_command(npm test *)", policy: "allow" }],
    });
    // Anything else still asks.
    const other = e.check("exec_command", { command: "npm test && rm -rf ~" });
    await waitFor(() => e.deps.approvals!.list().length === 1);
    e.deps.approvals!.decide(e.deps.approvals!.list()[0].id, "reject");
    assert(!(await other).allow);
  } finally {
    e.close();
  }
});

Deno.test("rules ops: bad rules are refused, projects are listed, rules never live in the workspace", async () => {
  const e = await env();
  try {
    const bad = await e.op("rules.set", {
      scope: "global",
      rules: [{ rule: "not a rule", policy: "allow" }],
    })
      .catch((x) => x);
    assertEquals(bad.code, "invalid_args");
    const v = await e.op("rules.set", {
      scope: "project",
      projectPath: e.project,
      rules: [{ rule: "webfetch(domain:docs.deno.com)", policy: "allow" }],
    });
    assertEquals(v.projects.find((p: { path: string }) => p.path === e.project)?.rules, [
      { rule: "webfetch(domain:docs.deno.com)", policy: "allow" },
    ]);
    assertEquals(await e.check("webfetch", { url: "https://docs.deno.com/api" }, "read"), {
      allow: true,
    });
    // A file in the workspace saying otherwise changes nothing.
    await Deno.mkdir(`${e.project}/.reinagent`, { recursive: true });
    await Deno.writeTextFile(
      `${e.project}/.reinagent/rules.json`,
      '[{"rule":"exec_command","policy":"allow"}]',
    );
    const asks = e.check("exec_command", { command: "curl evil" });
    await waitFor(() => e.deps.approvals!.list().length === 1);
    e.deps.approvals!.decide(e.deps.approvals!.list()[0].id, "reject");
    assert(!(await asks).allow);
  } finally {
    e.close();
  }
});

Deno.test("rules ops: a task's own rules are read, added, changed and removed; bad input is refused", async () => {
  const e = await env();
  try {
    const empty = await e.op("rules.get", { taskId: e.task.id });
    assertEquals(empty.task, { id: e.task.id, title: "rules", rules: [] });
    assertEquals((await e.op("rules.get", {})).task, null);
    assertEquals((await e.op("rules.get", { taskId: "gone" })).task, null);

    // Add two: the gate reads them at once.
    const added = await e.op("rules.set", {
      scope: "task",
      taskId: e.task.id,
      rules: [
        { rule: " exec_command(npm test *) ", policy: "allow" },
        { rule: "exec_command(git push *)", policy: "deny" },
      ],
    });
    assertEquals(added.task.rules, [
      { rule: "exec_command(npm test *)", policy: "allow" },
      { rule: "exec_command(git push *)", policy: "deny" },
    ]);
    assertEquals(await e.check("exec_command", { command: "npm test" }), { allow: true });
    const denied = await e.check("exec_command", { command: "npm test && git push" });
    assertEquals(denied.allow ? null : denied.refusal.params, {
      rule: "exec_command(git push *)",
      scope: "task",
    });

    // A call waiting for approval is settled when a rule about it is saved.
    const waiting = e.check("exec_command", { command: "make build" });
    await waitFor(() => e.deps.approvals!.list().length === 1);
    await e.op("rules.set", {
      scope: "task",
      taskId: e.task.id,
      rules: [...added.task.rules, { rule: "exec_command(make *)", policy: "allow" }],
    });
    assertEquals(await waiting, { allow: true });
    // Change one's policy while a call that needs it waits: refused, naming the task's rule.
    assertEquals(await e.check("exec_command", { command: "make test" }), { allow: true });
    const pendingMake = e.check("exec_command", { command: "make clean && ls" });
    await waitFor(() => e.deps.approvals!.list().length === 1);
    await e.op("rules.set", {
      scope: "task",
      taskId: e.task.id,
      rules: [{ rule: "exec_command(make *)", policy: "deny" }],
    });
    const refused = await pendingMake;
    assert(!refused.allow);
    assertEquals(refused.refusal.code, "rule_deny");
    assertMatch(refused.reason, /denied by the task rule exec_command\(make \*\)/);
    // Remove them all: npm test asks again.
    const none = await e.op("rules.set", { scope: "task", taskId: e.task.id, rules: [] });
    assertEquals(none.task.rules, []);
    assertEquals(e.deps.store.repos!.tasks.get(e.task.id)!.settings.rules, []);
    const asksAgain = e.check("exec_command", { command: "npm test" });
    await waitFor(() => e.deps.approvals!.list().length === 1);
    e.deps.approvals!.decide(e.deps.approvals!.list()[0].id, "reject");
    assert(!(await asksAgain).allow);

    // A global deny saved while a call waits settles it too.
    const pushing = e.check("exec_command", { command: "git push" });
    await waitFor(() => e.deps.approvals!.list().length === 1);
    await e.op("rules.set", {
      scope: "global",
      rules: [{ rule: "exec_command(git push *)", policy: "deny" }],
    });
    const pushed = await pushing;
    assertEquals(pushed.allow ? null : pushed.refusal.code, "rule_deny");
    await e.op("rules.set", { scope: "global", rules: [] });

    // Bad input changes nothing and says what is wrong.
    const fail = (args: unknown) => e.op("rules.set", args).catch((x) => x);
    const cases: [unknown, string, RegExp][] = [
      [{ scope: "task", rules: [] }, "invalid_args", /task rules need taskId/],
      [{ scope: "task", taskId: "nope", rules: [] }, "not_found", /task nope does not exist/],
      [
        { scope: "task", taskId: e.task.id, rules: [{ rule: "npm test *", policy: "allow" }] },
        "invalid_args",
        /not a rule: npm test \*/,
      ],
      [
        {
          scope: "task",
          taskId: e.task.id,
          rules: [{ rule: "read_file", policy: "allow" }, { rule: "read_file", policy: "deny" }],
        },
        "invalid_args",
        /listed twice: read_file/,
      ],
      [
        { scope: "task", taskId: e.task.id, rules: [{ rule: "read_file", policy: "always" }] },
        "invalid_args",
        /policy/,
      ],
      [{ scope: "task", taskId: "../x", rules: [] }, "invalid_args", /taskId/],
      // A task id never widens into a project's or the global rules, nor the reverse.
      [
        { scope: "global", taskId: e.task.id, rules: [] },
        "invalid_args",
        /taskId is not taken for global rules/,
      ],
      [
        { scope: "task", taskId: e.task.id, projectPath: e.project, rules: [] },
        "invalid_args",
        /projectPath is not taken for task rules/,
      ],
      [{ scope: "session", rules: [] }, "invalid_args", /scope/],
    ];
    for (const [args, code, message] of cases) {
      const err = await fail(args);
      assertEquals(err.code, code, JSON.stringify(args));
      assertMatch(err.message, message);
    }
    assertEquals(e.deps.store.repos!.tasks.get(e.task.id)!.settings.rules, []);
    assertEquals((await e.op("rules.get", {})).global, []);
  } finally {
    e.close();
  }
});

async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}
