/**
 * A tool is one definition: its argument schema gives the model's JSON Schema (the same
 * as the hand-written schemas it replaced) and is checked once before the tool runs.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { defaultTools, ToolRegistry } from "../tools/registry.ts";
import { defineTool } from "../tools/define.ts";
import { describeShape, jsonSchemaArgs } from "../tools/json_schema.ts";
import { readFile } from "../tools/read_file.ts";
import { ok } from "../tools/types.ts";
import { bool, doc, int, nullable, num, obj, str } from "../protocol/schema.ts";
import { ToolRunner } from "../agent/tool_runner.ts";
import { FileTracker } from "../agent/file_tracker.ts";
import type { SandboxPool } from "../tools/sandbox/pool.ts";
import { WORKER_TOOLS } from "../tools/worker_tools.ts";

/** The JSON Schemas the tools had as hand-written objects before `defineTool`. */
const BEFORE: Record<string, { description: string; parameters: Record<string, unknown> }> = JSON
  .parse(await Deno.readTextFile(new URL("./fixtures/tool_schemas.json", import.meta.url)));

const signal = new AbortController().signal;
const ctx = { workspace: "/nonexistent-ws", signal };

Deno.test("JSON Schema: every tool tells the model what its hand-written schema said", () => {
  const specs = defaultTools().specs();
  assertEquals(specs.map((s) => s.name).sort(), Object.keys(BEFORE).sort());
  for (const s of specs) {
    assertEquals(s.parameters, BEFORE[s.name].parameters, s.name);
    assertEquals(s.description, BEFORE[s.name].description, s.name);
  }
  // The important parts spelled out, so a changed fixture cannot hide them.
  // deno-lint-ignore no-explicit-any
  const p = (name: string) => specs.find((s) => s.name === name)!.parameters as Record<string, any>;
  assertEquals(p("read_file").required, ["path"]);
  assertEquals(p("read_file").additionalProperties, false);
  assertEquals(p("read_file").properties.limit, {
    type: "integer",
    minimum: 1,
    maximum: 2000,
    description: "Number of lines",
  });
  assertEquals(p("read_file").properties.offset.maximum, undefined, "no upper bound");
  assertEquals(p("edit_file").required, ["path", "old_string", "new_string"]);
  assertEquals(p("list_dir").required, undefined, "nothing required: no empty list");
  assertEquals(p("todo_write").properties.todos.maxItems, 50);
  assertEquals(p("todo_write").properties.todos.items.properties.status.enum, [
    "pending",
    "in_progress",
    "completed",
  ]);
  assertEquals(p("exec_command").properties.timeout.exclusiveMinimum, 0);
  assertEquals(p("exec_command").properties.timeout.maximum, 600);
  const q = p("ask_user_question").properties.questions;
  assertEquals([q.minItems, q.maxItems], [1, 4]);
  assertEquals([q.items.properties.options.minItems, q.items.properties.options.maxItems], [2, 4]);
  assertEquals(q.items.properties.options.items.required, ["label"]);
  assertEquals(p("websearch").properties.allowed_domains.items, { type: "string" });
  assertEquals(p("websearch").properties.allowed_domains.maxItems, undefined);
});

Deno.test("builders: toJsonSchema of each kind, bounds of Infinity left out", () => {
  assertEquals(str({ min: 1, max: 80, pattern: /^a/ }).toJsonSchema(), {
    type: "string",
    minLength: 1,
    maxLength: 80,
    pattern: "^a",
  });
  assertEquals(str({ max: Infinity }).toJsonSchema(), { type: "string" });
  assertEquals(int({ min: 0, max: Infinity }).toJsonSchema(), { type: "integer", minimum: 0 });
  assertEquals(num({ min: 0, max: 5, minExclusive: true }).toJsonSchema(), {
    type: "number",
    exclusiveMinimum: 0,
    maximum: 5,
  });
  assertEquals(nullable(bool).toJsonSchema(), { anyOf: [{ type: "boolean" }, { type: "null" }] });
  assertEquals(doc(bool, "why").toJsonSchema(), { type: "boolean", description: "why" });
  assertEquals(int({ min: 1, max: Infinity }).check(0, "args.n"), ["args.n must be at least 1"]);
  assertEquals(num({ min: 0, max: 5, minExclusive: true }).check(0, "args.t"), [
    "args.t must be above 0 and at most 5",
  ]);
  assertEquals(num({ min: 0, max: 5 }).check(Infinity, "args.t"), [
    "args.t must be a finite number",
  ]);
});

/** A tool whose execute counts its runs, to prove bad arguments never reach it. */
function probe(placement: "main" | "worker-write" = "main") {
  const seen: unknown[] = [];
  const tool = defineTool<{ path: string; count?: number; deep?: { on: boolean } }>({
    name: "probe",
    description: "test",
    args: obj({
      path: str({ max: Infinity }),
      "count?": int({ min: 1, max: 10 }),
      "deep?": obj({ on: bool }),
    }),
    kind: placement === "main" ? "read" : "write",
    placement,
    traits: { writesPath: placement !== "main" },
    execute(args) {
      seen.push(args);
      return Promise.resolve(ok(`ran ${args.path}`));
    },
  });
  return { tool, seen };
}

Deno.test("validation: wrong type, missing, unknown, out of range — clear errors, execute never runs", async () => {
  const { tool, seen } = probe();
  const expected = "Expected: {path: string, count?: integer 1–10, deep?: {on: boolean}}";
  const cases: [unknown, string][] = [
    [{ path: 5 }, `probe: args.path must be a string, got number. ${expected}`],
    [{}, `probe: args.path is required. ${expected}`],
    [{ path: "a", colour: "red" }, `probe: args.colour is not a known field. ${expected}`],
    [{ path: "a", count: 11 }, `probe: args.count must be between 1 and 10. ${expected}`],
    [{ path: "a", count: 1.5 }, `probe: args.count must be an integer, got number. ${expected}`],
    [
      { path: "a", deep: { on: "yes" } },
      `probe: args.deep.on must be a boolean, got string. ${expected}`,
    ],
    [[], `probe: args must be an object, got array. ${expected}`],
  ];
  for (const [args, message] of cases) {
    const r = await tool.execute(args, ctx);
    assertEquals([r.isError, r.content], [true, message], JSON.stringify(args));
  }
  const several = await tool.execute({ path: 1, count: 0, x: 1, y: 2, z: 3 }, ctx);
  assertMatch(
    several.content,
    /^probe: args\.x is not a known field; .+ \(and 1 more\)\. Expected/,
  );
  assertEquals(seen, [], "execute never ran on bad arguments");
  assertEquals((await tool.execute({ path: "a", count: 3 }, ctx)).content, "ran a");
  // An optional argument sent as null means "not given" (models do this).
  assertEquals((await tool.execute({ path: "b", count: null }, ctx)).content, "ran b");
  assertEquals(seen, [{ path: "a", count: 3 }, { path: "b" }]);
  assertEquals(
    (await tool.execute({ path: null }, ctx)).isError,
    true,
    "a required null stays wrong",
  );
});

Deno.test("validation: a real tool's error names the tool and the expected shape", async () => {
  const r = await readFile.execute({ path: 5 }, ctx);
  assertEquals(
    r.content,
    "read_file: args.path must be a string, got number. " +
      "Expected: {path: string, offset?: integer ≥ 1, limit?: integer 1–2000}",
  );
});

Deno.test("runner: arguments are checked before any checkpoint or worker post", async () => {
  const { tool, seen } = probe("worker-write");
  const posted: unknown[] = [];
  const pool = {
    run: (...a: unknown[]) => {
      posted.push(a);
      return Promise.resolve(ok("worker ran"));
    },
  } as unknown as SandboxPool;
  const runner = new ToolRunner(new ToolRegistry([tool]), pool);
  const written: string[] = [];
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-define-" }));
  const rctx = {
    workspace: dir,
    roots: [dir],
    signal,
    tracker: new FileTracker(),
    beforeWrite: (abs: string) => Promise.resolve(void written.push(abs)),
  };
  const bad = await runner.checkAndRun({
    id: "1",
    name: "probe",
    args: { path: "a.txt", count: 0 },
  }, rctx);
  assertMatch(bad.content, /^probe: args\.count must be between 1 and 10\. Expected: /);
  assertEquals([posted.length, written.length, seen.length], [0, 0, 0]);
  const good = await runner.checkAndRun({ id: "2", name: "probe", args: { path: "a.txt" } }, rctx);
  assertEquals([good.content, posted.length, written], ["worker ran", 1, [`${dir}/a.txt`]]);
  // The worker is handed the checked arguments (here: with the null optional dropped).
  await runner.checkAndRun({ id: "3", name: "probe", args: { path: "b.txt", count: null } }, rctx);
  assertEquals((posted[1] as unknown[])[3], { path: "b.txt" });
});

Deno.test("traits: change tools mark their successful results, reads do not", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-define-" }));
  const c = { workspace: dir, signal };
  const w = await WORKER_TOOLS.write_file.execute({ path: "n.txt", content: "x" }, c);
  assertEquals(w.meta?.changesFiles, true);
  const r = await WORKER_TOOLS.read_file.execute({ path: "n.txt" }, c);
  assertEquals(r.meta?.changesFiles, undefined);
  const missing = await WORKER_TOOLS.delete_file.execute({ path: "nope.txt" }, c);
  assertEquals([missing.isError, missing.meta?.changesFiles], [true, undefined]);
  const names = defaultTools().names().filter((n) => defaultTools().get(n)!.traits.changesFiles);
  assertEquals(names, ["write_file", "edit_file", "delete_file", "apply_patch"]);
});

Deno.test("raw JSON Schema (MCP): validated by the small validator, given to the model unchanged", async () => {
  const schema = {
    type: "object",
    properties: {
      repo: { type: "string", minLength: 1, description: "owner/name" },
      state: { enum: ["open", "closed"] },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      labels: { type: "array", items: { type: "string" }, maxItems: 3 },
      since: { anyOf: [{ type: "string" }, { type: "null" }] },
    },
    required: ["repo"],
  };
  let runs = 0;
  const tool = defineTool({
    name: "mcp__github__list_issues",
    description: "List issues",
    args: jsonSchemaArgs(schema),
    kind: "read",
    placement: "main",
    execute: () => Promise.resolve(ok(`ran ${++runs}`)),
  });
  assert(tool.parameters === schema);
  const expected = 'Expected: {repo: string, state?: "open" | "closed", limit?: integer 1–100, ' +
    "labels?: string[] (≤ 3 items), since?: string | null}";
  const cases: [unknown, string][] = [
    [{}, "args.repo is required"],
    [{ repo: 1 }, "args.repo must be a string, got number"],
    [{ repo: "" }, "args.repo must have at least 1 characters"],
    [{ repo: "a", state: "merged" }, 'args.state must be one of "open", "closed"'],
    [{ repo: "a", limit: 0 }, "args.limit must be between 1 and 100"],
    [{ repo: "a", limit: 2.5 }, "args.limit must be an integer, got number"],
    [{ repo: "a", labels: ["x", 2] }, "args.labels[1] must be a string, got number"],
    [{ repo: "a", since: 3 }, "args.since must be string or null"],
  ];
  for (const [args, problem] of cases) {
    assertEquals(
      (await tool.execute(args, ctx)).content,
      `mcp__github__list_issues: ${problem}. ${expected}`,
    );
  }
  assertEquals(runs, 0);
  // Unknown keys pass unless the schema says additionalProperties: false (JSON Schema's rule).
  assertEquals((await tool.execute({ repo: "a", extra: 1, since: null }, ctx)).content, "ran 1");
  const closed = jsonSchemaArgs({ ...schema, additionalProperties: false });
  assertEquals(closed.check({ repo: "a", extra: 1 }, "args"), ["args.extra is not a known field"]);
});

Deno.test("describeShape: nested tool schemas read like types", () => {
  const ask = defaultTools().get("ask_user_question")!.parameters;
  assertEquals(
    describeShape(ask),
    "{questions: {question: string, header?: string, multi_select?: boolean, options: " +
      "{label: string, description?: string, recommended?: boolean}[] (2–4 items)}[] (1–4 items)}",
  );
  const exec = defaultTools().get("exec_command")!.parameters;
  assertEquals(describeShape(exec), "{command: string, cwd?: string, timeout?: number > 0, ≤ 600}");
});
