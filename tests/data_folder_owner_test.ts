/**
 * One owner of the data folder, with real processes: a server (`main.ts serve`), the CLI
 * run beside it as a user would, the mock LLM. The database's write-ahead log must stay
 * the server's (no `(deleted)` descriptor), every CLI change must reach the server at
 * once, and a `kill -9` mid-answer must keep what was streamed but the last moment.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { reinagent as reinagentIn } from "./helpers/cli.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { DatabaseSync } from "node:sqlite";
import { VIA_INSTANCE } from "../server/cli/home_client.ts";
import { claimHome } from "../server/instance/claim.ts";
import { tryLockHome } from "../server/instance/lock.ts";

/** The server's descriptors of the database files that were unlinked under it. */
function deletedDbFiles(pid: number): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(`/proc/${pid}/fd`)) {
    try {
      const target = Deno.readLinkSync(`/proc/${pid}/fd/${e.name}`);
      if (/reinagent\.db/.test(target) && target.endsWith("(deleted)")) out.push(target);
    } catch { /* closed meanwhile */ }
  }
  return out;
}

/** The POSIX locks `pid` holds on the database file (SQLite keeps one while open). */
function dbLocks(pid: number, dbFile: string): number {
  const ino = Deno.statSync(dbFile).ino;
  return Deno.readTextFileSync("/proc/locks").split("\n")
    .filter((l) => {
      const f = l.trim().split(/\s+/);
      // "1: POSIX  ADVISORY  READ 1234 08:01:5678 128 128"
      return f[1] === "POSIX" && f[4] === String(pid) && f[5]?.endsWith(`:${ino}`);
    }).length;
}

const linux = Deno.build.os === "linux";

/** The database after the server ended: SQLite's integrity check, then `check` on it. */
function intact(home: string, check: (db: DatabaseSync) => void = () => {}): void {
  const db = new DatabaseSync(`${home}/reinagent.db`);
  try {
    assertEquals(db.prepare("PRAGMA integrity_check").get()?.integrity_check, "ok");
    check(db);
  } finally {
    db.close();
  }
}

interface EntryView {
  id: string;
  role: string;
  status: string;
  parts: { type: string; text?: string }[];
}

const textOf = (e: EntryView) =>
  e.parts.filter((p) => p.type === "text").map((p) => p.text ?? "").join("");

/** The assistant's text as a subscribed client has it: the snapshot plus the deltas. */
function streamedText(c: TestClient, taskId: string, snapshot: EntryView[]): string {
  let text = snapshot.filter((e) => e.role === "assistant").map(textOf).join("");
  for (const ev of c.events) {
    if (ev.topic !== `task:${taskId}`) continue;
    const d = ev.data as { kind: string; type?: string; text?: string; entry?: EntryView };
    if (d.kind === "delta" && d.type === "text") text += d.text;
  }
  return text;
}

Deno.test({
  name: "CLI commands beside a running server never split its database",
  ignore: !linux,
}, async () => {
  const llm = startMockLlm();
  const home = await homeWithProvider(llm.base, ["m"]);
  const server = await startTestServer({ home });
  const pid = server.process.pid;
  const client = await TestClient.connect(server.base, server.token);
  try {
    const held = dbLocks(pid, `${home}/reinagent.db`);
    assert(held > 0, "the server holds SQLite's lock on its database");
    // Changes in the data folder (the server's own writes, files beside the database).
    await client.request("kv.set", { key: "ui.test", value: 1 });
    await Deno.writeTextFile(`${home}/mcp_servers.json`, "[]\n");
    const commands = [
      ["providers", "add", "cli", "--format", "openai-chat-completions", "--base-url", llm.base],
      ["providers", "list"],
      ["models", "enable", "mock", "m"],
      ["mcp", "list"],
      ["doctor"],
      ["automations", "list"],
      ["tasks"],
    ];
    for (const args of commands) {
      const r = await reinagentIn([...args, "--home", home]);
      assert(r.code === 0 || args[0] === "doctor", `${args.join(" ")}: ${r.stderr}`);
      if (args[0] === "providers" || args[0] === "models" || args[0] === "mcp") {
        assert(r.stderr.includes(VIA_INSTANCE), `${args.join(" ")} says who did it`);
      }
      assertEquals(deletedDbFiles(pid), [], `after \`reinagent ${args.join(" ")}\``);
      assert(dbLocks(pid, `${home}/reinagent.db`) > 0, `lock kept after ${args.join(" ")}`);
    }
    const { providers } = await client.request("providers.list");
    assert(
      providers.some((p: { id: string }) => p.id === "cli"),
      "the provider added from the CLI is the server's at once",
    );
  } finally {
    await client.close();
    await server.stop();
    await llm.close();
  }
  intact(home, (db) => {
    assert(db.prepare("SELECT 1 FROM provider WHERE id = 'cli'").get(), "kept after stop");
  });
});

Deno.test({
  name: "kill -9 mid-answer keeps the streamed text but the last moment, marked interrupted",
  ignore: !linux,
}, async () => {
  const llm = startMockLlm();
  const words = Array.from({ length: 400 }, (_, i) => `w${i}`);
  // One word per frame, 25 frames a second: 300 ms of streaming is under 8 words.
  llm.register("slow", {
    turns: [{ text: words.join(" ") + " ", chunk: 5, delayMs: 40 }, { text: "and the rest." }],
  });
  const home = await homeWithProvider(llm.base, ["slow"]);
  let server: TestServer | null = await startTestServer({ home });
  let client = await TestClient.connect(server.base, server.token);
  let taskId = "";
  let seen = "";
  try {
    const created = await client.request("tasks.create", {
      title: "long",
      message: "write",
      options: { model: { providerId: "mock", modelId: "slow" } },
    });
    taskId = created.task.id;
    const snap = await client.request("task.subscribe", { id: taskId });
    // A CLI command meanwhile: the data folder changes under the running answer.
    const r = await reinagentIn(["providers", "list", "--home", home]);
    assertEquals(r.code, 0, r.stderr);
    const text = () => (seen = streamedText(client, taskId, snap.entries));
    await client.until(() => text().split(" ").length > 60, "60 words", 20_000);
    text();
    await server.kill();
    server = null;
  } finally {
    await client.close();
    if (server) await server.stop();
  }
  server = await startTestServer({ home });
  client = await TestClient.connect(server.base, server.token);
  try {
    const page = await client.request("task.subscribe", { id: taskId });
    const answer = (page.entries as EntryView[]).find((e) => e.role === "assistant");
    assert(answer, "the answer is there after the crash");
    const kept = textOf(answer);
    assert(seen.startsWith(kept) || kept.startsWith(seen), "kept text is the streamed text");
    const lost = seen.split(" ").length - kept.split(" ").length;
    assert(lost <= 12, `at most the last ~300 ms lost: ${lost} words of ${seen.split(" ").length}`);
    assertEquals(answer.status, "stopped", "the answer is marked cut off");
    const { tasks } = await client.request("tasks.list", {});
    const task = tasks.find((t: { id: string }) => t.id === taskId);
    assertEquals(task.lastRun, "interrupted", "the task says its run was interrupted");
    // It can be continued: the model gets the kept text and goes on.
    await client.request("task.continue", { id: taskId });
    await client.until(
      () =>
        client.events.some((e) =>
          e.topic === "tasks" &&
          (e.data as { task?: { id: string; status: string; lastRun: string } }).task?.lastRun ===
            "done"
        ),
      "the continued run ends",
      20_000,
    );
    const sent = llm.requests("slow").at(-1)!.body as { messages: { content: unknown }[] };
    assert(JSON.stringify(sent.messages).includes(kept.slice(-40)), "the kept text is sent on");
  } finally {
    await client.close();
    await server.stop();
    await llm.close();
  }
  intact(home);
});

Deno.test("a server starting while a one-shot command owns the data dir waits for it", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-claim-" });
  const cli = await tryLockHome(home, "cli");
  assert(cli, "the command holds the lock");
  let claimed = false;
  const server = claimHome(home, "server").then((c) => {
    claimed = true;
    return c;
  });
  // The claim keeps trying while the command holds the lock.
  await new Promise((r) => setTimeout(r, 200));
  assertEquals(claimed, false, "the server does not open the database meanwhile");
  cli.release();
  const c = await server;
  assertEquals(c.kind, "owner");
  if (c.kind === "owner") c.lock.release();
  await Deno.remove(home, { recursive: true });
});
