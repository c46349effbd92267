/**
 * `reinagent tasks [--json] [--home DIR]`: every task with its state, in the same words
 * as the desktop sidebar and the phone home (`taskState` / `TASK_STATE_WORDS` in
 * protocol/task_state.ts). Asks the running instance for this home when there
 * is one, otherwise reads the data dir in this process (nothing runs then).
 */
import { openHomeClient } from "./home_client.ts";
import {
  type PendingApproval,
  TASK_STATE_WORDS,
  type TaskState,
  taskState,
  type TaskSummary,
} from "../../protocol/index.ts";
import type { TasksArgs } from "./tasks_args.ts";

/** One task as `--json` prints it. */
export interface TaskLine {
  id: string;
  title: string;
  projectPath: string | null;
  state: TaskState;
  /** The state's English word ("" for a task that never ran). */
  word: string;
  queued: number;
  unread: boolean;
  updatedAt: number;
}

/** Tasks (in the server's order) with their state; `withApproval` = tasks holding an approval. */
export function taskLines(tasks: TaskSummary[], withApproval: Set<string>): TaskLine[] {
  return tasks.map((t) => {
    const state = taskState(t, withApproval.has(t.id));
    return {
      id: t.id,
      title: t.title,
      projectPath: t.projectPath,
      state,
      word: TASK_STATE_WORDS[state],
      queued: t.queued,
      unread: t.unread,
      updatedAt: t.updatedAt,
    };
  });
}

const pad2 = (n: number) => String(n).padStart(2, "0");
/** Local `YYYY-MM-DD HH:MM`. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${
    pad2(d.getMinutes())
  }`;
}

/** Terminal columns of a string: East Asian wide characters take two. */
export function columns(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const wide = (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) ||
      (c >= 0x20000 && c <= 0x3fffd);
    n += wide ? 2 : 1;
  }
  return n;
}

/** The lines of the plain table: state, title, workspace, last activity, id. */
export function taskTable(lines: TaskLine[]): string[] {
  if (!lines.length) return ["No tasks yet."];
  const rows = [
    ["STATE", "TITLE", "WORKSPACE", "UPDATED", "ID"],
    ...lines.map((l) => [
      (l.word || "—") + (l.unread ? " •" : ""),
      [...l.title].length > 40 ? [...l.title].slice(0, 39).join("") + "…" : l.title,
      l.projectPath ?? "(Tasks)",
      localTime(l.updatedAt),
      l.id,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => columns(r[i]))));
  return rows.map((r) =>
    r.map((c, i) => c + " ".repeat(widths[i] - columns(c))).join("  ").trimEnd()
  );
}

export async function tasksCommand(
  args: TasksArgs,
  home: string,
  out: { line(s: string): void; err(s: string): void },
): Promise<number> {
  const opened = await openHomeClient(home, "tasks");
  if ("error" in opened) {
    out.err(`reinagent: ${opened.error}`);
    return 1;
  }
  const { client } = opened;
  try {
    const { tasks } = await client.request<{ tasks: TaskSummary[] }>("tasks.list");
    const { approvals } = await client.request<{ approvals: PendingApproval[] }>(
      "approvals.list",
    );
    const lines = taskLines(tasks, new Set(approvals.map((a) => a.taskId)));
    if (args.json) out.line(JSON.stringify(lines));
    else taskTable(lines).forEach(out.line);
    return 0;
  } catch (e) {
    out.err(`reinagent: ${(e as Error).message}`);
    return 1;
  } finally {
    await client.close();
  }
}
