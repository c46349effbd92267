/**
 * Protocol ops for Timeline history: paging older entries, edit & resend, retry, branch.
 * Merged into `OP_ARGS` by `protocol.ts`; the UI imports it through `protocol.ts`.
 *
 * Edit & resend and retry cut the timeline hard after the turn's user message (a
 * `truncate` event tells every client) and run the agent again; the deleted turns'
 * checkpoints are folded into the kept turn, so "Rewind code to before this turn"
 * still undoes everything they changed. Branch copies a task up to a reply into a
 * new task (same project and settings; no checkpoints: its rewind history starts
 * empty). All three refuse with `busy` while the task runs.
 */
import { int, obj, type Schema, str } from "./schema.ts";
import type { Entry, TaskSummary } from "./domain.ts";

const taskId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const entryId = str({ min: 1, max: 64 });

/** Largest page of `task.entriesBefore`. */
export const HISTORY_PAGE_MAX = 1000;

export const HISTORY_OP_ARGS = {
  /** Entries before `beforePos`, oldest first (at most `limit`, default 500). */
  "task.entriesBefore": obj({
    id: taskId,
    beforePos: int({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    "limit?": int({ min: 1, max: HISTORY_PAGE_MAX }),
  }),
  /** Replaces a user message's text, deletes everything after it and runs again. */
  "task.editResend": obj({ id: taskId, entryId, text: str({ min: 1, max: 200_000 }) }),
  /** Re-sends the user prompt of assistant entry `entryId`: deletes its turn's replies, runs again. */
  "task.retry": obj({ id: taskId, entryId }),
  /** Copies the task up to assistant entry `entryId` into a new task "Branch: <title>". */
  "task.branch": obj({ id: taskId, entryId }),
} satisfies Record<string, Schema>;

export interface HistoryOpResults {
  "task.entriesBefore": { entries: Entry[]; total: number; remaining: number };
  "task.editResend": { entry: Entry };
  "task.retry": { entry: Entry };
  "task.branch": { task: TaskSummary };
}
