/**
 * Runs one command hook the way `exec_command` runs a command — the user's shell in the
 * workspace, under bubblewrap at the sandbox level of the settings, with the scrubbed
 * environment and ReinAgent's data folder hidden — with the event's JSON on stdin, and
 * reads its answer as Claude Code does: exit 2 blocks with stderr as the reason; exit 0
 * with JSON on stdout decides (`decision`, `reason`, `hookSpecificOutput` …); any other
 * exit, a timeout or a crash is a failure that is reported, never a decision.
 */
import { runCommand } from "../../../tools/exec/exec_command.ts";
import type { SandboxLevel } from "../../../tools/exec/bwrap.ts";
import type { EnvPolicy } from "../../../tools/exec/env_policy.ts";
import { HOOK_LIMITS, type HookEvent, type HookView } from "../../../protocol/hooks.ts";

/** What commands may see, as for `exec_command` (read at each hook). */
export interface HookSandbox {
  sandbox: SandboxLevel;
  network: boolean;
  envPolicy: EnvPolicy;
  hidden: string[];
}

/** A hook that decided nothing: English text, and a code + params the UI translates. */
export interface HookFailure {
  code: "start" | "timeout" | "stopped" | "signal" | "exit" | "json";
  params: Record<string, string | number>;
  text: string;
}

const failed = (
  code: HookFailure["code"],
  text: string,
  params: HookFailure["params"] = {},
): HookFailure => ({ code, params, text });

export interface HookOutcome {
  hook: HookView;
  source: "user" | "workspace";
  decision: "block" | "approve" | null;
  /** Why it blocked/approved (shown to the model when it blocks). */
  reason: string;
  /** Text the hook adds to the model's context. */
  context: string;
  /** A message for the user (Claude Code's `systemMessage`). */
  message: string;
  /** Why the hook failed (timeout, exit code, crash, bad output), or null. */
  failure: HookFailure | null;
  durationMs: number;
}

const clip = (s: string) =>
  s.length > HOOK_LIMITS.textChars ? s.slice(0, HOOK_LIMITS.textChars) + " …(cut)" : s;

/** Longest string of the payload (a written file's content, a long tool result): the rest is cut. */
const PAYLOAD_STRING_CHARS = 256 * 1024;
const clipLong = (_key: string, v: unknown) =>
  typeof v === "string" && v.length > PAYLOAD_STRING_CHARS
    ? v.slice(0, PAYLOAD_STRING_CHARS) + " …(cut)"
    : v;

/** Keeps the first bytes of a stream. */
class Capped {
  private parts: Uint8Array[] = [];
  private size = 0;
  push(b: Uint8Array) {
    if (this.size >= HOOK_LIMITS.outputBytes) return;
    const piece = b.slice(0, HOOK_LIMITS.outputBytes - this.size);
    this.parts.push(piece);
    this.size += piece.length;
  }
  text(): string {
    const all = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      all.set(p, at);
      at += p.length;
    }
    return new TextDecoder().decode(all);
  }
}

export async function runHook(
  hook: HookView,
  source: "user" | "workspace",
  payload: Record<string, unknown>,
  o: {
    workspace: string;
    signal: AbortSignal;
    sandbox: HookSandbox;
    /** A plugin's folder: its hooks find their scripts there (readable in the sandbox). */
    pluginRoot?: string;
  },
): Promise<HookOutcome> {
  const base = {
    hook,
    source,
    decision: null,
    reason: "",
    context: "",
    message: "",
    failure: null,
    durationMs: 0,
  } satisfies HookOutcome;
  const out = new Capped(), err = new Capped();
  let r;
  try {
    r = await runCommand({
      command: hook.command,
      cwd: o.workspace,
      workspace: o.workspace,
      timeoutMs: hook.timeoutMs,
      signal: o.signal,
      onBytes: (b, stream) => (stream === "out" ? out : err).push(b),
      sandbox: o.sandbox.sandbox,
      network: o.sandbox.network,
      envPolicy: o.sandbox.envPolicy,
      hidden: o.sandbox.hidden,
      stdin: new TextEncoder().encode(JSON.stringify(payload, clipLong)),
      // What Claude Code's hook commands use to find their scripts.
      extraEnv: {
        CLAUDE_PROJECT_DIR: o.workspace,
        REINAGENT_PROJECT_DIR: o.workspace,
        ...(o.pluginRoot
          ? { CLAUDE_PLUGIN_ROOT: o.pluginRoot, REINAGENT_PLUGIN_ROOT: o.pluginRoot }
          : {}),
      },
      ...(o.pluginRoot ? { visible: [o.pluginRoot] } : {}),
    });
  } catch (e) {
    const message = (e as Error).message;
    return { ...base, failure: failed("start", `could not start: ${message}`, { message }) };
  }
  const durationMs = r.durationMs;
  const stderr = err.text().trim();
  if (r.timedOut) {
    const s = hook.timeoutMs / 1000;
    return { ...base, durationMs, failure: failed("timeout", `timed out after ${s} s`, { s }) };
  }
  if (r.stopped) return { ...base, durationMs, failure: failed("stopped", "stopped with the run") };
  if (r.signal) {
    const signal = r.signal;
    return { ...base, durationMs, failure: failed("signal", `killed by ${signal}`, { signal }) };
  }
  if (r.exitCode === 2) {
    return { ...base, durationMs, decision: "block", reason: clip(stderr || "blocked by a hook") };
  }
  if (r.exitCode !== 0) {
    const said = clip(stderr);
    const tail = said ? `: ${said}` : "";
    const text = `exited with code ${r.exitCode}${tail}`;
    return {
      ...base,
      durationMs,
      failure: failed("exit", text, { code: r.exitCode ?? "?", stderr: said }),
    };
  }
  return { ...base, durationMs, ...readAnswer(hook.event, out.text()) };
}

type Answer = Pick<HookOutcome, "decision" | "reason" | "context" | "message" | "failure">;

const str = (v: unknown) => typeof v === "string" ? v : "";

/** A successful hook's stdout: JSON decides; plain text is context where Claude Code adds it. */
export function readAnswer(event: HookEvent, stdout: string): Answer {
  const text = stdout.trim();
  const none: Answer = { decision: null, reason: "", context: "", message: "", failure: null };
  if (!text.startsWith("{")) {
    const plainIsContext = event === "UserPromptSubmit" || event === "SessionStart";
    return plainIsContext && text ? { ...none, context: clip(text) } : none;
  }
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    return {
      ...none,
      failure: failed("json", `printed JSON that does not parse: ${message}`, { message }),
    };
  }
  const specific = (j.hookSpecificOutput ?? {}) as Record<string, unknown>;
  let decision: Answer["decision"] = null;
  let reason = str(j.reason);
  if (j.decision === "block" || j.decision === "deny") decision = "block";
  else if (j.decision === "approve" || j.decision === "allow") decision = "approve";
  // PreToolUse (Claude Code): permissionDecision allow | deny | ask.
  const pd = specific.permissionDecision;
  if (pd === "deny") decision = "block";
  else if (pd === "allow") decision = "approve";
  else if (pd === "ask") decision = null;
  if (pd) reason = str(specific.permissionDecisionReason) || reason;
  // PermissionRequest (Claude Code): decision: {behavior: allow | deny, message}.
  const behaviour = (specific.decision as Record<string, unknown> | undefined)?.behavior;
  if (behaviour === "deny") decision = "block";
  else if (behaviour === "allow") decision = "approve";
  if (behaviour) {
    reason = str((specific.decision as Record<string, unknown>).message) || reason;
  }
  // `continue: false` stops the work: here, the action the hook ran for is refused.
  if (j.continue === false) {
    decision = "block";
    reason = str(j.stopReason) || reason;
  }
  return {
    decision,
    reason: clip(reason),
    context: clip(str(specific.additionalContext) || str(j.additionalContext)),
    message: clip(str(j.systemMessage)),
    failure: null,
  };
}
