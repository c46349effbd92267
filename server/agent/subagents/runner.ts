/**
 * Runs sub-agents: the nested loop is `runLoop` itself, with the type's tools, the
 * parent's approval gate (each approval labelled with the sub-agent), the parent's
 * stop, the parent's model unless the type names one, and a step cap of 25 (or the
 * parent's, when smaller). Its transcript is written through a `TimelineWriter` into
 * the store (survives a restart, replayed read-only by the UI). Foreground runs answer
 * the `agent` call; background runs answer at once with an id and are read with
 * `subagent_output`. Stopping the task stops them all.
 */
import type { HookEngine } from "../hooks/engine.ts";
import {
  SUBAGENT_LIMITS,
  type SubagentOrigin,
  type SubagentRun,
  taskTopic,
} from "../../../protocol/index.ts";
import type { Effort, ModelRef, ToolPolicy } from "../../../protocol/index.ts";
import type { ToolDetails } from "../../../protocol/tool_details.ts";
import type { Repos } from "../../../store/store.ts";
import type { IdFn } from "../../../store/ids.ts";
import type { ToolRegistry } from "../../../tools/registry.ts";
import { fail, ok, type ToolResult } from "../../../tools/types.ts";
import type { AgentArgs, OutputArgs, SubagentControl } from "../../../tools/agent.ts";
import type { EventHub } from "../../sessions/hub.ts";
import {
  adapterFor,
  driveLoop,
  type Gate,
  type LlmMessage,
  type LoopOutcome,
  type ModelInfo,
  type ProviderConfig,
  resolveMaxTokens,
  type ToolCall,
} from "../../../agent/index.ts";
import { TimelineWriter } from "../timeline_writer.ts";
import type { CallPlace, TaskTools } from "../task_tools.ts";
import { environmentOf } from "../prompt.ts";
import type { SubagentCatalog, SubagentDef } from "./definitions.ts";
import { filterTools } from "./tool_filter.ts";
import { resultText, subagentSystem } from "./report.ts";

type Resolved = { provider: ProviderConfig; model: ModelInfo };

export interface SubagentDeps {
  repos: Repos;
  hub: EventHub;
  newId: IdFn;
  now: () => number;
  /** Every tool; a sub-agent gets the ones its type lists. */
  tools: ToolRegistry;
  taskTools: TaskTools;
  resolveModel(ref: ModelRef | null): Resolved;
  /** The parent's approval gate; `origin` labels the approval with the sub-agent. */
  gate?(
    taskId: string,
    call: ToolCall,
    kind: string,
    signal: AbortSignal,
    policy: ToolPolicy | undefined,
    origin: SubagentOrigin,
  ): ReturnType<Gate>;
  /** Aborted at shutdown. */
  closing: AbortSignal;
  /** The hooks (SubagentStop is told when a sub-agent ends). */
  hooks?: HookEngine;
}

/** What the parent's turn lends its sub-agents. */
export interface ParentTurn {
  taskId: string;
  workspace: string;
  place: Omit<CallPlace, "signal" | "callId" | "subagents">;
  resolved: Resolved;
  effort: Effort;
  /** The parent's step budget (Infinity in full mode). */
  maxSteps: number;
  planMode: boolean;
  catalog: SubagentCatalog;
}

interface Active {
  run: SubagentRun;
  abort: AbortController;
  done: Promise<void>;
}

const QUIET = { publish() {} };

const textOf = (m: LlmMessage | undefined): string =>
  m && m.role === "assistant"
    ? m.content.filter((b) => b.type === "text").map((b) => (b as { text: string }).text).join("")
    : "";

export class SubagentRunner {
  private active = new Map<string, Active>();

  constructor(private d: SubagentDeps) {}

  /** The control the `agent` tools of parent call `callId` get. */
  control(parent: ParentTurn, callId: string): SubagentControl {
    return {
      start: (args, signal) => this.start(parent, callId, args, signal),
      output: (args, signal) => this.output(parent.taskId, args, signal),
    };
  }

  /** The task's runs, newest first (running ones as they are now). */
  list(taskId: string): SubagentRun[] {
    return this.d.repos.subagents.runsOf(taskId).map((r) => this.active.get(r.id)?.run ?? r);
  }

  /** Stops one run of the task; resolves once it ended. */
  async stop(taskId: string, runId: string): Promise<boolean> {
    const a = this.active.get(runId);
    if (!a || a.run.taskId !== taskId) return false;
    a.abort.abort();
    await a.done;
    return true;
  }

  /** Stops every run of the task (Stop); true when one was running. */
  async stopTask(taskId: string): Promise<boolean> {
    const mine = this.runsOf(taskId);
    for (const a of mine) a.abort.abort();
    await Promise.all(mine.map((a) => a.done));
    return mine.length > 0;
  }

  async stopAll(): Promise<void> {
    for (const a of this.active.values()) a.abort.abort();
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  /**
   * Resolves once the task's runs now going (background ones too) have ended; no new one
   * starts for a turn that is over (sub-agents cannot start sub-agents).
   */
  async settled(taskId: string): Promise<void> {
    await Promise.all(this.runsOf(taskId).map((a) => a.done));
  }

  private runsOf(taskId: string): Active[] {
    return [...this.active.values()].filter((a) => a.run.taskId === taskId);
  }

  private async start(
    parent: ParentTurn,
    callId: string,
    args: AgentArgs,
    parentSignal: AbortSignal,
  ): Promise<ToolResult<ToolDetails<"agent">>> {
    const { taskId, catalog } = parent;
    const def = catalog.get(args.subagent_type);
    if (!def) {
      return fail(
        `Unknown subagent_type "${args.subagent_type}". Available: ${
          catalog.defs.map((x) => x.name).join(", ")
        }.`,
      );
    }
    const n = this.runsOf(taskId).length;
    if (n >= SUBAGENT_LIMITS.activePerTask) {
      return fail(
        `Too many sub-agents running in this task (${n}); wait for one with subagent_output ` +
          "(wait: true) or do the work yourself.",
      );
    }
    const { registry, unknown } = filterTools(def, this.d.tools);
    const notes = unknown.length ? [`tools not available, ignored: ${unknown.join(", ")}`] : [];
    let resolved = parent.resolved;
    if (def.model) {
      const slash = def.model.indexOf("/");
      if (slash <= 0) {
        notes.push(`model "${def.model}" is not a provider/model reference; used the task's model`);
      } else {
        try {
          resolved = this.d.resolveModel({
            providerId: def.model.slice(0, slash),
            modelId: def.model.slice(slash + 1),
          });
        } catch (e) {
          return fail(
            `The ${def.name} type names the model "${def.model}", which cannot be used: ${
              (e as Error).message
            }`,
          );
        }
      }
    }
    const background = args.run_in_background === true;
    const abort = new AbortController();
    const signal = background
      ? AbortSignal.any([abort.signal, this.d.closing])
      : AbortSignal.any([abort.signal, parentSignal, this.d.closing]);
    const run: SubagentRun = {
      id: this.d.newId("sa"),
      taskId,
      callId,
      type: def.name,
      description: args.description,
      background,
      status: "running",
      model: `${resolved.provider.id}/${resolved.model.id}`,
      startedAt: this.d.now(),
      endedAt: null,
      steps: 0,
      maxSteps: Math.min(SUBAGENT_LIMITS.defaultSteps, parent.maxSteps),
      toolCalls: 0,
      tokens: { input: 0, output: 0 },
      report: null,
      error: null,
      notes,
    };
    this.d.repos.subagents.putRun(run);
    const active: Active = { run, abort, done: Promise.resolve() };
    this.active.set(run.id, active);
    this.changed(run);
    active.done = this.execute(parent, def, registry, resolved, args.prompt, active, signal)
      .finally(() => this.active.delete(run.id));
    if (background) {
      return ok(
        `Background sub-agent ${run.id} started (${def.name}: ${args.description}). It works ` +
          `in parallel; call subagent_output with {"id": "${run.id}"} to check on it, or with ` +
          `"wait": true to wait for its report.`,
        { subagent: run },
      );
    }
    await active.done;
    const end = active.run;
    return {
      content: resultText(end, this.d.now()),
      isError: end.status === "failed" || end.status === "stopped",
      meta: { subagent: end },
    };
  }

  /** The nested loop; never throws (a failure ends the run as `failed`). */
  private async execute(
    parent: ParentTurn,
    def: SubagentDef,
    tools: ToolRegistry,
    resolved: Resolved,
    prompt: string,
    active: Active,
    signal: AbortSignal,
  ): Promise<void> {
    const { repos, newId, now } = this.d;
    const run = active.run;
    const sink = repos.subagents.sink();
    // Clients follow a transcript by the run's events (a fetch per step), so its patches
    // go nowhere: they must not crowd the hub's replay ring.
    const writer = new TimelineWriter(run.id, sink, QUIET, newId, now);
    const messages: LlmMessage[] = [{ role: "user", content: [{ type: "text", text: prompt }] }];
    let outcome: LoopOutcome | null = null;
    try {
      sink.append({
        id: newId("m"),
        taskId: run.id,
        role: "user",
        status: "done",
        parts: [{ type: "text", text: prompt }],
        meta: { subagent: { type: def.name, description: run.description } },
      });
      const adapter = await adapterFor(resolved.provider.format);
      const system = subagentSystem(def, environmentOf(parent.workspace), parent.planMode);
      const gate = this.d.gate;
      const origin: SubagentOrigin = {
        runId: run.id,
        type: def.name,
        description: run.description,
        callId: run.callId,
      };
      outcome = await driveLoop({
        adapter,
        buildRequest: (msgs) => ({
          provider: resolved.provider,
          model: resolved.model,
          system,
          messages: msgs,
          tools: tools.specs(),
          effort: parent.effort,
          maxTokens: resolveMaxTokens(resolved.model.maxOutput),
        }),
        messages,
        tools,
        // No `subagents` in the place: a sub-agent's calls cannot start another one.
        runTool: (call, s) => this.d.taskTools.run(call, { ...parent.place, signal: s }),
        gate: gate
          ? (call, s) => gate(parent.taskId, call, call.tool.kind, s, call.tool.policy, origin)
          : undefined,
        workspace: parent.workspace,
        maxSteps: run.maxSteps,
        signal,
        now,
      }, (ev) => {
        writer.apply(ev);
        if (ev.type !== "step") return;
        run.steps = ev.step;
        if (ev.phase === "tools") run.toolCalls = messages.filter((m) => m.role === "tool").length;
        this.changed(run);
      });
    } catch (e) {
      console.error(`sub-agent ${run.id} failed:`, e);
      run.error = `internal error: ${(e as Error)?.message ?? e}`;
    }
    run.toolCalls = messages.filter((m) => m.role === "tool").length;
    run.report = textOf(messages.filter((m) => m.role === "assistant").at(-1));
    for (const e of repos.subagents.entries(run.id)) {
      const u = e.meta.usage as { input?: number; output?: number } | undefined;
      run.tokens.input += u?.input ?? 0;
      run.tokens.output += u?.output ?? 0;
    }
    if (outcome?.kind === "error") run.error = outcome.error.message;
    run.status = !outcome
      ? "failed"
      : outcome.kind === "error"
      ? "failed"
      : outcome.kind === "done" && signal.aborted
      ? "stopped"
      : outcome.kind;
    run.endedAt = now();
    repos.subagents.putRun(run);
    this.changed(run);
    this.d.hooks?.observe(parent.taskId, "SubagentStop", {
      stop_hook_active: false,
      agent_id: run.id,
      agent_type: def.name,
    });
  }

  private async output(
    taskId: string,
    args: OutputArgs,
    signal: AbortSignal,
  ): Promise<ToolResult<ToolDetails<"subagent_output">>> {
    const a = this.active.get(args.id);
    const stored = a ? null : this.d.repos.subagents.getRun(args.id);
    const found = a?.run ?? stored;
    if (!found || found.taskId !== taskId) {
      return fail(`No sub-agent with id "${args.id}" in this task.`);
    }
    if (a && args.wait) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let onAbort = () => {};
      await Promise.race([
        a.done,
        new Promise<void>((r) => {
          timer = setTimeout(r, SUBAGENT_LIMITS.waitMs);
          onAbort = () => r();
          signal.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
    const run = this.active.get(args.id)?.run ?? this.d.repos.subagents.getRun(args.id) ?? found;
    if (run.status === "running") {
      return ok(
        `Sub-agent ${run.id} (${run.type}: ${run.description}) is still running: step ` +
          `${run.steps} of at most ${run.maxSteps}, ${run.toolCalls} tool calls so far. Call ` +
          "subagent_output again later (wait: true waits for it).",
        { subagent: run },
      );
    }
    return ok(resultText(run, this.d.now()), { subagent: run });
  }

  /** Tells the task's clients (coalesced per run). */
  private changed(run: SubagentRun): void {
    this.d.hub.publish(
      taskTopic(run.taskId),
      { kind: "subagent", run: structuredClone(run) },
      `subagent:${run.id}`,
    );
  }
}
