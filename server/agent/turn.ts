/**
 * A turn assembled from the task: the model and workspace resolved, the system prompt
 * and reminder, the stored history as the conversation, the loop host (tools through
 * the runner, the approval gate) and the loop's steps and retries as run state. The
 * run registry (server/sessions/runs.ts) starts, stops and publishes runs; this file
 * knows what a turn is made of.
 */
import { join } from "../../lib/path.ts";
import { mark } from "../../lib/trace.ts";
import type {
  ApprovalMode,
  Effort,
  Entry,
  MemoryScope,
  ModelRef,
  RunEnd,
  RunState,
  SubagentOrigin,
  TaskSummary,
} from "../../protocol/index.ts";
import { isClearMarker } from "../../protocol/index.ts";
import type { SandboxLevelName } from "../../protocol/constants.ts";
import type { Repos } from "../../store/store.ts";
import type { ToolRegistry } from "../../tools/registry.ts";
import type { Tool, ToolResult } from "../../tools/types.ts";
import type { ToolPolicy } from "../../protocol/domain.ts";
import { recaptureJobs } from "../../tools/exec/background.ts";
import {
  type Adapter,
  adapterFor,
  type AgentEvent,
  checkCall,
  driveLoop,
  effectiveEffort,
  errorInfo,
  type Gate,
  isChecked,
  type LlmMessage,
  type LoopInput,
  type LoopOutcome,
  type ModelInfo,
  type ProviderConfig,
  resolveMaxTokens,
  type RetryNotice,
  stepBudget,
  type StreamRequest,
  type ToolCall,
} from "../../agent/index.ts";
import type { TimelineWriter } from "./timeline_writer.ts";
import { pinnedReminder, toConversation } from "./history.ts";
import { loadAttachmentData } from "./attachments.ts";
import {
  environmentOf,
  readAgentsFile,
  reminderBlock,
  systemPrompt,
  withReminder,
} from "./prompt.ts";
import { maybeGenerateTitle } from "./title.ts";
import { goalSection } from "./goal.ts";
import { commandPolicy } from "./command_policy.ts";
import { enabledSkillsNow, skillsSection } from "../skills/reminder.ts";
import { personaOfTask } from "./assistants/apply.ts";
import type { TaskTools } from "./task_tools.ts";
import { microcompact } from "./compaction/microcompact.ts";
import { Compactor, type CompactResult, type SummaryModel } from "./compaction/compactor.ts";
import type { SubagentRunner } from "./subagents/runner.ts";
import type { SubagentCatalog } from "./subagents/definitions.ts";
import { memorySection } from "./memory_reminder.ts";
import { memoryAccess, memoryFilesOf } from "./memory_access.ts";
import type { HookEngine } from "./hooks/engine.ts";
import { TurnHooks } from "./hooks/turn_hooks.ts";
import {
  loadSubagentCatalog,
  prepareSubagents,
  withSubagentTypes,
} from "./subagents/turn_bridge.ts";

type Turn = { id: string; pos: number };

/** How many times Stop hooks may send a finished run back to work. */
const MAX_STOP_CONTINUATIONS = 3;

export interface TurnDeps {
  repos: Repos;
  now: () => number;
  home: string;
  tools: ToolRegistry;
  taskTools: TaskTools;
  /** Resolves a model reference (null = system default); throws when unusable. */
  resolveModel(ref: ModelRef | null): { provider: ProviderConfig; model: ModelInfo };
  defaults(): {
    effort: Effort;
    approval: ApprovalMode;
    sandbox?: SandboxLevelName;
    network?: boolean;
    /** The model that writes compaction summaries (null = the task's own). */
    compactModel?: ModelRef | null;
  };
  /** Publishes a changed task summary to every client. */
  taskChanged(task: TaskSummary): void;
  /**
   * The approval gate for a task's tool calls (absent = everything allowed); `policy` is
   * the tool's own (an MCP server's), `origin` names the sub-agent that made the call.
   */
  gate?(
    taskId: string,
    call: ToolCall,
    kind: string,
    signal: AbortSignal,
    policy?: ToolPolicy,
    origin?: SubagentOrigin,
  ): ReturnType<Gate>;
  /**
   * Tools beyond the built-ins for this turn (the MCP servers'), enumerated when it
   * starts; sources that fail are reported by the provider, the turn runs without them.
   * `only`: the MCP servers the task's assistant bound (null = every enabled one);
   * `taskId`: the task whose calls they serve (a server's questions go to its clients).
   */
  extraTools?(signal: AbortSignal, only?: string[] | null, taskId?: string): Promise<Tool[]>;
  /** Records what the turn changed in the workspace, once it ended. */
  afterTurn(taskId: string, turn: Turn, workspace: string): Promise<void>;
  /** Side work (the title) that shutdown waits for; `closing` cancels it. */
  track(work: Promise<void>): void;
  closing: AbortSignal;
  /** Runs the turn's sub-agents (the `agent` tool); absent = the tool says it cannot. */
  subagents?: SubagentRunner;
  /** The memory tool changed a bucket (the Memory pages reload). */
  memoryChanged?(scope: MemoryScope, projectPath: string | null): void;
  /** The user's and the workspace's hooks; absent = none run. */
  hooks?: HookEngine;
}

/** What the registry lends a turn: its stop signal, its writer and its published state. */
export interface TurnRun {
  signal: AbortSignal;
  writer: TimelineWriter;
  state: RunState;
  /** Publishes `state` after the turn changed it. */
  stateChanged(): void;
}

/** How the turn ended, for the task's record, and the loop's outcome (null: none ran). */
export interface TurnEnd {
  outcome: LoopOutcome | null;
  end: RunEnd;
}

/** Ids of the attachments a task's user messages carry (their workspace copies stay visible). */
function attachmentIds(entries: Entry[]): string[] {
  const ids = new Set<string>();
  for (const e of entries) {
    if (e.role !== "user") continue;
    for (const p of e.parts) if (typeof p.data?.id === "string") ids.add(p.data.id);
  }
  return [...ids];
}

/** The turn = the latest user message (checkpoints are kept per turn), or null. */
function latestTurn(entries: Entry[]): Turn | null {
  const last = entries.filter((e) => e.role === "user").at(-1);
  return last ? { id: last.id, pos: last.pos } : null;
}

const NO_TURN: Turn = { id: "none", pos: 0 };

/** The retry notice as run state ("Reconnecting… n/10 · error"), or null when none. */
function retryState(n: RetryNotice | null): RunState["retry"] {
  if (!n) return null;
  return {
    attempt: n.attempt,
    max: n.max,
    delayMs: Math.round(n.delayMs),
    message: n.error.message,
    category: n.error.info.category,
  };
}

/** What a request of a task is made of, resolved once per turn (or per compaction). */
interface TurnContext {
  resolved: { provider: ProviderConfig; model: ModelInfo };
  adapter: Adapter;
  workspace: string;
  effort: Effort;
  approval: ApprovalMode;
  history: Entry[];
  /** The built-in tools and this turn's MCP tools. */
  tools: ToolRegistry;
  /** The request for a conversation, as it is sent (reminder added, microcompacted). */
  buildRequest(messages: LlmMessage[]): StreamRequest;
  /** The model's conversation for stored entries (attachments loaded). */
  conversation(entries: Entry[]): Promise<LlmMessage[]>;
  /** The workspace's sub-agent types (null: this server runs no sub-agents). */
  catalog: SubagentCatalog | null;
  /** This turn's reminder (date, goal, AGENTS.md, skills, memories). */
  reminder: string;
}

/**
 * Tokens the context held after the latest answer (prompt + output as reported), or 0
 * when a compaction or `/clear` came after it (its numbers no longer apply).
 */
function lastContextTokens(history: Entry[]): number {
  for (let i = history.length - 1; i >= 0; i--) {
    const e = history[i];
    if (e.role === "compact" || isClearMarker(e)) return 0;
    const u = e.role === "assistant" ? e.meta.usage as Record<string, number> | undefined : null;
    if (u && typeof u.input === "number") {
      return u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0) + (u.output ?? 0);
    }
  }
  return 0;
}

export class Turns {
  constructor(private d: TurnDeps) {}

  /** Attached images over the models' limit are shrunk by the tools' image worker. */
  private fitImage = (bytes: Uint8Array) => this.d.taskTools.images.fit(bytes);

  /** Resolves the model, workspace and prompt of a task's next request; throws when unusable. */
  private async context(task: TaskSummary, signal: AbortSignal): Promise<TurnContext> {
    const { repos, now } = this.d;
    const resolved = this.d.resolveModel(task.settings.model);
    const workspace = this.workspaceOf(task);
    const defaults = this.d.defaults();
    // A level the model does not offer becomes one it does (as the composer shows).
    const effort = effectiveEffort(resolved.model, task.settings.effort ?? defaults.effort);
    const approval = task.settings.approval ?? defaults.approval;
    // Skills as on disk now: a switch flipped since the last turn applies to this one.
    const hidden = commandPolicy(repos, this.d.home).hidden;
    // Independent files and sources, read at once (each is a few filesystem calls).
    const [adapter, persona, skills, agents, memory, tools, catalog] = await Promise.all([
      adapterFor(resolved.provider.format),
      personaOfTask(this.d.home, repos.kv, task.settings),
      enabledSkillsNow({ home: this.d.home, workspace, hidden }),
      readAgentsFile(workspace),
      memorySection(memoryFilesOf(this.d.home, repos), workspace),
      this.toolsOf(signal, task.settings.mcpServers, task.id),
      this.d.subagents ? loadSubagentCatalog(workspace, this.d.home) : null,
    ]);
    const base = systemPrompt(environmentOf(workspace), approval, persona);
    const extra = task.settings.appendSystemPrompt?.trim();
    const system = extra ? `${base}\n\n${extra}` : base;
    const reminder = reminderBlock({
      now: new Date(now()),
      agents,
      goal: goalSection(task.settings.goal),
      skills: skillsSection(skills),
      memory,
    });
    const vision = resolved.model.vision === true;
    // The agent tool lists this workspace's sub-agent types (summaries get the same tools).
    const specs = catalog ? withSubagentTypes(tools.specs(), catalog) : tools.specs();
    return {
      resolved,
      adapter,
      workspace,
      effort,
      approval,
      tools,
      history: repos.entries.latest(task.id, Number.MAX_SAFE_INTEGER),
      catalog,
      reminder,
      buildRequest: (messages) => ({
        provider: resolved.provider,
        model: resolved.model,
        system,
        messages: withReminder(microcompact(messages), reminder),
        tools: specs,
        effort,
        maxTokens: resolveMaxTokens(resolved.model.maxOutput),
        cacheKey: task.id,
      }),
      conversation: async (entries) =>
        toConversation(
          entries,
          await loadAttachmentData(entries, this.d.home, vision, this.fitImage),
          {
            vision,
            reminders: true,
          },
        ),
    };
  }

  /** The compactor of a task's run: summaries by the compaction model (default: the task's). */
  private async compactor(
    task: TaskSummary,
    ctx: TurnContext,
    run: TurnRun,
    trigger: "auto" | "manual",
  ): Promise<Compactor> {
    return new Compactor({
      taskId: task.id,
      entries: this.d.repos.entries,
      writer: run.writer,
      buildRequest: ctx.buildRequest,
      conversation: ctx.conversation,
      summary: await this.summaryModel(ctx),
      contextWindow: ctx.resolved.model.contextWindow,
      maxOutput: resolveMaxTokens(ctx.resolved.model.maxOutput),
      now: this.d.now,
      onActive: (active) => {
        run.state = { ...run.state, phase: active ? "compacting" : "model" };
        run.stateChanged();
        if (active) this.d.hooks?.observe(task.id, "PreCompact", { trigger }, [trigger]);
      },
    }, lastContextTokens(ctx.history));
  }

  private async summaryModel(ctx: TurnContext): Promise<SummaryModel> {
    const ref = this.d.defaults().compactModel ?? null;
    if (ref) {
      try {
        const r = this.d.resolveModel(ref);
        return { ...r, adapter: await adapterFor(r.provider.format) };
      } catch (e) {
        // A compaction model that is gone must not break the run: the task's model writes it
        // (the compact entry names the model that did).
        console.warn(`compaction model unusable, using the task's: ${(e as Error).message}`);
      }
    }
    return { ...ctx.resolved, adapter: ctx.adapter };
  }

  /** The request the task's next turn would send now (the request preview). */
  async preview(task: TaskSummary): Promise<StreamRequest> {
    const ctx = await this.context(task, this.d.closing);
    return ctx.buildRequest(await ctx.conversation(ctx.history));
  }

  /** Compacts the task's conversation now (`/compact`, "Compact now"), outside a turn. */
  async compact(task: TaskSummary, run: TurnRun, focus?: string): Promise<CompactResult> {
    let ctx: TurnContext;
    try {
      ctx = await this.context(task, run.signal);
    } catch (e) {
      return { ok: false, reason: "failed", error: errorInfo((e as Error).message) };
    }
    // PreCompact hooks run in the task's session: a turn's whose background sub-agents still
    // work, else one of the compaction's own.
    const hooks = this.d.hooks && !this.d.hooks.of(task.id)
      ? this.turnHooks(task, ctx.workspace, ctx.approval, run)
      : null;
    try {
      const compactor = await this.compactor(task, ctx, run, "manual");
      return await compactor.compact("manual", run.signal, focus);
    } finally {
      hooks?.release();
    }
  }

  /** A turn's hooks (a session of the hook engine, for the turn's task and workspace). */
  private turnHooks(
    task: TaskSummary,
    workspace: string,
    approval: ApprovalMode,
    run: TurnRun,
  ): TurnHooks {
    const { repos } = this.d;
    return new TurnHooks(this.d.hooks!, {
      taskId: task.id,
      workspace,
      approval: () => repos.tasks.get(task.id)?.settings.approval ?? approval,
      signal: run.signal,
      writer: run.writer,
      repos,
    });
  }

  /** Runs one turn on the task's current history; never throws for the run's own failures. */
  async run(task: TaskSummary, run: TurnRun): Promise<TurnEnd> {
    const { repos, now } = this.d;
    const writer = run.writer;
    // How the run ended (failed unless something better is known).
    let end: RunEnd = "failed";
    // The turn and its workspace, once known: its net file change is recorded at the end.
    let turn: Turn | null = null;
    let ws: string | null = null;
    let hooks: TurnHooks | null = null;
    try {
      let ctx: TurnContext;
      try {
        mark("turn: start");
        ctx = await this.context(task, run.signal);
        mark("turn: context");
      } catch (e) {
        writer.error(errorInfo((e as Error).message, {
          category: "request",
          hint:
            "Choose an available model and an existing project folder, or configure it in Settings → Providers.",
        }));
        return { outcome: null, end };
      }
      const { resolved, adapter, workspace, effort, approval, history } = ctx;
      const attachments = attachmentIds(history);
      turn = latestTurn(history);
      const thisTurn = turn ?? NO_TURN;
      ws = workspace;
      if (this.d.hooks) {
        hooks = this.turnHooks(task, workspace, approval, run);
        // Before anything reads the prompt (the title request too): a hook may refuse it.
        if (await hooks.beforePrompt(history) !== null) return { outcome: null, end: "stopped" };
      }
      // The title's side request waits until the first answer streams (or the loop ended):
      // it must not delay the request the user waits for.
      let titleDue = history.filter((e) => e.role === "user").length === 1;
      const startTitle = () => {
        if (!titleDue) return;
        titleDue = false;
        this.d.track(
          maybeGenerateTitle(task, history, {
            ...resolved,
            adapter,
            repos,
            taskChanged: this.d.taskChanged,
          }, this.d.closing),
        );
      };
      const { gate, taskTools } = this.d;
      const tools = ctx.tools;
      const maxSteps = task.settings.maxSteps ?? stepBudget(effort, approval);
      const place = { taskId: task.id, workspace, turn: thisTurn, attachments };
      // The memory tool of this turn (sub-agents get none: their calls have no access).
      const memory = memoryAccess(
        memoryFilesOf(this.d.home, repos),
        workspace,
        history,
        this.d.memoryChanged,
      );
      const subagents = this.d.subagents && ctx.catalog
        ? prepareSubagents(this.d.subagents, ctx.catalog, {
          taskId: task.id,
          workspace,
          place,
          resolved,
          effort,
          maxSteps,
          planMode: approval === "plan",
        })
        : null;
      this.pinReminder(history, ctx.reminder);
      mark("turn: hooks, subagents");
      const [messages, keeper] = await Promise.all([
        ctx.conversation(history),
        this.compactor(task, ctx, run, "auto"),
      ]);
      const input: LoopInput = {
        adapter,
        buildRequest: ctx.buildRequest,
        messages,
        context: keeper,
        tools,
        runTool: async (call, signal) => {
          const result = await taskTools.run(call, {
            ...place,
            signal,
            callId: call.id,
            subagents: subagents?.control(call.id),
            memory,
            onSnapshot: (snapshot) => {
              run.state = { ...run.state, snapshot };
              run.stateChanged();
            },
          });
          return hooks ? await hooks.afterTool(call, result) : result;
        },
        gate: gate
          ? (call, signal) => gate(task.id, call, call.tool.kind, signal, call.tool.policy)
          : undefined,
        workspace,
        maxSteps,
        vision: resolved.model.vision === true,
        signal: run.signal,
        now,
      };
      // What the loop reports: the timeline keeps it; the run's state and the title follow.
      const onEvent = (ev: AgentEvent) => {
        writer.apply(ev);
        if (ev.type === "message_streaming") {
          // The workspace's tool worker starts while the first answer streams (most turns
          // call a tool): its start blocks this thread ~12 ms, so not before the request is
          // out; a real model's answer takes far longer than the worker to start. Before
          // the title's request: that work then overlaps the worker's own start-up (~10 ms
          // on its thread after the block) instead of adding to it.
          if (!run.signal.aborted) this.d.taskTools.warm(workspace, approval === "plan");
          startTitle();
        } else if (ev.type === "step") {
          run.state = { ...run.state, step: ev.step, phase: ev.phase };
          run.stateChanged();
        } else if (ev.type === "retry") {
          const retry = retryState(ev.notice);
          if (retry === null && run.state.retry === null) return;
          run.state = { ...run.state, retry };
          run.stateChanged();
        }
      };
      mark("turn: input ready");
      let outcome = await driveLoop(input, onEvent);
      startTitle();
      // A Stop hook may send the model back to work with its reason (a few times at most).
      for (let again = 0; hooks && again < MAX_STOP_CONTINUATIONS; again++) {
        const feedback = await hooks.stop(outcome, again > 0);
        if (!feedback) break;
        input.messages.push({ role: "user", content: [{ type: "text", text: feedback }] });
        outcome = await driveLoop(input, onEvent);
      }
      end = outcome.kind === "error" ? "failed" : outcome.kind;
      // A stop that came after the model's last word still counts as a stop.
      if (end === "done" && run.signal.aborted) end = "stopped";
      // Background commands still running: record what they changed so far.
      await recaptureJobs(task.id);
      return { outcome, end };
    } catch (e) {
      // A bug or an unexpected failure: report it in the timeline, never silently.
      console.error(`run of task ${task.id} failed:`, e);
      if (!repos.tasks.get(task.id)) return { outcome: null, end }; // deleted meanwhile
      writer.error(errorInfo(`internal error: ${(e as Error)?.message ?? e}`, {
        hint: "This is a bug in ReinAgent. The conversation is kept; you can Continue.",
        chain: [String((e as Error)?.stack ?? e)],
      }));
      return { outcome: null, end };
    } finally {
      hooks?.release(this.d.subagents?.settled(task.id));
      if (turn && ws) await this.d.afterTurn(task.id, turn, ws);
    }
  }

  /**
   * Runs a call that waited for approval when the previous process ended (outside any
   * run) and records its result in the task's latest turn.
   */
  async runRecovered(task: TaskSummary, call: ToolCall, writer: TimelineWriter): Promise<void> {
    const workspace = this.workspaceOf(task);
    const t0 = this.d.now();
    const entries = this.d.repos.entries.latest(task.id, Number.MAX_SAFE_INTEGER);
    const tools = call.name.startsWith("mcp__")
      ? await this.toolsOf(this.d.closing, task.settings.mcpServers, task.id)
      : this.d.tools;
    const checked = checkCall(tools, call);
    const result: ToolResult = isChecked(checked)
      ? await this.d.taskTools.run(checked, {
        taskId: task.id,
        workspace,
        turn: latestTurn(entries) ?? NO_TURN,
        signal: this.d.closing,
        attachments: attachmentIds(entries),
      })
      : checked;
    writer.toolResult(call, result, this.d.now() - t0);
  }

  /**
   * Pins the turn's reminder to its user message when it differs from the one the
   * conversation carries (the first turn, or the date, goal, AGENTS.md, skills or memories
   * changed). Earlier messages keep the reminder they were sent with, so every request
   * repeats the previous one's prefix and the provider's prompt cache keeps hitting.
   */
  private pinReminder(history: Entry[], reminder: string): void {
    if (pinnedReminder(history) === reminder) return;
    const user = history.findLast((e) => e.role === "user");
    if (!user || user.meta.hookBlocked === true) return;
    user.meta = { ...user.meta, reminder };
    this.d.repos.entries.upsert(user);
  }

  /** The built-in tools and, when there are, this turn's extra ones (MCP; `only`: these servers). */
  private async toolsOf(
    signal: AbortSignal,
    only?: string[] | null,
    taskId?: string,
  ): Promise<ToolRegistry> {
    if (!this.d.extraTools) return this.d.tools;
    const extra = await this.d.extraTools(signal, only ?? null, taskId).catch((e) => {
      console.error("listing MCP tools failed:", e);
      return [];
    });
    return extra.length ? this.d.tools.with(extra) : this.d.tools;
  }

  /** The task's project folder, or the DefaultProject (created on first use). */
  private workspaceOf(task: TaskSummary): string {
    if (!task.projectPath) {
      const dir = join(this.d.home, "DefaultProject");
      Deno.mkdirSync(dir, { recursive: true });
      return dir;
    }
    let st: Deno.FileInfo | null = null;
    try {
      st = Deno.statSync(task.projectPath);
    } catch { /* said below */ }
    if (!st?.isDirectory) throw new Error(`the project folder ${task.projectPath} does not exist`);
    return task.projectPath;
  }
}
