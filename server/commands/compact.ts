/**
 * Compacting a task on request (`task.compact`, `/compact [focus]`): the summary is
 * written by a run of its own (server/sessions/runs.ts); a failure leaves the
 * conversation unchanged and says why.
 */
import type { Entry } from "../../protocol/index.ts";
import { OpError } from "../errors.ts";
import type { RunManager } from "../sessions/runs.ts";

/** The compact entry written, or null when there is nothing to compact yet. */
export async function compactTask(
  runs: RunManager,
  taskId: string,
  focus?: string,
): Promise<Entry | null> {
  const r = await runs.compact(taskId, focus?.trim() || undefined);
  if (r.ok) return r.entry;
  if (r.reason === "failed") throw new OpError("upstream", r.error.message);
  if (r.reason === "stopped") {
    throw new OpError("conflict", "the compaction was stopped; the conversation is unchanged");
  }
  return null;
}
