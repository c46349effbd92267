/**
 * `background_bash` / `task_output` / `task_stop`: long-running commands
 * (dev servers, watchers). Started at once with an id; output kept in a 256 KB ring
 * buffer addressed by absolute byte offsets; stop = TERM to the group, KILL after 2 s
 * (done by runCommand). Jobs live in this server process.
 *
 * Rewind: a job changes files after background_bash has returned, so the run hands
 * each job an owner whose `recapture` compares the workspace again against the
 * snapshot of the turn that started it; it runs when the job exits, on task_output
 * and task_stop, and at the end of each turn of its task.
 *
 * A job belongs to the task that started it: the model of another task can neither read
 * nor stop it. The UI's badge learns of starts, output (at most once a second) and ends
 * through {@link onJobChange}.
 */
import { fail, type JobOwner, ok } from "../types.ts";
import { defineTool } from "../define.ts";
import type { ToolDetails } from "../../protocol/tool_details.ts";
import { int, obj } from "../../protocol/schema.ts";
import { text } from "../args.ts";
import { displayPath, resolvePath } from "../paths.ts";
import { DEFAULT_SANDBOX_LEVEL, runCommand } from "./exec_command.ts";
import type { JobInfo } from "../../protocol/jobs.ts";

export const RING_BYTES = 256 * 1024;
const NO_TIMEOUT_MS = 7 * 24 * 3600 * 1000;
const MAX_JOBS = 32;
/** Output news reaches the UI at most this often per job. */
const TAIL_EVERY_MS = 1000;
const TAIL_BYTES = 2000;

/** Who started a job and how its later file changes are recorded (checkpoints). */
export type { JobOwner } from "../types.ts";

interface Job {
  id: string;
  command: string;
  cwd: string;
  startedAt: number;
  /** The latest output: a fixed ring of RING_BYTES (allocated once, nothing churns). */
  ring: ByteRing;
  status: "running" | "exited" | "stopped";
  exitCode: number | null;
  endedAt: number | null;
  abort: AbortController;
  done: Promise<void>;
  owner?: JobOwner;
  /** Pending output notice (one per TAIL_EVERY_MS). */
  tailTimer?: ReturnType<typeof setTimeout>;
}

const jobs = new Map<string, Job>();
const listeners = new Set<(job: JobInfo) => void>();

/** Calls `fn` when a job starts, prints (at most once a second) or ends; returns an unsubscribe. */
export function onJobChange(fn: (job: JobInfo) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function infoOf(j: Job): JobInfo {
  return {
    id: j.id,
    taskId: j.owner?.taskId ?? null,
    command: j.command,
    status: j.status,
    exitCode: j.exitCode,
    startedAt: j.startedAt,
    endedAt: j.endedAt,
    tail: j.ring.text(j.ring.total - TAIL_BYTES),
    bytes: j.ring.total,
  };
}

function changed(j: Job): void {
  clearTimeout(j.tailTimer);
  j.tailTimer = undefined;
  const info = infoOf(j);
  for (const fn of listeners) {
    try {
      fn(info);
    } catch (e) {
      console.error("a background job listener failed:", e);
    }
  }
}

function outputArrived(j: Job): void {
  j.tailTimer ??= setTimeout(() => changed(j), TAIL_EVERY_MS);
}

/** The job `id` when `taskId` may see it (its own task's, or one started outside a task). */
function jobOf(id: string, taskId: string | undefined): Job | undefined {
  const j = jobs.get(id);
  return j && (j.owner?.taskId ?? undefined) === taskId ? j : undefined;
}

/** The last `size` bytes of a stream, addressed by absolute offsets. */
class ByteRing {
  total = 0;
  private buf: Uint8Array;
  constructor(readonly size: number) {
    this.buf = new Uint8Array(size);
  }
  /** Absolute offset of the oldest byte still kept. */
  get start(): number {
    return Math.max(0, this.total - this.size);
  }
  push(bytes: Uint8Array): void {
    const src = bytes.subarray(Math.max(0, bytes.length - this.size));
    let pos = (this.total + bytes.length - src.length) % this.size;
    this.total += bytes.length;
    for (let i = 0; i < src.length;) {
      const k = Math.min(src.length - i, this.size - pos);
      this.buf.set(src.subarray(i, i + k), pos);
      i += k;
      pos = 0;
    }
  }
  /** Text from absolute offset `from` (clamped to what is kept) to the end. */
  text(from: number): string {
    from = Math.min(this.total, Math.max(from, this.start));
    const out = new Uint8Array(this.total - from);
    const a = from % this.size;
    const first = Math.min(out.length, this.size - a);
    out.set(this.buf.subarray(a, a + first));
    out.set(this.buf.subarray(0, out.length - first), first);
    // An offset inside a character starts at the next one.
    let i = 0;
    while (i < 3 && i < out.length && (out[i] & 0xc0) === 0x80) i++;
    return new TextDecoder().decode(out.subarray(i));
  }
}

const encoder = new TextEncoder();
const note = (job: Job, text: string) => job.ring.push(encoder.encode(text));

/** Records a job's later file changes; a failure is logged, never thrown at the caller. */
async function recapture(job: Job): Promise<void> {
  if (!job.owner) return;
  try {
    await job.owner.recapture();
  } catch (e) {
    console.error(`recording the file changes of ${job.id} failed:`, e);
  }
}

/**
 * Records what the task's background jobs changed so far (end of a turn). Jobs that
 * ended already were recorded when they exited.
 */
export async function recaptureJobs(taskId: string): Promise<void> {
  for (const j of jobs.values()) {
    if (j.owner?.taskId === taskId && j.status === "running") await recapture(j);
  }
}

/** The jobs of task `taskId`, oldest first (the UI's background badge). */
export function listJobs(taskId: string): JobInfo[] {
  return [...jobs.values()].filter((j) => j.owner?.taskId === taskId).map(infoOf);
}

/** Stops task `taskId`'s job `id` (the badge's Stop); null when it has no such job. */
export async function stopJob(taskId: string, id: string): Promise<JobInfo | null> {
  const j = jobOf(id, taskId);
  if (!j) return null;
  if (j.status === "running") {
    j.abort.abort();
    await j.done;
  }
  return infoOf(j);
}

/** Stops every job (server shutdown). */
export async function stopAllJobs(): Promise<void> {
  for (const j of jobs.values()) j.abort.abort();
  await Promise.all([...jobs.values()].map((j) => j.done));
}

export const backgroundBash = defineTool<
  { command: string; cwd?: string },
  ToolDetails<"background_bash">
>({
  name: "background_bash",
  description: "Start a long-running shell command in the background (dev server, watcher, long " +
    "build) and return its id at once. Read its output with task_output and stop it with task_stop.",
  args: obj({ command: text(), "cwd?": text("Working directory; relative to the workspace") }),
  kind: "exec",
  placement: "main",
  execute(args, ctx) {
    if (!args.command.trim()) {
      return Promise.resolve(fail("background_bash needs a non-empty `command`."));
    }
    const running = [...jobs.values()].filter((j) => j.status === "running").length;
    if (running >= MAX_JOBS) {
      return Promise.resolve(
        fail(`Too many background commands (${running}); stop some with task_stop.`),
      );
    }
    const cwd = resolvePath(args.cwd || ".", ctx.workspace);
    const job: Job = {
      id: `bg_${crypto.randomUUID().slice(0, 8)}`,
      command: args.command,
      cwd,
      startedAt: Date.now(),
      ring: new ByteRing(RING_BYTES),
      status: "running",
      exitCode: null,
      endedAt: null,
      abort: new AbortController(),
      done: Promise.resolve(),
      owner: ctx.jobOwner,
    };
    job.done = runCommand({
      command: args.command,
      cwd,
      workspace: ctx.workspace,
      extraRoots: ctx.gitRoots ?? [],
      timeoutMs: NO_TIMEOUT_MS,
      signal: job.abort.signal,
      // Bytes go straight into the ring: nothing is decoded until task_output asks.
      onBytes: (b) => {
        job.ring.push(b);
        outputArrived(job);
      },
      sandbox: ctx.sandbox ?? DEFAULT_SANDBOX_LEVEL,
      network: ctx.network ?? true,
      shell: ctx.shell,
      envPolicy: ctx.envPolicy,
      hidden: ctx.hidden,
      visible: ctx.visible,
    }).then((r) => {
      job.status = r.stopped ? "stopped" : "exited";
      job.exitCode = r.exitCode;
    }, (e) => {
      note(job, `\n[could not start: ${(e as Error).message}]\n`);
      job.status = "exited";
    }).then(() => recapture(job)) // what it changed up to its exit (before `done` resolves)
      .then(() => {
        job.endedAt = Date.now();
        changed(job);
      });
    jobs.set(job.id, job);
    changed(job);
    return Promise.resolve(
      ok(
        `Started ${job.id} in ${
          displayPath(cwd, ctx.workspace)
        }: ${args.command}\nUse task_output with id "${job.id}" to read its output.`,
        { id: job.id },
      ),
    );
  },
});

export const taskOutput = defineTool<{ id: string; offset?: number }, ToolDetails<"task_output">>({
  name: "task_output",
  description:
    "Read new output of a background command since `offset` (0 = from the start), with its " +
    "status and exit code. Returns the offset to pass next time.",
  args: obj({ id: text(), "offset?": int({ min: 0, max: Infinity }) }),
  kind: "read",
  placement: "main",
  async execute(args, ctx) {
    const job = jobOf(args.id, ctx.jobOwner?.taskId);
    if (!job) return fail(`No background command with id "${args.id}".`);
    if (job.status === "running") await recapture(job);
    const from = args.offset ?? 0;
    const lost = from < job.ring.start ? job.ring.start - from : 0;
    const text = job.ring.text(from);
    const head = lost ? `[… ${lost} bytes dropped from the 256 KB buffer …]\n` : "";
    const status = job.status === "running"
      ? "running"
      : `${job.status}${job.exitCode !== null ? ` (exit code ${job.exitCode})` : ""}`;
    return ok(
      `${head}${text || "(no new output)"}\n\nStatus: ${status}. Next offset: ${job.ring.total}`,
      { id: job.id, status: job.status, exitCode: job.exitCode, next: job.ring.total },
    );
  },
});

export const taskStop = defineTool<{ id: string }, ToolDetails<"task_stop">>({
  name: "task_stop",
  description: "Stop a background command (and everything it started).",
  args: obj({ id: text() }),
  kind: "exec",
  placement: "main",
  async execute(args, ctx) {
    const job = jobOf(args.id, ctx.jobOwner?.taskId);
    if (!job) return fail(`No background command with id "${args.id}".`);
    if (job.status !== "running") {
      return ok(`${job.id} had already ${job.status}.`, { id: job.id, status: job.status });
    }
    job.abort.abort();
    await job.done;
    return ok(`Stopped ${job.id}.`, { id: job.id, status: job.status });
  },
});
