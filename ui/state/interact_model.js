/**
 * Pure logic of the interactive parts (no DOM, no signals): the questions of an
 * `ask_user_question` call and the answers sent back, the outcome of a
 * refused plan or skipped question, the task's todo list for the progress capsule
 * and what a rewind plan allows.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/index.ts").RewindPlan} RewindPlan
 * @typedef {{label: string, description: string, recommended: boolean}} QOption
 * @typedef {{question: string, header: string, multi: boolean, options: QOption[]}} Question
 * @typedef {{picked: string[], other: string, otherOn: boolean}} QState
 * @typedef {{question: string, answers: string[]}} QAnswer
 * @typedef {{label?: unknown, description?: unknown, recommended?: unknown}} RawOption
 *   an option as the model wrote it (anything may be missing or of the wrong type)
 * @typedef {{question?: unknown, header?: unknown, multi_select?: unknown, options?: unknown}}
 *   RawQuestion a question as the model wrote it
 * @typedef {{content: string, status: "pending"|"in_progress"|"completed"}} Todo
 * @typedef {{code: string, feedback: string, params: Record<string, string|number>}} Refusal
 * @typedef {import("../../protocol/index.ts").RewindReason} RewindReason
 * @typedef {{todos: Todo[], done: number, total: number, current: string|null}} TodoProgress
 * @typedef {import("../../protocol/tool_details.ts").ToolDetails<"ask_user_question">} QuestionDetails
 */
import { resultMeta } from "./tool_details.js";

/** Limits of `approval.decide` answers (protocol/index.ts). */
export const ANSWER_LIMITS = { questions: 4, answers: 8, chars: 4000, question: 2000 };

/** @param {unknown} v */
const str = (v) => (typeof v === "string" ? v : "");

/**
 * The well-formed questions of a call's arguments (a bad one must not break the card).
 * @param {Record<string, unknown>} args
 * @returns {Question[]}
 */
export function questionsOf(args) {
  /** @type {(RawQuestion|null|undefined)[]} */
  const qs = Array.isArray(args?.questions) ? args.questions : [];
  /** @type {Question[]} */
  const out = [];
  for (const q of qs.slice(0, ANSWER_LIMITS.questions)) {
    const question = str(q?.question).trim();
    if (!q || !question) continue;
    /** @type {(RawOption|null|undefined)[]} */
    const raw = Array.isArray(q.options) ? q.options : [];
    const options = raw
      .filter((o) => str(o?.label).trim())
      .map((o) => ({
        label: str(o?.label).trim(),
        description: str(o?.description).trim(),
        recommended: o?.recommended === true,
      }));
    out.push({ question, header: str(q.header).trim(), multi: q.multi_select === true, options });
  }
  return out;
}

/**
 * A tab's label: the question's `header`, else Q1, Q2…
 * @param {Question} q
 * @param {number} i
 */
export const tabLabel = (q, i) => q.header || `Q${i + 1}`;

/** @returns {QState} */
export const emptyState = () => ({ picked: [], other: "", otherOn: false });

/**
 * Picks an option: replaces the choice of a single-select question (and leaves
 * "Other"), toggles it in a multi-select one.
 * @param {QState} s
 * @param {Question} q
 * @param {string} label
 * @returns {QState}
 */
export function pickOption(s, q, label) {
  if (!q.multi) return { ...s, picked: [label], otherOn: false };
  const picked = s.picked.includes(label)
    ? s.picked.filter((l) => l !== label)
    : [...s.picked, label];
  return { ...s, picked };
}

/**
 * Turns "Other" on or off (on in a single-select question clears the options).
 * @param {QState} s
 * @param {Question} q
 * @param {boolean} on
 * @returns {QState}
 */
export function setOtherOn(s, q, on) {
  return { ...s, otherOn: on, picked: on && !q.multi ? [] : s.picked };
}

/**
 * Types into "Other": typing selects it.
 * @param {QState} s
 * @param {Question} q
 * @param {string} text
 * @returns {QState}
 */
export function setOtherText(s, q, text) {
  const next = { ...s, other: text.slice(0, ANSWER_LIMITS.chars) };
  return text.trim() && !s.otherOn ? setOtherOn(next, q, true) : next;
}

/**
 * The answers of one question: the picked labels, then the "Other" text.
 * @param {QState} s
 * @returns {string[]}
 */
export function answersOf(s) {
  const other = s.otherOn ? s.other.trim() : "";
  return [...s.picked, ...(other ? [other] : [])].slice(0, ANSWER_LIMITS.answers);
}

/**
 * The `answers` argument of `approval.decide`, one item per question.
 * @param {Question[]} questions
 * @param {QState[]} states
 * @returns {QAnswer[]}
 */
export function buildAnswers(questions, states) {
  return questions.map((q, i) => ({
    question: q.question.slice(0, ANSWER_LIMITS.question),
    answers: answersOf(states[i] ?? emptyState()),
  }));
}

/**
 * The answers a finished ask_user_question result recorded (its `meta.answers`).
 * @param {QuestionDetails} meta
 * @returns {QAnswer[]}
 */
export function recordedAnswers(meta) {
  const list = Array.isArray(meta?.answers) ? meta.answers : [];
  return list
    .filter((a) => typeof a?.question === "string" && Array.isArray(a.answers))
    .map((a) => ({ question: a.question, answers: a.answers.map(String) }));
}

/** Refusal codes the UI can say (protocol/index.ts REFUSAL_CODES). */
export const REFUSAL_CODES = new Set([
  "plan_mode",
  "policy_deny",
  "rejected",
  "mode_changed",
  "plan_rejected",
  "not_plan_mode",
  "plan_empty",
  "plan_too_long",
  "questions_invalid",
  "questions_skipped",
  "stopped",
  "interrupted",
  "task_gone",
  "outside_workspace",
  "sandbox",
  "hidden_path",
  "unsandboxed",
  "hook_blocked",
  "rule_deny",
]);

/**
 * Why a call came back refused (the approval gate, the sandbox, a restart): the
 * structured `meta.refusal` of its result, or null. Unknown codes count as none, so
 * the card falls back to the result text.
 * @param {Entry|undefined} result
 * @returns {Refusal|null}
 */
export function refusalOf(result) {
  const r = resultMeta(result).refusal;
  if (!r || typeof r !== "object" || !REFUSAL_CODES.has(r.code)) return null;
  /** @type {Record<string, string|number>} */
  const params = {};
  if (r.params && typeof r.params === "object") {
    for (const [k, v] of Object.entries(r.params)) {
      if (typeof v === "string" || typeof v === "number") params[k] = v;
    }
  }
  return { code: r.code, feedback: str(r.feedback).trim(), params };
}

/**
 * The i18n key and parameters that say a refusal in the reader's language; with the
 * user's feedback the `.feedback` variant quotes it.
 * @param {Refusal} r
 * @returns {{key: string, params: Record<string, string|number>}}
 */
export function refusalMessage(r) {
  const quoted = !!r.feedback && (r.code === "rejected" || r.code === "plan_rejected");
  const key = `refusal.${r.code}${quoted ? ".feedback" : ""}`;
  return { key, params: { ...r.params, ...(r.feedback ? { feedback: r.feedback } : {}) } };
}

// ---------- todos ----------

const STATUSES = ["pending", "in_progress", "completed"];

/**
 * A well-formed todo list, or null.
 * @param {unknown} v
 * @returns {Todo[]|null}
 */
export function todosOf(v) {
  if (!Array.isArray(v)) return null;
  const list = v.filter((t) => str(t?.content).trim() && STATUSES.includes(t.status));
  return list.length === v.length
    ? list.map((t) => ({ content: t.content, status: t.status }))
    : null;
}

/**
 * @param {Todo[]} todos
 * @returns {TodoProgress}
 */
export function progressOf(todos) {
  const done = todos.filter((t) => t.status === "completed").length;
  const current = todos.find((t) => t.status === "in_progress")?.content ?? null;
  return { todos, done, total: todos.length, current };
}

/**
 * The list written by the task's latest successful `todo_write` (its result's
 * `meta.todos`), or null when there is none.
 * @param {Entry[]} entries ordered by pos
 * @returns {TodoProgress|null}
 */
export function latestTodos(entries) {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.role !== "tool") continue;
    const data = e.parts[0]?.data;
    if (data?.name !== "todo_write" || data.isError === true || e.status === "error") continue;
    const todos = todosOf(resultMeta(e, ["todo_write"]).todos);
    if (todos) return progressOf(todos);
  }
  return null;
}

/**
 * The capsule shows while a list has open items, or while the run that completed
 * them still goes on.
 * @param {TodoProgress|null} p
 * @param {boolean} running
 */
export function capsuleShown(p, running) {
  return !!p && p.total > 0 && (p.done < p.total || running);
}

// ---------- rewind ----------

/** @param {unknown} v */
const strings = (v) => (Array.isArray(v) ? v.map(String) : []);
/** Rewind reason codes the UI can say (protocol/index.ts REWIND_REASON_CODES). */
const REWIND_CODES = new Set([
  "changed",
  "symlink",
  "too_large",
  "task_full",
  "not_regular",
  "snapshot_full",
]);

/** @param {unknown} v */
const numbers = (v) => {
  /** @type {Record<string, number>} */
  const out = {};
  if (v && typeof v === "object") {
    for (const [k, n] of Object.entries(v)) if (Number.isFinite(n)) out[k] = Number(n);
  }
  return out;
};

/**
 * @param {unknown} v
 * @returns {RewindReason[]}
 */
const reasons = (v) =>
  Array.isArray(v)
    ? v.map((c) => ({
      path: str(c?.path),
      reason: str(c?.reason),
      code: REWIND_CODES.has(c?.code) ? c.code : "other",
      params: numbers(c?.params),
    }))
    : [];

/**
 * A rewind plan as the server sent it, made safe to render.
 * @param {any} raw
 * @returns {RewindPlan}
 */
export function normalisePlan(raw) {
  return {
    restore: strings(raw?.restore),
    remove: strings(raw?.remove),
    conflicts: reasons(raw?.conflicts),
    unrewindable: reasons(raw?.unrewindable),
    note: str(raw?.note),
    noteCode: "shell_snapshot",
    noteParams: numbers(raw?.noteParams),
  };
}

/**
 * The i18n key and parameters of a rewind reason; null for a reason the UI does not
 * know (then the server's English text is shown as it is).
 * @param {{code?: string, params?: Record<string, number>}} r
 * @returns {{key: string, params: Record<string, number>}|null}
 */
export function rewindReasonMessage(r) {
  if (!r.code || !REWIND_CODES.has(r.code)) return null;
  return { key: `rewind.reason.${r.code}`, params: r.params ?? {} };
}

/**
 * The plan's shell note (files up to N MB are snapshotted), or null when the server
 * sent none.
 * @param {RewindPlan} p
 * @returns {{key: string, params: Record<string, number>}|null}
 */
export function rewindNoteMessage(p) {
  if (!p.note && !Number.isFinite(p.noteParams?.mb)) return null;
  return { key: "rewind.note.shell", params: { mb: p.noteParams?.mb ?? 2 } };
}

/**
 * What a plan allows: nothing to do, blocked (conflicts or changes that cannot be
 * rewound — the rewind is all-or-nothing), or ready.
 * @param {RewindPlan} p
 * @returns {"empty"|"blocked"|"ready"}
 */
export function planState(p) {
  if (p.conflicts.length || p.unrewindable.length) return "blocked";
  return p.restore.length || p.remove.length ? "ready" : "empty";
}
