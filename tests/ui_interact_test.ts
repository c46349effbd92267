/** UI logic of questions, plan refusals, todos and rewind plans (pure modules) and their strings. */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { type Entry, REFUSAL_CODES, REWIND_REASON_CODES } from "../protocol/index.ts";
import {
  answersOf,
  buildAnswers,
  capsuleShown,
  emptyState,
  latestTodos,
  normalisePlan,
  pickOption,
  planState,
  questionsOf,
  recordedAnswers,
  refusalMessage,
  refusalOf,
  rewindNoteMessage,
  rewindReasonMessage,
  setOtherOn,
  setOtherText,
  tabLabel,
  todosOf,
} from "../ui/state/interact_model.js";
import { policyList } from "../ui/state/approval_model.js";
import interactEn from "../ui/i18n/interact.en-US.js";
import interactZh from "../ui/i18n/interact.zh-CN.js";
import toolsEn from "../ui/i18n/tools.en-US.js";
import toolsZh from "../ui/i18n/tools.zh-CN.js";
import { DICTS, loadLang, tn } from "../ui/i18n/index.js";
import { lang } from "../ui/state/prefs.js";

// Chinese is loaded on demand in the app; these checks read it.
await loadLang("zh-CN");

const ARGS = {
  questions: [
    {
      question: "Which database?",
      header: "Database",
      options: [{ label: "Postgres", recommended: true, description: "server" }, {
        label: "SQLite",
      }],
    },
    {
      question: "Which test runners?",
      multi_select: true,
      options: [{ label: "deno test" }, { label: "vitest" }, { label: "  " }],
    },
    { question: "", options: [{ label: "x" }, { label: "y" }] },
  ],
};

Deno.test("questionsOf keeps well-formed questions and options; tab labels", () => {
  const qs = questionsOf(ARGS);
  assertEquals(qs.length, 2, "the empty question is dropped");
  assertEquals(qs[0].options[0], { label: "Postgres", description: "server", recommended: true });
  assertEquals(qs[1].multi, true);
  assertEquals(qs[1].options.map((o) => o.label), ["deno test", "vitest"], "blank label dropped");
  assertEquals([tabLabel(qs[0], 0), tabLabel(qs[1], 1)], ["Database", "Q2"]);
  assertEquals(questionsOf({}), []);
  assertEquals(questionsOf({ questions: "nope" }), []);
});

Deno.test("answers: single select replaces, multi toggles, Other text selects Other", () => {
  const [single, multi] = questionsOf(ARGS);
  let s = pickOption(emptyState(), single, "Postgres");
  s = pickOption(s, single, "SQLite");
  assertEquals(answersOf(s), ["SQLite"]);
  s = setOtherText(s, single, "  DuckDB ");
  assertEquals([s.otherOn, s.picked], [true, []], "Other replaces a single choice");
  assertEquals(answersOf(s), ["DuckDB"]);
  s = pickOption(s, single, "Postgres");
  assertEquals(answersOf(s), ["Postgres"], "an option turns Other off again");

  let m = pickOption(emptyState(), multi, "deno test");
  m = pickOption(m, multi, "vitest");
  m = pickOption(m, multi, "deno test");
  m = setOtherText(m, multi, "node:test");
  assertEquals(answersOf(m), ["vitest", "node:test"], "multi keeps options next to Other");
  m = setOtherOn(m, multi, false);
  assertEquals(answersOf(m), ["vitest"], "Other off: its text is not sent");
  assertEquals(answersOf(setOtherText(emptyState(), multi, "   ")), [], "blank Other is none");

  assertEquals(buildAnswers([single, multi], [s, m]), [
    { question: "Which database?", answers: ["Postgres"] },
    { question: "Which test runners?", answers: ["vitest"] },
  ]);
  assertEquals(buildAnswers([single], []), [{ question: "Which database?", answers: [] }]);
  assertEquals(setOtherText(emptyState(), single, "x".repeat(5000)).other.length, 4000);
});

const refused = (text: string, refusal?: unknown): Entry => ({
  id: "r",
  taskId: "t",
  pos: 1,
  role: "tool",
  status: "error",
  createdAt: 0,
  updatedAt: 0,
  parts: [{
    type: "tool_result",
    text,
    data: { toolCallId: "c", name: "x", isError: true, meta: refusal ? { refusal } : {} },
  }],
  meta: {},
});

Deno.test("recorded answers; refusals come from the structured code, never the text", () => {
  // As a stored result may hold them (older versions, damage): any shape.
  const stored = { answers: [{ question: "Q", answers: ["a", 2] }, { bad: 1 }] } as unknown;
  assertEquals(recordedAnswers(stored as Parameters<typeof recordedAnswers>[0]), [
    { question: "Q", answers: ["a", "2"] },
  ]);
  assertEquals(recordedAnswers({}), []);
  // The English text alone says nothing any more (it is for the model).
  assertEquals(refusalOf(refused("The user did not approve the plan.")), null);
  const plan = refusalOf(refused("…", { code: "plan_rejected", feedback: " Add tests first. " }));
  assertEquals(plan, { code: "plan_rejected", feedback: "Add tests first.", params: {} });
  assertEquals(refusalMessage(plan!), {
    key: "refusal.plan_rejected.feedback",
    params: { feedback: "Add tests first." },
  });
  const mode = refusalOf(refused("…", { code: "mode_changed", params: { mode: "plan", x: {} } }));
  assertEquals(refusalMessage(mode!), { key: "refusal.mode_changed", params: { mode: "plan" } });
  assertEquals(refusalOf(refused("…", { code: "nonsense" })), null, "unknown code: fall back");
  assertEquals(refusalOf(refused("…", "stopped")), null, "not an object");
  // Every code the server can send has its strings (and the quoting variants).
  for (const code of REFUSAL_CODES) {
    assert(Object.hasOwn(toolsEn, `refusal.${code}`), `en-US refusal.${code}`);
    assert(Object.hasOwn(toolsZh, `refusal.${code}`), `zh-CN refusal.${code}`);
    assertEquals(
      refusalMessage({ code, feedback: "", params: {} }).key,
      `refusal.${code}`,
    );
  }
  for (const code of ["rejected", "plan_rejected"]) {
    const key = refusalMessage({ code, feedback: "f", params: {} }).key;
    assert(Object.hasOwn(toolsEn, key) && Object.hasOwn(toolsZh, key), key);
  }
  assertEquals(
    refusalMessage({ code: "stopped", feedback: "f", params: {} }).key,
    "refusal.stopped",
    "only rejections quote feedback",
  );
});

Deno.test("rewind reasons and the shell note are codes the UI says in both languages", () => {
  const plan = normalisePlan({
    conflicts: [{ path: "a", reason: "changed outside the agent since", code: "changed" }],
    unrewindable: [
      { path: "big", reason: "larger than 32 MB", code: "too_large", params: { mb: 32 } },
      { path: "odd", reason: "something new", code: "from_the_future" },
    ],
    note: "Files changed by shell commands …",
    noteParams: { mb: 2 },
  });
  assertEquals(rewindReasonMessage(plan.conflicts[0]), {
    key: "rewind.reason.changed",
    params: {},
  });
  assertEquals(rewindReasonMessage(plan.unrewindable[0]), {
    key: "rewind.reason.too_large",
    params: { mb: 32 },
  });
  assertEquals(plan.unrewindable[1].code, "other");
  assertEquals(rewindReasonMessage(plan.unrewindable[1]), null, "unknown: the English text");
  assertEquals(rewindNoteMessage(plan), { key: "rewind.note.shell", params: { mb: 2 } });
  for (const code of REWIND_REASON_CODES.filter((c) => c !== "other")) {
    assert(Object.hasOwn(interactEn, `rewind.reason.${code}`), `en-US ${code}`);
    assert(Object.hasOwn(interactZh, `rewind.reason.${code}`), `zh-CN ${code}`);
  }
  assertMatch((interactZh as Record<string, string>)["rewind.note.shell"], /快照/);
});

const todoEntry = (pos: number, todos: unknown, isError = false): Entry => ({
  id: `e${pos}`,
  taskId: "t",
  pos,
  role: "tool",
  status: isError ? "error" : "done",
  createdAt: 0,
  updatedAt: 0,
  parts: [{
    type: "tool_result",
    text: "",
    data: { toolCallId: `c${pos}`, name: "todo_write", isError, meta: { todos } },
  }],
  meta: {},
});

Deno.test("latestTodos: the last successful todo_write wins; capsule visibility", () => {
  const first = [
    { content: "Read", status: "completed" },
    { content: "Write", status: "in_progress" },
    { content: "Test", status: "pending" },
  ];
  const all = first.map((t) => ({ ...t, status: "completed" }));
  const other: Entry = { ...todoEntry(9, []), parts: [{ type: "text", text: "hi" }] };
  const p1 = latestTodos([todoEntry(1, first), other]);
  assertEquals([p1?.done, p1?.total, p1?.current], [1, 3, "Write"]);
  const p2 = latestTodos([todoEntry(1, first), todoEntry(2, all), todoEntry(3, first, true)]);
  assertEquals([p2?.done, p2?.total, p2?.current], [3, 3, null], "a failed call is ignored");
  assertEquals(latestTodos([other]), null);
  assertEquals(todosOf([{ content: "x", status: "weird" }]), null);
  assertEquals(capsuleShown(p1, false), true, "open items show");
  assertEquals(capsuleShown(p2, true), true, "all done but still running: shows");
  assertEquals(capsuleShown(p2, false), false, "all done and the run ended: hidden");
  assertEquals(capsuleShown(latestTodos([todoEntry(1, [])]), true), false, "an empty list");
  assertEquals(capsuleShown(null, true), false);
});

Deno.test("rewind plans: normalised; empty, blocked or ready", () => {
  const plan = normalisePlan({ restore: ["a.txt"], remove: [], conflicts: null, note: 3 });
  assertEquals(plan, {
    restore: ["a.txt"],
    remove: [],
    conflicts: [],
    unrewindable: [],
    note: "",
    noteCode: "shell_snapshot",
    noteParams: {},
  });
  assertEquals(planState(plan), "ready");
  assertEquals(planState(normalisePlan({})), "empty");
  assertEquals(
    planState(normalisePlan({ remove: ["b"], conflicts: [{ path: "a", reason: "x" }] })),
    "blocked",
  );
  assertEquals(
    planState(normalisePlan({ unrewindable: [{ path: "big", reason: "32 MB" }] })),
    "blocked",
  );
});

Deno.test("interact strings: same keys in both languages, placeholders, every used key exists", async () => {
  const en = Object.keys(interactEn).filter((k) => !k.endsWith(".one")).sort();
  assertEquals(Object.keys(interactZh).sort(), en, "zh-CN has exactly the base keys of en-US");
  const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [k, v] of Object.entries(interactZh)) {
    assertEquals(names(v), names((interactEn as Record<string, string>)[k]), k);
  }
  for (const k of Object.keys(interactEn)) {
    if (k.endsWith(".one")) assert(k.slice(0, -4) in interactEn, `${k} has no base form`);
    assert(k in DICTS["en-US"], `${k} not merged`);
    if (!k.endsWith(".one")) assert(k in DICTS["zh-CN"], `${k} not merged into zh-CN`);
  }
  // Every literal key the interactive components use is translated.
  const files = [
    "components/interact/QuestionForm.js",
    "components/interact/RewindDialog.js",
    "components/interact/TodoCapsule.js",
    "components/interact/Dialog.js",
    "components/tools/QuestionCard.js",
    "components/tools/PlanCard.js",
    "components/tools/TodoCard.js",
    "components/UserMessage.js",
  ];
  let used = 0;
  for (const f of files) {
    const src = await Deno.readTextFile(new URL(`../ui/${f}`, import.meta.url));
    for (const m of src.matchAll(/\btn?\(\s*"([\w.]+)"/g)) {
      used++;
      assert(m[1] in DICTS["en-US"] && m[1] in DICTS["zh-CN"], `${f}: ${m[1]} missing`);
    }
  }
  assert(used > 50, `only ${used} keys found: the scan is broken`);
  const before = lang.value;
  try {
    lang.value = "en-US";
    assertEquals([tn("rewind.restore", 1), tn("rewind.restore", 2)], [
      "Restore 1 file",
      "Restore 2 files",
    ]);
    lang.value = "zh-CN";
    assertEquals(tn("rewind.conflicts", 2), "2 处冲突");
  } finally {
    lang.value = before;
  }
});

Deno.test("policyList: a task's tool rules, sorted, malformed ones left out", () => {
  assertEquals(
    policyList({
      toolPolicies: { write_file: "allow", exec_command: "deny", bad: "maybe", "": "allow" },
    }),
    [{ tool: "exec_command", policy: "deny" }, { tool: "write_file", policy: "allow" }],
  );
  assertEquals(policyList({}), []);
  assertEquals(policyList(null), []);
  assertEquals(policyList({ toolPolicies: ["allow"] }), []);
});
