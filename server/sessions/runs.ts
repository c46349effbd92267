/**
 * Live agent runs, one per task at most: the registry. A run lives here, not in any
 * client: it continues with no window open, several tasks run at once, and any client
 * can stop it. Run state is published on the task topic; the task's status on `tasks`.
 * What a turn is made of lives in server/agent/turn.ts.
 */
import type { RunEnd, RunState, TaskSummary } from "../../protocol/index.ts";
import { taskTopic } from "../../protocol/index.ts";
import type { Repos } from "../../store/store.ts";
import type { IdFn } from "../../store/ids.ts";
import type { EventHub } from "./hub.ts";
import { OpError } from "../errors.ts";
import { TimelineWriter } from "../agent/timeline_writer.ts";
import type { LoopOutcome, StreamRequest, ToolCall } from "../../agent/index.ts";
import { type TurnDeps, type TurnEnd, type TurnRun, Turns } from "../agent/turn.ts";
import type { CompactResult } from "../agent/compaction/compactor.ts";
import { TaskTools } from "../agent/task_tools.ts";
import type { EditorAccess } from "../../tools/editor.ts";
import type { Checkpointer, RewindPreview } from "../agent/checkpoints.ts";
import { TurnRecords } from "./turn_records.ts";
import { INTERRUPTED_RESULT, recoveredRejection } from "./recovery.ts";
import { onJobChange, stopAllJobs } from "../../tools/exec/background.ts";
import { SubagentRunner } from "../agent/subagents/runner.ts";

/** What the registry is built from: the turn's needs, less what the registry provides. */
export type RunDeps =
  & Omit<TurnDeps, "taskTools" | "afterTurn" | "track" | "closing" | "subagents">
  & { hub: EventHub; newId: IdFn; repos: Repos; editorOf?(taskId: string): EditorAccess | null };

interface ActiveRun extends TurnRun {
  abort: AbortController;
  done: Promise<LoopOutcome | null>;
}

export class RunManager {
  private runs = new Map<string, ActiveRun>();
  /** Side work (titles) that must finish or be cancelled before shutdown. */
  private background = new Set<Promise<void>>();
  private closing = new AbortController();
  private tools: TaskTools;
  private turns: Turns;
  /** What turns did (net file changes, rewinds), written into the timeline. */
  readonly records: TurnRecords;
  private finishHooks: ((taskId: string, natural: boolean) => void)[] = [];
  /** Sub-agents of the tasks' turns (foreground and background). */
  readonly subagents: SubagentRunner;

  /** Stops telling this server's clients about background jobs (at shutdown). */
  private offJobs: () => void;

  constructor(private d: RunDeps) {
    // Background commands of this server's tasks, live on every client (the badge).
    this.offJobs = onJobChange((job) => {
      if (job.taskId && d.repos.tasks.get(job.taskId)) {
        d.hub.publish(taskTopic(job.taskId), { kind: "job", job }, `job:${job.id}`);
      }
    });
    this.tools = new TaskTools(d);
    this.records = new TurnRecords(
      d.repos,
      d.hub,
      d.now,
      this.tools.checkpoints,
      d.newId,
      (t) => d.taskChanged(t),
    );
    this.subagents = new SubagentRunner({
      ...d,
      taskTools: this.tools,
      closing: this.closing.signal,
    });
    this.turns = new Turns({
      ...d,
      subagents: this.subagents,
      taskTools: this.tools,
      afterTurn: (taskId, turn, ws) => this.records.changes(taskId, turn, ws),
      track: (p) => this.track(p),
      closing: this.closing.signal,
    });
  }

  /** The checkpoint store (rewind, its garbage collection and size). */
  get checkpoints(): Checkpointer {
    return this.tools.checkpoints;
  }

  /** Rewind preview (dry) or apply for the turn that starts at user entry `entryId`. */
  async rewind(taskId: string, entryId: string, apply: boolean): Promise<RewindPreview> {
    if (apply && this.runs.has(taskId)) {
      throw new OpError("busy", "the task is running; stop it before rewinding");
    }
    const entry = this.d.repos.entries.get(entryId);
    if (!entry || entry.taskId !== taskId || entry.role !== "user") {
      throw new OpError("not_found", `entry ${entryId} is not a user message of task ${taskId}`);
    }
    const cp = this.tools.checkpoints;
    return apply ? await cp.apply(taskId, entry.pos) : await cp.preview(taskId, entry.pos);
  }

  isRunning(taskId: string): boolean {
    return this.runs.has(taskId);
  }

  state(taskId: string): RunState | null {
    return this.runs.get(taskId)?.state ?? null;
  }

  get activeCount(): number {
    return this.runs.size;
  }

  /** Starts a run on the task's current history; throws `busy` when one is active. */
  start(taskId: string): Promise<LoopOutcome | null> {
    return this.begin(taskId, "model", (task, run) => this.turns.run(task, run))
      .then((r) => r.outcome);
  }

  /**
   * Compacts the task's conversation now (`/compact`, "Compact now"). It runs like a
   * turn — the task shows as running, Stop stops it, messages sent meanwhile are queued —
   * and throws `busy` while a run is active (a run compacts by itself when it must).
   */
  async compact(taskId: string, focus?: string): Promise<CompactResult> {
    let result: CompactResult = { ok: false, reason: "stopped" };
    await this.begin(taskId, "compacting", async (task, run) => {
      result = await this.turns.compact(task, run, focus);
      const end: RunEnd = result.ok || result.reason === "nothing"
        ? "done"
        : result.reason === "stopped"
        ? "stopped"
        : "failed";
      return { outcome: null, end };
    });
    return result;
  }

  /** The request the task's next turn would send now; throws when unusable. */
  async preview(taskId: string): Promise<StreamRequest> {
    const task = this.d.repos.tasks.get(taskId);
    if (!task) throw new OpError("not_found", `task ${taskId} does not exist`);
    try {
      return await this.turns.preview(task);
    } catch (e) {
      throw new OpError("invalid_args", (e as Error).message);
    }
  }

  private begin(
    taskId: string,
    phase: RunState["phase"],
    body: (task: TaskSummary, run: TurnRun) => Promise<TurnEnd>,
  ): Promise<TurnEnd> {
    if (this.runs.has(taskId)) {
      throw new OpError("busy", "the task is already running; stop it first");
    }
    const task = this.d.repos.tasks.get(taskId);
    if (!task) throw new OpError("not_found", `task ${taskId} does not exist`);
    const abort = new AbortController();
    const state: RunState = { startedAt: this.d.now(), step: 0, phase, retry: null };
    const run: ActiveRun = {
      abort,
      signal: abort.signal,
      state,
      stateChanged: () => this.publishRun(taskId, run.state),
      writer: this.writer(taskId),
      done: Promise.resolve(null),
    };
    this.runs.set(taskId, run);
    this.setStatus(taskId, "running");
    this.publishRun(taskId, state);
    let end: RunEnd = "failed";
    const done = body(task, run).then((r) => {
      end = r.end;
      return r;
    }).finally(() => {
      this.ended(taskId, end);
      this.runs.delete(taskId);
      this.publishRun(taskId, null);
    });
    run.done = done.then((r) => r.outcome);
    done.then(
      (r) => this.finished(taskId, r.end === "done" && !abort.signal.aborted),
      () => {}, // reported by whoever awaits start()
    );
    return done;
  }

  /**
   * Calls `fn` after each run ended (and is no longer running); `natural` is true when
   * the model finished on its own (not stopped, failed or cut at max steps).
   */
  onFinish(fn: (taskId: string, natural: boolean) => void): void {
    this.finishHooks.push(fn);
  }

  private finished(taskId: string, natural: boolean): void {
    for (const fn of this.finishHooks) {
      try {
        fn(taskId, natural);
      } catch (e) {
        console.error(`after-run hook of task ${taskId} failed:`, e);
      }
    }
  }

  /** Persists the streaming entry of the task's run now (before a snapshot). */
  persistLive(taskId: string): void {
    this.runs.get(taskId)?.writer.persistNow();
  }

  /** Stops the task's run; resolves once it has ended (or was not running). */
  async stop(taskId: string): Promise<boolean> {
    const run = this.runs.get(taskId);
    run?.abort.abort();
    // Its sub-agents stop too, also background ones that outlived their turn.
    const subs = await this.subagents.stopTask(taskId);
    if (!run) return subs;
    await run.done;
    return true;
  }

  /** Waits for side work (a title being made) to finish, at most `ms`. */
  async settle(ms: number): Promise<void> {
    if (!this.background.size || ms <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(this.background),
      new Promise<void>((r) => timer = setTimeout(r, ms)),
    ]);
    clearTimeout(timer);
  }

  /** Stops every run and cancels side work (shutdown). */
  async stopAll(): Promise<void> {
    this.closing.abort();
    this.offJobs();
    await Promise.all([...this.runs.keys()].map((id) => this.stop(id)));
    await Promise.all(this.background);
    await this.subagents.stopAll();
    await stopAllJobs();
    this.tools.close();
  }

  /** Aborted at shutdown: side work (titles, memory extraction) stops. */
  get closingSignal(): AbortSignal {
    return this.closing.signal;
  }

  /** Side work that shutdown waits for (after `closingSignal` aborted it). */
  track(p: Promise<void>): void {
    const tracked = p.catch((e) => console.error("background work failed:", e)).finally(() =>
      this.background.delete(tracked)
    );
    this.background.add(tracked);
  }

  /**
   * Settles a tool call that waited for approval when the previous process ended:
   * run it now (then continue), reject it (the model will see that), or just continue.
   */
  async recoverCall(
    taskId: string,
    call: ToolCall,
    action: "continue" | "allow" | "reject",
  ): Promise<void> {
    if (this.runs.has(taskId)) throw new OpError("busy", "the task is running; stop it first");
    const task = this.d.repos.tasks.get(taskId);
    if (!task) throw new OpError("not_found", `task ${taskId} does not exist`);
    const writer = this.writer(taskId);
    if (action === "reject") {
      writer.toolResult(call, recoveredRejection(call.name), 0);
      return;
    }
    if (action === "continue") writer.toolResult(call, INTERRUPTED_RESULT, 0);
    if (action === "allow") await this.turns.runRecovered(task, call, writer);
    this.start(taskId).catch((e) => console.error(`run ${taskId}:`, e));
  }

  private writer(taskId: string): TimelineWriter {
    const { repos, hub, newId, now } = this.d;
    return new TimelineWriter(taskId, repos.entries, hub, newId, now);
  }

  private setStatus(taskId: string, status: TaskSummary["status"]): void {
    const t = this.d.repos.tasks.setStatus(taskId, status);
    if (t) this.d.taskChanged(t);
  }

  /** A run ended: the task is idle, unread, and records how the run ended. */
  private ended(taskId: string, end: RunEnd): void {
    const { tasks } = this.d.repos;
    tasks.touch(taskId, true);
    const t = tasks.finishRun(taskId, end);
    if (t) this.d.taskChanged(t);
  }

  /** Updates within a run coalesce; the end (null) is never merged into its start. */
  private publishRun(taskId: string, run: RunState | null): void {
    this.d.hub.publish(taskTopic(taskId), { kind: "run", run }, run ? `run:${taskId}` : undefined);
  }
}
