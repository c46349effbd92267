/** `reinagent run` headless flags: stdin, --continue, --max-turns, tool lists, system prompt, formats, pipes. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { reinagent } from "./helpers/cli.ts";
import { ROOT, runFlagsFor } from "./helpers/server.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import type { MockTurn } from "../scripts/mock_llm/scenario.ts";
import { parseRunArgs, splitToolList } from "../server/cli/run_args.ts";

const ENTRY = `${ROOT}main.ts`;

/** The program with `input` on stdin and stdout read by `reader` (e.g. stop after a line). */
async function withStdin(args: string[], input: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...runFlagsFor(ENTRY), ENTRY, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(input));
  await w.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

type Req = { messages: { role: string; content: unknown }[] };
const userText = (r: Req) =>
  r.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content)).join("\n");

async function env(turns: MockTurn[], model = "m") {
  const mock = startMockLlm({ quiet: true });
  mock.register(model, { turns });
  const home = await homeWithProvider(mock.base, [model]);
  const project = await Deno.realPath(await Deno.makeTempDir());
  const base = ["--home", home, "--project", project, "--model", `mock/${model}`];
  return { mock, home, project, base };
}

Deno.test("run flags parser: formats, --json alias, tool lists, bad values", () => {
  const a = parseRunArgs(["-", "--output-format", "json", "--max-turns", "3"]);
  assert(!("error" in a));
  assertEquals([a.prompt, a.format, a.json, a.maxTurns], ["-", "json", false, 3]);
  const j = parseRunArgs(["x", "--json"]);
  assert(!("error" in j));
  assertEquals([j.format, j.json], ["stream-json", true]);
  assertEquals(
    parseRunArgs(["x", "--json", "--output-format", "text"]),
    { error: "--json is --output-format stream-json; give one of them" },
  );
  assertEquals(parseRunArgs(["x", "--output-format", "xml"]), {
    error: "--output-format must be one of text, json, stream-json",
  });
  assertEquals(parseRunArgs(["x", "--max-turns", "0"]), {
    error: "--max-turns must be a whole number from 1 to 10000",
  });
  assertEquals(parseRunArgs(["x", "--continue", "--task", "t1"]), {
    error: "--continue and --task cannot be combined",
  });
  const t = parseRunArgs([
    "x",
    "--allowed-tools",
    "read_file,exec_command(npm test *)",
    "--disallowed-tools",
    "exec_command(git push *) webfetch",
  ]);
  assert(!("error" in t));
  assertEquals(t.rules, [
    { rule: "read_file", policy: "allow" },
    { rule: "exec_command(npm test *)", policy: "allow" },
    { rule: "exec_command(git push *)", policy: "deny" },
    { rule: "webfetch", policy: "deny" },
  ]);
  assertEquals(parseRunArgs(["x", "--allowed-tools", "bad rule("]), {
    error: "--allowed-tools: not a tool name or rule: rule(",
  });
  assertEquals(splitToolList("a, b(c, d) e"), ["a", "b(c, d)", "e"]);
});

Deno.test("run -: the prompt comes from stdin", async () => {
  const e = await env([{ text: "read it" }]);
  try {
    const r = await withStdin(["run", "-", ...e.base], "summarise the piped text\n");
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /read it/);
    assertMatch(userText(e.mock.requests("m")[0].body as Req), /summarise the piped text/);
    const empty = await withStdin(["run", "-", ...e.base], "  \n");
    assertEquals(empty.code, 2);
    assertMatch(empty.stderr, /read no prompt from stdin/);
  } finally {
    await e.mock.close();
  }
});

Deno.test("run --continue: the project's last task goes on; --output-format json prints one result", async () => {
  const e = await env([{ text: "first answer" }, { text: "second answer" }]);
  try {
    const first = await reinagent(["run", "one", ...e.base, "--output-format", "json"]);
    assertEquals(first.code, 0, first.stderr);
    const lines = first.stdout.trim().split("\n");
    assertEquals(lines.length, 1, "one object, nothing streamed");
    const res = JSON.parse(lines[0]);
    assertEquals([res.type, res.outcome, res.result, res.exitCode], [
      "result",
      "done",
      "first answer",
      0,
    ]);
    const again = await reinagent(["run", "two", ...e.base, "--continue", "--json"]);
    assertEquals(again.code, 0, again.stderr);
    const done = JSON.parse(again.stdout.trim().split("\n").at(-1)!);
    assertEquals(done.taskId, res.taskId, "the same task");
    // The conversation's requests (the first run's title request went to the same model).
    const conversation = e.mock.requests("m").map((r) => r.body as Req)
      .filter((b) => !JSON.stringify(b).includes("short titles"));
    const second = conversation[1];
    assertMatch(userText(second), /one[\s\S]*two/);
    // No task in another folder: said, exit 2.
    const other = await Deno.makeTempDir();
    const none = await reinagent([
      "run",
      "x",
      ...e.base.slice(0, 2),
      "--project",
      other,
      "--continue",
    ]);
    assertEquals(none.code, 2);
    assertMatch(none.stderr, /--continue found no task/);
  } finally {
    await e.mock.close();
  }
});

Deno.test("run --max-turns: the turn stops at the step cap (exit 3)", async () => {
  const call = { toolCalls: [{ name: "list_dir", args: { path: "." } }] };
  const e = await env([call, call, call, { text: "never" }]);
  try {
    const r = await reinagent(["run", "loop", ...e.base, "--max-turns", "2", "--approval", "full"]);
    assertEquals(r.code, 3, r.stderr);
    assertEquals(r.stdout.includes("never"), false);
    assertMatch(r.stderr, /run ended: Step limit reached/);
  } finally {
    await e.mock.close();
  }
});

Deno.test("run --allowed-tools / --disallowed-tools / --append-system-prompt reach the task", async () => {
  const e = await env([
    { toolCalls: [{ name: "exec_command", args: { command: "echo ok && git push" } }] },
    { text: "done" },
  ]);
  try {
    const r = await reinagent([
      "run",
      "push it",
      ...e.base,
      "--approval",
      "full",
      "--allowed-tools",
      "exec_command(echo *)",
      "--disallowed-tools",
      "exec_command(git push *)",
      "--append-system-prompt",
      "Always answer in French.",
      "--json",
    ]);
    assertEquals(r.code, 0, r.stderr);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const result = events.find((x) => x.type === "tool_result");
    assertEquals(result.isError, true);
    assertMatch(result.content, /denied by this task's rule `exec_command\(git push \*\)`/);
    const sys = (e.mock.requests("m")[0].body as Req).messages[0];
    assertEquals(sys.role, "system");
    assertMatch(JSON.stringify(sys.content), /Always answer in French\./);
  } finally {
    await e.mock.close();
  }
});

Deno.test("run --json | head: a reader that leaves ends the run quietly", async () => {
  const long = "word ".repeat(40_000);
  const e = await env([{ text: long }]);
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [...runFlagsFor(ENTRY), ENTRY, "run", "talk", ...e.base, "--json"],
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
      env: { NO_COLOR: "1" },
    }).spawn();
    // Read one chunk, then close the pipe as `head` does.
    const reader = child.stdout.getReader();
    const first = await reader.read();
    assert(!first.done);
    await reader.cancel();
    const err = new Response(child.stderr).text();
    const status = await child.status;
    assertEquals((await err).includes("BrokenPipe"), false, await err);
    assertEquals(status.code, 0);
  } finally {
    await e.mock.close();
  }
});
