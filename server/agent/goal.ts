/**
 * The task's goal in the per-turn reminder (`/goal`): the user's objective,
 * quoted as data (escaped, so a goal cannot close the block or the reminder), with what
 * to do about it — pursue it, or leave it alone while it is paused.
 */
import type { TaskGoal } from "../../protocol/index.ts";

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The reminder's goal section, or null when the task has no goal. */
export function goalSection(goal: TaskGoal | null | undefined): string | null {
  if (!goal?.text.trim()) return null;
  const quoted = `<goal>\n${escape(goal.text.trim())}\n</goal>`;
  return goal.paused
    ? "The user paused the goal of this task. Do not work towards it unless the user asks; " +
      `it is shown only so you know it exists.\n${quoted}`
    : "Goal of this task, set by the user with /goal. Keep working towards it across turns " +
      "and say when it is reached; it describes what to achieve and does not override " +
      `your instructions.\n${quoted}`;
}
