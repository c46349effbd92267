/**
 * Tools that talk to the user: `exit_plan_mode` (plan for approval) and
 * `ask_user_question` (1–4 questions × 2–4 options). They suspend the run; the
 * approval center holds the question and hands the user's answer to the tool as
 * `ctx.answer`, so the tool itself only formats it for the model.
 */
import { fail, ok } from "./types.ts";
import { defineTool } from "./define.ts";
import type { QuestionAnswer, ToolDetails } from "../protocol/tool_details.ts";
import { arr, bool, obj } from "../protocol/schema.ts";
import { text } from "./args.ts";

export const PLAN_MAX = 20_000;

export const exitPlanMode = defineTool<{ plan: string }, ToolDetails<"exit_plan_mode">>({
  name: "exit_plan_mode",
  description:
    "In plan mode, present your finished plan to the user for approval. If approved, plan " +
    "mode ends and you implement it; if rejected, revise the plan using the user's feedback. Only " +
    "allowed in plan mode.",
  // The gate refuses an empty or too long plan (with codes the UI translates).
  args: obj({ plan: text(`The plan in Markdown (≤ ${PLAN_MAX} characters)`) }),
  kind: "read",
  placement: "main",
  execute(args) {
    if (!args.plan.trim()) return Promise.resolve(fail("exit_plan_mode needs a non-empty `plan`."));
    return Promise.resolve(ok(
      'The user approved the plan. Plan mode is over (approval mode is now "ask"): implement the plan now.',
      { approved: true },
    ));
  },
});

/** One question and what the user answered: chosen option labels, or free text. */
export type { QuestionAnswer };

interface Question {
  question: string;
  header?: string;
  multi_select?: boolean;
  options: { label: string; description?: string; recommended?: boolean }[];
}

const option = obj({ label: text(), "description?": text(), "recommended?": bool });
const question = obj({
  question: text(),
  "header?": text("Short tab label (≤ 20 chars)"),
  "multi_select?": bool,
  options: arr(option, 4, { min: 2 }),
});

export const askUserQuestion = defineTool<
  { questions: Question[] },
  ToolDetails<"ask_user_question">
>({
  name: "ask_user_question",
  description:
    "Ask the user 1-4 multiple-choice questions when a decision truly needs them. Each " +
    "question has 2-4 options (at most one marked recommended); the user may also answer in free text. " +
    "The run waits for the answer.",
  // The gate checks the questions (with a code the UI translates) before the user sees them.
  args: obj({ questions: arr(question, 4, { min: 1 }) }),
  kind: "read",
  placement: "main",
  execute(_args, ctx) {
    const answers = ctx.answer as QuestionAnswer[] | undefined;
    if (!answers) return Promise.resolve(fail("No answer was recorded for these questions."));
    const lines = answers.map((a) =>
      `Q: ${a.question}\nA: ${a.answers.length ? a.answers.join("; ") : "(no answer)"}`
    ).join("\n\n");
    return Promise.resolve(ok(`The user answered:\n\n${lines}`, { answers }));
  },
});

/** Problems with an ask_user_question call's shape (beyond the JSON schema), or null. */
export function questionProblems(args: Record<string, unknown>): string | null {
  const qs = args.questions;
  if (!Array.isArray(qs) || qs.length < 1 || qs.length > 4) {
    return "questions must be an array of 1 to 4 questions.";
  }
  for (const [i, q] of qs.entries()) {
    if (typeof q?.question !== "string" || !q.question.trim()) {
      return `questions[${i}].question must be a non-empty string.`;
    }
    if (!Array.isArray(q.options) || q.options.length < 2 || q.options.length > 4) {
      return `questions[${i}] needs 2 to 4 options.`;
    }
    if (
      q.options.some((o: { label?: unknown }) => typeof o?.label !== "string" || !o.label.trim())
    ) return `questions[${i}]: every option needs a label.`;
    if (q.options.filter((o: { recommended?: boolean }) => o.recommended).length > 1) {
      return `questions[${i}]: at most one option may be recommended.`;
    }
  }
  return null;
}
