/** Checkpoints & rewind across three turns, one of them changing files by shell command. */
import { mockProvider } from "./helpers/seed.ts";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import { stopAllJobs } from "../tools/exec/background.ts";

const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

Deno.test("rewind to before turn 2 restores exactly, shell changes included; outside edits are conflicts", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-rewind-" });
  const ws = `${home}/DefaultProject`;
  await Deno.mkdir(ws);
  await Deno.writeTextFile(`${ws}/keep.txt`, "untouched\n");
  const mock = startMockLlm({ quiet: true });
  mock.register("rw", {
    turns: [
      // turn 1
      {
        toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "A1\n" } }, {
          name: "write_file",
          args: { path: "b.txt", content: "B1\n" },
        }],
      },
      { text: "turn 1 done" },
      // turn 2
      { toolCalls: [{ name: "read_file", args: { path: "a.txt" } }] },
      {
        toolCalls: [{
          name: "edit_file",
          args: { path: "a.txt", old_string: "A1", new_string: "A2" },
        }, { name: "write_file", args: { path: "c.txt", content: "C2\n" } }],
      },
      { text: "turn 2 done" },
      // turn 3: shell
      {
        toolCalls: [{
          name: "exec_command",
          args: { command: "sed -i 's/B1/B3/' b.txt && rm c.txt && echo D3 > d.txt" },
        }],
      },
      { text: "turn 3 done" },
    ],
  });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["rw"]));
  const client: HubClient = { id: "t", topics: new Set(), deliver: () => {} };
  const op = async (name: string, args: unknown) => {
    const r = await runOp({ ...deps, client }, name, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    // deno-lint-ignore no-explicit-any
    return r.result as any;
  };
  try {
    const { task } = deps.tasks!.create({
      title: "rw",
      message: "turn one",
      options: { model: { providerId: "mock", modelId: "rw" }, approval: "full" },
    });
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    const turn2 = deps.tasks!.send(task.id, "turn two");
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    deps.tasks!.send(task.id, "turn three");
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    const execResult = deps.store.repos!.entries.latest(task.id, 100).find((e) =>
      e.role === "tool" && e.parts[0]?.data?.name === "exec_command"
    )!;
    assertEquals(execResult.parts[0].data?.isError, false, execResult.parts[0].text);

    assertEquals(await Deno.readTextFile(`${ws}/a.txt`), "A2\n");
    assertEquals(await Deno.readTextFile(`${ws}/b.txt`), "B3\n");
    assertEquals(await exists(`${ws}/c.txt`), false);
    assertEquals(await Deno.readTextFile(`${ws}/d.txt`), "D3\n");

    const preview = await op("task.rewindPreview", { id: task.id, entryId: turn2.id });
    assertEquals(preview.restore.sort(), ["a.txt", "b.txt"]);
    assertEquals(preview.remove, ["d.txt"]);
    assertEquals(preview.conflicts, []);
    assertMatch(preview.note, /shell commands/);

    // Someone edits a.txt outside the agent: fail closed, nothing written.
    await Deno.writeTextFile(`${ws}/a.txt`, "edited by hand\n");
    const err = await op("task.rewind", { id: task.id, entryId: turn2.id }).catch((e) => e);
    assertEquals(err.code, "conflict");
    assertMatch(err.message, /a\.txt \(changed outside the agent since\)/);
    assertEquals(await Deno.readTextFile(`${ws}/b.txt`), "B3\n", "nothing was written");
    assertEquals(await Deno.readTextFile(`${ws}/d.txt`), "D3\n");

    // Put it back as the agent left it: the rewind goes through.
    await Deno.writeTextFile(`${ws}/a.txt`, "A2\n");
    const done = await op("task.rewind", { id: task.id, entryId: turn2.id });
    assertEquals(done.restore.sort(), ["a.txt", "b.txt"]);
    assertEquals(await Deno.readTextFile(`${ws}/a.txt`), "A1\n");
    assertEquals(await Deno.readTextFile(`${ws}/b.txt`), "B1\n");
    assertEquals(await exists(`${ws}/c.txt`), false, "c.txt was created in turn 2: gone");
    assertEquals(await exists(`${ws}/d.txt`), false, "d.txt was created in turn 3: gone");
    assertEquals(await Deno.readTextFile(`${ws}/keep.txt`), "untouched\n");
    // The checkpoints of the rewound turns are consumed.
    const again = await op("task.rewindPreview", { id: task.id, entryId: turn2.id });
    assertEquals([again.restore, again.remove, again.conflicts], [[], [], []]);
    assert(
      (await op("task.rewindPreview", { id: task.id, entryId: "nope" }).catch((e) => e)).code ===
        "not_found",
    );
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
  }
});

Deno.test("background commands: files they change after returning are rewound with the turn that started them", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-rewind-bg-" });
  const ws = `${home}/DefaultProject`;
  await Deno.mkdir(ws);
  await Deno.writeTextFile(`${ws}/keep.txt`, "original\n");
  const mock = startMockLlm({ quiet: true });
  mock.register("bg", {
    turns: [
      // turn 1: writes after a delay, long after background_bash returned (and the turn ended)
      {
        toolCalls: [{
          name: "background_bash",
          args: { command: "sleep 0.4; echo late > late.txt; echo more >> keep.txt" },
        }],
      },
      { text: "turn 1 done" },
      // turn 2: still running when the turn ends; its change is recorded at the turn's end
      {
        toolCalls: [{
          name: "background_bash",
          args: { command: "sleep 0.2; echo early > early.txt; sleep 30" },
        }],
      },
      { text: "turn 2 done, slowly", chunk: 2, delayMs: 60 },
    ],
  });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["bg"]));
  const client: HubClient = { id: "t", topics: new Set(), deliver: () => {} };
  const op = async (name: string, args: unknown) => {
    const r = await runOp({ ...deps, client }, name, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    // deno-lint-ignore no-explicit-any
    return r.result as any;
  };
  const waitFor = async (cond: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 100 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 50));
    assert(await cond(), what);
  };
  try {
    const { task, entry: turn1 } = deps.tasks!.create({
      title: "bg",
      message: "turn one",
      options: { model: { providerId: "mock", modelId: "bg" }, approval: "full" },
    });
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    assertEquals(await exists(`${ws}/late.txt`), false, "the turn ended before the job wrote");
    await waitFor(() => exists(`${ws}/late.txt`), "the job wrote late.txt");
    // The job's exit records its changes (give it a moment after the write).
    await waitFor(async () => {
      const p = await op("task.rewindPreview", { id: task.id, entryId: turn1!.id });
      return p.remove.length === 1 && p.restore.length === 1;
    }, "the exit recorded the job's changes");
    const preview = await op("task.rewindPreview", { id: task.id, entryId: turn1!.id });
    assertEquals([preview.restore, preview.remove, preview.conflicts], [
      ["keep.txt"],
      ["late.txt"],
      [],
    ]);

    const turn2 = deps.tasks!.send(task.id, "turn two");
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    assertEquals(await Deno.readTextFile(`${ws}/early.txt`), "early\n");
    // Recorded at the end of turn 2, while the job still runs.
    const p2 = await op("task.rewindPreview", { id: task.id, entryId: turn2.id });
    assertEquals([p2.restore, p2.remove], [[], ["early.txt"]]);
    await stopAllJobs();

    const done = await op("task.rewind", { id: task.id, entryId: turn1!.id });
    assertEquals(done.remove.sort(), ["early.txt", "late.txt"]);
    assertEquals(await Deno.readTextFile(`${ws}/keep.txt`), "original\n");
    assertEquals(await exists(`${ws}/late.txt`), false);
    assertEquals(await exists(`${ws}/early.txt`), false);
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
  }
});
