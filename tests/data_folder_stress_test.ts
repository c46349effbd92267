/**
 * The data folder under load from several real processes for a minute (or
 * `REINAGENT_STRESS_SECONDS`): a server streaming a long answer, and two CLI loops
 * writing beside it — providers and automations in one, memories in the other. Then
 * the server is killed (`kill -9`): the database must be intact and every write a
 * command acknowledged (exit 0) must be there.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { startTestServer } from "./helpers/server.ts";
import { reinagent } from "./helpers/cli.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { DatabaseSync } from "node:sqlite";

const SECONDS = Number(Deno.env.get("REINAGENT_STRESS_SECONDS") ?? 60);

Deno.test("a minute of CLI writes beside a streaming server loses nothing", async () => {
  const llm = startMockLlm({ quiet: true });
  const words = Array.from({ length: 4000 }, (_, i) => `w${i}`).join(" ");
  // Streams for longer than the test: the run is busy writing all along.
  llm.register("long", { turns: [{ text: words, chunk: 6, delayMs: 20 }] });
  const home = await homeWithProvider(llm.base, ["long"]);
  const server = await startTestServer({ home });
  const client = await TestClient.connect(server.base, server.token);
  const providers: string[] = [];
  const automations: string[] = [];
  const memories: { id: string; title: string }[] = [];
  const removed: string[] = [];
  const failures: string[] = [];
  const until = Date.now() + SECONDS * 1000;
  try {
    await client.request("tasks.create", {
      title: "long",
      message: "go",
      options: { model: { providerId: "mock", modelId: "long" } },
    });
    const h = ["--home", home];
    const loopA = (async () => {
      for (let i = 0; Date.now() < until; i++) {
        const id = `p${i}`;
        const add = await reinagent([
          "providers",
          "add",
          id,
          "--format",
          "openai-chat-completions",
          "--base-url",
          llm.base,
          ...h,
        ]);
        if (add.code === 0) providers.push(id);
        else failures.push(`providers add ${id}: ${add.stderr}`);
        // Automations are capped (200): past 150 the loop keeps adding providers only.
        if (i >= 150) continue;
        const name = `auto${i}`;
        const auto = await reinagent([
          "automations",
          "add",
          `say ${i}`,
          "--schedule",
          "daily 09:00",
          "--name",
          name,
          ...h,
        ]);
        if (auto.code === 0) automations.push(name);
        else failures.push(`automations add ${name}: ${auto.stderr}`);
      }
    })();
    const loopB = (async () => {
      for (let i = 0; Date.now() < until; i++) {
        const title = `Memory number ${i}`;
        const r = await reinagent(["memory", "add", title, "--body", `body ${i}`, ...h]);
        const id = r.stdout.match(/^Saved memory (\S+):/)?.[1];
        if (r.code === 0 && id) memories.push({ id, title });
        else failures.push(`memory add ${i}: ${r.stderr}`);
        // Memories are capped (500): past 300 the oldest kept one is removed each round.
        if (memories.length > 300) {
          const old = memories.shift()!;
          const rm = await reinagent(["memory", "remove", old.id, ...h]);
          if (rm.code === 0) removed.push(old.title);
          else failures.push(`memory remove ${old.id}: ${rm.stderr}`);
        }
      }
    })();
    await Promise.all([loopA, loopB]);
  } finally {
    await client.close();
    await server.kill();
  }
  assertEquals(failures, []);
  assert(providers.length > 3 && memories.length > 3, "the loops really ran");
  const db = new DatabaseSync(`${home}/reinagent.db`, { readOnly: true });
  try {
    assertEquals(db.prepare("PRAGMA integrity_check").get()?.integrity_check, "ok");
    const ids = new Set(
      (db.prepare("SELECT id FROM provider").all() as { id: string }[]).map((r) => r.id),
    );
    assertEquals(providers.filter((p) => !ids.has(p)), [], "every acknowledged provider");
    const names = new Set(
      (db.prepare("SELECT name FROM automation").all() as { name: string }[]).map((r) => r.name),
    );
    assertEquals(automations.filter((a) => !names.has(a)), [], "every acknowledged automation");
    const streamed = db.prepare(
      "SELECT count(*) AS n FROM message WHERE role = 'assistant'",
    ).get() as { n: number };
    assertEquals(streamed.n, 1, "the streaming answer was persisted");
  } finally {
    db.close();
    await llm.close();
  }
  // Memories are files the server wrote: a fresh process lists every one.
  const list = await reinagent(["memory", "list", "--json", "--home", home]);
  assertEquals(list.code, 0, list.stderr);
  const titles = new Set((JSON.parse(list.stdout) as { title: string }[]).map((m) => m.title));
  assertEquals(
    memories.filter((m) => !titles.has(m.title)).map((m) => m.title),
    [],
    "every acknowledged memory",
  );
  assertEquals(removed.filter((t) => titles.has(t)), [], "every acknowledged removal");
});
