/**
 * Compaction's pure parts: microcompact (deterministic, idempotent, never
 * touching its input), the range a compaction summarises (tool pairs, the running turn,
 * already-compacted ranges), the summary in the conversation, and "context too long"
 * in every format's words.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import type { Entry, Part } from "../protocol/index.ts";
import { compactMetaOf } from "../protocol/index.ts";
import type { LlmMessage } from "../agent/providers/types.ts";
import { cutToolResult, microcompact } from "../server/agent/compaction/microcompact.ts";
import { liveMessages, planCompaction } from "../server/agent/compaction/plan.ts";
import { toConversation } from "../server/agent/history.ts";
import { errorInfo, isContextOverflow } from "../agent/providers/errors.ts";

let pos = 0;
const entry = (role: Entry["role"], parts: Part[], meta: Record<string, unknown> = {}): Entry => ({
  id: `e${++pos}`,
  taskId: "t",
  pos,
  role,
  status: "done",
  createdAt: pos,
  updatedAt: pos,
  parts,
  meta,
});
const user = (text: string) => entry("user", [{ type: "text", text }]);
const answer = (text: string) => entry("assistant", [{ type: "text", text }]);
const call = (id: string, args: Record<string, unknown> = {}) =>
  entry("assistant", [{ type: "tool_call", data: { id, name: "read_file", args } }]);
const result = (id: string, text: string) =>
  entry("tool", [{ type: "tool_result", text, data: { toolCallId: id, name: "read_file" } }]);
const compact = (keepFrom: number, summary: string, extra: Record<string, unknown> = {}) =>
  entry("compact", [{ type: "text", text: summary }], {
    kind: "compaction",
    count: 1,
    keepFrom,
    trigger: "auto",
    inTurn: false,
    tokensBefore: 0,
    tokensAfter: 0,
    durationMs: 0,
    model: "m/m",
    ...extra,
  });

const toolMsg = (content: string): LlmMessage => ({
  role: "tool",
  toolCallId: "c",
  name: "read_file",
  content,
  isError: false,
});

Deno.test("microcompact: older long results cut to head + marker + tail; recent ones and the input untouched", () => {
  const long = "A".repeat(800) + "M".repeat(5000) + "Z".repeat(400);
  const msgs: LlmMessage[] = [toolMsg(long), toolMsg("short")];
  for (let i = 0; i < 6; i++) msgs.push(toolMsg(long));
  const copy = structuredClone(msgs);
  const out = microcompact(msgs);
  assertEquals(msgs, copy, "the input (the stored history's conversation) changed");
  const first = out[0] as Extract<LlmMessage, { role: "tool" }>;
  assert(
    first.content.startsWith("A".repeat(800) + "\n…[5000 characters"),
    first.content.slice(0, 900),
  );
  assert(first.content.endsWith("Z".repeat(400)));
  assert(!first.content.includes("M"), "the middle was kept");
  assertEquals((out[1] as typeof first).content, "short");
  for (let i = 2; i < 8; i++) {
    assertEquals((out[i] as typeof first).content, long, `recent ${i} cut`);
  }
  // Idempotent and deterministic: the same history gives the same request, twice over.
  assertEquals(microcompact(out), out);
  assertEquals(microcompact(structuredClone(msgs)), out);
  assertEquals(cutToolResult(cutToolResult(long)), cutToolResult(long));
  assertEquals(microcompact(msgs.slice(0, 6)), msgs.slice(0, 6), "six messages: nothing is older");
});

Deno.test("plan: whole turns kept when they fit; the range never starts at a tool result", () => {
  pos = 0;
  const list: Entry[] = [];
  for (let t = 0; t < 7; t++) {
    list.push(user(`request ${t}`), call(`c${t}`), result(`c${t}`, "x".repeat(400)), answer("ok"));
  }
  const plan = planCompaction(list, { keepTurns: 4, tailBudget: 10_000 })!;
  const users = list.filter((e) => e.role === "user");
  assertEquals(plan.keepFrom, users[3].pos, "the last 4 turns are kept");
  assertEquals(plan.count, 12);
  assertEquals(plan.inTurn, false);
  // Too few turns and all fits: nothing to summarise by turns, so keep all but the oldest steps.
  const short = list.slice(0, 8);
  const p2 = planCompaction(short, { keepTurns: 4, tailBudget: 10_000 })!;
  assertEquals(p2.keepFrom, short[1].pos, "everything fits: only the first message goes");
  // Tool results are never the first kept entry.
  for (const budget of [50, 150, 300, 600, 1200]) {
    const p = planCompaction(list, { keepTurns: 4, tailBudget: budget });
    if (!p) continue;
    const first = list.find((e) => e.pos === p.keepFrom)!;
    assert(first.role !== "tool", `budget ${budget}: starts at a tool result`);
  }
});

Deno.test("plan: one long running turn is cut inside, keeping its request and latest steps", () => {
  pos = 0;
  const list: Entry[] = [user("fix every bug")];
  for (let s = 0; s < 60; s++) {
    list.push(call(`c${s}`, { path: `f${s}` }), result(`c${s}`, "y".repeat(2000)));
  }
  const plan = planCompaction(list, { keepTurns: 4, tailBudget: 3000 })!;
  assert(plan.inTurn, "not in-turn");
  assertEquals(plan.request?.id, list[0].id, "the turn's request");
  const first = list.find((e) => e.pos === plan.keepFrom)!;
  assertEquals(first.role, "assistant");
  const keptSteps = list.filter((e) => e.pos >= plan.keepFrom && e.role === "assistant").length;
  assert(keptSteps >= 1 && keptSteps < 60, `kept ${keptSteps} steps`);
  // Even when the last step alone is over budget, the latest tool pair stays verbatim.
  const tiny = planCompaction(list, { keepTurns: 4, tailBudget: 1 })!;
  assertEquals(tiny.keepFrom, list[list.length - 2].pos);
});

Deno.test("plan: an earlier compaction's range is not summarised again; /clear resets", () => {
  pos = 0;
  const list: Entry[] = [];
  for (let t = 0; t < 6; t++) list.push(user(`r${t}`), answer("a".repeat(100)));
  const c = compact(list[4].pos, "summary one");
  list.push(c);
  assertEquals(liveMessages(list)[0].pos, list[4].pos);
  for (let t = 6; t < 10; t++) list.push(user(`r${t}`), answer("a".repeat(100)));
  const plan = planCompaction(list, { keepTurns: 4, tailBudget: 10_000 })!;
  assertEquals(plan.count, 8, "only the messages after the first summary's range (r2…r5)");
  const conv = toConversation(list);
  const first = conv[0] as Extract<LlmMessage, { role: "user" }>;
  assert(
    first.content[0].type === "text" && first.content[0].text.includes("summary one"),
    "the summary does not open the conversation",
  );
  assert(!JSON.stringify(conv).includes('"r0"'), "a compacted message was sent");
  assert(JSON.stringify(conv).includes('"r2"'), "a kept message is missing");
  // After a /clear the old summary is gone too.
  list.push(entry("system", [], { kind: "clear" }));
  list.push(user("fresh"));
  const after = toConversation(list);
  assertEquals(after.length, 1);
  assert(!JSON.stringify(after).includes("summary one"));
  assertEquals(planCompaction(list, { keepTurns: 4, tailBudget: 10_000 }), null);
});

Deno.test("history: an in-turn summary keeps the request verbatim and no tool result is orphaned", () => {
  pos = 0;
  const list: Entry[] = [user("do the thing")];
  for (let s = 0; s < 5; s++) list.push(call(`c${s}`), result(`c${s}`, `out ${s}`));
  const c = compact(list[7].pos, "did steps 0-2", { inTurn: true, request: "do the thing" });
  assert(compactMetaOf(c));
  list.push(c);
  const conv = toConversation(list);
  assertEquals(conv[0].role, "user");
  const text = JSON.stringify(conv[0]);
  assert(text.includes("did steps 0-2") && text.includes("<request>\\ndo the thing"), text);
  assertEquals(conv[1].role, "assistant");
  const calls = new Set<string>();
  for (const m of conv) {
    if (m.role === "assistant") {
      for (const b of m.content) if (b.type === "tool_call") calls.add(b.id);
    }
    if (m.role === "tool") assert(calls.has(m.toolCallId), `orphan result ${m.toolCallId}`);
  }
  assertEquals([...calls], ["c3", "c4"]);
});

Deno.test("overflow: 'context too long' recognised in every format's words, other 400s not", () => {
  const yes = [
    "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
    "prompt is too long: 210000 tokens > 200000 maximum",
    "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    "Your input exceeds the context window of this model.",
    "context_length_exceeded",
    "Input is too long for requested model.",
  ];
  for (const m of yes) {
    assert(isContextOverflow(errorInfo(m, { status: 400 })), m);
    assert(isContextOverflow(errorInfo("bad request", { status: 400, upstream: m })), m);
  }
  const no = [
    errorInfo("invalid model id", { status: 400 }),
    errorInfo("maximum context length is 10", { status: 429 }),
    errorInfo("prompt is too long", { status: 401 }),
  ];
  for (const i of no) assert(!isContextOverflow(i), i.message);
});
