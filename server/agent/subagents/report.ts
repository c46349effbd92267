/**
 * What the parent reads about a sub-agent: a facts header (type, tool calls, duration,
 * tokens, ⚠ max steps / stopped / failed, notes) and the final report; and the system
 * prompt a sub-agent runs with.
 */
import type { SubagentRun } from "../../../protocol/subagents.ts";
import type { PromptEnv } from "../prompt.ts";
import type { SubagentDef } from "./definitions.ts";

const num = (n: number) => n.toLocaleString("en-US");

/** The facts header: one line of numbers, then a ⚠ line per thing to be careful about. */
export function factsHeader(run: SubagentRun, now: number): string {
  const ms = (run.endedAt ?? now) - run.startedAt;
  const tokens = run.tokens.input + run.tokens.output;
  const calls = `${run.toolCalls} tool call${run.toolCalls === 1 ? "" : "s"}`;
  const lines = [
    `[sub-agent ${run.id} · type ${run.type} · ${calls} · ${(ms / 1000).toFixed(1)} s · ` +
    `${num(tokens)} tokens (in ${num(run.tokens.input)}, out ${num(run.tokens.output)}) · ` +
    `${run.steps} step${run.steps === 1 ? "" : "s"} · ${run.model}]`,
  ];
  if (run.status === "maxSteps") {
    lines.push(
      `⚠ max steps (${run.maxSteps}) reached: the text below may be intermediate narration, ` +
        "not a finished report. Verify what matters yourself.",
    );
  }
  if (run.status === "stopped") lines.push("⚠ stopped before it finished.");
  if (run.status === "interrupted") lines.push("⚠ interrupted: ReinAgent restarted while it ran.");
  if (run.status === "failed") lines.push(`⚠ failed: ${run.error ?? "unknown error"}`);
  for (const n of run.notes) lines.push(`⚠ ${n}`);
  return lines.join("\n");
}

/** Header and report: the `agent` tool's result for the parent model. */
export function resultText(run: SubagentRun, now: number): string {
  const report = run.report?.trim() || "(the sub-agent wrote no report)";
  return `${factsHeader(run, now)}\n\n${report}`;
}

/** A sub-agent's system prompt: its role, the type's instructions, the environment. */
export function subagentSystem(def: SubagentDef, env: PromptEnv, planMode: boolean): string {
  const parts = [
    `You are a sub-agent of ReinAgent (type: ${def.name}), started by the main agent to do one ` +
    "task on your own. You cannot talk to the user or see the main conversation: work with " +
    "your tools until the task is done, then answer with your final report — it is the only " +
    "thing the main agent receives, so make it complete and self-contained. Be honest about " +
    "what you did not do or could not verify.",
    def.prompt.trim(),
    `# Environment\n- OS: ${env.os} (${env.arch})\n- Shell: ${env.shell}\n- Workspace root: ${env.workspace}\n- Paths without a leading / are relative to the workspace root.`,
  ];
  if (planMode) {
    parts.push(
      "# Plan mode\nThe task is in plan mode: only read-only tools are allowed; calls that " +
        "write files or run commands are refused.",
    );
  }
  return parts.join("\n\n");
}
