/**
 * Skills in the agent's turns: an enabled skill is listed (name, description,
 * path) in the reminder of the next request and a disabled one is not; the model can
 * read an enabled skill's SKILL.md with read_file even outside the workspace (in the data
 * folder), but nothing else of the data folder, and no longer once it is turned off.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { env } from "./helpers/agent_env.ts";
import { skillMd } from "./helpers/zip.ts";
import { runOp } from "../server/ops/dispatch.ts";
import type { OpContext } from "../server/ops/context.ts";
import type { Entry } from "../protocol/index.ts";

const reminderOf = (body: Record<string, unknown>): string => {
  const msgs = body.messages as { role: string; content: string | { text?: string }[] }[];
  const first = msgs.find((m) => m.role === "user")!;
  return typeof first.content === "string"
    ? first.content
    : first.content.map((c) => c.text ?? "").join("\n");
};

const toolResults = (entries: Entry[]) =>
  entries.filter((e) => e.role === "tool").map((e) => e.parts[0]?.text ?? "");

Deno.test("an enabled skill is in the next request's reminder, a disabled one is not; its SKILL.md is readable", async () => {
  const e = await env();
  const home = e.deps.home;
  const ws = join(home, "DefaultProject");
  await Deno.mkdir(join(home, "skills", "alpha"), { recursive: true });
  await Deno.writeTextFile(
    join(home, "skills", "alpha", "SKILL.md"),
    skillMd("alpha", "Alpha helps with alpha reports"),
  );
  await Deno.mkdir(join(ws, ".reinagent", "skills", "beta"), { recursive: true });
  await Deno.writeTextFile(
    join(ws, ".reinagent", "skills", "beta", "SKILL.md"),
    skillMd("beta", "Beta formats beta tables"),
  );
  const alphaPath = join(home, "skills", "alpha", "SKILL.md");
  const client = { id: "t", topics: new Set<string>(), deliver: () => {} };
  const ctx = { ...e.deps, client } as OpContext;
  const op = async (name: string, args: unknown) => {
    const r = await runOp(ctx, name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
    return r.result;
  };
  try {
    // Turn 1: alpha (installed into ReinAgent's folder) is on by default, beta is off.
    const m1 = e.scenario({
      turns: [
        { toolCalls: [{ id: "r1", name: "read_file", args: { path: alphaPath } }] },
        {
          toolCalls: [{ id: "r2", name: "read_file", args: { path: join(home, "reinagent.db") } }],
        },
        { text: "done" },
      ],
    });
    const { task: t1 } = await e.deps.tasks!.create({
      message: "make the alpha report",
      title: "one",
      options: { model: m1, approval: "full" },
    });
    await e.deps.runs!.start(t1.id);
    const r1 = reminderOf(e.mock.requests(m1.modelId)[0].body);
    assertMatch(r1, /Skills the user enabled/);
    assertMatch(
      r1,
      /- alpha: Alpha helps with alpha reports\n {2}path: .*skills\/alpha\/SKILL\.md/,
    );
    assert(!r1.includes("beta"), "a skill that is off is not listed");
    const [read, db] = toolResults(e.deps.store.repos!.entries.latest(t1.id, 100));
    assertMatch(read, /Alpha helps with alpha reports/, "the enabled skill's file is readable");
    assertMatch(db, /hidden from the agent|Access denied/, "the rest of the data folder is not");

    // The page turns beta on and alpha off: the next request lists beta only.
    await op("skills.setEnabled", { key: "workspace:beta", enabled: true, projectPath: ws });
    await op("skills.setEnabled", { key: "reinagent:alpha", enabled: false });
    const m2 = e.scenario({
      turns: [
        { toolCalls: [{ id: "r3", name: "read_file", args: { path: alphaPath } }] },
        { text: "ok" },
      ],
    });
    const { task: t2 } = await e.deps.tasks!.create({
      message: "format the table",
      title: "two",
      options: { model: m2, approval: "full" },
    });
    await e.deps.runs!.start(t2.id);
    const r2 = reminderOf(e.mock.requests(m2.modelId)[0].body);
    assertMatch(
      r2,
      /- beta: Beta formats beta tables\n {2}path: .*\.reinagent\/skills\/beta\/SKILL\.md/,
    );
    assert(!r2.includes("alpha"), "a skill turned off is no longer listed");
    const [again] = toolResults(e.deps.store.repos!.entries.latest(t2.id, 100));
    assertMatch(again, /Access denied|hidden/, "a skill turned off is no longer readable");

    // The context breakdown counts the skills as their own category.
    const bd = await op("task.contextBreakdown", { id: t2.id, category: "skills" }) as {
      categories: { key: string; items: number }[];
      text: { text: string };
    };
    assertEquals(bd.categories.find((c) => c.key === "skills")?.items, 1);
    assertMatch(bd.text.text, /beta/);
  } finally {
    await e.close();
  }
});
