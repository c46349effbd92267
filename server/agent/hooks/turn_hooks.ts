/**
 * Where a turn meets its hooks: SessionStart and UserPromptSubmit before the first
 * request (their context stored on the user's message, so later requests carry it too),
 * PostToolUse after a tool ran (PreToolUse is in front of the approval gate, see
 * HookEngine.beforeGate), PermissionRequest
 * and Notification when the gate would ask the user, Stop when the run ended. Hook
 * notices become `system` entries of the turn (`meta.kind: "hook"`).
 */
import type { ApprovalMode } from "../../../protocol/constants.ts";
import type { Entry } from "../../../protocol/index.ts";
import type { Repos } from "../../../store/store.ts";
import type { ToolResult } from "../../../tools/types.ts";
import type { LoopOutcome, ToolCall } from "../../../agent/index.ts";
import type { TimelineWriter } from "../timeline_writer.ts";
import type { GateVerdict as Verdict } from "./engine.ts";
import { type HookEngine, type HookNotice, HookSession } from "./engine.ts";

export interface TurnHookOptions {
  taskId: string;
  workspace: string;
  approval: () => ApprovalMode;
  signal: AbortSignal;
  writer: TimelineWriter;
  repos: Repos;
}

/** Text of a user entry as the model reads it (a command's expansion, else its text). */
function promptOf(e: Entry): string {
  const cmd = (e.meta.command as { prompt?: unknown } | undefined)?.prompt;
  if (typeof cmd === "string" && cmd) return cmd;
  return e.parts.filter((p) => p.type === "text" && p.text).map((p) => p.text).join("\n");
}

const tagged = (event: string, text: string) =>
  `<system-reminder>\n${event} hook additional context:\n${text}\n</system-reminder>`;

export class TurnHooks {
  private session: HookSession;

  constructor(private engine: HookEngine, private o: TurnHookOptions) {
    this.session = engine.open({
      taskId: o.taskId,
      workspace: o.workspace,
      mode: o.approval,
      signal: o.signal,
      report: (n) => this.note(n),
    });
    this.session.permission = (call) => this.permission(call);
  }

  /** The turn is over: its session goes now, or once `until` (its background sub-agents) settles. */
  release(until?: Promise<unknown>): void {
    this.engine.release(this.session, until);
  }

  private note(n: HookNotice): void {
    this.o.writer.notice(n.text, {
      kind: "hook",
      level: n.level,
      event: n.event,
      code: n.code,
      params: n.params,
      ...(n.command ? { command: n.command } : {}),
      ...(n.source ? { source: n.source } : {}),
    });
  }

  /**
   * Before the turn's first request: SessionStart for a task's first message, and
   * UserPromptSubmit when the turn answers a new message. Returns the reason when a hook
   * blocked the prompt (the model is then not called).
   */
  async beforePrompt(history: Entry[]): Promise<string | null> {
    const last = history.at(-1);
    if (last?.role !== "user") return null; // Continue: no new prompt
    const contexts: string[] = [];
    const first = history.every((e) => e.role !== "assistant");
    if (first) {
      const v = await this.session.fire("SessionStart", { source: "startup" }, ["startup"]);
      if (v.context) contexts.push(tagged("SessionStart", v.context));
    }
    const v = await this.session.fire("UserPromptSubmit", { prompt: promptOf(last) });
    if (v.context) contexts.push(tagged("UserPromptSubmit", v.context));
    const blocked = v.decision === "block";
    if (contexts.length || blocked) {
      // Blocked: the message stays in the timeline but never reaches a model.
      last.meta = {
        ...last.meta,
        ...(contexts.length ? { hookContext: contexts.join("\n") } : {}),
        ...(blocked ? { hookBlocked: true } : {}),
      };
      this.o.repos.entries.upsert(last);
    }
    if (blocked) {
      const reason = v.reason || "no reason given";
      this.note({
        event: "UserPromptSubmit",
        level: "blocked",
        text: `A UserPromptSubmit hook blocked this prompt: ${reason}`,
        code: "blocked",
        params: { reason },
      });
      return reason;
    }
    return null;
  }

  /** Runs a tool, then its PostToolUse hooks (their reason/context follow the result). */
  async afterTool(call: ToolCall, result: ToolResult): Promise<ToolResult> {
    const notes: string[] = [];
    const pre = this.session.pending.get(call);
    if (pre) notes.push(`PreToolUse hook context: ${pre}`);
    const v = await this.session.fire("PostToolUse", {
      ...this.session.toolFields(call),
      tool_response: {
        content: result.content,
        is_error: result.isError === true,
        ...(typeof result.meta?.exitCode === "number" ? { exit_code: result.meta.exitCode } : {}),
      },
    }, HookSession.toolNames(call.name));
    if (v.decision === "block") notes.push(`PostToolUse hook: ${v.reason || "blocked"}`);
    if (v.context) notes.push(`PostToolUse hook context: ${v.context}`);
    if (!notes.length) return result;
    return { ...result, content: `${result.content}\n\n${notes.join("\n")}` };
  }

  /** The PermissionRequest hooks, where the gate would ask the user. */
  async permission(call: ToolCall): Promise<Verdict | null> {
    if (this.engine.wasApproved(call)) return { allow: true };
    const v = await this.session.fire("PermissionRequest", {
      ...this.session.toolFields(call),
      permission_suggestions: [],
    }, HookSession.toolNames(call.name));
    if (v.decision === "approve") return { allow: true };
    if (v.decision === "block") {
      const reason = v.reason || "no reason given";
      return {
        allow: false,
        reason: `A PermissionRequest hook denied this ${call.name} call: ${reason}`,
        refusal: { code: "hook_blocked", params: { event: "PermissionRequest", reason } },
      };
    }
    // Observational: the user is about to be asked (not waited for; failures are noted).
    this.session.fire("Notification", {
      message: `ReinAgent needs your permission to use ${call.name}`,
      notification_type: "permission_prompt",
    }, ["permission_prompt"]).catch((e) => console.error("Notification hooks failed:", e));
    return null;
  }

  /**
   * After the run ended by itself: the Stop hooks. When one blocks, its reason is what
   * the model reads next (returned, and kept in the timeline as `meta.hookFeedback` so
   * later requests carry it); `active`: this run is already such a continuation.
   */
  async stop(outcome: LoopOutcome | null, active: boolean): Promise<string | null> {
    if (!outcome || outcome.kind !== "done" || this.o.signal.aborted) return null;
    const v = await this.session.fire("Stop", { stop_hook_active: active });
    if (v.decision !== "block") return null;
    const reason = v.reason || "Keep going: the task is not finished.";
    const feedback = `Stop hook feedback:\n${reason}`;
    this.o.writer.notice(`A Stop hook sent the agent back to work: ${reason}`, {
      kind: "hook",
      level: "continue",
      event: "Stop",
      code: "continue",
      params: { reason },
      hookFeedback: feedback,
    });
    return feedback;
  }
}
