/**
 * An applied rewind is recorded in the timeline: a `system` entry (who — the client
 * from its User-Agent —, when, restored and removed files) published to every client,
 * the rewound turns' change records marked, a preview of a file the rewind removed
 * saying so instead of "does not exist"; the next turn still runs (the record is not
 * sent to the model). Plus the User-Agent → client guess.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { mockProvider } from "./helpers/seed.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { createServices } from "../server/services.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { HubClient } from "../server/sessions/hub.ts";
import { describeClient } from "../server/sessions/clients.ts";
import {
  type EvtMsg,
  type RewindEvent,
  rewindResultWords,
  type TaskEvent,
  type TurnChanges,
} from "../protocol/index.ts";

const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

Deno.test("client guess from the User-Agent", () => {
  assertEquals(describeClient(ANDROID), { kind: "phone", browser: "Chrome", os: "Android" });
  assertEquals(
    describeClient(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    ),
    { kind: "phone", browser: "Safari", os: "iOS" },
  );
  assertEquals(
    describeClient(
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36",
    ),
    { kind: "desktop", browser: "Chrome", os: "Linux" },
  );
  assertEquals(
    describeClient(
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
    ),
    { kind: "desktop", browser: "Firefox", os: "Windows" },
  );
  assertEquals(describeClient("Deno/2.9.6"), { kind: "cli", browser: "", os: "" });
  assertEquals(describeClient(null), { kind: "unknown", browser: "", os: "" });
  assertEquals(
    rewindResultWords({ restored: 2, removed: 1 }),
    "Restored 2 files, removed 1 new file",
  );
  assertEquals(rewindResultWords({ restored: 1, removed: 0 }), "Restored 1 file");
});

Deno.test("rewind: a timeline record (who, when, what), rewound turns marked, removed files explained", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-rewind-rec-" });
  const ws = `${home}/DefaultProject`;
  await Deno.mkdir(ws);
  const mock = startMockLlm({ quiet: true });
  mock.register("rw", {
    turns: [
      { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "A1\n" } }] },
      { text: "turn 1 done" },
      { toolCalls: [{ name: "read_file", args: { path: "a.txt" } }] },
      {
        toolCalls: [
          { name: "edit_file", args: { path: "a.txt", old_string: "A1", new_string: "A2" } },
          { name: "write_file", args: { path: "c.txt", content: "C2\n" } },
        ],
      },
      { text: "turn 2 done" },
      { text: "turn 3 after the rewind" },
    ],
  });
  const deps = createServices({ home, flushMs: 5 });
  deps.store.repos!.providers.put(mockProvider(mock.base, ["rw"]));
  const events: EvtMsg[] = [];
  const phone: HubClient = {
    id: "phone",
    topics: new Set(["tasks"]),
    info: describeClient(ANDROID),
    deliver: (e) => void events.push(...e),
  };
  deps.hub.add(phone);
  // deno-lint-ignore no-explicit-any
  const op = async (name: string, args: unknown): Promise<any> => {
    const r = await runOp({ ...deps, client: phone }, name, args);
    if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
    return r.result;
  };
  const entries = (id: string) => deps.store.repos!.entries.latest(id, 100);
  try {
    const { task, entry: turn1 } = deps.tasks!.create({
      title: "rw",
      message: "turn one",
      options: { model: { providerId: "mock", modelId: "rw" }, approval: "full" },
    });
    phone.topics.add(`task:${task.id}`);
    await deps.runs!.start(task.id);
    const turn2 = deps.tasks!.send(task.id, "Turn two: edit and add c");
    await deps.runs!.start(task.id);
    assert(deps.store.repos!.entries.get(turn2.id)!.meta.changes, "turn 2 has a change record");
    const before = entries(task.id).length;

    const plan = await op("task.rewind", { id: task.id, entryId: turn2.id });
    assertEquals([plan.restore, plan.remove], [["a.txt"], ["c.txt"]]);
    assertEquals(await Deno.readTextFile(`${ws}/a.txt`), "A1\n");

    // The record: the last entry of the timeline, published to every client.
    const all = entries(task.id);
    assertEquals(all.length, before + 1);
    const rec = all.at(-1)!;
    assertEquals([rec.role, rec.meta.kind], ["system", "rewind"]);
    const r = rec.meta.rewind as RewindEvent;
    assertEquals(
      [r.turnId, r.turnText, r.restored, r.removed, r.by],
      [turn2.id, "Turn two: edit and add c", ["a.txt"], ["c.txt"], {
        kind: "phone",
        browser: "Chrome",
        os: "Android",
      }],
    );
    assertMatch(
      rec.parts[0].text!,
      /^Code rewound to before “Turn two: edit and add c” by a phone \(Chrome, Android\): Restored 1 file, removed 1 new file\.$/,
    );
    deps.hub.flush();
    const taskEvents = events.filter((e) => e.topic === `task:${task.id}`).map((e) =>
      e.data as TaskEvent
    );
    assert(taskEvents.some((d) => d.kind === "entry" && d.entry.id === rec.id), "published");
    // The rewound turn's record is marked (and published); the earlier turn's is not.
    const c2 = deps.store.repos!.entries.get(turn2.id)!.meta.changes as TurnChanges;
    assertEquals(c2.rewound?.entryId, rec.id);
    assert(
      taskEvents.some((d) =>
        d.kind === "entry" && d.entry.id === turn2.id &&
        (d.entry.meta.changes as TurnChanges | undefined)?.rewound?.entryId === rec.id
      ),
      "the marked turn was published",
    );
    const c1 = deps.store.repos!.entries.get(turn1!.id)!.meta.changes as TurnChanges;
    assertEquals(c1.rewound, undefined);

    // A preview of the file the rewind removed says so; another missing file is not found.
    const gone = await op("file.preview", { taskId: task.id, path: "c.txt" });
    assertEquals(gone.text, null);
    assertEquals(gone.removed.entryId, rec.id);
    assertEquals(gone.removed.by.kind, "phone");
    assertEquals(gone.removed.turnText, "Turn two: edit and add c");
    const err = await op("file.preview", { taskId: task.id, path: "never.txt" }).catch((e) => e);
    assertEquals(err.code, "not_found");

    // The conversation goes on (the record is not sent to the model).
    deps.tasks!.send(task.id, "turn three");
    assertEquals((await deps.runs!.start(task.id))?.kind, "done");
    const last = mock.requests("rw").at(-1)!.body as { messages: { role: string }[] };
    assert(!JSON.stringify(last.messages).includes("Code rewound"), "not sent to the model");

    // Edit & resend of the rewound turn drops its stale record.
    await op("task.editResend", { id: task.id, entryId: turn2.id, text: "turn two again" });
    await new Promise((res) => setTimeout(res, 50));
    while (deps.runs!.isRunning(task.id)) await new Promise((res) => setTimeout(res, 20));
    const again = deps.store.repos!.entries.get(turn2.id)!.meta.changes as TurnChanges | undefined;
    assertEquals(again?.rewound, undefined);
  } finally {
    await deps.runs!.stopAll();
    deps.hub.close();
    deps.store.close();
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});
