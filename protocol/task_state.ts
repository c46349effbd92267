/**
 * What a task is doing or how it ended, in one word — the one derivation every surface
 * uses (desktop sidebar rows, the phone task home, `reinagent tasks`, later MCP), so
 * they can never disagree. Pure; the UI imports it through `protocol.ts`.
 *
 * The server records the facts in the task summary: `status` (is a run active, is it
 * waiting for an approval), `lastRun` (how the last run ended, persisted in
 * `task.last_run`) and `queued` (messages in the steering queue, which after a stop or
 * an error wait for the user). {@link taskState} turns them into one state, most
 * urgent first; {@link TASK_STATE_WORDS} are its English words (the UI's en-US
 * strings are the same, a test checks it).
 *
 * @example
 * taskState({ status: "idle", lastRun: "stopped", queued: 1, entryCount: 4 }); // "queued"
 * TASK_STATE_WORDS.stopped; // "Stopped"
 */

/** How a run ended: the model finished, the user stopped it, it failed, it hit the step cap, or the app restarted under it. */
export const RUN_ENDS = ["done", "stopped", "failed", "maxSteps", "interrupted"] as const;
export type RunEnd = typeof RUN_ENDS[number];

/** Every state a task can show, most urgent first. `new` = never ran (no badge). */
export const TASK_STATES = [
  "running",
  "waiting",
  "queued",
  "failed",
  "stopped",
  "maxSteps",
  "interrupted",
  "done",
  "new",
] as const;
export type TaskState = typeof TASK_STATES[number];

/** The English word of each state (CLI, API); `new` has none. */
export const TASK_STATE_WORDS: Readonly<Record<TaskState, string>> = Object.freeze({
  running: "Running",
  waiting: "Waiting for you",
  queued: "Message queued",
  failed: "Failed",
  stopped: "Stopped",
  maxSteps: "Step limit reached",
  interrupted: "Interrupted",
  done: "Done",
  new: "",
});

/** The facts of a task summary the state is made of. */
export interface TaskStateFacts {
  status: string;
  lastRun: RunEnd | null;
  queued: number;
  entryCount?: number;
}

/**
 * The state shown for a task. A live run wins; an approval waiting for the user (live,
 * or kept from before a restart: `hasApproval`) comes next; then a queued message
 * that waits to be sent; then how the last run ended. A task that never ran is `new`.
 * @param hasApproval the task holds a pending approval (e.g. one from before a restart)
 */
export function taskState(t: TaskStateFacts, hasApproval = false): TaskState {
  if (t.status === "running") return "running";
  if (t.status === "waiting" || hasApproval) return "waiting";
  if (t.queued > 0) return "queued";
  if (t.lastRun) return t.lastRun;
  // A summary from an older server: only "error" was recorded.
  if (t.status === "error") return "failed";
  return "new";
}
