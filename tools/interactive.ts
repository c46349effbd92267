/**
 * Tools that talk to the user: `exit_plan_mode` (plan for approval) and
 * `ask_user_question` (1–4 questions × 2–4 options). They suspend the run; the
 * approval center holds the question and puts the user's answer into `args.__answer`
 * before the tool runs, so the tool itself only formats it for the model.
 */
import { fail, ok, type Tool } from "./types.ts";

export const PLAN_MAX = 20_000;

export const exitPlanMode: Tool = {
  name: "exit_plan_mode",
  description:
    "In plan mode, present your finished plan to the user for approval. If approved, plan " +
    "mode ends and you implement it; if rejected, revise the plan using the user's feedback. Only " +
    "allowed in plan mode.",
  parameters: {
    type: "object",
    properties: {
      plan: { type: "string", description: `The plan in Markdown (≤ ${PLAN_MAX} characters)` },
    },
    required: ["plan"],
    additionalProperties: false,
  },
  kind: "read",
  placement: "main",
  execute(args) {
    if (typeof args.plan !== "string" || !args.plan.trim()) {
      return Promise.resolve(fail("exit_plan_mode needs a `plan` string."));
    }
    return Promise.resolve(ok(
      'The user approved the plan. Plan mode is over (approval mode is now "ask"): implement the plan now.',
      { approved: true },
    ));
  },
};

export interface QuestionAnswer {
  question: string;
  /** Chosen option labels, or a free-text "Other" answer. */
  answers: string[];
}

export const askUserQuestion: Tool = {
  name: "ask_user_question",
  description:
    "Ask the user 1-4 multiple-choice questions when a decision truly needs them. Each " +
    "question has 2-4 options (at most one marked recommended); the user may also answer in free text. " +
    "The run waits for the answer.",
  parameters: {
    type: "object",
    properties: {
      questions: {
        type: "array",
        minItems: 1,
        maxItems: 4,
        items: {
          type: "object",
          properties: {
            question: { type: "string" },
            header: { type: "string", description: "Short tab label (≤ 20 chars)" },
            multi_select: { type: "boolean" },
            options: {
              type: "array",
              minItems: 2,
              maxItems: 4,
              items: {
                type: "object",
                properties: {
                  label: { type: "string" },
                  description: { type: "string" },
                  recommended: { type: "boolean" },
                },
                required: ["label"],
                additionalProperties: false,
              },
            },
          },
          required: ["question", "options"],
          additionalProperties: false,
        },
      },
    },
    required: ["questions"],
    additionalProperties: false,
  },
  kind: "read",
  placement: "main",
  execute(args) {
    const answers = args.__answer as QuestionAnswer[] | undefined;
    if (!answers) return Promise.resolve(fail("No answer was recorded for these questions."));
    const text = answers.map((a) =>
      `Q: ${a.question}\nA: ${a.answers.length ? a.answers.join("; ") : "(no answer)"}`
    ).join("\n\n");
    return Promise.resolve(ok(`The user answered:\n\n${text}`, { answers }));
  },
};

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
