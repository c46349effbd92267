/** Results for tool calls that waited for approval when the previous process ended. */
import type { ToolResult } from "../../tools/types.ts";
import { INTERRUPTED } from "../agent/history.ts";
import { rejectionText } from "./approvals.ts";

/** The result of a call rejected from the recovery banner (after a restart). */
export function recoveredRejection(name: string): ToolResult {
  if (name === "exit_plan_mode") {
    return {
      content:
        "The user did not approve the plan. You are still in plan mode: revise the plan and call exit_plan_mode again.",
      isError: true,
      meta: { refusal: { code: "plan_rejected" } },
    };
  }
  if (name === "ask_user_question") {
    return {
      content:
        "The user skipped the questions. Proceed with your best judgement, or ask differently.",
      isError: true,
      meta: { refusal: { code: "questions_skipped" } },
    };
  }
  return { content: rejectionText(name), isError: true, meta: { refusal: { code: "rejected" } } };
}

/** "Continue" without running it: said explicitly (the model gets the same text), the card shows why. */
export const INTERRUPTED_RESULT: ToolResult = {
  content: INTERRUPTED,
  isError: true,
  meta: { refusal: { code: "interrupted" } },
};
