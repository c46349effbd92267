/**
 * Which task changes notify: a task starts waiting for you (an approval or a question),
 * or a run ends done (or at the step limit) or failed. A stop by the user, an
 * interruption by a restart and every other change (rename, pin, read) say nothing.
 * Pure; the notify center feeds it each task's previous and new summary.
 */
import type { NotifyKind, TaskSummary } from "../../protocol/index.ts";

type Facts = Pick<TaskSummary, "status" | "lastRun">;

const ACTIVE = new Set(["running", "waiting"]);

/** The notification a change from `prev` (undefined: not seen before) to `next` makes. */
export function notifyKindOf(prev: Facts | undefined, next: Facts): NotifyKind | null {
  if (next.status === "waiting") return prev?.status === "waiting" ? null : "waiting";
  if (!prev || !ACTIVE.has(prev.status) || next.status !== "idle") return null;
  if (next.lastRun === "done" || next.lastRun === "maxSteps") return "finished";
  if (next.lastRun === "failed") return "failed";
  return null;
}
