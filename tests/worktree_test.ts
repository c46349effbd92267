/**
 * Tasks in worktrees of their own, with real git and the real command sandbox: two tasks
 * edit the same file at once, the first merges, the second's conflict is reported (nothing
 * half applied), handed back to its agent, resolved, and merged; a command in a worktree
 * cannot write the main working tree nor the repository's config.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import { stopAllJobs } from "../tools/exec/background.ts";
import { sandboxStatus } from "../tools/exec/bwrap.ts";
import { reinagent } from "./helpers/cli.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { NOTIFY_TOPIC } from "../protocol/index.ts";
import { startTestServer } from "./helpers/server.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "./helpers/mcp_sdk.ts";

async function sh(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${text}`);
  return text;
}

/** A repository on `main` with one committed file. */
async function repository(): Promise<string> {
  const repo = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-wt-repo-" }));
  await sh(repo, "init", "-q", "-b", "main");
  await Deno.writeTextFile(`${repo}/shared.txt`, "base\n");
  await sh(repo, "add", "-A");
  await sh(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base");
  return repo;
}

const COMMIT = "git -c user.name=agent -c user.email=agent@localhost commit -qm";

async function setup() {
  const home = await Deno.makeTempDir({ prefix: "ra-wt-home-" });
  const repo = await repository();
  const mock = startMockLlm({ quiet: true });
  const write = (text: string) => ({
    toolCalls: [{ name: "write_file", args: { path: "shared.txt", content: text } }],
  });
  mock.register("wt-a", { turns: [write("from A\n"), { text: "A done" }] });
  mock.register("wt-b", {
    turns: [
      write("from B\n"),
      { text: "B done" },
      {
        toolCalls: [{
          name: "exec_command",
          args: {
            command:
              `git merge -q main; printf 'A and B\\n' > shared.txt && git add shared.txt && ${COMMIT} resolved`,
          },
        }],
      },
      { text: "resolved" },
    ],
  });
  mock.register("wt-evil", {
    turns: [{
      toolCalls: [{
        name: "exec_command",
        args: {
          command: `echo owned > ${repo}/evil.txt; git config core.hooksPath /tmp/x; ` +
            `echo "config=$?"`,
        },
      }],
    }, { text: "tried" }],
  });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["wt-a", "wt-b", "wt-evil"]));
  const client: HubClient = { id: "t", topics: new Set(), deliver: () => {} };
  const op = async (name: string, args: unknown) => {
    const r = await runOp({ ...deps, client }, name, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    // deno-lint-ignore no-explicit-any
    return r.result as any;
  };
  const idle = async (id: string) => {
    while (deps.runs!.isRunning(id)) await new Promise((r) => setTimeout(r, 10));
  };
  const close = async () => {
    await deps.runs!.stopAll();
    await stopAllJobs();
    deps.hub.close();
    deps.store.close();
    await mock.close();
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  };
  return { home, repo, deps, op, idle, close, mock };
}

/** A task in a worktree of its own in the repository, on mock model `modelId`, in full mode. */
function isolated(
  s: Awaited<ReturnType<typeof setup>>,
  modelId: string,
  message: string,
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  return s.op("tasks.create", {
    projectPath: s.repo,
    message,
    worktree: {},
    options: { model: model(modelId), approval: "full" },
  });
}

const model = (modelId: string) => ({ providerId: "mock", modelId });
const DAILY = { unit: "daily", interval: 1, hour: 9, minute: 0, weekdays: [], monthDays: [] };

Deno.test("two isolated tasks edit one file at once; both merge, the second after its agent resolved the conflict", async () => {
  const s = await setup();
  try {
    const a = await isolated(s, "wt-a", "change shared.txt");
    const b = await isolated(s, "wt-b", "change shared.txt too");
    const wa = a.task.settings.worktree, wb = b.task.settings.worktree;
    assertMatch(wa.branch, /^reinagent\/change-shared-txt/);
    assert(wa.branch !== wb.branch, "a branch each");
    assertEquals(a.task.projectPath, wa.path, "the task works in its worktree");
    await Promise.all([s.idle(a.task.id), s.idle(b.task.id)]);
    assertEquals(await Deno.readTextFile(`${wa.path}/shared.txt`), "from A\n");
    assertEquals(await Deno.readTextFile(`${wb.path}/shared.txt`), "from B\n");
    assertEquals(await Deno.readTextFile(`${s.repo}/shared.txt`), "base\n", "main tree untouched");

    const review = await s.op("worktree.review", { id: a.task.id });
    assertEquals(review.files, [{ status: "M", path: "shared.txt" }]);
    assertMatch(review.diff, /-base\n\+from A/);

    const first = await s.op("worktree.merge", { id: a.task.id });
    assertEquals([first.merged, first.how], [true, "fast-forward"]);
    assertEquals(await Deno.readTextFile(`${s.repo}/shared.txt`), "from A\n");

    const second = await s.op("worktree.merge", { id: b.task.id });
    assertEquals(second, { merged: false, conflicts: ["shared.txt"] });
    assertEquals(await Deno.readTextFile(`${s.repo}/shared.txt`), "from A\n", "nothing applied");
    assertEquals((await sh(s.repo, "status", "--porcelain")).trim(), "", "no merge in progress");

    // Handed back to B's agent: it merges main into its branch and resolves.
    await s.op("task.send", { id: b.task.id, text: "Merge main into your branch and resolve." });
    await s.idle(b.task.id);
    const tool = s.deps.store.repos!.entries.latest(b.task.id, 50)
      .filter((e) => e.role === "tool").at(-1)!;
    assertEquals(tool.parts[0].data?.isError, false, tool.parts[0].text);
    const again = await s.op("worktree.merge", { id: b.task.id });
    assert(again.merged, JSON.stringify(again));
    assertEquals(await Deno.readTextFile(`${s.repo}/shared.txt`), "A and B\n");

    // Finishing: A's branch kept (no remote), B's worktree and branch discarded.
    assertEquals(
      await s.op("worktree.finish", { id: a.task.id, action: "keep" }),
      { action: "keep", pushed: "no remote: the branch stays local" },
    );
    assertEquals(await Deno.stat(wa.path).then(() => true, () => false), false);
    assertMatch(await sh(s.repo, "branch", "--list", wa.branch), /reinagent/);
    await s.op("worktree.finish", { id: b.task.id, action: "discard" });
    assertEquals((await sh(s.repo, "branch", "--list", wb.branch)).trim(), "");
  } finally {
    await s.close();
  }
});

Deno.test("isolated tasks: bad input is a clear error and leaves nothing behind", async () => {
  const s = await setup();
  const plain = await Deno.makeTempDir({ prefix: "ra-wt-plain-" });
  try {
    const notGit = await runOp(
      { ...s.deps, client: { id: "t", topics: new Set(), deliver: () => {} } },
      "tasks.create",
      { projectPath: plain, message: "x", worktree: {} },
    );
    assert(!notGit.ok);
    assertMatch(notGit.error.message, /is not a git repository/);
    const noBranch = await s.op("tasks.create", {
      projectPath: s.repo,
      message: "x",
      worktree: { base: "no-such-branch" },
    }).catch((e) => e);
    assertEquals(noBranch.code, "not_found");
    await sh(s.repo, "checkout", "-q", "--detach");
    const detached = await s.op("tasks.create", { projectPath: s.repo, message: "x", worktree: {} })
      .catch((e) => e);
    assertMatch(detached.message, /detached HEAD: name the branch/);
    assertEquals(s.deps.tasks!.list().length, 0, "no task was made");
    assertEquals((await sh(s.repo, "worktree", "list")).trim().split("\n").length, 1);
  } finally {
    await Deno.remove(plain, { recursive: true });
    await s.close();
  }
});

Deno.test({
  name: "a command in a worktree cannot write the main working tree nor the repository's config",
  ignore: Deno.build.os !== "linux",
}, async () => {
  if (!(await sandboxStatus()).available) {
    console.warn("bubblewrap cannot run here: the sandbox half of this test is skipped");
    return;
  }
  const s = await setup();
  try {
    const t = await isolated(s, "wt-evil", "try");
    await s.idle(t.task.id);
    const tool = s.deps.store.repos!.entries.latest(t.task.id, 50).find((e) => e.role === "tool")!;
    assertMatch(tool.parts[0].text ?? "", /config=[1-9]/);
    assertEquals(await Deno.stat(`${s.repo}/evil.txt`).then(() => true, () => false), false);
    assertEquals(
      (await new Deno.Command("git", { args: ["config", "core.hooksPath"], cwd: s.repo }).output())
        .code,
      1,
      "the repository's config is unchanged",
    );
  } finally {
    await s.close();
  }
});

Deno.test("reinagent run --worktree: the task writes in its own worktree, not the project", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-wt-cli-" });
  const repo = await repository();
  try {
    const r = await reinagent([
      "run",
      "write a note file",
      "--worktree",
      "--project",
      repo,
      "--approval",
      "full",
      "--home",
      home,
    ]);
    assertEquals(r.code, 0, r.stderr);
    const m = r.stderr.match(
      /worktree (\S+) on branch (reinagent\/write-a-note-file) \(from main\)/,
    );
    assert(m, r.stderr);
    assert(await Deno.stat(`${m[1]}/demo-note.md`).then(() => true), "written in the worktree");
    assertEquals(await Deno.stat(`${repo}/demo-note.md`).then(() => true, () => false), false);
    const bad = await reinagent(["run", "x", "--worktree", "--task", "t1", "--home", home]);
    assertEquals(bad.code, 2);
    assertMatch(bad.stderr, /--worktree makes a new task/);
  } finally {
    await Deno.remove(home, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("the MCP server's create_task takes worktree: true", async () => {
  const repo = await repository();
  const mock = startMockLlm({ quiet: true });
  mock.register("wt-mcp", { turns: [{ text: "ok" }] });
  const home = await homeWithProvider(mock.base, ["wt-mcp"]);
  const server = await startTestServer({ home });
  const client = new Client({ name: "wt-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", server.base), {
      requestInit: { headers: { authorization: `Bearer ${server.token}` } },
    }),
  );
  const ws = await TestClient.connect(server.base, server.token);
  try {
    const r = await client.callTool({
      name: "create_task",
      arguments: {
        message: "hello",
        projectPath: repo,
        worktree: true,
        model: { providerId: "mock", modelId: "wt-mcp" },
      },
    }) as CallToolResult;
    assert(!r.isError, JSON.stringify(r.content));
    const { tasks } = await ws.request("tasks.list", {});
    assertMatch(tasks[0].settings.worktree.branch, /^reinagent\/hello/);
    assertEquals(tasks[0].settings.worktree.repo, repo);
  } finally {
    await ws.close();
    await client.close();
    await server.stop();
    await mock.close();
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("an automation with worktree runs each task in a worktree of its own", async () => {
  const s = await setup();
  s.deps.automations!.start();
  try {
    const noProject = await s.op("automations.create", {
      name: "n",
      prompt: "p",
      rule: DAILY,
      worktree: true,
    }).catch((e) => e);
    assertEquals(noProject.code, "invalid_args");
    const { automation } = await s.op("automations.create", {
      name: "nightly",
      prompt: "change shared.txt",
      rule: DAILY,
      projectPath: s.repo,
      model: model("wt-a"),
      approval: "full",
      worktree: true,
    });
    assertEquals(automation.worktree, true);
    const { run } = await s.op("automations.runNow", { id: automation.id });
    while (!s.deps.store.repos!.automations.runs(automation.id, 5).some((r) => r.taskId)) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const taskId = s.deps.store.repos!.automations.runs(automation.id, 5).find((r) => r.taskId)!
      .taskId!;
    const task = s.deps.tasks!.get(taskId);
    assertMatch(task.settings.worktree!.branch, /^reinagent\/nightly/);
    assertEquals(task.settings.worktree!.repo, s.repo);
    assert(run.id);
    await s.idle(taskId);
  } finally {
    s.deps.automations!.stop();
    await s.close();
  }
});

Deno.test("deleting an isolated task removes its worktree and keeps its work on the branch; leftovers are found and cleaned", async () => {
  const s = await setup();
  try {
    const a = await isolated(s, "wt-a", "change shared.txt");
    await s.idle(a.task.id);
    const wt = a.task.settings.worktree;
    await s.op("tasks.delete", { id: a.task.id });
    assertEquals(await Deno.stat(wt.path).then(() => true, () => false), false);
    assertEquals(await sh(s.repo, "show", `${wt.branch}:shared.txt`), "from A\n", "work kept");

    // A worktree whose task is gone (as a crash between the two would leave it).
    const b = await isolated(s, "wt-b", "change it again");
    await s.idle(b.task.id);
    const wb = b.task.settings.worktree;
    await s.op("tasks.delete", { id: b.task.id, keepWorktree: true });
    const { leftovers } = await s.op("worktrees.leftovers", {});
    assertEquals(leftovers, [{ path: wb.path, repo: s.repo, branch: wb.branch }]);
    assertEquals(await s.op("worktrees.cleanLeftovers", {}), { removed: [wb.path], problems: [] });
    assertEquals((await s.op("worktrees.leftovers", {})).leftovers, []);
    assertEquals((await sh(s.repo, "worktree", "list")).trim().split("\n").length, 1);
  } finally {
    await s.close();
  }
});

Deno.test("a project's setup command runs in each new worktree first; a failing one stops the start", async () => {
  const s = await setup();
  try {
    const { project } = await s.op("projects.add", { path: s.repo });
    await s.op("projects.setSetup", { id: project.id, command: "printf ready > setup-ran.txt" });
    const note = (id: string) =>
      s.deps.store.repos!.entries.latest(id, 20).find((e) => e.meta.kind === "setup");
    const settled = async (id: string) => {
      while (!note(id) || note(id)!.status === "streaming") {
        await new Promise((r) => setTimeout(r, 10));
      }
      await s.idle(id);
      return note(id)!;
    };
    const a = await isolated(s, "wt-a", "change shared.txt");
    const ok = await settled(a.task.id);
    assertEquals([ok.status, ok.meta.ok, ok.meta.exitCode], ["done", true, 0]);
    const wa = a.task.settings.worktree;
    assertEquals(await Deno.readTextFile(`${wa.path}/setup-ran.txt`), "ready");
    while (s.deps.runs!.isRunning(a.task.id) || !s.mock.requests("wt-a").length) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await s.idle(a.task.id);
    assertEquals(
      await Deno.readTextFile(`${wa.path}/shared.txt`),
      "from A\n",
      "then the agent ran",
    );

    await s.op("projects.setSetup", { id: project.id, command: "echo broken >&2; exit 3" });
    const b = await isolated(s, "wt-b", "change it");
    const failed = await settled(b.task.id);
    assertEquals([failed.status, failed.meta.ok, failed.meta.exitCode], ["error", false, 3]);
    assertMatch(failed.parts[0].text ?? "", /broken[\s\S]*Exit code: 3/);
    assertEquals(s.mock.requests("wt-b").length, 0, "the agent did not start");
  } finally {
    await s.close();
  }
});

Deno.test("merging, keeping or discarding a branch notifies every device", async () => {
  const s = await setup();
  const heard: { kind: string; branch?: { action: string; name: string } }[] = [];
  s.deps.hub.add({
    id: "watcher",
    topics: new Set([NOTIFY_TOPIC]),
    deliver: (evs) => {
      for (const e of evs) {
        const d = e.data as { kind: string; event?: { kind: string; branch?: never } };
        if (d.kind === "event" && d.event?.kind === "branch") heard.push(d.event);
      }
    },
  });
  try {
    const a = await isolated(s, "wt-a", "change shared.txt");
    await s.idle(a.task.id);
    await s.op("worktree.merge", { id: a.task.id });
    await s.op("worktree.finish", { id: a.task.id, action: "discard" });
    s.deps.hub.flush();
    const name = a.task.settings.worktree.branch;
    assertEquals(heard.map((e) => e.branch), [
      { action: "merged", name },
      { action: "discarded", name },
    ]);
  } finally {
    await s.close();
  }
});
