/**
 * A turn's "files changed" record is its NET change (before the turn → after it),
 * computed by the server from the checkpoint when the run ends: a file created with 4
 * lines and edited is "new +4 −0" (not "+5 −1"), a file edited and put back or created
 * and deleted is not listed, a deleted file counts its removed lines; `file.diff
 * {turnId}` shows the same net diff; the per-edit diffs stay on the tool results.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import type { Entry, EvtMsg, TaskEvent, TurnChanges } from "../protocol/index.ts";
import { netFileChanges } from "../ui/state/timeline_model.js";

const NOTES = "# Notes\n- one\n- two\n- three\n";

Deno.test("files changed = the turn's net change, with the net diff on the server", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-net-" });
  const ws = `${home}/DefaultProject`;
  await Deno.mkdir(ws);
  await Deno.writeTextFile(`${ws}/keep.txt`, "x\n");
  await Deno.writeTextFile(`${ws}/gone.txt`, "bye\nfor now\n");
  const mock = startMockLlm({ quiet: true });
  const edit = (path: string, a: string, b: string) => ({
    name: "edit_file",
    args: { path, old_string: a, new_string: b },
  });
  mock.register("net", {
    turns: [
      {
        toolCalls: [
          { name: "write_file", args: { path: "notes.md", content: NOTES } },
          { name: "read_file", args: { path: "keep.txt" } },
          { name: "read_file", args: { path: "gone.txt" } },
          { name: "write_file", args: { path: "tmp.txt", content: "scratch\n" } },
        ],
      },
      {
        toolCalls: [
          edit("notes.md", "- two", "- TWO"),
          edit("keep.txt", "x", "y"),
          { name: "delete_file", args: { path: "tmp.txt" } },
          { name: "delete_file", args: { path: "gone.txt" } },
        ],
      },
      { toolCalls: [edit("keep.txt", "y", "x")] },
      { text: "Done." },
      // Turn 2 changes a file and puts it back: a record with no files (no card).
      { toolCalls: [edit("keep.txt", "x", "z")] },
      { toolCalls: [edit("keep.txt", "z", "x")] },
      { text: "Nothing changed in the end." },
    ],
  });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["net"]));
  const events: EvtMsg[] = [];
  const client: HubClient = {
    id: "c",
    topics: new Set(["tasks"]),
    deliver: (e) => void events.push(...e),
  };
  deps.hub.add(client);
  // deno-lint-ignore no-explicit-any
  const op = async (name: string, args: unknown): Promise<any> => {
    const r = await runOp({ ...deps, client }, name, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.result;
  };
  try {
    const { task, entry: user } = deps.tasks!.create({
      title: "net",
      message: "write the notes",
      options: { model: { providerId: "mock", modelId: "net" }, approval: "full" },
    });
    client.topics.add(`task:${task.id}`);
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    const all = deps.store.repos!.entries.latest(task.id, 100);
    for (const e of all.filter((x) => x.role === "tool")) {
      assertEquals(e.parts[0].data?.isError, false, e.parts[0].text);
    }
    // Per-edit diffs stay on the tool results: the write (+4) and the edit (+1 −1).
    const diffs = all.filter((e) => e.role === "tool" && e.parts[0].data?.name !== "read_file")
      .map((e) => {
        const m = e.parts[0].data?.meta as {
          path: string;
          diff?: { added: number; removed: number };
        };
        return [m.path, m.diff?.added ?? null, m.diff?.removed ?? null];
      });
    assertEquals(diffs.slice(0, 2), [["notes.md", 4, 0], ["tmp.txt", 1, 0]]);
    assert(diffs.some(([p, a, r]) => p === "notes.md" && a === 1 && r === 1), "the edit's diff");

    // The net record on the turn's user entry.
    const changes = deps.store.repos!.entries.get(user!.id)!.meta.changes as TurnChanges;
    assertEquals(
      changes.files.map((f) => [f.path, f.added, f.removed, f.created, f.deleted]),
      [["notes.md", 4, 0, true, false], ["gone.txt", 0, 2, false, true]],
    );
    assertEquals([changes.added, changes.removed, changes.more], [4, 2, 0]);

    // Published to clients before the run's end, so the card never shows stale numbers.
    deps.hub.flush();
    const mine = events.filter((e) => e.topic === `task:${task.id}`).map((e) =>
      e.data as TaskEvent
    );
    const recorded = mine.findIndex((d) =>
      d.kind === "entry" && d.entry.id === user!.id && !!(d.entry as Entry).meta.changes
    );
    const runEnd = mine.findLastIndex((d) => d.kind === "run" && d.run === null);
    assert(recorded >= 0 && recorded < runEnd, `changes at ${recorded}, run end at ${runEnd}`);

    // The net diff line by line: a new file, all four lines added.
    const net = await op("file.diff", { taskId: task.id, turnId: user!.id, path: "notes.md" });
    assertEquals(net.tool, "turn");
    assertEquals(net.change.created, true);
    assertEquals([net.diff.added, net.diff.removed], [4, 0]);
    assertEquals(
      net.diff.hunks.flatMap((h: { lines: { t: string; text: string }[] }) =>
        h.lines.map((l) => l.t + l.text)
      ),
      ["+# Notes", "+- one", "+- TWO", "+- three"],
    );
    const gone = await op("file.diff", { taskId: task.id, turnId: user!.id, path: "gone.txt" });
    assertEquals([gone.diff.added, gone.diff.removed, gone.change.deleted], [0, 2, true]);
    // A file the turn did not (net) change has no turn diff.
    const err = await op("file.diff", { taskId: task.id, turnId: user!.id, path: "keep.txt" })
      .catch((e) => e);
    assertEquals(err.code, "not_found");

    // A turn that changes a file and puts it back has a record with no files, so the
    // card is not replaced by the sum of its edits.
    const turn2 = deps.tasks!.send(task.id, "touch keep.txt and put it back");
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    const c2 = deps.store.repos!.entries.get(turn2.id)!.meta.changes as TurnChanges;
    assertEquals([c2.files, c2.added, c2.removed], [[], 0, 0]);
    assertEquals(netFileChanges(deps.store.repos!.entries.get(turn2.id))?.files, []);
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});
