/** `reinagent run`: headless turns in-process and through a running instance. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startTestServer } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { reinagent } from "./helpers/cli.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { parseRunArgs } from "../server/cli/run_cmd.ts";
import { DatabaseSync } from "node:sqlite";

const cli = (args: string[]) => reinagent(args);

const TOOL_SCENARIO = {
  turns: [
    { thinking: "check", text: "Looking.", toolCalls: [{ name: "list_dir", args: { path: "." } }] },
    { text: "The folder has **hello.txt**." },
  ],
};

/** The mock with TOOL_SCENARIO, a home pointed at it, a project holding hello.txt. */
async function toolScenario() {
  const mock = startMockLlm({ quiet: true });
  mock.register("tools", TOOL_SCENARIO);
  const home = await homeWithProvider(mock.base, ["tools"]);
  const project = await Deno.makeTempDir();
  await Deno.writeTextFile(`${project}/hello.txt`, "hi");
  return { mock, home, project };
}

Deno.test("run: streams the answer, tool lines on stderr, exit 0; --json emits one event per line", async () => {
  const { mock, home, project } = await toolScenario();
  try {
    const r = await cli([
      "run",
      "what is here?",
      "--home",
      home,
      "--project",
      project,
      "--model",
      "mock/tools",
    ]);
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /Looking\.\n/);
    assertMatch(r.stdout, /The folder has \*\*hello\.txt\*\*\./);
    assertMatch(r.stderr, /→ list_dir \{"path":"\."\}/);
    assertMatch(r.stderr, /✓ list_dir: hello\.txt/);

    const j = await cli([
      "run",
      "again",
      "--home",
      home,
      "--project",
      project,
      "--model",
      "mock/tools",
      "--json",
    ]);
    assertEquals(j.code, 0, j.stderr);
    const events = j.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const types = events.map((e) => e.type);
    assert(
      types.includes("thinking") && types.includes("text") && types.includes("tool_call") &&
        types.includes("tool_result"),
    );
    assertEquals(events.at(-1).type, "done");
    assertEquals(events.at(-1).outcome, "done");
    assertEquals(events.find((e) => e.type === "tool_result").isError, false);
    const text = events.filter((e) => e.type === "text").map((e) => e.delta).join("");
    assertEquals(text, "Looking.The folder has **hello.txt**.");
  } finally {
    await mock.close();
  }
});

Deno.test("run: the exit leaves the committed run in the WAL (no checkpoint); the next process reads it whole", async () => {
  const { mock, home, project } = await toolScenario();
  try {
    const args = ["--home", home, "--project", project, "--model", "mock/tools"];
    const r = await cli(["run", "what is here?", ...args]);
    assertEquals(r.code, 0, r.stderr);
    // Closing would have folded the WAL into the file and removed it.
    const wal = await Deno.stat(`${home}/reinagent.db-wal`);
    assert(wal.size > 0, "the WAL was checkpointed at exit");
    const listed = await cli(["tasks", "--home", home, "--json"]);
    assertEquals(listed.code, 0, listed.stderr);
    const tasks = JSON.parse(listed.stdout);
    assertEquals(tasks.map((t: { state: string }) => t.state), ["done"]);
    const db = new DatabaseSync(`${home}/reinagent.db`, { readOnly: true });
    try {
      const parts = db.prepare("SELECT text FROM part").all()
        .map((row) => String(row.text)).join("\n");
      assertMatch(parts, /The folder has \*\*hello\.txt\*\*\./, "the final answer is stored");
    } finally {
      db.close();
    }
    const again = await cli(["run", "again", ...args]);
    assertEquals(again.code, 0, again.stderr);
  } finally {
    await mock.close();
  }
});

Deno.test("run: unknown model or bad flags fail fast with exit 2; a provider error exits 1", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("deny", { turns: [{ text: "x", fail: { status: 401, message: "invalid key" } }] });
  try {
    const home = await homeWithProvider(mock.base, ["deny"]);
    const bad = await cli(["run", "hi", "--home", home, "--model", "mock/nope"]);
    assertEquals(bad.code, 2);
    assertMatch(bad.stderr, /model mock\/nope is not available/);
    assertMatch(bad.stderr, /available: .*mock\/deny/);
    const noSlash = await cli(["run", "hi", "--home", home, "--model", "nope"]);
    assertEquals(noSlash.code, 2);
    assertMatch(noSlash.stderr, /PROVIDER\/MODEL/);
    const effort = await cli(["run", "hi", "--home", home, "--effort", "turbo"]);
    assertEquals(effort.code, 2);
    const failed = await cli(["run", "hi", "--home", home, "--model", "mock/deny"]);
    assertEquals(failed.code, 1);
    assertMatch(failed.stderr, /error \(auth\): HTTP 401: invalid key/);
  } finally {
    await mock.close();
  }
});

Deno.test("run: a stream that ends before its end marker exits 1; the partial answer is printed", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("cut", {
    turns: [{ text: "Half of the answer and", chunk: 4, cut: { afterChunks: 4, abrupt: false } }],
  });
  try {
    const home = await homeWithProvider(mock.base, ["cut"]);
    const r = await cli(["run", "hi", "--home", home, "--model", "mock/cut"]);
    assertEquals(r.code, 1, r.stderr);
    assertMatch(r.stdout, /Half of/);
    assertMatch(r.stderr, /error \(network\): the provider's stream ended before it finished/);
  } finally {
    await mock.close();
  }
});

Deno.test("run: with a running instance, the server performs the run and other clients see it live", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("tools", TOOL_SCENARIO);
  const home = await homeWithProvider(mock.base, ["tools"]);
  const s = await startTestServer({ home });
  const watcher = await TestClient.connect(s.base, s.token);
  try {
    const r = await cli(["run", "hello", "--home", home, "--model", "mock/tools"]);
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stderr, /running in the open ReinAgent instance/);
    const { tasks } = await watcher.request("tasks.list");
    assertEquals(tasks.length, 1);
    assert(watcher.events.some((e) => e.topic === "tasks"), "the watcher saw the task appear live");
  } finally {
    await watcher.close();
    await s.stop();
    await mock.close();
  }
});

Deno.test("run: a new install asks before commands; headless, nobody can answer, so it stops with a note", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("cmd", {
    turns: [
      { text: "Running.", toolCalls: [{ name: "exec_command", args: { command: "echo hi" } }] },
      { text: "Ran it." },
    ],
  });
  try {
    const home = await homeWithProvider(mock.base, ["cmd"]);
    const r = await cli(["run", "run echo", "--home", home, "--model", "mock/cmd"]);
    assertEquals(r.code, 130, r.stderr);
    assertMatch(
      r.stderr,
      /\$ echo hi needs approval, and nobody can answer it in a headless run: stopped/,
    );
    assertMatch(r.stderr, /--approval full/);
    const full = await cli([
      "run",
      "run echo",
      "--home",
      home,
      "--model",
      "mock/cmd",
      "--approval",
      "full",
    ]);
    assertEquals(full.code, 0, full.stderr);
    assertMatch(full.stdout, /Ran it\./);
  } finally {
    await mock.close();
  }
});

Deno.test("run args parser", () => {
  assertEquals(parseRunArgs(["do it", "--model", "open/router/x", "--json"]), {
    prompt: "do it",
    json: true,
    format: "stream-json",
    model: { providerId: "open", modelId: "router/x" },
  });
  assertEquals(parseRunArgs([]), {
    error: 'run needs exactly one prompt argument: reinagent run "<prompt>" (or - for stdin)',
  });
  assertEquals(parseRunArgs(["a", "--approval", "yolo"]), {
    error: "--approval must be one of plan, ask, edit, full",
  });
});

Deno.test("run: the conversation's request goes out before the title's side request, which still names the task", async () => {
  const { mock, home, project } = await toolScenario();
  try {
    const r = await cli([
      "run",
      "what is here?",
      "--home",
      home,
      "--project",
      project,
      "--model",
      "mock/tools",
      "--json",
    ]);
    assertEquals(r.code, 0, r.stderr);
    const sent = mock.requests("tools").sort((a, b) => a.at - b.at);
    const offersTools = (b: Record<string, unknown>) =>
      Array.isArray(b.tools) && b.tools.length > 0;
    assert(offersTools(sent[0].body), "the first request is the conversation's (it offers tools)");
    const title = sent.findIndex((q) => !offersTools(q.body));
    assert(title > 0, `a title request followed: ${sent.map((q) => offersTools(q.body))}`);
    const tasks = await cli(["tasks", "--json", "--home", home]);
    const [task] = JSON.parse(tasks.stdout) as { title: string }[];
    assert(task.title && task.title !== "what is here?", `titled by the model: ${task.title}`);
  } finally {
    await mock.close();
  }
});

Deno.test("run: the task still gets its title when the title's request ends after the answer", async () => {
  const mock = startMockLlm({ quiet: true });
  // The title's request starts once the first answer streams and takes as long again (it
  // gets the first turn too): the run's last answer comes well before it ends.
  mock.register("slow-title", {
    turns: [
      { text: "Looking.", firstDelayMs: 1500, toolCalls: [{ name: "list_dir", args: {} }] },
      { text: "Done." },
    ],
  });
  const home = await homeWithProvider(mock.base, ["slow-title"]);
  try {
    const r = await cli(["run", "name this task", "--home", home, "--model", "mock/slow-title"]);
    assertEquals(r.code, 0, r.stderr);
    const tasks = await cli(["tasks", "--json", "--home", home]);
    const [task] = JSON.parse(tasks.stdout) as { title: string }[];
    assertEquals(task.title, "Looking");
  } finally {
    await mock.close();
  }
});

Deno.test("run --json: the done event reports the run's cost; a model without a price says unknown", async () => {
  const mock = startMockLlm({ quiet: true });
  const turn = { text: "ok", usage: { input: 1200, output: 300, cacheRead: 5000 } };
  mock.register("priced", { turns: [turn], repeatLast: true });
  mock.register("unpriced", { turns: [turn], repeatLast: true });
  const home = await homeWithProvider(mock.base, ["priced", "unpriced"], {
    prices: {
      priced: {
        currency: "USD",
        input: 3_000_000,
        output: 15_000_000,
        cacheRead: 300_000,
        cacheWrite: 3_750_000,
        source: "manual",
      },
    },
  });
  try {
    const run = async (model: string) => {
      const r = await cli(["run", "hi", "--home", home, "--model", `mock/${model}`, "--json"]);
      assertEquals(r.code, 0, r.stderr);
      return r.stdout.trim().split("\n").map((l) => JSON.parse(l)).at(-1);
    };
    const done = await run("priced");
    assertEquals(done.type, "done");
    // 1200 × $3/M + 300 × $15/M + 5000 × $0.30/M = $0.0036 + $0.0045 + $0.0015
    assertEquals(done.cost, {
      total: [{ currency: "USD", nanos: 9_600_000, text: "$0.0096" }],
      replies: 1,
      unpriced: 0,
    });
    const unknown = await run("unpriced");
    assertEquals(unknown.cost, { total: [], replies: 1, unpriced: 1 });
  } finally {
    await mock.close();
  }
});
