/**
 * Changes that must be all or nothing, killed midway (`kill -9`) in a real process.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { ROOT, runFlagsFor } from "./helpers/server.ts";
import { DatabaseSync } from "node:sqlite";
import { EXPORT_KIND, EXPORT_VERSION, type ExportedTask } from "../protocol/carry.ts";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import { Store } from "../store/store.ts";
import { Checkpointer } from "../server/agent/checkpoints.ts";

const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

const TASKS = 300;

/** An export of `TASKS` tasks, each with two entries and a 40 KB attachment. */
function bundle(): string {
  const data = Buffer.from(new Uint8Array(40_000).fill(7)).toString("base64");
  const hex = (i: number, n: number) => i.toString(16).padStart(n, "0");
  const tasks: ExportedTask[] = Array.from({ length: TASKS }, (_, i) => ({
    id: `t${hex(i, 8)}`,
    title: `imported ${i}`,
    projectPath: null,
    pinned: false,
    lastRun: "done",
    settings: {},
    createdAt: 1,
    updatedAt: 1,
    entries: ["user", "assistant"].map((role, j) => ({
      id: `e${hex(i, 8)}${j}`,
      taskId: `t${hex(i, 8)}`,
      pos: j + 1,
      role: role as "user" | "assistant",
      status: "done" as const,
      createdAt: 1,
      updatedAt: 1,
      parts: [{ type: "text" as const, text: `${role} ${i}` }],
      meta: {},
    })),
    attachments: [{
      id: `u${hex(i, 32)}`,
      name: `a${i}.bin`,
      mime: "application/octet-stream",
      size: 40_000,
      createdAt: 1,
      data,
    }],
  }));
  return JSON.stringify({
    kind: EXPORT_KIND,
    version: EXPORT_VERSION,
    exportedAt: 1,
    app: { name: "ReinAgent", version: "0.1.0" },
    tasks,
  });
}

function count(dir: string): number {
  try {
    return [...Deno.readDirSync(dir)].length;
  } catch {
    return 0;
  }
}

Deno.test({
  name: "an import killed midway leaves no task of it behind",
  ignore: Deno.build.os === "windows",
}, async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-import-kill-" });
  const file = `${home}/../${home.split("/").pop()}-export.json`;
  await Deno.writeTextFile(file, bundle());
  const entry = `${ROOT}main.ts`;
  const child = new Deno.Command(Deno.execPath(), {
    args: [...runFlagsFor(entry), entry, "import", file, "--home", home],
    stdout: "null",
    stderr: "null",
    stdin: "null",
  }).spawn();
  // Killed once a third of the attachments are on disk: well inside the import.
  let killed = false;
  const watching = (async () => {
    const status = child.status.then(() => "ended");
    while (!killed) {
      if (count(`${home}/uploads`) >= TASKS / 3) {
        child.kill("SIGKILL");
        killed = true;
        break;
      }
      if (
        await Promise.race([status, new Promise((r) => setTimeout(() => r("poll"), 2))]) === "ended"
      ) break;
    }
  })();
  await watching;
  await child.status;
  assert(killed, "the import was still running when a third of it was on disk");
  const db = new DatabaseSync(`${home}/reinagent.db`);
  try {
    assertEquals(db.prepare("PRAGMA integrity_check").get()?.integrity_check, "ok");
    const tasks = (db.prepare("SELECT count(*) AS n FROM task").get() as { n: number }).n;
    assert(tasks === 0 || tasks === TASKS, `all or nothing: ${tasks} of ${TASKS} tasks`);
  } finally {
    db.close();
  }
  await Deno.remove(file);
  await Deno.remove(home, { recursive: true });
});

Deno.test("a rewind cut off after its first file is undone at the next start", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-rewind-crash-" });
  const ws = join(home, "ws");
  await Deno.mkdir(ws);
  const store = new Store(join(home, "reinagent.db"));
  const repos = store.repos!;
  repos.tasks.create({ id: "t1", title: "t", projectPath: ws });
  const cp = new Checkpointer(repos.checkpoints, join(home, "checkpoints"));
  const a = join(ws, "a.txt"), b = join(ws, "b.txt"), c = join(ws, "c.txt");
  try {
    await Deno.writeTextFile(a, "a before");
    await Deno.writeTextFile(b, "b before");
    // Turn 2 changes a and b and creates c, through the tools' checkpoints.
    const turn = { id: "u2", pos: 2 };
    for (const [p, text] of [[a, "a after"], [b, "b after"], [c, "c new"]]) {
      await cp.beforeWrite("t1", turn, p);
      await Deno.writeTextFile(p, text);
      await cp.afterWrite("t1", turn, p);
    }
    // The rewind stops for good after its first file, as if the process died there.
    let cut!: () => void;
    const stopped = new Promise<void>((r) => (cut = r));
    cp.apply("t1", 2, () => {
      cut();
      return new Promise(() => {}); // never continues
    });
    await stopped;
    const onDisk =
      async () => [await Deno.readTextFile(a), await Deno.readTextFile(b), await exists(c)];
    assertEquals(await onDisk(), ["a before", "b after", true], "half done when cut");
    // The next start, on the same database and store.
    const next = new Checkpointer(repos.checkpoints, join(home, "checkpoints"));
    assertEquals(await onDisk(), ["a after", "b after", true], "nothing of it is left");
    assertEquals(repos.checkpoints.journal(), null);
    assertEquals(repos.checkpoints.since("t1", 2).length, 3, "the turn can still be rewound");
    const done = await next.apply("t1", 2);
    assertEquals(done.conflicts, []);
    assertEquals(await onDisk(), ["a before", "b before", false]);
    next.close();
  } finally {
    cp.close();
    store.close();
    await Deno.remove(home, { recursive: true });
  }
});
