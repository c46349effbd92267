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
