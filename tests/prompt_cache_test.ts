/**
 * Prompt caching by design, measured on the request bodies themselves: a 10-step
 * Anthropic run against the mock LLM, each body cut into the blocks of the cached
 * prefix (tools, system, message blocks), and Anthropic's rule applied to them — a
 * request reads the longest prefix that an earlier request wrote at one of its
 * breakpoints, and everything after that is billed at full price (or more, as a write).
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import { adapterFor } from "../agent/providers/index.ts";
import { driveLoop } from "../agent/index.ts";
import { TimelineWriter } from "../server/agent/timeline_writer.ts";
import { defaultTools } from "../tools/registry.ts";
import { microcompact } from "../server/agent/compaction/microcompact.ts";
import {
  environmentOf,
  reminderBlock,
  systemPrompt,
  withReminder,
} from "../server/agent/prompt.ts";
import type { LlmMessage } from "../agent/providers/types.ts";
import { fakeTool, MemoryEntries, replayRequest } from "./helpers/replay.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { env, runTask } from "./helpers/agent_env.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const bytes = (s: string) => new TextEncoder().encode(s).length;

/** The body as the blocks of its cached prefix, in the API's order, and which carry a breakpoint. */
function blocksOf(body: Json): { text: string; mark: boolean }[] {
  const out: { text: string; mark: boolean }[] = [];
  const add = (prefix: string, b: Json) => {
    const { cache_control, ...rest } = b;
    out.push({ text: `${prefix}${JSON.stringify(rest)}`, mark: cache_control !== undefined });
  };
  for (const t of body.tools ?? []) add("tool:", t);
  for (const s of body.system ?? []) add("system:", s);
  for (const m of body.messages) {
    const content = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    for (const b of content) add(`${m.role}:`, b);
  }
  return out;
}

/** How far back from a breakpoint the API looks for an earlier write. */
const LOOKBACK = 20;

/**
 * Per request after the first: bytes billed at full price (not read from the cache) and
 * bytes new since the previous request (after the longest common prefix of the two).
 */
function cacheFigures(bodies: Json[]): { full: number; fresh: number }[] {
  const written = new Set<string>();
  const out: { full: number; fresh: number }[] = [];
  let prev: string | null = null;
  for (const body of bodies) {
    const blocks = blocksOf(body);
    const prefixes: string[] = [];
    let acc = "";
    for (const b of blocks) prefixes.push(acc += `${b.text}\n`);
    let cached = 0;
    blocks.forEach((b, i) => {
      if (!b.mark) return;
      for (let k = i; k >= Math.max(0, i - LOOKBACK); k--) {
        if (written.has(prefixes[k])) {
          cached = Math.max(cached, bytes(prefixes[k]));
          break;
        }
      }
    });
    const total = bytes(acc);
    if (prev !== null) {
      let common = 0;
      while (common < prev.length && common < acc.length && prev[common] === acc[common]) common++;
      out.push({ full: total - cached, fresh: total - bytes(acc.slice(0, common)) });
    }
    blocks.forEach((b, i) => b.mark && written.add(prefixes[i]));
    prev = acc;
  }
  return out;
}

Deno.test("prompt cache: a 10-step Anthropic run bills at full price about what is new", async () => {
  const mock = startMockLlm({ quiet: true });
  try {
    const steps = 10;
    mock.register("cache-10", {
      turns: [
        ...Array.from({ length: steps - 1 }, (_, i) => ({
          thinking: `Step ${i + 1}: the next file to read is part ${i + 1}.`,
          text: `Reading part ${i + 1}.`,
          toolCalls: [{ id: `toolu_${i + 1}`, name: "read_part", args: { part: i + 1 } }],
        })),
        { text: "All parts read." },
      ],
    });
    // A tool result of about 1.5 KB per step (under the microcompact cut).
    const tools = new ToolRegistry([
      ...defaultTools().names().map((n) => defaultTools().get(n)!),
      fakeTool("read_part", "x".repeat(1500)),
    ]);
    const system = systemPrompt(environmentOf("/work/project"), "edit");
    const reminder = reminderBlock({ now: new Date(0), agents: null });
    const sink = new MemoryEntries();
    let n = 0;
    const writer = new TimelineWriter(
      "t",
      sink,
      { publish: () => {} },
      (p) => `${p}${++n}`,
      () => 0,
      0,
    );
    const messages: LlmMessage[] = [{
      role: "user",
      content: [{ type: "text", text: "read all parts" }],
    }];
    const outcome = await driveLoop({
      adapter: await adapterFor("anthropic-messages"),
      // As a turn builds it: reminder on the first user message, microcompact.
      buildRequest: (m) => ({
        ...replayRequest("anthropic-messages", mock.base, "cache-10", [], tools.specs()),
        system,
        messages: withReminder(microcompact(m), reminder),
      }),
      messages,
      tools,
      workspace: "/nonexistent",
      maxSteps: steps,
      signal: new AbortController().signal,
      now: () => 0,
    }, (ev) => writer.apply(ev));
    assertEquals(outcome, { kind: "done", steps });
    const bodies = mock.requests("cache-10").map((r) => r.body);
    assertEquals(bodies.length, steps);
    // At most 4 breakpoints per request, as the API allows.
    for (const b of bodies) assert(blocksOf(b).filter((x) => x.mark).length <= 4);
    const figures = cacheFigures(bodies);
    const full = figures.reduce((a, f) => a + f.full, 0);
    const fresh = figures.reduce((a, f) => a + f.fresh, 0);
    const ratio = full / fresh;
    console.log(
      `prompt cache: ${steps} steps, billed at full price ${full} B, new ${fresh} B, ratio ${
        ratio.toFixed(2)
      }`,
    );
    assert(ratio <= 1.5, `billed at full price ÷ new = ${ratio.toFixed(2)} (want ≤ 1.5)`);
  } finally {
    await mock.close();
  }
});

Deno.test("prompt cache: the next turn repeats the previous request's prefix when the reminder changes", async () => {
  const e = await env();
  try {
    const model = e.scenario({
      turns: [
        { text: "Looking.", toolCalls: [{ name: "list_dir", args: { path: "." } }] },
        { text: "Done." },
      ],
      repeatLast: true,
    }, "anthropic-messages");
    const { task } = await runTask(e, model, "what is here?", "t");
    const repos = e.deps.store.repos!;
    // Between the turns the project gains instructions: the reminder changes.
    await Deno.writeTextFile(`${e.deps.home}/DefaultProject/AGENTS.md`, "Answer in French.");
    repos.entries.append({
      id: "u2",
      taskId: task.id,
      role: "user",
      status: "done",
      parts: [{ type: "text", text: "and now?" }],
      meta: {},
    });
    assertEquals((await e.deps.runs!.start(task.id))?.kind, "done");
    const bodies = e.mock.requests(model.modelId).map((r) => r.body as Json);
    assertEquals(bodies.length, 3);
    const strip = (m: Json[]) =>
      JSON.stringify(m.map((x) => ({
        ...x,
        content: x.content.map(({ cache_control: _, ...b }: Json) => b),
      })));
    const before = strip(bodies[1].messages);
    const next = strip(bodies[2].messages);
    assert(next.startsWith(before.slice(0, -1)), "turn 2 repeats turn 1's last request");
    const last = bodies[2].messages.at(-1);
    assertEquals(last.content[0].text.startsWith("<system-reminder>\n"), true);
    assert(last.content[0].text.includes("Answer in French."), "the new reminder is at the tail");
    assert(!JSON.stringify(bodies[1]).includes("Answer in French."));
    // Stored on the message it was sent with: a third turn changes nothing before its tail.
    assertEquals(
      typeof repos.entries.latest(task.id, 100).find((x) => x.id === "u2")?.meta.reminder,
      "string",
    );
  } finally {
    await e.close();
  }
});
