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

async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}
