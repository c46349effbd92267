/** `reinagent run` with slash commands: expanded by the server exactly as for the UI. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { reinagent } from "./helpers/cli.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";

const cli = (args: string[]) => reinagent(args);

const AGENTS = "# AGENTS.md\n\n- Test: `deno task test`\n";

Deno.test('run "/init": the model gets the init prompt and writes AGENTS.md', async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("init", {
    turns: [
      {
        text: "Writing it.",
        toolCalls: [{ name: "write_file", args: { path: "AGENTS.md", content: AGENTS } }],
      },
      { text: "Created AGENTS.md with the test command." },
    ],
  });
  try {
    const home = await homeWithProvider(mock.base, ["init"]);
    const project = await Deno.makeTempDir();
    await Deno.writeTextFile(`${project}/deno.json`, '{"tasks":{"test":"deno test"}}');
    const r = await cli([
      "run",
      "/init",
      "--home",
      home,
      "--project",
      project,
      "--model",
      "mock/init",
    ]);
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /Created AGENTS\.md/);
    const turns = mock.requests("init").map((q) => JSON.stringify(q.body.messages))
      .filter((m) => !m.includes("You write short titles"));
    const first = turns[0];
    assertMatch(first, /Create or update the AGENTS.md file of this workspace/);
    assertEquals(await Deno.readTextFile(`${project}/AGENTS.md`), AGENTS);
  } finally {
    await mock.close();
  }
});

Deno.test('run "/help", "/goal …", "/clear": answered without the model', async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("quiet", { turns: [{ text: "should not be asked" }] });
  try {
    const home = await homeWithProvider(mock.base, ["quiet"]);
    const help = await cli(["run", "/help", "--home", home]);
    assertEquals(help.code, 0, help.stderr);
    assertMatch(help.stdout, /\/init \[notes\] — Create or update AGENTS\.md/);
    assertMatch(help.stdout, /@path/);
    const goal = await cli([
      "run",
      "/goal Finish the port",
      "--home",
      home,
      "--model",
      "mock/quiet",
    ]);
    assertEquals(goal.code, 0, goal.stderr);
    assertMatch(goal.stdout, /Goal set: Finish the port/);
    const id = /task (t\S+)/.exec(goal.stderr)?.[1] ?? "";
    const show = await cli(["run", "/goal", "--home", home, ...(id ? ["--task", id] : [])]);
    assert(id, `task id in: ${goal.stderr}`);
    assertMatch(show.stdout, /Goal: Finish the port/);
    const json = await cli(["run", "/goal pause", "--home", home, "--task", id, "--json"]);
    assertEquals(JSON.parse(json.stdout.trim()).code, "goalPaused");
    const clear = await cli(["run", "/clear", "--home", home]);
    assertEquals(clear.code, 2);
    assertMatch(clear.stderr, /a new task has nothing to clear/);
    assertEquals(mock.requests("quiet").length, 0);
  } finally {
    await mock.close();
  }
});

Deno.test('run "/model", "/undo", "/resume", "/review": switch, rewind with preview, list, review prompt', async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("edit", {
    turns: [
      { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "changed\n" } }] },
      { text: "Changed a.txt." },
    ],
  });
  const reviewed = { text: "Review: nothing serious." };
  mock.register("other", { turns: [reviewed, reviewed, reviewed] });
  try {
    const home = await homeWithProvider(mock.base, ["edit", "other"]);
    const project = await Deno.realPath(await Deno.makeTempDir());
    await Deno.writeTextFile(`${project}/a.txt`, "original\n");
    const base = ["--home", home, "--project", project];
    const run = await cli([
      "run",
      "change it",
      ...base,
      "--model",
      "mock/edit",
      "--approval",
      "full",
    ]);
    assertEquals(run.code, 0, run.stderr);
    assertEquals(await Deno.readTextFile(`${project}/a.txt`), "changed\n");
    const id = /task (t\S+)/.exec(run.stderr)?.[1] ?? "";
    assert(id, run.stderr);
    // /undo shows what it would do and changes nothing until confirmed.
    const preview = await cli(["run", "/undo", ...base, "--task", id]);
    assertEquals(preview.code, 0, preview.stderr);
    assertMatch(
      preview.stdout,
      /Undoing the last turn would:\n {2}restore a\.txt\nSend \/undo confirm/,
    );
    assertEquals(await Deno.readTextFile(`${project}/a.txt`), "changed\n");
    const undo = await cli(["run", "/undo confirm", ...base, "--task", id, "--json"]);
    assertEquals(JSON.parse(undo.stdout.trim()).code, "undoDone");
    assertEquals(await Deno.readTextFile(`${project}/a.txt`), "original\n");
    // /model: shows, refuses an unknown one, switches.
    const show = await cli(["run", "/model", ...base, "--task", id]);
    assertMatch(show.stdout, /Model: mock\/edit\nAvailable: mock\/edit, mock\/other/);
    const bad = await cli(["run", "/model nope/x", ...base, "--task", id, "--json"]);
    assertEquals(JSON.parse(bad.stdout.trim()).code, "modelUnknown");
    const set = await cli(["run", "/model mock/other", ...base, "--task", id]);
    assertMatch(set.stdout, /Model set: mock\/other/);
    // /review goes to the (new) model with the review prompt.
    const review = await cli(["run", "/review security", ...base, "--task", id]);
    assertEquals(review.code, 0, review.stderr);
    assertMatch(review.stdout, /Review: nothing serious\./);
    const sent = mock.requests("other").map((q) => JSON.stringify(q.body.messages)).join("\n");
    assertMatch(sent, /Review the changes in this repository's working tree/);
    assertMatch(sent, /Focus on: security/);
    assertMatch(sent, /Do not change any file/);
    // /resume from another task of the project lists this one.
    const other = await cli(["run", "/goal something", ...base, "--model", "mock/other"]);
    const otherId = /task (t\S+)/.exec(other.stderr)?.[1] ?? "";
    const resume = await cli(["run", "/resume", ...base, "--task", otherId]);
    assertMatch(
      resume.stdout,
      new RegExp(`Recent tasks of this project[\\s\\S]*${id}  [Cc]hange it`),
    );
  } finally {
    await mock.close();
  }
});

Deno.test("a workspace's own /review replaces the built-in one", async () => {
  const { listCommands, expandPromptCommand } = await import("../server/commands/registry.ts");
  const ws = await Deno.makeTempDir();
  const home = await Deno.makeTempDir();
  const scope = { workspace: ws, home, userHome: home };
  const builtin = await expandPromptCommand("/review", scope);
  assertMatch(builtin!.prompt, /Review the changes in this repository's working tree/);
  await Deno.mkdir(`${ws}/.reinagent/commands`, { recursive: true });
  await Deno.writeTextFile(`${ws}/.reinagent/commands/review.md`, "Review $1 our way.");
  const { commands, problems } = await listCommands(scope);
  assertEquals(problems, []);
  assertEquals(commands.filter((c) => c.name === "review").map((c) => c.source), ["workspace"]);
  assertEquals((await expandPromptCommand("/review a.ts", scope))!.prompt, "Review a.ts our way.");
});
