/**
 * Live agent runs, one per task at most. A run lives here, not in any client: it
 * continues with no window open, several tasks run at once, and any client can stop
 * it. Run state is published on the task topic; the task's status on `tasks`.
 */
import { join } from "node:path";
import type {
  ApprovalMode,
  Effort,
  Entry,
  ModelRef,
  RunEnd,
  RunState,
  TaskSummary,
} from "../../protocol/index.ts";
import type { SandboxLevelName } from "../../protocol/constants.ts";
import { LIMITS, taskTopic } from "../../protocol/index.ts";
import type { Repos } from "../../store/store.ts";
import type { IdFn } from "../../store/ids.ts";
import type { EventHub } from "./hub.ts";
import type { ToolRegistry } from "../../tools/registry.ts";
import type { ToolResult } from "../../tools/types.ts";
import type { ModelInfo, ProviderConfig } from "../providers/types.ts";
import { adapterFor } from "../providers/index.ts";
import { effectiveEffort, resolveMaxTokens, stepBudget } from "../providers/effort.ts";
import { OpError } from "../errors.ts";
import { TimelineWriter } from "../agent/timeline_writer.ts";
import { INTERRUPTED, toConversation } from "../agent/history.ts";
import { loadAttachmentData } from "../agent/attachments.ts";
import {
  environmentOf,
  readAgentsFile,
  reminderBlock,
  systemPrompt,
  withReminder,
} from "../agent/prompt.ts";
import { type LoopOutcome, runLoop, type ToolCall } from "../agent/loop.ts";
import { goalSection } from "../agent/goal.ts";
import { rejectionText, type Verdict } from "./approvals.ts";
import { maybeGenerateTitle } from "../agent/title.ts";
import { type RunnerContext, ToolRunner } from "../agent/tool_runner.ts";
import { Checkpointer, type RewindPreview } from "../agent/checkpoints.ts";
import { FileTracker } from "../agent/file_tracker.ts";
import { TurnRecords } from "./turn_records.ts";
import { SandboxPool } from "../../tools/sandbox/pool.ts";
import { recaptureJobs, stopAllJobs } from "../../tools/exec/background.ts";
import { attachmentMasks, commandPolicy } from "../agent/command_policy.ts";

/** Ids of the attachments a task's user messages carry (their workspace copies stay visible). */
function attachmentIds(entries: Entry[]): string[] {
  const ids = new Set<string>();
  for (const e of entries) {
    if (e.role !== "user") continue;
    for (const p of e.parts) if (typeof p.data?.id === "string") ids.add(p.data.id);
  }
  return [...ids];
}

export interface RunDeps {
  repos: Repos;
  hub: EventHub;
  newId: IdFn;
  now: () => number;
  home: string;
  tools: ToolRegistry;
  /** Resolves a model reference (null = system default); throws OpError when unusable. */
  resolveModel(ref: ModelRef | null): { provider: ProviderConfig; model: ModelInfo };
  defaults(): {
    effort: Effort;
    approval: ApprovalMode;
    sandbox?: SandboxLevelName;
    network?: boolean;
  };
  /** Publishes a changed task summary to every client. */
  taskChanged(task: TaskSummary): void;
  /** The approval gate for a task's tool calls (absent = everything allowed). */
  gate?(
    taskId: string,
    call: ToolCall,
    kind: string,
    signal: AbortSignal,
  ): Promise<Verdict>;
}

/** The result of a call rejected from the recovery banner (after a restart). */
function recoveredRejection(name: string): ToolResult {
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

/** Live output streamed per command; the rest arrives with the result. */
const LIVE_OUTPUT_CAP = LIMITS.liveOutputChars;
const concatText = (a: unknown, b: unknown) => {
  const x = a as { text: string }, y = b as { text: string };
  return { ...x, text: x.text + y.text };
};

interface ActiveRun {
  abort: AbortController;
  state: RunState;
  writer?: TimelineWriter;
  done: Promise<LoopOutcome | null>;
}

export class RunManager {
  private runs = new Map<string, ActiveRun>();
  /** Side work (titles) that must finish or be cancelled before shutdown. */
  private background = new Set<Promise<void>>();
  private closing = new AbortController();
  private pool = new SandboxPool();
  private trackers = new Map<string, FileTracker>();
  private runner: ToolRunner;
  private checkpoints: Checkpointer;
  /** What turns did (net file changes, rewinds), written into the timeline. */
  readonly records: TurnRecords;
  private finishHooks: ((taskId: string, natural: boolean) => void)[] = [];

  constructor(private d: RunDeps) {
    this.runner = new ToolRunner(d.tools, this.pool);
    this.checkpoints = new Checkpointer(d.repos.checkpoints, join(d.home, "checkpoints", "blobs"));
    this.records = new TurnRecords(
      d.repos,
      d.hub,
      d.now,
      this.checkpoints,
      d.newId,
      (t) => d.taskChanged(t),
    );
  }

  /** Everything a tool call needs: roots, stale-read tracker, checkpoint hooks. */
  private toolContext(
    taskId: string,
    workspace: string,
    turn: { id: string; pos: number },
    signal: AbortSignal,
    callId: string | undefined,
    attachments: string[],
  ): RunnerContext {
    const cp = this.checkpoints;
    let streamed = 0;
    // Live command output for the exec card (the final result keeps head + tail), with
    // its stream. Returning false at the cap tells the command to stop decoding for us.
    const onOutput = (text: string, stream: "out" | "err"): boolean => {
      if (!callId || streamed >= LIVE_OUTPUT_CAP) return false;
      const piece = text.slice(0, LIVE_OUTPUT_CAP - streamed);
      streamed += piece.length;
      // Consecutive pieces of one stream merge; a switch starts a new event (order kept).
      this.d.hub.publish(
        taskTopic(taskId),
        { kind: "output", callId, stream, text: piece },
        `out:${callId}:${stream}`,
        concatText,
      );
      return streamed < LIVE_OUTPUT_CAP;
    };
    // What commands may see: read at each call, so a settings change applies at once.
    const policy = commandPolicy(this.d.repos, this.d.home);
    const masks = attachmentMasks(workspace, attachments);
    return {
      workspace,
      roots: [workspace],
      hidden: policy.hidden,
      signal,
      tracker: this.trackerOf(taskId),
      // Shell commands: the sandbox level the user chose (read at each call). Background
      // jobs record their later file changes against this turn's snapshot.
      extra: {
        sandbox: this.d.defaults().sandbox,
        network: this.d.defaults().network,
        envPolicy: policy.envPolicy,
        hidden: [...policy.hidden, ...masks.hidden],
        visible: masks.visible,
        onOutput,
        jobOwner: { taskId, recapture: () => cp.afterShell(taskId, turn, workspace) },
      },
      beforeWrite: (abs) => cp.beforeWrite(taskId, turn, abs),
      afterWrite: (abs) => cp.afterWrite(taskId, turn, abs),
      beforeShell: () => cp.beforeShell(taskId, turn, workspace, signal),
      afterShell: () => cp.afterShell(taskId, turn, workspace),
    };
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
    return apply
      ? await this.checkpoints.apply(taskId, entry.pos)
      : await this.checkpoints.preview(taskId, entry.pos);
  }

  /** Per task: what the agent has read (stale-read rule), kept while the process lives. */
  private trackerOf(taskId: string): FileTracker {
    let t = this.trackers.get(taskId);
    if (!t) {
      t = new FileTracker();
      this.trackers.set(taskId, t);
      if (this.trackers.size > 200) this.trackers.delete(this.trackers.keys().next().value!);
    }
    return t;
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
    if (this.runs.has(taskId)) {
      throw new OpError("busy", "the task is already running; stop it first");
    }
    const task = this.d.repos.tasks.get(taskId);
    if (!task) throw new OpError("not_found", `task ${taskId} does not exist`);
    const abort = new AbortController();
    const state: RunState = { startedAt: this.d.now(), step: 0, phase: "model", retry: null };
    const run: ActiveRun = { abort, state, done: Promise.resolve(null) };
    this.runs.set(taskId, run);
    this.setStatus(taskId, "running");
    this.publishRun(taskId, state);
    run.done = this.execute(task, run).finally(() => {
      this.runs.delete(taskId);
      this.publishRun(taskId, null);
    });
    run.done.then(
      (o) => this.finished(taskId, o?.kind === "done" && !abort.signal.aborted),
      () => {}, // reported by whoever awaits start()
    );
    return run.done;
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
    this.runs.get(taskId)?.writer?.persistNow();
  }

  /** Stops the task's run; resolves once it has ended (or was not running). */
  async stop(taskId: string): Promise<boolean> {
    const run = this.runs.get(taskId);
    if (!run) return false;
    run.abort.abort();
    await run.done;
    return true;
  }

  /** Stops every run and cancels side work (shutdown). */
  async stopAll(): Promise<void> {
    this.closing.abort();
    await Promise.all([...this.runs.keys()].map((id) => this.stop(id)));
    await Promise.all(this.background);
    await stopAllJobs();
    this.pool.closeAll();
  }

  private track(p: Promise<void>): void {
    const tracked = p.catch((e) => console.error("background work failed:", e)).finally(() =>
      this.background.delete(tracked)
    );
    this.background.add(tracked);
  }

  private async execute(task: TaskSummary, run: ActiveRun): Promise<LoopOutcome | null> {
    const { repos, hub, newId, now } = this.d;
    const writer = new TimelineWriter(task.id, repos.entries, hub, newId, now);
    run.writer = writer;
    let outcome: LoopOutcome | null = null;
    // How the run ended, recorded on the task (failed unless something better is known).
    let end: RunEnd = "failed";
    // The turn and its workspace, once known: its net file change is recorded at the end.
    let turn: { id: string; pos: number } | null = null;
    let ws: string | null = null;
    try {
      let resolved: { provider: ProviderConfig; model: ModelInfo };
      let workspace: string;
      try {
        resolved = this.d.resolveModel(task.settings.model);
        workspace = await this.workspaceOf(task);
      } catch (e) {
        writer.error({
          category: "request",
          message: (e as Error).message,
          status: null,
          url: null,
          upstream: null,
          hint:
            "Choose an available model and an existing project folder, or configure it in Settings → Providers.",
          chain: [(e as Error).message],
        });
        return null;
      }
      const defaults = this.d.defaults();
      // A level the model does not offer becomes one it does (as the composer shows).
      const effort = effectiveEffort(resolved.model, task.settings.effort ?? defaults.effort);
      const approval = task.settings.approval ?? defaults.approval;
      const adapter = await adapterFor(resolved.provider.format);
      const system = systemPrompt(environmentOf(workspace), approval);
      const reminder = reminderBlock({
        now: new Date(now()),
        agents: await readAgentsFile(workspace),
        goal: goalSection(task.settings.goal),
      });
      const history = repos.entries.latest(task.id, Number.MAX_SAFE_INTEGER);
      const attachments = attachmentIds(history);
      // The turn = the latest user message: checkpoints are kept per turn.
      const lastUser = history.filter((e) => e.role === "user").at(-1);
      const thisTurn = lastUser ? { id: lastUser.id, pos: lastUser.pos } : { id: "none", pos: 0 };
      turn = lastUser ? thisTurn : null;
      ws = workspace;
      if (history.filter((e) => e.role === "user").length === 1) {
        this.track(
          maybeGenerateTitle(task, history, {
            ...resolved,
            adapter,
            repos,
            taskChanged: this.d.taskChanged,
          }, this.closing.signal),
        );
      }
      outcome = await runLoop({
        adapter,
        buildRequest: (messages) => ({
          provider: resolved.provider,
          model: resolved.model,
          system,
          messages: withReminder(messages, reminder),
          tools: this.d.tools.specs(),
          effort,
          maxTokens: resolveMaxTokens(resolved.model.maxOutput),
        }),
        messages: toConversation(
          history,
          await loadAttachmentData(history, this.d.home, resolved.model.vision === true),
        ),
        tools: this.d.tools,
        runTool: (call, signal) =>
          this.runner.run(
            call,
            this.toolContext(task.id, workspace, thisTurn, signal, call.id, attachments),
          ),
        gate: this.d.gate
          ? (call, signal) =>
            this.d.gate!(task.id, call, this.d.tools.get(call.name)?.kind ?? "write", signal)
          : undefined,
        workspace,
        maxSteps: stepBudget(effort, approval),
        signal: run.abort.signal,
        writer,
        now,
        onStep: (step, phase) => {
          run.state = { ...run.state, step, phase };
          this.publishRun(task.id, run.state);
        },
        onRetry: (n) => {
          const retry = n
            ? {
              attempt: n.attempt,
              max: n.max,
              delayMs: Math.round(n.delayMs),
              message: n.error.message,
              category: n.error.info.category,
            }
            : null;
          if (retry === null && run.state.retry === null) return;
          run.state = { ...run.state, retry };
          this.publishRun(task.id, run.state);
        },
      });
      end = outcome.kind === "error" ? "failed" : outcome.kind;
      // A stop that came after the model's last word still counts as a stop.
      if (end === "done" && run.abort.signal.aborted) end = "stopped";
      // Background commands still running: record what they changed so far.
      await recaptureJobs(task.id);
      return outcome;
    } catch (e) {
      // A bug or an unexpected failure: report it in the timeline, never silently.
      console.error(`run of task ${task.id} failed:`, e);
      if (!repos.tasks.get(task.id)) return null; // deleted meanwhile: nothing to report into
      writer.error({
        category: "unknown",
        message: `internal error: ${(e as Error)?.message ?? e}`,
        status: null,
        url: null,
        upstream: null,
        hint: "This is a bug in ReinAgent. The conversation is kept; you can Continue.",
        chain: [String((e as Error)?.stack ?? e)],
      });
      return null;
    } finally {
      if (turn && ws) await this.records.changes(task.id, turn, ws);
      this.ended(task.id, end);
    }
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
    const writer = new TimelineWriter(
      taskId,
      this.d.repos.entries,
      this.d.hub,
      this.d.newId,
      this.d.now,
    );
    if (action === "reject") {
      writer.toolResult(call, recoveredRejection(call.name), 0);
      return;
    }
    if (action === "continue") {
      // Said explicitly (the model would get the same text): the card shows why.
      writer.toolResult(call, {
        content: INTERRUPTED,
        isError: true,
        meta: { refusal: { code: "interrupted" } },
      }, 0);
    }
    if (action === "allow") {
      const workspace = await this.workspaceOf(task);
      const t0 = this.d.now();
      const users = this.d.repos.entries.latest(taskId, Number.MAX_SAFE_INTEGER)
        .filter((e) => e.role === "user");
      const turn = users.length
        ? { id: users.at(-1)!.id, pos: users.at(-1)!.pos }
        : { id: "none", pos: 0 };
      const result = await this.runner.run(
        call,
        this.toolContext(
          taskId,
          workspace,
          turn,
          this.closing.signal,
          undefined,
          attachmentIds(users),
        ),
      );
      writer.toolResult(call, result, this.d.now() - t0);
    }
    this.start(taskId).catch((e) => console.error(`run ${taskId}:`, e));
  }

  private async workspaceOf(task: TaskSummary): Promise<string> {
    if (!task.projectPath) {
      const dir = join(this.d.home, "DefaultProject");
      await Deno.mkdir(dir, { recursive: true });
      return dir;
    }
    const st = await Deno.stat(task.projectPath).catch(() => null);
    if (!st?.isDirectory) throw new Error(`the project folder ${task.projectPath} does not exist`);
    return task.projectPath;
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
