/**
 * Every built-in tool's result details (`meta`) are what its schema in
 * protocol/tool_details.ts declares — the type the UI's cards read. Each tool makes real
 * calls, successes and typical failures: most in a run of the agent (mock LLM, real
 * store, gate and runner, so a stored result is exactly what a client gets, with the
 * keys added around the tool), the rest in process (the web tools against a local
 * server, a question with its answer, a language server's report, MCP results). Every
 * result must pass its tool's schema, which rejects any key it does not declare.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { entries, env } from "./helpers/agent_env.ts";
import { PNG_1PX } from "./helpers/png.ts";
import { detailsSchema, TOOL_DETAILS } from "../protocol/tool_details.ts";
import type { Entry } from "../protocol/index.ts";
import { defaultTools } from "../tools/registry.ts";
import type { ToolContext, ToolResult } from "../tools/types.ts";
import { askUserQuestion, exitPlanMode } from "../tools/interactive.ts";
import { diagnosticsTool } from "../tools/diagnostics.ts";
import { glob } from "../tools/glob.ts";
import { makeWebfetch } from "../tools/web/webfetch.ts";
import { makeWebsearch } from "../tools/web/websearch.ts";
import type { FetchPolicy } from "../tools/web/ssrf.ts";
import { SandboxPool } from "../tools/sandbox/pool.ts";
import { ToolRunner } from "../agent/tool_runner.ts";
import { FileTracker } from "../agent/file_tracker.ts";
import { buildTools, convertResult } from "../server/mcp/tools.ts";
import { resourceTools } from "../server/mcp/resource_tools.ts";
import { INTERRUPTED_RESULT, recoveredRejection } from "../server/sessions/recovery.ts";

/** The problems of `meta` against tool `name`'s schema (none: it fits). */
function problems(name: string, meta: unknown): string[] {
  const schema = detailsSchema(name);
  if (!schema) return [`${name} has no details schema`];
  return schema.check(meta ?? {}, "meta");
}

/** Results seen per tool: how many succeeded and failed, each checked on the way in. */
class Seen {
  ok = new Set<string>();
  failed = new Set<string>();
  add(name: string, r: { isError: boolean; meta?: unknown }, label = name): void {
    assertEquals(problems(name, r.meta), [], `${label}: ${JSON.stringify(r.meta)}`);
    (r.isError ? this.failed : this.ok).add(name);
  }
  /** Stored tool entries: the name, the error flag and the details as a client reads them. */
  addEntries(list: Entry[]): void {
    for (const e of list) {
      if (e.role !== "tool") continue;
      const d = e.parts[0].data ?? {};
      const label = `${d.name}: ${(e.parts[0].text ?? "").split("\n")[0].slice(0, 120)}`;
      this.add(String(d.name), { isError: d.isError === true, meta: d.meta }, label);
    }
  }
}

const signal = new AbortController().signal;

Deno.test("details schemas: one per built-in tool, the shared keys where they are added, strict", () => {
  const tools = defaultTools().all();
  assertEquals(
    tools.map((t) => t.name).sort(),
    Object.keys(TOOL_DETAILS).filter((n) => n !== "mcp").sort(),
  );
  for (const t of tools) {
    const keys = Object.keys(detailsSchema(t.name)!.toJsonSchema().properties as object);
    const want = [
      "refusal",
      ...(t.placement !== "main" ? ["sandboxDenied"] : []),
      ...(t.traits.changesFiles ? ["changesFiles", "diagnostics"] : []),
      ...(t.kind === "exec" ? ["changedFiles", "unrewindable"] : []),
      ...(t.traits.writesPath && !t.traits.deletesPath ? ["file"] : []),
      ...(t.traits.writesPaths ? ["stamps"] : []),
    ];
    assertEquals(want.filter((k) => !keys.includes(k)), [], `${t.name} lacks shared keys`);
  }
  // A key a tool's details lack fails, at any level.
  assertEquals(problems("list_dir", { path: "a", bogus: 1 }), ["meta.bogus is not a known field"]);
  assertEquals(problems("write_file", { file: { abs: "/a", mtimeMs: 1, size: 2, x: 0 } }), [
    "meta.file.x is not a known field",
  ]);
  assertEquals(problems("read_file", { totalLines: "3" }), [
    "meta.totalLines must be an integer, got string",
  ]);
  assertEquals(detailsSchema("mcp__srv__tool"), TOOL_DETAILS.mcp);
  assertEquals([detailsSchema("nope"), detailsSchema("constructor")], [undefined, undefined]);
});

const PDF = `%PDF-1.4
1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj
4 0 obj<</Length 44>>stream
BT /F1 24 Tf 20 100 Td (Hello PDF) Tj ET
endstream endobj
5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj
trailer<</Root 1 0 R>>
%%EOF`;

const PATCH = `*** Begin Patch
*** Add File: added.txt
+new
*** Update File: src/a.ts
@@
-export const a = 1;
+export const a = 2;
*** End Patch`;

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, args });

Deno.test("a run's tool results: every stored result fits its tool's details", async () => {
  const e = await env();
  try {
    const ws = `${e.deps.home}/DefaultProject`;
    await Deno.mkdir(`${ws}/src`);
    await Deno.writeTextFile(`${ws}/notes.txt`, "alpha\nbeta\nalpha again\n");
    await Deno.writeTextFile(`${ws}/src/a.ts`, "export const a = 1;\n");
    await Deno.writeFile(`${ws}/dot.png`, PNG_1PX);
    await Deno.writeFile(`${ws}/blob.bin`, new Uint8Array([1, 0, 2, 0]));
    await Deno.writeTextFile(`${ws}/doc.pdf`, PDF);
    const job = "$match:Started (bg_[0-9a-f]+) in";
    const model = e.scenario({
      turns: [
        {
          toolCalls: [
            call("list_dir"),
            call("list_dir", { path: "nope" }),
            call("list_dir", { path: "/etc" }), // refused: outside the workspace
            call("read_file", { path: "notes.txt" }),
            call("read_file", { path: "notes.txt", limit: 1 }),
            call("read_file", { path: "dot.png" }),
            call("read_file", { path: "doc.pdf" }),
            call("read_file", { path: "blob.bin" }),
            call("read_file", { path: "missing.txt" }),
            call("glob", { pattern: "**/*.ts" }),
            call("glob", { pattern: "nope/**/*.ts" }),
            call("glob", { pattern: "src/[" }),
            call("grep", { pattern: "alpha" }),
            call("grep", { pattern: "a", limit: 1 }),
            call("grep", { pattern: "(" }),
            call("webfetch", { url: "http://127.0.0.1:9/" }), // refused: loopback
            call("todo_write", { todos: [{ content: "Check", status: "in_progress" }] }),
            call("todo_write", { todos: [{ content: " ", status: "pending" }] }),
            call("diagnostics", { paths: ["notes.txt"] }), // no language server here
          ],
        },
        {
          toolCalls: [
            call("write_file", { path: "new.txt", content: "one\ntwo\n" }),
            call("write_file", { path: "src", content: "x" }),
            call("edit_file", { path: "notes.txt", old_string: "beta", new_string: "gamma" }),
            call("edit_file", { path: "notes.txt", old_string: "zzz", new_string: "y" }),
            call("delete_file", { path: "new.txt" }),
            call("delete_file", { path: "never-read.txt" }),
            call("apply_patch", { input: PATCH }),
            call("apply_patch", { input: "not a patch" }),
          ],
        },
        {
          toolCalls: [
            call("exec_command", { command: "echo out; echo err >&2; exit 3" }),
            call("exec_command", { command: "echo made > made.txt" }),
            call("exec_command", { command: "true", cwd: "nope" }),
            call("exec_command", { command: "sleep 5", timeout: 0.3 }),
            call("background_bash", { command: "echo started; sleep 30" }),
            call("background_bash", { command: " " }),
          ],
        },
        {
          toolCalls: [
            call("task_output", { id: job }),
            call("task_stop", { id: job }),
            call("task_stop", { id: job }), // already stopped
            call("task_output", { id: job, offset: 0 }),
            call("task_output", { id: "bg_nope" }),
            call("task_stop", { id: "bg_nope" }),
          ],
        },
        {
          toolCalls: [
            call("memory", { action: "write", title: "Tests", body: "Run deno task test." }),
            call("memory", { action: "list" }),
            call("memory", { action: "search", query: "deno" }),
            call("memory", { action: "read", id: "nope" }),
            call("exit_plan_mode", { plan: "Do it." }), // refused: not in plan mode
            // Refused by the gate: a blank question.
            call("ask_user_question", {
              questions: [{ question: " ", options: [{ label: "A" }, { label: "B" }] }],
            }),
          ],
        },
        {
          toolCalls: [
            call("agent", {
              description: "Look around",
              prompt: "List the workspace (foreground).",
              subagent_type: "explorer",
            }),
            call("agent", {
              description: "Look again",
              prompt: "List the workspace (background).",
              subagent_type: "explorer",
              run_in_background: true,
            }),
            call("agent", { description: "x", prompt: "y", subagent_type: "no-such-type" }),
          ],
        },
        {
          toolCalls: [
            call("subagent_output", {
              id: "$match:Background sub-agent (\\S+) started",
              wait: true,
            }),
            call("subagent_output", { id: "sa_nope" }),
          ],
        },
        { text: "Done." },
      ],
      branches: [{
        when: "type: explorer)",
        turns: [{ toolCalls: [call("list_dir")] }, { text: "Report: four files." }],
      }],
    });
    const { task } = e.deps.tasks!.create({
      title: "details",
      message: "go",
      options: { model, approval: "full" },
    });
    const outcome = await e.deps.runs!.start(task.id);
    assertEquals(outcome?.kind, "done");
    const list = entries(e, task.id);
    const seen = new Seen();
    seen.addEntries(list);
    // The sub-agents' own tool results are stored the same way.
    for (const run of e.deps.runs!.subagents.list(task.id)) {
      seen.addEntries(e.deps.store.repos!.subagents.entries(run.id));
    }
    const byName = (n: string) =>
      list.filter((x) => x.role === "tool" && x.parts[0].data?.name === n)
        .map((x) => x.parts[0].data?.meta as Record<string, unknown> | undefined);
    // The keys added around the tools are there (and passed the schemas above).
    assert(byName("list_dir").some((m) => m?.refusal), "a path refusal");
    assert(byName("read_file").some((m) => m?.file && m?.images), "an image with its stamp");
    assert(byName("read_file").some((m) => m?.pdfPages === 1), "a PDF");
    assert(byName("write_file").some((m) => m?.changesFiles && m?.file), "a change mark");
    assert(byName("apply_patch").some((m) => Array.isArray(m?.stamps)), "the patch's stamps");
    assert(byName("exec_command").some((m) => m?.segments), "stderr apart");
    assert(byName("exec_command").some((m) => m?.killedWith), "a timeout");
    assert(
      byName("exec_command").some((m) => typeof m?.changedFiles === "number" && m.changedFiles > 0),
      "the command's file changes",
    );
    assert(byName("exit_plan_mode").some((m) => m?.refusal), "a gate refusal");
    assert(byName("agent").some((m) => m?.subagent), "a sub-agent's run");
    // Not here: diagnostics (no language server in tests), websearch (no internet).
    const ran = defaultTools().names().filter((n) => n !== "diagnostics" && n !== "websearch");
    assertEquals(ran.filter((n) => !seen.ok.has(n) && !seen.failed.has(n)), [], "every tool ran");
    assertEquals(
      ran.filter((n) => !seen.ok.has(n)).sort(),
      ["ask_user_question", "exit_plan_mode", "webfetch"],
      "these only fail in this run (see the next test)",
    );
    assertEquals(ran.filter((n) => !seen.failed.has(n)), [], "every tool also failed once");
  } finally {
    await e.close();
  }
});

Deno.test("in process: questions, plans, language servers, the runner's diagnostics, glob stopped", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-details-" }));
  const seen = new Seen();
  const ctx: ToolContext = { workspace: dir, roots: [dir], signal };
  const answers = [{ question: "Which?", answers: ["A"] }];
  seen.add(
    "ask_user_question",
    await askUserQuestion.execute(questionArgs, { ...ctx, answer: answers }),
  );
  seen.add("ask_user_question", await askUserQuestion.execute(questionArgs, ctx));
  seen.add("exit_plan_mode", await exitPlanMode.execute({ plan: "Do it." }, ctx));
  seen.add("exit_plan_mode", await exitPlanMode.execute({ plan: " " }, ctx));
  const diagnose = (paths: string[]) =>
    Promise.resolve(paths.map((path) => ({
      path,
      line: 1,
      column: 2,
      severity: "error" as const,
      message: "Cannot find name 'x'.",
    })));
  await Deno.writeTextFile(`${dir}/a.ts`, "x;\n");
  seen.add("diagnostics", await diagnosticsTool.execute({ paths: ["a.ts"] }, { ...ctx, diagnose }));
  seen.add(
    "diagnostics",
    await diagnosticsTool.execute(
      { paths: ["a.ts"] },
      { ...ctx, diagnose: () => Promise.resolve([]) },
    ),
  );
  seen.add(
    "diagnostics",
    await diagnosticsTool.execute({ paths: ["/etc/passwd"] }, { ...ctx, diagnose }),
  );
  const stopped = new AbortController();
  stopped.abort();
  seen.add("glob", await glob.execute({ pattern: "**/*" }, { ...ctx, signal: stopped.signal }));
  // What the language servers report after a change is added to the change's details.
  const pool = new SandboxPool();
  try {
    const runner = new ToolRunner(defaultTools(), pool);
    const rctx = {
      ...ctx,
      roots: [dir],
      tracker: new FileTracker(),
      afterChange: diagnose,
    };
    const w = await runner.checkAndRun(
      { id: "1", name: "write_file", args: { path: "b.ts", content: "y;\n" } },
      rctx,
    );
    assertEquals(w.meta?.diagnostics?.length, 1);
    seen.add("write_file", w);
  } finally {
    pool.closeAll();
  }
  // Results for calls left waiting when the app stopped.
  for (const name of Object.keys(TOOL_DETAILS).filter((n) => n !== "mcp")) {
    seen.add(name, recoveredRejection(name));
    seen.add(name, INTERRUPTED_RESULT);
  }
  assertEquals([...seen.ok].sort(), [
    "ask_user_question",
    "diagnostics",
    "exit_plan_mode",
    "write_file",
  ]);
  await Deno.remove(dir, { recursive: true });
});

const questionArgs = {
  questions: [{ question: "Which?", options: [{ label: "A" }, { label: "B" }] }],
};

type Handler = (req: Request) => Response | Promise<Response>;
async function withServer(handler: Handler, fn: (base: string) => Promise<void>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}
const page = (body: BodyInit, type = "text/html; charset=utf-8", status = 200) =>
  new Response(body, { status, headers: { "content-type": type } });

const RESULTS = `<div class="results">
<div class="result result--ad"><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=shop.test&amp;u3=x">Ad</a></div>
<div class="result"><a class="result__a" href="/l/?uddg=https%3A%2F%2Fdocs.example.com%2F">Docs</a>
<a class="result__snippet">The docs.</a></div>
<div class="result"><a class="result__a" href="https://other.org/">Other</a></div></div>`;

Deno.test("web tools against a local server: pages, redirects, errors, refusals, searches", async () => {
  const seen = new Seen();
  const ctx: ToolContext = { workspace: ".", signal };
  const local: FetchPolicy = { allowHosts: ["127.0.0.1"], upgradeHttp: false };
  await withServer((req) => {
    const path = new URL(req.url).pathname;
    const n = Number(path.match(/^\/r\/(\d+)$/)?.[1]);
    if (n > 0) return new Response(null, { status: 302, headers: { location: `/r/${n - 1}` } });
    if (path === "/r/0") return page("<title>End</title><p>end</p>");
    if (path === "/missing") return page("<p>nothing here</p>", "text/html", 404);
    if (path === "/bin") return page(new Uint8Array([0, 1, 2]), "application/octet-stream");
    if (path === "/evil") {
      return new Response(null, { status: 302, headers: { location: "http://10.0.0.1/" } });
    }
    if (path === "/html/") {
      const q = new URL(req.url).searchParams.get("q");
      if (q === "boom") return page("oops", "text/plain", 500);
      if (q === "empty") {
        return page(`<div class="results"><div class="no-results">No results.</div></div>`);
      }
      return page(RESULTS);
    }
    return page("<title>Hello</title><p>Hello <a href='/x'>there</a></p>");
  }, async (base) => {
    const fetchTool = makeWebfetch(local);
    for (const url of [`${base}/`, `${base}/`, `${base}/r/2`, `${base}/missing`, `${base}/bin`]) {
      seen.add("webfetch", await fetchTool.execute({ url, prompt: "the greeting" }, ctx));
    }
    seen.add("webfetch", await fetchTool.execute({ url: `${base}/r/9` }, ctx)); // too many
    seen.add("webfetch", await fetchTool.execute({ url: `${base}/evil` }, ctx)); // private hop
    seen.add("webfetch", await makeWebfetch().execute({ url: `${base}/` }, ctx)); // loopback
    seen.add("webfetch", await fetchTool.execute({ url: "ftp://x/" }, ctx));
    const search = makeWebsearch({ baseUrl: `${base}/html/` });
    for (const args of [{ query: "docs" }, { query: "docs", blocked_domains: ["example.com"] }]) {
      seen.add("websearch", await search.execute(args, ctx));
    }
    for (const query of ["empty", "boom", " "]) {
      seen.add("websearch", await search.execute({ query }, ctx));
    }
  });
  assertEquals([...seen.ok].sort(), ["webfetch", "websearch"]);
  assertEquals([...seen.failed].sort(), ["webfetch", "websearch"]);
});

Deno.test("MCP tools: results with text, images, links and structured content; failures", async () => {
  const seen = new Seen();
  const name = "mcp__srv__echo";
  const png = PNG_1PX.toBase64();
  seen.add(name, convertResult("srv", "echo", { content: [{ type: "text", text: "hi" }] }));
  seen.add(
    name,
    convertResult("srv", "echo", {
      content: [
        { type: "image", mimeType: "image/png", data: png },
        { type: "image", mimeType: "image/x-icon", data: png },
        { type: "resource_link", uri: "file:///a", name: "a", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "file:///b", text: "b" } },
      ],
      structuredContent: { n: 1 },
    }),
  );
  seen.add(name, convertResult("srv", "echo", { content: [], isError: true }));
  const config = { id: "srv", command: "none" } as Parameters<typeof buildTools>[0]["config"];
  const [tool] = buildTools({
    config,
    tools: [{ name: "echo", inputSchema: { type: "object" } }],
    call: () => Promise.reject(new Error("the server went away")),
  }, new Set()).tools;
  seen.add(tool.name, await tool.execute({}, { workspace: ".", signal }));
  const [list, read] = resourceTools({
    config,
    list: () => Promise.resolve({ resources: [{ uri: "file:///a", name: "a" }] }),
    read: () => Promise.reject(new Error("gone")),
  }, new Set());
  seen.add(list.name, await list.execute({}, { workspace: ".", signal }));
  seen.add(read.name, await read.execute({ uri: "file:///a" }, { workspace: ".", signal }));
  const details = convertResult("srv", "echo", {
    content: [{ type: "image", mimeType: "image/png", data: png }],
  }).meta;
  assertEquals([details?.mcp?.images.length, details?.mcp?.server], [1, "srv"]);
  // Every MCP tool is checked against the one `mcp` schema.
  assertEquals([...seen.ok].sort(), ["mcp__srv__echo", "mcp__srv__list_resources"]);
});

Deno.test("typing: a tool's details are checked where they are written", () => {
  const r: ToolResult = { content: "", isError: false, meta: { count: 1 } };
  assertEquals(r.meta?.count, 1);
  // @ts-expect-error: no tool writes `bogus`
  const bad: ToolResult = { content: "", isError: false, meta: { bogus: 1 } };
  assert(bad);
});
