/**
 * Background commands (`background_bash`) as the UI's background-work
 * badge sees them: live on every client through `{kind: "job"}` events on the task topic
 * (start, output tail at most once a second, end), listed and stopped by task.
 *
 * Ops: `jobs.list {taskId}`, `job.stop {taskId, id}` (another task's job is unknown).
 */
import { obj, type Schema, str } from "./schema.ts";

export interface JobInfo {
  id: string;
  /** The task whose run started it (null: started outside a task). */
  taskId: string | null;
  command: string;
  status: "running" | "exited" | "stopped";
  exitCode: number | null;
  startedAt: number;
  endedAt: number | null;
  /** The last lines of its output (at most ~2 KB). */
  tail: string;
  /** Output bytes so far. */
  bytes: number;
}

const id = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });

export const JOB_OP_ARGS = {
  "jobs.list": obj({ taskId: id }),
  "job.stop": obj({ taskId: id, id }),
} satisfies Record<string, Schema>;

export interface JobOpResults {
  "jobs.list": { jobs: JobInfo[] };
  "job.stop": { job: JobInfo };
}
