/**
 * What MCP clients are told about a task: its state in the words every surface uses
 * (`taskState`), the approvals it waits for, its queue, the latest answer and a short
 * tail of the conversation. Compact and bounded: another agent reads it as text.
 */
import {
  type Entry,
  type PendingApproval,
  type QueuedMessage,
  TASK_STATE_WORDS,
  taskState,
  type TaskSummary,
} from "../../../protocol/index.ts";
import type { OpPort } from "./op_port.ts";

const clip = (s: string, max: number) => s.length > max ? `${s.slice(0, max)}… (clipped)` : s;

export function taskBrief(t: TaskSummary, hasApproval = false) {
  const state = taskState(t, hasApproval);
  return {
    id: t.id,
    title: t.title,
    projectPath: t.projectPath,
    state,
    stateWord: TASK_STATE_WORDS[state],
    unread: t.unread,
    queued: t.queued,
    pinned: t.pinned,
    updatedAt: new Date(t.updatedAt).toISOString(),
  };
}

export function approvalBrief(a: PendingApproval) {
  return {
    approvalId: a.id,
    taskId: a.taskId,
    kind: a.kind,
    tool: a.call.name,
    summary: a.summary,
    args: clip(JSON.stringify(a.call.args), 2000),
    live: a.live,
    ...(a.unsandboxed ? { unsandboxed: a.unsandboxed } : {}),
  };
}

const queueBrief = (q: QueuedMessage) => ({ itemId: q.id, text: clip(q.text, 500) });

/** One entry as a line or two: who, what was said, which tools ran with what outcome. */
export function entryBrief(e: Entry) {
  const text = e.parts.filter((p) => p.type === "text").map((p) => p.text ?? "").join("");
  const tools = e.parts.filter((p) => p.type === "tool_call").map((p) =>
    `${p.data?.name}(${clip(JSON.stringify(p.data?.args ?? {}), 300)})`
  );
  const results = e.parts.filter((p) => p.type === "tool_result").map((p) => ({
    tool: String(p.data?.name ?? ""),
    isError: p.data?.isError === true,
    text: clip(p.text ?? "", 500),
  }));
  return {
    role: e.role,
    status: e.status,
    ...(text ? { text: clip(text, 4000) } : {}),
    ...(tools.length ? { toolCalls: tools } : {}),
    ...(results.length ? { toolResults: results } : {}),
  };
}

/** The text of the last assistant message after the last user message (the answer so far). */
export function lastAnswer(entries: Entry[]): string | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.role === "user") return null;
    if (e.role !== "assistant") continue;
    const text = e.parts.filter((p) => p.type === "text").map((p) => p.text ?? "").join("");
    if (text.trim()) return clip(text, 20_000);
  }
  return null;
}

/** The full status of one task (`not_found` for an unknown id). */
export async function taskStatus(ops: OpPort, id: string, recent = 10) {
  const snap = await ops.call("task.subscribe", { id });
  const { approvals } = await ops.call("approvals.list");
  const mine = approvals.filter((a) => a.taskId === id);
  const errors = snap.entries.filter((e) => e.role === "error").slice(-1);
  return {
    task: { ...taskBrief(snap.task, mine.length > 0), settings: snap.task.settings },
    run: snap.run ? { step: snap.run.step, phase: snap.run.phase, retry: snap.run.retry } : null,
    approvals: mine.map(approvalBrief),
    queue: snap.queue.map(queueBrief),
    lastAnswer: lastAnswer(snap.entries),
    ...(errors.length ? { lastError: entryBrief(errors[0]).text ?? null } : {}),
    entryCount: snap.total,
    recent: recent > 0 ? snap.entries.slice(-recent).map(entryBrief) : [],
  };
}
