/**
 * Runs the configured hooks of an event for a task's turn. A run opens a
 * {@link HookSession} for its task; each event re-reads the config files (small; an
 * edit applies at the next event), keeps the workspace's hooks out unless they are trusted
 * for exactly what they are now, runs the matching hooks side by side and folds their
 * answers into one verdict. Everything that goes wrong — an untrusted or broken config, a
 * hook that timed out, crashed or answered nonsense — is reported to the turn, never
 * dropped.
 */
import { patchPaths } from "../../../tools/patch/parse.ts";
import { resolve } from "../../../lib/path.ts";
import type { ApprovalMode } from "../../../protocol/constants.ts";
import type { HookEvent, HooksEvent, HookSource, HookView } from "../../../protocol/hooks.ts";
import { matcherRegExp } from "./config.ts";
import { type HookOutcome, type HookSandbox, runHook } from "./run_hook.ts";
import { hooksToRun, userSource, workspaceSource } from "./sources.ts";
import { pluginHooks } from "../../plugins/contributions.ts";
import type { ToolCall } from "../../../agent/index.ts";
import type { Refusal } from "../../../protocol/index.ts";

/** What the approval gate answers for a call (the shape of sessions/approvals.ts's Verdict). */
export type GateVerdict = { allow: true } | { allow: false; reason: string; refusal: Refusal };
type Verdict = GateVerdict;

/** A notice for the turn's timeline. */
export interface HookNotice {
  event: HookEvent | null;
  level: "failure" | "untrusted" | "invalid" | "blocked" | "message" | "continue";
  /** English (the CLI, the API); the UI says it from `code` and `params`. */
  text: string;
  /** `failure.<why>`, `untrusted`, `changed`, `invalid`, `blocked`, `continue`, `message`. */
  code: string;
  params: Record<string, string | number>;
  command?: string;
  source?: "user" | "workspace";
}

/** What the hooks of one event decided together. */
export interface HookVerdict {
  decision: "block" | "approve" | null;
  reason: string;
  /** Additional context for the model (joined). */
  context: string;
  /** How many hooks ran. */
  ran: number;
}

export interface HookEngineDeps {
  home: string;
  /** The command sandbox as the settings say now. */
  sandbox(): HookSandbox;
  /** Tells clients that a workspace's hooks need the user (the trust banner). */
  publish(e: HooksEvent): void;
}

/**
 * Claude Code's names for our tools, so its matchers (`Bash`, `Edit|Write`) work here. A
 * patch adds, edits and deletes files: every file-change matcher sees it, so a hook that
 * guards edits is not stepped around with apply_patch.
 */
const CLAUDE_TOOL_NAMES: Record<string, string | string[]> = {
  apply_patch: ["Edit", "Write", "MultiEdit"],
  exec_command: "Bash",
  background_bash: "Bash",
  read_file: "Read",
  write_file: "Write",
  edit_file: "Edit",
  list_dir: "LS",
  glob: "Glob",
  grep: "Grep",
  webfetch: "WebFetch",
  websearch: "WebSearch",
  agent: "Task",
  todo_write: "TodoWrite",
};

/** Our approval modes as Claude Code's `permission_mode`. */
const PERMISSION_MODES: Record<ApprovalMode, string> = {
  ask: "default",
  edit: "acceptEdits",
  full: "bypassPermissions",
  plan: "plan",
};

const NONE: HookVerdict = { decision: null, reason: "", context: "", ran: 0 };

/** Whether `hook` runs for a call of `names` (empty `names`: an event without a matcher). */
function matches(hook: HookView, names: string[]): boolean {
  const re = matcherRegExp(hook.matcher);
  if (!re || names.length === 0) return true;
  return names.some((n) => re.test(n));
}

export interface SessionOptions {
  taskId: string;
  workspace: string;
  mode: () => ApprovalMode;
  signal: AbortSignal;
  report(n: HookNotice): void;
}

/** Sessions kept at most (a bound; a session goes when its turn is done with). */
const MAX_SESSIONS = 200;

export class HookEngine {
  /**
   * The session of each task's running turn, kept after the turn while its background
   * sub-agents may still call tools (their PreToolUse hooks run and report there).
   */
  private sessions = new Map<string, HookSession>();
  /** Calls a PreToolUse hook approved (their approval is not asked). */
  private approvedCalls = new WeakSet<object>();

  constructor(readonly d: HookEngineDeps) {}

  /** Opens the hooks of a task's turn. */
  open(o: SessionOptions): HookSession {
    const s = new HookSession(this, o);
    this.sessions.delete(o.taskId);
    this.sessions.set(o.taskId, s);
    if (this.sessions.size > MAX_SESSIONS) {
      this.sessions.delete(this.sessions.keys().next().value!);
    }
    return s;
  }

  /**
   * Forgets a turn's session once nothing can use it: now, or once `until` settles (the
   * turn's background sub-agents still call tools through it). A session holds its whole
   * turn (writer, the turn's closures: ~70 KB); kept until pushed out by 200 others, they
   * were most of a long-running server's heap growth (the soak: +13 MB over 200 tasks).
   */
  release(s: HookSession, until?: Promise<unknown>): void {
    const drop = () => {
      if (this.sessions.get(s.o.taskId) === s) this.sessions.delete(s.o.taskId);
    };
    if (until) until.then(drop, drop);
    else drop();
  }

  /** The latest session of a task's turns, if any. */
  of(taskId: string): HookSession | undefined {
    return this.sessions.get(taskId);
  }

  /**
   * In front of the approval gate, for every call of a task (its sub-agents' too): the
   * PreToolUse hooks' refusal, or null to go on to the gate.
   */
  async beforeGate(taskId: string, call: ToolCall): Promise<Verdict | null> {
    return await this.sessions.get(taskId)?.preToolUse(call) ?? null;
  }

  /**
   * Runs an observational event's hooks in the task's latest session without waiting
   * (PreCompact, SubagentStop); their failures are noted there like any other.
   */
  observe(taskId: string, event: HookEvent, fields: Record<string, unknown>, names?: string[]) {
    this.sessions.get(taskId)?.fire(event, fields, names)
      .catch((e) => console.error(`${event} hooks failed:`, e));
  }

  markApproved(call: object): void {
    this.approvedCalls.add(call);
  }

  wasApproved(call: object): boolean {
    return this.approvedCalls.has(call);
  }
}

export class HookSession {
  /** The turn's hook sources (the user's, the workspace's, the plugins'), read at its first event. */
  private sources?: Promise<
    [
      Awaited<ReturnType<typeof userSource>>,
      Awaited<ReturnType<typeof workspaceSource>>,
      Awaited<ReturnType<typeof pluginHooks>>,
    ]
  >;
  /** Config problems already reported in this turn (once each). */
  private reported = new Set<string>();
  /** What the approval gate asks before the user (set by the turn: PermissionRequest). */
  permission?: (call: ToolCall) => Promise<Verdict | null>;

  /** PreToolUse context waiting for the call's result (PostToolUse adds it). */
  readonly pending = new WeakMap<ToolCall, string>();

  constructor(private engine: HookEngine, readonly o: SessionOptions) {}

  /** PreToolUse: block refuses the call, approve spares it the user's approval. */
  async preToolUse(call: ToolCall): Promise<Verdict | null> {
    const v = await this.fire(
      "PreToolUse",
      this.toolFields(call),
      HookSession.toolNames(call.name),
    );
    if (v.decision === "block") {
      const reason = v.reason || "no reason given";
      return {
        allow: false,
        reason: `A PreToolUse hook blocked this ${call.name} call: ${reason}`,
        refusal: { code: "hook_blocked", params: { event: "PreToolUse", reason } },
      };
    }
    if (v.decision === "approve") this.engine.markApproved(call);
    if (v.context) this.pending.set(call, v.context);
    return null;
  }

  /**
   * A call as Claude Code's hooks get it: `tool_input` with `file_path` (absolute) beside
   * our `path`, so scripts that read `.tool_input.file_path` work.
   */
  toolFields(call: ToolCall): Record<string, unknown> {
    const input = { ...call.args };
    if (typeof input.path === "string" && input.file_path === undefined) {
      input.file_path = resolve(this.o.workspace, input.path);
    }
    if (call.name === "apply_patch") {
      // Every file the patch names, absolute (the first also as `file_path`).
      const paths = patchPaths(input.input).map((p) => resolve(this.o.workspace, p));
      input.file_paths = paths;
      if (paths.length) input.file_path = paths[0];
    }
    return { tool_name: call.name, tool_input: input, tool_use_id: call.id };
  }

  /** Names a tool call matches: its own and Claude Code's. */
  static toolNames(name: string): string[] {
    const alias = CLAUDE_TOOL_NAMES[name];
    return alias ? [name, ...[alias].flat()] : [name];
  }

  /**
   * Runs the hooks of `event` that match `names` with `fields` added to the common
   * payload (Claude Code's field names), and folds their answers.
   */
  async fire(
    event: HookEvent,
    fields: Record<string, unknown>,
    names: string[] = [],
  ): Promise<HookVerdict> {
    const { home } = this.engine.d;
    // Read once per turn, as Claude Code snapshots its hooks: an edit or a trust applies
    // from the next turn, and a hook file the agent rewrites mid-turn runs nothing new.
    this.sources ??= Promise.all([
      userSource(home),
      workspaceSource(home, this.o.workspace),
      pluginHooks(home, this.o.workspace),
    ]);
    const [user, workspace, plugins] = await this.sources;
    const sources = [user, workspace];
    const todo: { hook: HookView; source: "user" | "workspace"; root?: string }[] = [];
    for (const s of sources) {
      if (!s) continue;
      this.tellWhyNot(s);
      for (const hook of hooksToRun(s)) {
        if (hook.event === event && matches(hook, names)) todo.push({ hook, source: s.kind });
      }
    }
    // Switched-on plugins' hooks, trusted for what they are (the others are said once).
    for (const w of plugins.waiting) this.tellPluginWaits(w);
    for (const p of plugins.run) {
      if (p.hook.event === event && matches(p.hook, names)) todo.push(p);
    }
    if (todo.length === 0) return NONE;
    const payload = {
      session_id: this.o.taskId,
      transcript_path: "",
      cwd: this.o.workspace,
      permission_mode: PERMISSION_MODES[this.o.mode()] ?? "default",
      hook_event_name: event,
      ...fields,
    };
    const sandbox = this.engine.d.sandbox();
    const outcomes = await Promise.all(
      todo.map((t) =>
        runHook(t.hook, t.source, payload, {
          workspace: this.o.workspace,
          signal: this.o.signal,
          sandbox,
          ...(t.root ? { pluginRoot: t.root } : {}),
        })
      ),
    );
    for (const r of outcomes) this.reportOutcome(event, r);
    return fold(outcomes);
  }

  private reportOutcome(event: HookEvent, r: HookOutcome): void {
    const who = { event, command: r.hook.command, source: r.source };
    if (r.failure) {
      this.o.report({
        ...who,
        level: "failure",
        text: `${event} hook failed: ${r.failure.text}`,
        code: `failure.${r.failure.code}`,
        params: { ...r.failure.params, event },
      });
    }
    if (r.message) {
      this.o.report({
        ...who,
        level: "message",
        text: r.message,
        code: "message",
        params: { text: r.message },
      });
    }
  }

  /** Says once per turn why a source's hooks (or some of them) do not run. */
  private tellPluginWaits(w: { name: string; state: string; n: number; key: string }): void {
    if (this.reported.has(w.key)) return;
    this.reported.add(w.key);
    const why = w.state === "changed"
      ? "they changed since you trusted them"
      : "they are not trusted yet";
    this.o.report({
      event: null,
      level: "untrusted",
      text: `The ${w.n} hook(s) of plugin ${w.name} did not run: ${why}. Review them in ` +
        `Settings → Plugins, or run \`reinagent plugins trust ${w.name}\`.`,
      code: `plugin.${w.state}`,
      params: { name: w.name, n: w.n },
    });
  }

  private tellWhyNot(s: HookSource): void {
    if (s.state === "user" || s.state === "trusted") return;
    const key = `${s.path}:${s.state}:${s.fingerprint}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const kept = s.trustedHooks?.length
      ? ` The ${s.trustedHooks.length} hook(s) you trusted before still run until you review it.`
      : "";
    const review = "Review them in the banner or Settings → Hooks, or run `reinagent hooks trust`.";
    let text: string;
    if (s.state === "invalid") text = `Hooks not run: ${s.error}.${kept}`;
    else if (s.state === "changed") {
      text = `The hooks in ${s.path} changed since you trusted them (${s.hooks.length} now); ` +
        `the new ones did not run.${kept} ${review}`;
    } else {
      text = `${s.hooks.length} workspace hook(s) in ${s.path} did not run: they are not ` +
        `trusted yet. ${review}`;
    }
    const level = s.state === "invalid" ? "invalid" : "untrusted";
    const code = s.state === "untrusted" ? "untrusted" : s.state;
    const params = {
      path: s.path,
      n: s.hooks.length,
      kept: s.trustedHooks?.length ?? 0,
      error: s.error ?? "",
    };
    this.o.report({ event: null, level, source: s.kind, text, code, params });
    if (s.kind === "workspace") this.engine.d.publish({ kind: "changed", project: s.project });
  }
}

/** Block wins over approve; reasons and contexts are joined in config order. */
function fold(outcomes: HookOutcome[]): HookVerdict {
  const blocks = outcomes.filter((r) => r.decision === "block");
  const approves = outcomes.filter((r) => r.decision === "approve");
  const decision = blocks.length ? "block" : approves.length ? "approve" : null;
  const reasons = (blocks.length ? blocks : approves).map((r) => r.reason).filter(Boolean);
  return {
    decision,
    reason: reasons.join("\n"),
    context: outcomes.map((r) => r.context).filter(Boolean).join("\n"),
    ran: outcomes.length,
  };
}
