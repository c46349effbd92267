/**
 * The approval gate. For every tool call it reads the task's mode and
 * tool policies LIVE, then allows, refuses, or asks the user. Questions wait here,
 * are persisted (a restart offers them for recovery) and can be answered from any
 * client. Changing a task's mode re-judges what it is waiting on. Every refusal carries
 * a code (`Refusal`, protocol/index.ts) besides the English text the model reads.
 */
import type {
  PendingApproval,
  Refusal,
  RefusalCode,
  SubagentOrigin,
  TaskSettings,
  TaskSummary,
  ToolPolicy,
  UnsandboxedWhy,
} from "../../protocol/index.ts";
import { APPROVALS_TOPIC } from "../../protocol/index.ts";
import type { Repos } from "../../store/store.ts";
import type { EventHub } from "./hub.ts";
import type { IdFn } from "../../store/ids.ts";
import type { ToolCall } from "../../agent/index.ts";
import type { ApprovalMode } from "../../protocol/constants.ts";
import { PLAN_MAX, type QuestionAnswer, questionProblems } from "../../tools/interactive.ts";
import {
  judgeRules,
  parseRule,
  type RuleVerdict,
  type ScopedRule,
} from "../../protocol/permission_rules.ts";
import { rulesFor, subjectOf, workspaceFor } from "./rules.ts";

/** `answer` reaches the tool but is not part of the model's call (the user's answers). */
export type Verdict =
  | { allow: true; answer?: unknown }
  | { allow: false; reason: string; refusal: Refusal };
type Decision = "allow" | "always" | "reject";
type Answer = {
  decision: Decision;
  /** With "always": the rule to add to the task instead of allowing the whole tool. */
  rule?: string;
  feedback?: string;
  answers?: QuestionAnswer[];
  /** Set when the server, not the user, settled it (a mode change). */
  refusal?: Refusal;
};

/** A refusal: the English text the model reads and the code the UI translates. */
export function refuse(
  code: RefusalCode,
  reason: string,
  extra: { feedback?: string; params?: Record<string, string | number> } = {},
): { allow: false; reason: string; refusal: Refusal } {
  const refusal: Refusal = { code };
  if (extra.feedback) refusal.feedback = extra.feedback;
  if (extra.params) refusal.params = extra.params;
  return { allow: false, reason, refusal };
}

/** The English text of a user's rejection of a tool call (also used by recovery). */
export function rejectionText(tool: string, feedback?: string): string {
  const fb = feedback ? ` Their feedback: ${feedback}` : "";
  return `The user rejected this ${tool} call.${fb} Do not retry the same call; adjust your approach or ask the user.`;
}

const TOOL_KINDS = new Set(["read", "write", "exec"]);

/** Tools that only talk to the user or plan; never gated. */
const META_TOOLS = new Set(["todo_write", "ask_user_question", "exit_plan_mode"]);

/** What the mode alone says for a permission kind. */
export function modeDecision(mode: ApprovalMode, kind: string): "allow" | "ask" | "deny" {
  if (kind === "read" || mode === "full") return "allow";
  if (mode === "plan") return "deny";
  if (mode === "edit") return kind === "write" ? "allow" : "ask";
  return "ask"; // ask mode: writes and execs
}

/**
 * Mode + per-tool policy + rules by pattern → allow / ask / deny. `configured` is a policy
 * the tool's own configuration sets (an MCP server's); the task's rule for the tool wins
 * over it. `ruled` is what the rules by pattern say: a deny there wins over everything,
 * and their ask or allow, being about this very call, over the per-tool policy.
 */
export function judge(
  settings: TaskSettings,
  mode: ApprovalMode,
  tool: string,
  kind: string,
  configured?: ToolPolicy,
  ruled?: ToolPolicy | null,
): "allow" | "ask" | "deny" {
  if (META_TOOLS.has(tool)) return "allow";
  const policy: ToolPolicy | undefined = settings.toolPolicies?.[tool] ?? configured;
  if (policy === "deny" || ruled === "deny") return "deny";
  if (mode === "plan" && kind !== "read") return "deny"; // plan mode is read-only whatever the policy
  if (ruled === "ask") return "ask";
  if (ruled === "allow") return "allow";
  if (policy === "allow") return "allow";
  if (policy === "ask") return "ask";
  return modeDecision(mode, kind);
}

/** One line describing a call, for the approval card. */
export function summarise(call: Pick<ToolCall, "name" | "args">): string {
  const a = call.args;
  const s = (v: unknown) => String(v ?? "").replace(/\s+/g, " ").slice(0, 160);
  if (typeof a.command === "string") return `$ ${s(a.command)}`;
  if (typeof a.path === "string") {
    const n = typeof a.content === "string" ? a.content.replace(/\n$/, "").split("\n").length : 0;
    const lines = typeof a.content === "string" ? ` (${n} line${n === 1 ? "" : "s"})` : "";
    return `${call.name} ${s(a.path)}${lines}`;
  }
  if (typeof a.url === "string") return `${call.name} ${s(a.url)}`;
  return `${call.name} ${s(JSON.stringify(a))}`;
}

interface Waiter {
  resolve(d: Answer): void;
}

/** "explorer sub-agent · " before a sub-agent's summary, so every client names it. */
const originPrefix = (o: SubagentOrigin | undefined) => o ? `${o.type} sub-agent · ` : "";

export class ApprovalCenter {
  private waiting = new Map<string, Waiter>();
  /**
   * Asked before the user is (the PermissionRequest hooks): a verdict settles the call,
   * null asks the user as usual.
   */
  beforeAsk?: (taskId: string, call: ToolCall, signal: AbortSignal) => Promise<Verdict | null>;
  /** Which sub-agent made a call being judged (the call objects are the loop's). */
  private origins = new WeakMap<ToolCall, SubagentOrigin | undefined>();

  constructor(
    private repos: Repos,
    private hub: EventHub,
    private newId: IdFn,
    private now: () => number,
    private defaultMode: () => ApprovalMode,
    /** Called when a task starts or stops waiting (its status shows it). */
    private waitingChanged: (taskId: string, waiting: boolean) => void,
    /** Called when this center changed a task's settings (plan approved → ask mode). */
    private settingsChanged: (taskId: string) => void = () => {},
    /** Why the task's commands would run without a sandbox now, or null when sandboxed. */
    private unsandboxed: (
      settings: TaskSettings,
      taskId: string,
    ) => Promise<UnsandboxedWhy | null> = () => Promise.resolve(null),
  ) {
    // Approvals persisted by a previous process have no run waiting: offer recovery.
    // A sub-agent's call cannot be resumed (its loop is gone, the run is interrupted).
    for (const p of repos.pending.list()) {
      if (p.subagent) repos.pending.delete(p.id);
      else if (p.live) repos.pending.put({ ...p, live: false });
    }
  }

  list(): PendingApproval[] {
    return this.repos.pending.list();
  }

  /** The data folder (the DefaultProject, for workspace-relative rule paths). */
  home = "";

  /** What the rules by pattern say about a call of a task. */
  private ruled(
    task: TaskSummary & { settings: TaskSettings },
    call: Pick<ToolCall, "name" | "args">,
  ): RuleVerdict | null {
    const rules: ScopedRule[] = rulesFor(this.repos, task);
    if (!rules.length) return null;
    return judgeRules(rules, call.name, subjectOf(call, workspaceFor(task, this.home)));
  }

  private modeOf(settings: TaskSettings): ApprovalMode {
    return settings.approval ?? this.defaultMode();
  }

  /**
   * The gate used by a task's run: `configured` is the tool's own policy (an MCP
   * server's), `origin` is set for the calls of a sub-agent.
   */
  async check(
    taskId: string,
    call: ToolCall,
    kind: string,
    signal: AbortSignal,
    configured?: ToolPolicy,
    origin?: SubagentOrigin,
  ): Promise<Verdict> {
    this.origins.set(call, origin);
    const task = this.repos.tasks.get(taskId);
    if (!task) return refuse("task_gone", "The task no longer exists.");
    const mode = this.modeOf(task.settings);
    if (call.name === "exit_plan_mode") {
      return await this.planReview(task.id, task.title, call, mode, signal);
    }
    if (call.name === "ask_user_question") {
      return await this.question(task.id, task.title, call, signal);
    }
    const ruled = this.ruled(task, call);
    const verdict = judge(task.settings, mode, call.name, kind, configured, ruled?.policy);
    if (verdict === "deny") return this.denial(call.name, task.settings, configured, ruled);
    const bare = kind === "exec" ? await this.unsandboxed(task.settings, task.id) : null;
    if (verdict === "allow") {
      if (!bare || task.settings.unsandboxedOk) return { allow: true };
      return await this.confirmUnsandboxed(task.id, task.title, call, bare, signal);
    }
    const settled = await this.beforeAsk?.(task.id, call, signal);
    if (settled) return settled;
    const answer = await this.wait(task.id, task.title, call, kind, summarise(call), signal, bare);
    if (!answer) {
      return refuse("stopped", "The run was stopped while this call waited for approval.");
    }
    if (answer.decision === "reject") {
      const text = rejectionText(call.name, answer.feedback);
      if (answer.refusal) return { allow: false, reason: text, refusal: answer.refusal };
      return refuse("rejected", text, { feedback: answer.feedback });
    }
    if (answer.decision === "always") {
      if (answer.rule) this.addTaskRule(taskId, answer.rule);
      else this.setPolicy(taskId, call.name, "allow");
    }
    return { allow: true };
  }

  /**
   * Commands would run unsandboxed (no bubblewrap, the level is off, or they run in the
   * editor's terminal) although nothing
   * else asks (full mode, an allow rule): asked once per task, before the first command.
   */
  private async confirmUnsandboxed(
    taskId: string,
    title: string,
    call: ToolCall,
    reason: UnsandboxedWhy,
    signal: AbortSignal,
  ): Promise<Verdict> {
    const answer = await this.wait(
      taskId,
      title,
      call,
      "unsandboxed",
      summarise(call),
      signal,
      reason,
    );
    if (!answer) return refuse("stopped", "The run was stopped while this call waited.");
    if (answer.decision === "reject") {
      return refuse(
        "unsandboxed",
        "The user did not allow commands to run without a sandbox in this task." +
          (answer.feedback ? ` Their feedback: ${answer.feedback}` : "") +
          " Use the file tools instead, or ask the user to enable the sandbox.",
        { feedback: answer.feedback },
      );
    }
    const task = this.repos.tasks.get(taskId);
    if (task) {
      this.repos.tasks.setSettings(taskId, { ...task.settings, unsandboxedOk: true });
      this.settingsChanged(taskId);
    }
    return { allow: true };
  }

  /** exit_plan_mode: only in plan mode; approval switches the task to ask mode. */
  private async planReview(
    taskId: string,
    title: string,
    call: ToolCall,
    mode: ApprovalMode,
    signal: AbortSignal,
  ): Promise<Verdict> {
    if (mode !== "plan") {
      return refuse(
        "not_plan_mode",
        "exit_plan_mode is only allowed in plan mode; you are not in plan mode.",
      );
    }
    const plan = typeof call.args.plan === "string" ? call.args.plan : "";
    if (!plan.trim()) return refuse("plan_empty", "exit_plan_mode needs a non-empty `plan`.");
    if (plan.length > PLAN_MAX) {
      return refuse(
        "plan_too_long",
        `The plan is too long (${plan.length} > ${PLAN_MAX} characters); shorten it.`,
        { params: { length: plan.length, max: PLAN_MAX } },
      );
    }
    const answer = await this.wait(taskId, title, call, "plan", "Plan ready for review", signal);
    if (!answer) {
      return refuse("stopped", "The run was stopped while the plan waited for review.");
    }
    if (answer.decision === "reject") {
      const fb = answer.feedback ? ` Their feedback: ${answer.feedback}` : "";
      return refuse(
        "plan_rejected",
        `The user did not approve the plan.${fb} You are still in plan mode: revise the plan and call exit_plan_mode again.`,
        { feedback: answer.feedback },
      );
    }
    this.planApproved(taskId);
    return { allow: true };
  }

  /** An approved plan (live, or recovered after a restart) switches the task to ask mode. */
  planApproved(taskId: string): void {
    const task = this.repos.tasks.get(taskId);
    if (!task) return;
    this.repos.tasks.setSettings(taskId, { ...task.settings, approval: "ask" });
    this.settingsChanged(taskId);
  }

  /** ask_user_question: waits for answers (or a skip). */
  private async question(
    taskId: string,
    title: string,
    call: ToolCall,
    signal: AbortSignal,
  ): Promise<Verdict> {
    const problem = questionProblems(call.args);
    if (problem) {
      return refuse("questions_invalid", `Invalid questions: ${problem}`, {
        params: { problem },
      });
    }
    const n = (call.args.questions as unknown[]).length;
    const answer = await this.wait(
      taskId,
      title,
      call,
      "question",
      `${n} question${n > 1 ? "s" : ""} for you`,
      signal,
    );
    if (!answer) {
      return refuse("stopped", "The run was stopped while the questions waited for an answer.");
    }
    if (answer.decision === "reject" || !answer.answers) {
      return refuse(
        "questions_skipped",
        "The user skipped the questions. Proceed with your best judgement, or ask differently.",
      );
    }
    return { allow: true, answer: answer.answers };
  }

  /** Persists a pending item, publishes it, and waits for the answer (null = stopped). */
  private async wait(
    taskId: string,
    title: string,
    call: ToolCall,
    kind: string,
    summary: string,
    signal: AbortSignal,
    unsandboxed: UnsandboxedWhy | null = null,
  ): Promise<Answer | null> {
    const origin = this.origins.get(call);
    const pending: PendingApproval = {
      id: this.newId("a"),
      taskId,
      taskTitle: title,
      call: { id: call.id, name: call.name, args: call.args },
      kind,
      summary: originPrefix(origin) + summary,
      createdAt: this.now(),
      live: true,
      ...(unsandboxed ? { unsandboxed } : {}),
      ...(origin ? { subagent: origin } : {}),
    };
    this.repos.pending.put(pending);
    this.publish();
    this.waitingChanged(taskId, true);
    const answer = await new Promise<Answer | null>((resolve) => {
      const onAbort = () => resolve(null);
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(pending.id, {
        resolve: (d) => {
          signal.removeEventListener("abort", onAbort);
          resolve(d);
        },
      });
    });
    this.waiting.delete(pending.id);
    this.repos.pending.delete(pending.id);
    this.publish();
    if (!this.hasLive(taskId)) this.waitingChanged(taskId, false);
    return answer;
  }

  private denial(
    tool: string,
    settings: TaskSettings,
    configured?: ToolPolicy,
    ruled?: RuleVerdict | null,
  ): Verdict {
    if (ruled?.policy === "deny") {
      const where = ruled.rule.scope === "task"
        ? "this task's"
        : ruled.rule.scope === "project"
        ? "the project's"
        : "the global";
      return refuse(
        "rule_deny",
        `This call is denied by ${where} rule \`${ruled.rule.rule}\` (a deny rule always wins). ` +
          "Do not try to get around it; do the task another way or ask the user.",
        { params: { rule: ruled.rule.rule, scope: ruled.rule.scope } },
      );
    }
    if ((settings.toolPolicies?.[tool] ?? configured) === "deny") {
      const where = settings.toolPolicies?.[tool] ? "in this task" : "in its MCP server's settings";
      return refuse("policy_deny", `The user has denied the ${tool} tool ${where}.`, {
        params: { tool },
      });
    }
    return refuse(
      "plan_mode",
      `Plan mode is read-only: ${tool} is not allowed. Research with read-only tools, then call ` +
        "exit_plan_mode with your plan for the user to approve.",
      { params: { tool } },
    );
  }

  private hasLive(taskId: string): boolean {
    return this.list().some((p) => p.taskId === taskId && p.live);
  }

  /** Answers a live approval. */
  /** Answers a live item (for a question: `answers`; reject = skip). */
  decide(
    id: string,
    decision: Decision,
    feedback?: string,
    answers?: QuestionAnswer[],
    refusal?: Refusal,
    rule?: string,
  ): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    // "Always allow" with a rule: only a rule about the waiting call's own tool.
    if (rule !== undefined) {
      const call = this.repos.pending.get(id)?.call;
      if (decision !== "always" || !call || parseRule(rule)?.tool !== call.name) return false;
    }
    w.resolve({ decision, feedback, answers, refusal, rule });
    return true;
  }

  /** Removes a rule of the task (its removal in the approval menu). */
  removeTaskRule(taskId: string, rule: string): void {
    const task = this.repos.tasks.get(taskId);
    if (!task?.settings.rules?.some((r) => r.rule === rule)) return;
    const rules = task.settings.rules.filter((r) => r.rule !== rule);
    this.repos.tasks.setSettings(taskId, { ...task.settings, rules });
    this.settingsChanged(taskId);
  }

  /** Replaces the task's rules (Settings → Rules), already checked. */
  setTaskRules(taskId: string, rules: NonNullable<TaskSettings["rules"]>): void {
    const task = this.repos.tasks.get(taskId);
    if (!task) return;
    this.repos.tasks.setSettings(taskId, { ...task.settings, rules });
    this.settingsChanged(taskId);
  }

  /** Adds an allow rule to the task (Always allow `npm test *`). */
  addTaskRule(taskId: string, rule: string): void {
    const task = this.repos.tasks.get(taskId);
    if (!task || !parseRule(rule)) return;
    const rules = (task.settings.rules ?? []).filter((r) => r.rule !== rule);
    rules.push({ rule, policy: "allow" });
    this.repos.tasks.setSettings(taskId, { ...task.settings, rules });
    this.settingsChanged(taskId);
  }

  /** Allow all / Reject all: tool approvals only (plans and questions need their own answer). */
  decideAll(decision: "allow" | "reject"): number {
    const tools = new Set(
      this.list().filter((p) => p.live && TOOL_KINDS.has(p.kind)).map((p) => p.id),
    );
    const ids = [...this.waiting.keys()].filter((id) => tools.has(id));
    for (const id of ids) this.decide(id, decision);
    return ids.length;
  }

  /** After a mode or policy change, settle what the task waits on when the answer is now clear. */
  reevaluate(taskId: string): void {
    const task = this.repos.tasks.get(taskId);
    if (!task) return;
    for (const p of this.list()) {
      if (p.taskId !== taskId || !p.live || !TOOL_KINDS.has(p.kind)) continue;
      const ruled = this.ruled(task, p.call);
      const v = judge(
        task.settings,
        this.modeOf(task.settings),
        p.call.name,
        p.kind,
        undefined,
        ruled?.policy,
      );
      if (v === "allow") this.decide(p.id, "allow");
      else if (v === "deny" && ruled?.policy === "deny") {
        // A deny rule added while the call waited: the refusal names it, as the gate does.
        const { rule, scope } = ruled.rule;
        this.decide(p.id, "reject", `denied by the ${scope} rule ${rule}`, undefined, {
          code: "rule_deny",
          params: { rule, scope },
        });
      } else if (v === "deny") {
        const mode = this.modeOf(task.settings);
        const policy = task.settings.toolPolicies?.[p.call.name] === "deny";
        const feedback = policy
          ? `the ${p.call.name} tool was denied for this task`
          : `the approval mode changed to ${mode}`;
        this.decide(
          p.id,
          "reject",
          feedback,
          undefined,
          policy
            ? { code: "policy_deny", params: { tool: p.call.name } }
            : { code: "mode_changed", params: { mode } },
        );
      }
    }
  }

  setPolicy(taskId: string, tool: string, policy: ToolPolicy | null): void {
    const task = this.repos.tasks.get(taskId);
    if (!task) return;
    const policies = { ...(task.settings.toolPolicies ?? {}) };
    if (policy) policies[tool] = policy;
    else delete policies[tool];
    this.repos.tasks.setSettings(taskId, { ...task.settings, toolPolicies: policies });
    this.settingsChanged(taskId); // every client's list of the task's policies follows
  }

  /** Removes a recovered (not live) approval. */
  dismiss(id: string): PendingApproval | null {
    const p = this.repos.pending.get(id);
    if (!p || p.live) return null;
    this.repos.pending.delete(id);
    this.publish();
    return p;
  }

  private publish(): void {
    this.hub.publish(APPROVALS_TOPIC, { kind: "list", approvals: this.list() }, "approvals");
  }
}
