/**
 * Importing the sessions of other coding agents from their real on-disk formats. The
 * fixtures in tests/fixtures/carry/ were written by Claude Code 2.1, Codex 0.171, pi 0.73
 * and opencode 1.18 themselves, each driven against the mock LLM (list src/, read a
 * file, answer) by scripts/carry/make_fixtures.ts. Each imports as one task with its
 * tool calls as tool entries, a second import changes nothing, their files are never
 * written; malformed lines are reported with line numbers and the rest imported.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import { Store } from "../store/store.ts";
import { env } from "./helpers/agent_env.ts";
import { runOp } from "../server/ops/dispatch.ts";
import { importForeign } from "../server/carry/carry_service.ts";
import { scanSources } from "../server/carry/foreign/sources.ts";
import type { Entry } from "../protocol/domain.ts";
import type { ForeignSource } from "../protocol/carry.ts";

const FIXTURES = `${ROOT}tests/fixtures/carry`;

async function cli(args: string[], env: Record<string, string> = {}) {
  const r = await new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).output();
  const dec = new TextDecoder();
  return { code: r.code, out: dec.decode(r.stdout), err: dec.decode(r.stderr) };
}

/** A copy of a fixture folder (so the test can prove it is never written). */
async function copyFixture(name: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: `ra-fx-${name}-` });
  const r = await new Deno.Command("cp", { args: ["-a", `${FIXTURES}/${name}/.`, dir] }).output();
  assert(r.success, "cp");
  return dir;
}

/** Path → size, mtime and sha-256 of every file under `dir`. */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) await walk(p);
      else {
        const st = await Deno.stat(p);
        const sum = await crypto.subtle.digest("SHA-256", await Deno.readFile(p));
        out[p] = `${st.size} ${st.mtime?.getTime()} ${
          btoa(String.fromCharCode(...new Uint8Array(sum)))
        }`;
      }
    }
  };
  await walk(dir);
  return out;
}

function tasksOf(home: string): { title: string; entries: Entry[] }[] {
  const store = new Store(`${home}/reinagent.db`);
  try {
    const r = store.repos!;
    return r.tasks.list().map((t) => ({ title: t.title, entries: r.entries.latest(t.id, 1000) }));
  } finally {
    store.close();
  }
}

const callNames = (entries: Entry[]) =>
  entries.flatMap((e) => e.parts.filter((p) => p.type === "tool_call").map((p) => p.data!.name));

function assertConversation(entries: Entry[], tools: string[], model: RegExp) {
  assertEquals(entries.map((e) => e.role), [
    "user",
    "assistant",
    "tool",
    "assistant",
    "tool",
    "assistant",
  ]);
  assertEquals(callNames(entries), tools);
  const results = entries.filter((e) => e.role === "tool").map((e) => e.parts[0]);
  assert(results.every((p) => p.type === "tool_result"), "results are tool_result parts");
  assertMatch(results[0].text!, /module_01\.ts/);
  assertMatch(results[1].text!, /MARKER_01/);
  // Each result names the call it answers.
  const ids = entries.flatMap((e) =>
    e.parts.filter((p) => p.type === "tool_call").map((p) => p.data!.id)
  );
  assertEquals(results.map((p) => p.data!.toolCallId), ids);
  assertMatch(entries.at(-1)!.parts[0].text!, /FIXTURE-DONE/);
  const usage = entries[1].meta.usage as { input: number; output: number };
  assertEquals([usage.input, usage.output], [100, 20]);
  assertMatch(String(entries[1].meta.model), model);
}

for (
  const [source, dir, tools, model] of [
    ["claude-code", "claude", ["Bash", "Read"], /^claude-code\/claude-sonnet-4-5$/],
    ["codex", "codex", ["exec_command", "exec_command"], /^codex\/bench$/],
  ] as const
) {
  Deno.test(`carry: the ${source} session imports (CLI) as a task with its tool calls; again changes nothing`, async () => {
    const fx = await copyFixture(dir);
    const home = await Deno.makeTempDir({ prefix: "ra-fx-home-" });
    try {
      const before = await fingerprint(fx);
      const r = await cli(["import", "--from", source, fx, "--home", home]);
      assertEquals(r.code, 0, r.err);
      assertMatch(r.out, /imported 1 new task\(s\), updated 0, 0 already here; 6 entries/);
      const [task] = tasksOf(home);
      assertEquals(task.title, "Read the modules in src/ and tell me what each one exports.");
      assertConversation(task.entries, [...tools], model);
      const again = await cli(["import", "--from", source, fx, "--home", home]);
      assertMatch(again.out, /imported 0 new task\(s\), updated 0, 1 already here; 0 entries/);
      assertEquals(tasksOf(home), [task]);
      assertEquals(await fingerprint(fx), before, "the session files were not written");
    } finally {
      await Deno.remove(fx, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  });
}

for (
  const [source, dir, tools, model] of [
    ["pi", "pi", ["ls", "read"], /^pi\/bench$/],
    ["opencode", "opencode", ["glob", "read"], /^opencode\/bench$/],
  ] as const
) {
  Deno.test(`carry: the ${source} session imports as a task with its tool calls; again changes nothing`, async () => {
    const fx = await copyFixture(dir);
    const home = await Deno.makeTempDir({ prefix: "ra-fx-home-" });
    const store = new Store(`${home}/reinagent.db`);
    try {
      const before = await fingerprint(fx);
      const r = await importForeign(store.repos!, home, source as ForeignSource, fx);
      assertEquals([r.tasksCreated, r.entriesAdded, r.problems], [1, 6, []]);
      const t = store.repos!.tasks.list()[0];
      assertConversation(store.repos!.entries.latest(t.id, 100), [...tools], model);
      const again = await importForeign(store.repos!, home, source as ForeignSource, fx);
      assertEquals([again.tasksCreated, again.tasksSkipped, again.entriesAdded], [0, 1, 0]);
      assertEquals(await fingerprint(fx), before, "the session files were not written");
    } finally {
      store.close();
      await Deno.remove(fx, { recursive: true });
      await Deno.remove(home, { recursive: true });
    }
  });
}

Deno.test("carry: the default folders are found through each tool's own variables, with a count", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-fx-defaults-" });
  try {
    await Deno.mkdir(`${root}/codex/sessions`, { recursive: true });
    await new Deno.Command("cp", { args: ["-a", `${FIXTURES}/codex/.`, `${root}/codex/sessions`] })
      .output();
    await Deno.mkdir(`${root}/claude/projects`, { recursive: true });
    await new Deno.Command("cp", {
      args: ["-a", `${FIXTURES}/claude/.`, `${root}/claude/projects`],
    })
      .output();
    await Deno.mkdir(`${root}/xdg/opencode`, { recursive: true });
    await Deno.copyFile(`${FIXTURES}/opencode/opencode.db`, `${root}/xdg/opencode/opencode.db`);
    const info = await scanSources(["claude-code", "codex", "opencode", "pi"], {
      HOME: `${root}/nohome`,
      CODEX_HOME: `${root}/codex`,
      CLAUDE_CONFIG_DIR: `${root}/claude`,
      XDG_DATA_HOME: `${root}/xdg`,
    });
    assertEquals(info.map((i) => [i.source, i.exists, i.sessions]), [
      ["claude-code", true, 1],
      ["codex", true, 1],
      ["opencode", true, 1],
      ["pi", false, 0],
    ]);
    // The CLI with no PATH uses the default folder.
    const home = `${root}/ra`;
    const r = await cli(["import", "--from", "codex", "--home", home], {
      CODEX_HOME: `${root}/codex`,
    });
    assertEquals(r.code, 0, r.err);
    assertMatch(r.out, /imported 1 new task/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("carry: malformed lines are reported with line numbers and the rest imported; oversize files and symlinks are skipped", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ra-fx-bad-" });
  const home = await Deno.makeTempDir({ prefix: "ra-fx-home-" });
  const store = new Store(`${home}/reinagent.db`);
  try {
    await Deno.mkdir(`${dir}/proj`);
    const lines = [
      JSON.stringify({
        type: "user",
        sessionId: "s-bad",
        cwd: "/nowhere",
        timestamp: "2026-01-01T00:00:00Z",
        message: { role: "user", content: "first question" },
      }),
      "{this is not json",
      "[1,2,3]",
      JSON.stringify({
        type: "assistant",
        timestamp: "2026-01-01T00:00:01Z",
        message: {
          id: "m1",
          role: "assistant",
          content: [{ type: "tool_use", id: "c1", name: "Bash", input: { command: "ls" } }],
        },
      }),
      JSON.stringify({
        type: "user",
        timestamp: "2026-01-01T00:00:02Z",
        message: {
          role: "user",
          content: [{
            type: "tool_result",
            tool_use_id: "c1",
            content: [{ type: "text", text: "a.txt" }],
            is_error: true,
          }],
        },
      }),
      JSON.stringify({ type: "assistant" }),
    ];
    await Deno.writeTextFile(`${dir}/proj/s-bad.jsonl`, lines.join("\n") + "\n");
    // Larger than the 64 MB cap (sparse: costs no disk).
    const big = await Deno.open(`${dir}/proj/huge.jsonl`, { create: true, write: true });
    await big.truncate(65 * 1024 * 1024);
    big.close();
    await Deno.symlink("/etc", `${dir}/proj/link`);
    const r = await importForeign(store.repos!, home, "claude-code", dir);
    const problems = r.problems.join("\n");
    assertMatch(problems, /s-bad\.jsonl:2: not valid JSON/);
    assertMatch(problems, /s-bad\.jsonl:3: not a JSON object/);
    assertMatch(problems, /s-bad\.jsonl:6: a assistant record without a message/);
    assertMatch(problems, /huge\.jsonl: larger than 64 MB; skipped/);
    assertEquals(r.tasksCreated, 1);
    const t = store.repos!.tasks.list()[0];
    assertEquals(t.projectPath, null, "a folder missing here is not the task's workspace");
    const entries = store.repos!.entries.latest(t.id, 10);
    assertEquals(entries.map((e) => [e.role, e.status]), [
      ["user", "done"],
      ["assistant", "done"],
      ["tool", "error"],
    ]);
    assertEquals(entries[2].parts[0].text, "a.txt");
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("carry: an older opencode storage folder (JSON files) imports too", async () => {
  const root = await Deno.makeTempDir({ prefix: "ra-fx-oc-" });
  const home = await Deno.makeTempDir({ prefix: "ra-fx-home-" });
  const store = new Store(`${home}/reinagent.db`);
  const put = async (path: string, v: unknown) => {
    await Deno.mkdir(`${root}/storage/${path.split("/").slice(0, -1).join("/")}`, {
      recursive: true,
    });
    await Deno.writeTextFile(`${root}/storage/${path}`, JSON.stringify(v));
  };
  try {
    await put("session/proj1/ses_1.json", { id: "ses_1", title: "Old session", directory: root });
    await put("message/ses_1/msg_1.json", { id: "msg_1", role: "user", time: { created: 1000 } });
    await put("part/msg_1/prt_1.json", { id: "prt_1", type: "text", text: "hi there" });
    await put("message/ses_1/msg_2.json", {
      id: "msg_2",
      role: "assistant",
      modelID: "m",
      time: { created: 2000 },
      tokens: { input: 5, output: 7, cache: { read: 1, write: 0 } },
    });
    await put("part/msg_2/prt_2.json", { id: "prt_2", type: "text", text: "listing" });
    await put("part/msg_2/prt_3.json", {
      id: "prt_3",
      type: "tool",
      tool: "bash",
      callID: "c9",
      state: { status: "completed", input: { command: "ls" }, output: "x.txt" },
    });
    await Deno.writeTextFile(`${root}/storage/message/ses_1/broken.json`, "{");
    const r = await importForeign(store.repos!, home, "opencode", root);
    assertEquals(r.tasksCreated, 1, JSON.stringify(r));
    assertMatch(r.problems.join(), /broken\.json: not valid JSON/);
    const t = store.repos!.tasks.list()[0];
    assertEquals([t.title, t.projectPath], ["Old session", root]);
    const entries = store.repos!.entries.latest(t.id, 10);
    assertEquals(entries.map((e) => e.role), ["user", "assistant", "tool"]);
    assertEquals(callNames(entries), ["bash"]);
    assertEquals(entries[1].meta.usage, { input: 5, output: 7, cacheRead: 1, cacheWrite: 0 });
  } finally {
    store.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("carry: an imported Claude Code session can be continued here: its tool calls reach the model as history", async () => {
  const e = await env();
  try {
    const r = await importForeign(
      e.deps.store.repos!,
      e.deps.home,
      "claude-code",
      `${FIXTURES}/claude`,
    );
    const taskId = r.taskIds[0];
    // The mock picks its turn by the assistant messages so far: the imported ones count.
    const model = e.scenario(
      { turns: [{ text: "Continuing. CONTINUED" }], repeatLast: true },
      "anthropic-messages",
    );
    const ctx = { ...e.deps, client: { id: "t", topics: new Set<string>(), deliver: () => {} } };
    const set = await runOp(ctx, "task.setOptions", { id: taskId, model });
    assert(set.ok, JSON.stringify(set));
    const sent = await runOp(ctx, "task.send", { id: taskId, text: "and module 2?" });
    assert(sent.ok, JSON.stringify(sent));
    const end = Date.now() + 20_000;
    while (e.deps.runs!.isRunning(taskId) && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const body = JSON.stringify(e.mock.requests(model.modelId)[0].body);
    assertMatch(body, /"type":"tool_use","id":"call_list","name":"Bash"/);
    assertMatch(body, /"type":"tool_result","tool_use_id":"call_list"/);
    assertMatch(body, /and module 2\?/);
    const last = e.deps.store.repos!.entries.latest(taskId, 1)[0];
    assertMatch(last.parts[0].text!, /CONTINUED/);
  } finally {
    await e.close();
  }
});
