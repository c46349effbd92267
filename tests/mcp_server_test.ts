/**
 * ReinAgent as an MCP server, driven by the MCP SDK's own client: over
 * streamable HTTP at `/mcp` of a real server process and over stdio through
 * `reinagent mcp serve` (with a running instance, and starting one in-process). The
 * agent is the mock LLM; its command waits for an approval answered over MCP.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS, startTestServer } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { TestClient } from "./helpers/ws_client.ts";
import {
  type CallToolResult,
  Client,
  StdioClientTransport,
  StreamableHTTPClientTransport,
} from "./helpers/mcp_sdk.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";

const TOOL_NAMES = [
  "list_tasks",
  "get_task_status",
  "list_models",
  "get_task_options",
  "create_task",
  "send_message",
  "start_draft",
  "stop_task",
  "approve_tool",
  "switch_task",
  "set_model",
  "set_approval_mode",
  "set_thinking_level",
  "remove_queued_message",
  "mark_task_read",
  "wait_for_task",
];

/** A turn that runs a command (it asks for approval in the default `edit` mode), then answers. */
const DELEGATE = {
  turns: [
    { text: "Checking.", toolCalls: [{ name: "exec_command", args: { command: "echo mcp-ok" } }] },
    { text: "All done: the command printed mcp-ok." },
  ],
  repeatLast: true,
};

function httpClient(base: string, token: string | null, headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), {
    requestInit: {
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    },
  });
  return { client: new Client({ name: "mcp-test-agent", version: "1.0.0" }), transport };
}

// deno-lint-ignore no-explicit-any
type Json = any;

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = await client.callTool({ name, arguments: args }) as CallToolResult;
  const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  return { isError: r.isError === true, text, data: r.structuredContent as Json };
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = await call(client, name, args);
  assert(!r.isError, `${name} failed: ${r.text}`);
  return r.data;
}

/** The whole delegation loop: create, wait (approval), approve, wait (finished), status. */
async function delegate(client: Client) {
  const tools = await client.listTools();
  assertEquals(tools.tools.map((t) => t.name), TOOL_NAMES);
  const create = tools.tools.find((t) => t.name === "create_task")!;
  assertEquals(create.inputSchema.type, "object");
  assert(create.inputSchema.properties && "message" in create.inputSchema.properties);

  const models = await ok(client, "list_models");
  assert(models.models.some((m: Json) => m.providerId === "mock" && m.modelId === "delegate"));

  const created = await ok(client, "create_task", {
    message: "run the check",
    model: { providerId: "mock", modelId: "delegate" },
  });
  const taskId: string = created.taskId;
  assertMatch(taskId, /^[A-Za-z0-9_-]+$/);

  const first = await ok(client, "wait_for_task", { timeoutSeconds: 20 });
  assertEquals(first.outcome, "needs_decision", JSON.stringify(first));
  assertEquals(first.task.state, "waiting");
  assertEquals(first.approvals.length, 1);
  assertEquals(first.approvals[0].tool, "exec_command");
  assertMatch(first.approvals[0].summary, /echo mcp-ok/);

  const answered = await ok(client, "approve_tool", { decision: "allow" });
  assertEquals(answered.answered.approvalId, first.approvals[0].approvalId);

  const done = await ok(client, "wait_for_task", { taskId, timeoutSeconds: 20 });
  assertEquals(done.outcome, "finished", JSON.stringify(done));
  assertEquals(done.task.state, "done");
  assertEquals(done.lastAnswer, "All done: the command printed mcp-ok.");

  const status = await ok(client, "get_task_status", { taskId, recent: 10 });
  assertEquals(status.task.id, taskId);
  assertEquals(status.approvals, []);
  const result = status.recent.flatMap((e: Json) => e.toolResults ?? []);
  assert(result.some((r: Json) => r.tool === "exec_command" && /mcp-ok/.test(r.text)));
  return taskId;
}

Deno.test("mcp /mcp: the SDK client delegates a task end to end; a window sees it live", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("delegate", DELEGATE);
  mock.register("slow", { turns: [{ text: "z".repeat(400), chunk: 1, delayMs: 50 }] });
  const home = await homeWithProvider(mock.base, ["delegate", "other", "slow"]);
  const s = await startTestServer({ home });
  const ui = await TestClient.connect(s.base, s.token);
  const { client, transport } = httpClient(s.base, s.token);
  try {
    await client.connect(transport);
    assertEquals(client.getServerVersion()?.name, "reinagent");
    const taskId = await delegate(client);

    // The window had the task at once, and the run's events.
    const upserts = ui.events.filter((e) =>
      e.topic === "tasks" && (e.data as Json).task?.id === taskId
    );
    assert(upserts.length > 0, "the window saw the new task");
    const listed = await ui.request("tasks.list");
    assert(listed.tasks.some((t: Json) => t.id === taskId));

    // Options: set a model, a thinking level, lower the approval mode (every window told).
    await ok(client, "set_model", { providerId: "mock", modelId: "other" });
    await ok(client, "set_thinking_level", { level: "high" });
    const opts = await ok(client, "get_task_options", {});
    assertEquals(opts.model, { providerId: "mock", modelId: "other" });
    assertEquals(opts.effort, "high");
    assertEquals(opts.effective.approval, "edit");
    await ok(client, "set_approval_mode", { mode: "full" });
    await ui.until(
      () => ui.events.some((e) => JSON.stringify(e.data).includes('"kind":"mcp"')),
      "a safety notice naming the MCP client",
    );
    const notice = ui.events.find((e) => JSON.stringify(e.data).includes('"kind":"mcp"'))!;
    assertMatch(JSON.stringify(notice.data), /mcp-test-agent/);
    assertMatch(JSON.stringify(notice.data), /taskApproval/);

    const read = await ok(client, "mark_task_read", {});
    assertEquals(read.unread, false);
    const list = await ok(client, "list_tasks", { state: "done" });
    assert(list.tasks.some((t: Json) => t.id === taskId));
    const stopped = await ok(client, "stop_task", {});
    assertEquals(stopped.stopped, false); // nothing runs

    // A new task in a mode below the default is announced too (not slipped in at creation).
    const before = ui.events.length;
    const full = await ok(client, "create_task", { title: "yolo", approval: "full" });
    assertEquals(full.task.settings.approval, "full");
    await ui.until(
      () =>
        ui.events.slice(before).some((e) =>
          JSON.stringify(e.data).includes(full.taskId) &&
          JSON.stringify(e.data).includes('"kind":"mcp"')
        ),
      "a safety notice for the new task",
    );

    // A wait that outlasts its timeout says so and leaves the run alone; stop ends it.
    await ok(client, "create_task", {
      message: "take your time",
      model: { providerId: "mock", modelId: "slow" },
    });
    const slow = await ok(client, "wait_for_task", { timeoutSeconds: 1 });
    assertEquals(slow.outcome, "timeout");
    assertEquals(slow.task.state, "running");
    // A client whose request timeout is shorter than the wait is kept alive by progress.
    let beats = 0;
    const long = await client.callTool(
      { name: "wait_for_task", arguments: { timeoutSeconds: 3 } },
      undefined,
      {
        timeout: 1500,
        resetTimeoutOnProgress: true,
        onprogress: () => beats++,
      },
    ) as CallToolResult;
    assertEquals((long.structuredContent as Json).outcome, "timeout");
    assert(beats >= 2, `progress notifications: ${beats}`);
    assertEquals((await ok(client, "stop_task", {})).stopped, true);
    assertEquals((await ok(client, "wait_for_task", { timeoutSeconds: 5 })).task.state, "stopped");
  } finally {
    await client.close();
    await ui.close();
    await s.stop();
    await mock.close();
  }
});

Deno.test("mcp /mcp: 401 without the token or with a wrong one; the cookie works; other origins refused", async () => {
  const s = await startTestServer();
  try {
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      },
    });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const none = await fetch(`${s.base}/mcp`, { method: "POST", headers, body: init });
    assertEquals(none.status, 401);
    assertEquals((await none.json()).error.code, "unauthorized");
    assertMatch(none.headers.get("www-authenticate") ?? "", /Bearer/);
    const wrong = await fetch(`${s.base}/mcp`, {
      method: "POST",
      headers: { ...headers, authorization: "Bearer not-the-token-at-all" },
      body: init,
    });
    assertEquals(wrong.status, 401);
    await wrong.body?.cancel();

    // The SDK client without a token fails to connect.
    const bare = httpClient(s.base, null);
    let failed = false;
    await bare.client.connect(bare.transport).catch(() => failed = true);
    assert(failed, "connect without a token must fail");

    const port = new URL(s.base).port;
    const cookie = httpClient(s.base, null, { cookie: `reinagent_${port}=${s.token}` });
    await cookie.client.connect(cookie.transport);
    assertEquals((await cookie.client.listTools()).tools.length, TOOL_NAMES.length);
    await cookie.client.close();

    const foreign = await fetch(`${s.base}/mcp`, {
      method: "POST",
      headers: { ...headers, authorization: `Bearer ${s.token}`, origin: "https://evil.example" },
      body: init,
    });
    assertEquals(foreign.status, 403);
    await foreign.body?.cancel();
  } finally {
    await s.stop();
  }
});

Deno.test("mcp /mcp attacks: bad arguments, oversize input, unknown ids and paths get clear errors", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("delegate", DELEGATE);
  const home = await homeWithProvider(mock.base, ["delegate"]);
  const s = await startTestServer({ home });
  const { client, transport } = httpClient(s.base, s.token);
  try {
    await client.connect(transport);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["create_task", { message: 42 }, /invalid_args: args\.message must be a string/],
      ["create_task", { mesage: "typo" }, /args\.mesage is not a known field/],
      ["create_task", { message: "x".repeat(200_001) }, /at most 200000 characters/],
      ["create_task", { message: "hi", approval: "yolo" }, /must be one of plan, ask, edit, full/],
      ["create_task", { message: "hi", projectPath: "relative/dir" }, /not an absolute path/],
      ["create_task", { message: "hi", projectPath: "/no/such/folder/anywhere" }, /^not_found/],
      ["create_task", { message: "hi", projectPath: "/etc/hostname" }, /is not a folder/],
      [
        "create_task",
        { message: "hi", model: { providerId: "mock", modelId: "nope" } },
        /mock\/nope is not an enabled model/,
      ],
      ["get_task_status", {}, /no task given/],
      ["get_task_status", { taskId: "../../etc/passwd" }, /args\.taskId has an invalid format/],
      ["get_task_status", { taskId: "t_doesnotexist" }, /^not_found/],
      ["wait_for_task", { taskId: "t_doesnotexist", timeoutSeconds: 1 }, /^not_found/],
      ["wait_for_task", { taskId: "t_x", timeoutSeconds: 100000 }, /between 1 and 600|at most 600/],
      ["send_message", { taskId: "t_doesnotexist", text: "hi" }, /^not_found/],
      ["send_message", { taskId: "t_x", text: "" }, /at least 1 characters/],
      ["approve_tool", { approvalId: "nope", decision: "allow" }, /^not_found: no approval nope/],
      [
        "approve_tool",
        { approvalId: "nope", decision: "maybe" },
        /must be one of allow, always, reject/,
      ],
      ["switch_task", { taskId: "t_doesnotexist" }, /^not_found/],
      ["remove_queued_message", { taskId: "t_doesnotexist", itemId: "q1" }, /^not_found/],
      ["mark_task_read", { taskId: "t_doesnotexist" }, /^not_found/],
      ["set_approval_mode", { taskId: "t_doesnotexist", mode: "full" }, /^not_found/],
      ["list_tasks", { limit: 0 }, /args\.limit/],
    ];
    for (const [name, args, re] of cases) {
      const r = await call(client, name, args);
      assert(
        r.isError,
        `${name} ${JSON.stringify(args).slice(0, 80)} should fail, got ${r.text.slice(0, 200)}`,
      );
      assertMatch(r.text, re, `${name}: ${r.text.slice(0, 300)}`);
    }
    // A real task: unknown queue item, bad thinking level for the mock (undeclared levels).
    const t = await ok(client, "create_task", {
      title: "empty",
      model: { providerId: "mock", modelId: "delegate" },
    });
    const q = await call(client, "remove_queued_message", { taskId: t.taskId, itemId: "q_nope" });
    assertMatch(q.text, /^not_found: no queued message q_nope/);
    const lvl = await call(client, "set_thinking_level", { taskId: t.taskId, level: "max" });
    assertMatch(lvl.text, /offers default, low, medium, high, not max/);
    const noApproval = await call(client, "approve_tool", { taskId: t.taskId, decision: "allow" });
    assertMatch(noApproval.text, /waits for no approval/);

    // An unknown tool is a protocol error; the session keeps working afterwards.
    let protocolError = "";
    await client.callTool({ name: "rm_rf", arguments: {} }).catch((e) => protocolError = String(e));
    assertMatch(protocolError, /unknown tool "rm_rf"/);

    // A request body over 2 MiB is refused before parsing; nothing was created.
    const before = (await ok(client, "list_tasks", {})).total;
    const big = await fetch(`${s.base}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${s.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 99,
        method: "tools/call",
        params: { name: "create_task", arguments: { message: "y".repeat(3 * 1024 * 1024) } },
      }),
    });
    assertEquals(big.status, 413);
    await big.body?.cancel();
    assertEquals((await ok(client, "list_tasks", {})).total, before);

    // A session id nobody issued.
    const stray = await fetch(`${s.base}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${s.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": "not-a-session",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assertEquals(stray.status, 404);
    await stray.body?.cancel();
  } finally {
    await client.close();
    await s.stop();
    await mock.close();
  }
});

Deno.test("mcp /mcp: a draft in a project folder, the queue while it waits, switch and stop", async () => {
  const mock = startMockLlm({ quiet: true });
  // The Demo model answers the draft's first turn (two assistant messages around its
  // list_dir); this one answers the turns after it.
  const unused = { text: "unused" };
  mock.register("later", { turns: [unused, unused, ...DELEGATE.turns], repeatLast: true });
  const home = await homeWithProvider(mock.base, ["later"]);
  const project = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-mcp-proj-" }));
  const s = await startTestServer({ home });
  const { client, transport } = httpClient(s.base, s.token);
  try {
    await client.connect(transport);
    const draft = await ok(client, "start_draft", { projectPath: project });
    assertEquals(draft.draft.projectPath, project);
    // A draft's first message creates the task there (the folder became a project).
    const first = await call(client, "send_message", { text: "hello" });
    assert(!first.isError, first.text);
    const taskId: string = first.data.taskId;
    assertEquals(first.data.task.projectPath, project);
    await ok(client, "set_model", { providerId: "mock", modelId: "later" });
    await ok(client, "wait_for_task", { timeoutSeconds: 20 });
    await ok(client, "send_message", { text: "run the check" });
    const waiting = await ok(client, "wait_for_task", { timeoutSeconds: 20 });
    assertEquals(waiting.outcome, "needs_decision");

    const queued = await ok(client, "send_message", { text: "and then this" });
    assertEquals(queued.sent, false);
    assert(queued.queuedItemId);
    const st = await ok(client, "get_task_status", {});
    assertEquals(st.queue.map((q: Json) => q.text), ["and then this"]);
    const removed = await ok(client, "remove_queued_message", { itemId: queued.queuedItemId });
    assertEquals(removed.queue, []);

    // Another task becomes current; switching back acts on the first again.
    const other = await ok(client, "create_task", { title: "second" });
    assert(other.taskId !== taskId);
    const sw = await ok(client, "switch_task", { taskId });
    assertEquals(sw.currentTask, taskId);
    assertEquals(sw.task.state, "waiting");
    const stopped = await ok(client, "stop_task", {});
    assertEquals(stopped.stopped, true);
    const after = await ok(client, "wait_for_task", { timeoutSeconds: 10 });
    assertEquals(after.outcome, "finished");
    assertEquals(after.task.state, "stopped");
    // The folder was added as a project, as the UI's "Add project" does.
    const ui = await TestClient.connect(s.base, s.token);
    const { projects } = await ui.request("projects.list");
    await ui.close();
    assertEquals(projects.map((p: Json) => p.path), [project]);
  } finally {
    await client.close();
    await s.stop();
    await mock.close();
    await Deno.remove(project, { recursive: true });
  }
});

function stdioClient(home: string) {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [...RUN_FLAGS, `${ROOT}main.ts`, "mcp", "serve", "--home", home],
    env: { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (b: Uint8Array) => stderr += new TextDecoder().decode(b));
  return {
    client: new Client({ name: "stdio-agent", version: "1.0.0" }),
    transport,
    stderr: () => stderr,
  };
}

Deno.test("mcp serve (stdio): relays to the running instance; its windows see the task", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("delegate", DELEGATE);
  const home = await homeWithProvider(mock.base, ["delegate"]);
  const s = await startTestServer({ home });
  const ui = await TestClient.connect(s.base, s.token);
  const c = stdioClient(home);
  try {
    await c.client.connect(c.transport);
    const taskId = await delegate(c.client);
    assertMatch(c.stderr(), /using the running instance at http:\/\/127\.0\.0\.1:/);
    const listed = await ui.request("tasks.list");
    assert(listed.tasks.some((t: Json) => t.id === taskId), "the server owns the task");
    const bad = await call(c.client, "get_task_status", { taskId: "t_nope" });
    assertMatch(bad.text, /^not_found/);
    // Oversize input over stdio: the server refuses the body, the caller gets an error.
    let big = "";
    await c.client.callTool({ name: "create_task", arguments: { message: "y".repeat(3 << 20) } })
      .catch((e) => big = String(e));
    assertMatch(big, /Payload Too Large: Request body must not exceed 2097152 bytes/);
    // The server went away: a clear error names it (no hang, no silence).
    await s.kill();
    let gone = "";
    await c.client.callTool({ name: "list_tasks", arguments: {} }).catch((e) => gone = String(e));
    assertMatch(gone, /ReinAgent at http:\/\/127\.0\.0\.1:\d+/);
  } finally {
    await c.client.close();
    await ui.close();
    await s.stop();
    await mock.close();
  }
});

Deno.test("mcp serve (stdio): with no server running it starts one in-process and stops with stdin", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("delegate", DELEGATE);
  const home = await homeWithProvider(mock.base, ["delegate"]);
  const c = stdioClient(home);
  try {
    await c.client.connect(c.transport);
    await delegate(c.client);
    assertMatch(c.stderr(), /started ReinAgent at http:\/\/127\.0\.0\.1:\d+/);
    // The in-process server is a real one: another client can attach while it runs.
    const info = JSON.parse(await Deno.readTextFile(`${home}/instance.json`));
    const token = (await Deno.readTextFile(`${home}/token`)).trim();
    const ui = await TestClient.connect(info.base, token);
    assert((await ui.request("tasks.list")).tasks.length === 1);
    await ui.close();
  } finally {
    await c.client.close();
    await mock.close();
  }
  // Closing stdin stopped the server: the instance file is gone.
  const deadline = Date.now() + 10_000;
  while (await Deno.stat(`${home}/instance.json`).then(() => true, () => false)) {
    if (Date.now() > deadline) throw new Error("the in-process server did not stop");
    await new Promise((r) => setTimeout(r, 100));
  }
});
