/** Automations and their run history (`automation`, `automation_run`; migration 11). */
import type { DatabaseSync } from "node:sqlite";
import {
  type Automation,
  AUTOMATION_LIMITS,
  type AutomationRun,
  type AutomationRunStatus,
} from "../protocol/automations.ts";
import type { ApprovalMode } from "../protocol/constants.ts";

interface AutomationRow {
  id: string;
  name: string;
  prompt: string;
  rule: string;
  model: string | null;
  project_path: string | null;
  approval: string;
  worktree: number;
  enabled: number;
  next_run_at: number | null;
  last_run_at: number | null;
  run_count: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

interface RunRow {
  id: string;
  automation_id: string;
  task_id: string | null;
  trigger: string;
  status: string;
  error: string | null;
  due_at: number;
  started_at: number;
  ended_at: number | null;
}

const toAutomation = (r: AutomationRow): Automation => ({
  id: r.id,
  name: r.name,
  prompt: r.prompt,
  rule: JSON.parse(r.rule),
  model: r.model ? JSON.parse(r.model) : null,
  projectPath: r.project_path,
  approval: r.approval as ApprovalMode,
  worktree: r.worktree === 1,
  enabled: r.enabled === 1,
  nextRunAt: r.next_run_at,
  lastRunAt: r.last_run_at,
  runCount: r.run_count,
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toRun = (r: RunRow): AutomationRun => ({
  id: r.id,
  automationId: r.automation_id,
  taskId: r.task_id,
  trigger: r.trigger as AutomationRun["trigger"],
  status: r.status as AutomationRunStatus,
  error: r.error,
  dueAt: r.due_at,
  startedAt: r.started_at,
  endedAt: r.ended_at,
});

/** What a new row needs: the automation as the user defined it, and its first due time. */
export type NewAutomation =
  & Pick<
    Automation,
    | "id"
    | "name"
    | "prompt"
    | "rule"
    | "model"
    | "projectPath"
    | "approval"
    | "enabled"
    | "nextRunAt"
  >
  & { worktree?: boolean };

export type AutomationPatch = Partial<
  Omit<NewAutomation, "id"> & { lastError: string | null; lastRunAt: number; runCount: number }
>;

const COLUMNS: Record<keyof AutomationPatch, string> = {
  name: "name",
  prompt: "prompt",
  rule: "rule",
  model: "model",
  projectPath: "project_path",
  approval: "approval",
  worktree: "worktree",
  enabled: "enabled",
  nextRunAt: "next_run_at",
  lastError: "last_error",
  lastRunAt: "last_run_at",
  runCount: "run_count",
};

/** A patch value as its column stores it. */
function columnValue(key: keyof AutomationPatch, v: unknown): string | number | null {
  if (key === "rule") return JSON.stringify(v);
  if (key === "model") return v ? JSON.stringify(v) : null;
  if (key === "enabled" || key === "worktree") return v ? 1 : 0;
  return v as string | number | null;
}

export class AutomationRepo {
  constructor(private db: DatabaseSync, private now: () => number = Date.now) {}

  list(): Automation[] {
    return (this.db.prepare("SELECT * FROM automation ORDER BY created_at, id")
      .all() as unknown as AutomationRow[]).map(toAutomation);
  }

  count(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM automation").get() as { n: number }).n;
  }

  get(id: string): Automation | null {
    const r = this.db.prepare("SELECT * FROM automation WHERE id = ?").get(id) as
      | AutomationRow
      | undefined;
    return r ? toAutomation(r) : null;
  }

  create(a: NewAutomation): Automation {
    const at = this.now();
    this.db.prepare(
      `INSERT INTO automation (id, name, prompt, rule, model, project_path, approval, worktree,
         enabled, next_run_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      a.id,
      a.name,
      a.prompt,
      JSON.stringify(a.rule),
      a.model ? JSON.stringify(a.model) : null,
      a.projectPath,
      a.approval,
      a.worktree ? 1 : 0,
      a.enabled ? 1 : 0,
      a.nextRunAt,
      at,
      at,
    );
    return this.get(a.id)!;
  }

  update(id: string, patch: AutomationPatch): Automation | null {
    const keys = (Object.keys(patch) as (keyof AutomationPatch)[]).filter((k) =>
      patch[k] !== undefined
    );
    if (keys.length) {
      const sets = keys.map((k) => `${COLUMNS[k]} = ?`).join(", ");
      this.db.prepare(`UPDATE automation SET ${sets}, updated_at = ? WHERE id = ?`).run(
        ...keys.map((k) => columnValue(k, patch[k])),
        this.now(),
        id,
      );
    }
    return this.get(id);
  }

  delete(id: string): boolean {
    return this.db.prepare("DELETE FROM automation WHERE id = ?").run(id).changes > 0;
  }

  /** The earliest next run of an enabled automation, or null. */
  nextDue(): number | null {
    const r = this.db.prepare(
      "SELECT MIN(next_run_at) AS t FROM automation WHERE enabled = 1 AND next_run_at IS NOT NULL",
    ).get() as { t: number | null };
    return r.t;
  }

  /** Enabled automations due at `at` or before. */
  due(at: number): Automation[] {
    return (this.db.prepare(
      "SELECT * FROM automation WHERE enabled = 1 AND next_run_at <= ? ORDER BY next_run_at, id",
    ).all(at) as unknown as AutomationRow[]).map(toAutomation);
  }

  // ---------- runs ----------

  addRun(r: AutomationRun): AutomationRun {
    this.db.prepare(
      `INSERT INTO automation_run (id, automation_id, task_id, trigger, status, error, due_at,
         started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      r.id,
      r.automationId,
      r.taskId,
      r.trigger,
      r.status,
      r.error,
      r.dueAt,
      r.startedAt,
      r.endedAt,
    );
    // Bounded history: the oldest rows of this automation beyond the limit go.
    this.db.prepare(
      `DELETE FROM automation_run WHERE automation_id = ? AND id NOT IN (
         SELECT id FROM automation_run WHERE automation_id = ?
         ORDER BY started_at DESC, id DESC LIMIT ?)`,
    ).run(r.automationId, r.automationId, AUTOMATION_LIMITS.runsKept);
    return r;
  }

  getRun(id: string): AutomationRun | null {
    const r = this.db.prepare("SELECT * FROM automation_run WHERE id = ?").get(id) as
      | RunRow
      | undefined;
    return r ? toRun(r) : null;
  }

  updateRun(
    id: string,
    patch: { taskId?: string | null; status?: AutomationRunStatus; error?: string | null },
  ): AutomationRun | null {
    const cur = this.getRun(id);
    if (!cur) return null;
    const next = { ...cur, ...patch };
    const ended = next.status === "running" ? null : (cur.endedAt ?? this.now());
    this.db.prepare(
      "UPDATE automation_run SET task_id = ?, status = ?, error = ?, ended_at = ? WHERE id = ?",
    ).run(next.taskId, next.status, next.error, ended, id);
    return this.getRun(id);
  }

  /** The run still `running` for a task (the one its run end settles), or null. */
  runningFor(taskId: string): AutomationRun | null {
    const r = this.db.prepare(
      "SELECT * FROM automation_run WHERE task_id = ? AND status = 'running' ORDER BY started_at DESC LIMIT 1",
    ).get(taskId) as RunRow | undefined;
    return r ? toRun(r) : null;
  }

  runs(automationId: string | null, limit: number): AutomationRun[] {
    const rows = automationId
      ? this.db.prepare(
        "SELECT * FROM automation_run WHERE automation_id = ? ORDER BY started_at DESC, id DESC LIMIT ?",
      ).all(automationId, limit)
      : this.db.prepare(
        "SELECT * FROM automation_run ORDER BY started_at DESC, id DESC LIMIT ?",
      ).all(limit);
    return (rows as unknown as RunRow[]).map(toRun);
  }

  /** Runs a process that died left `running` become `interrupted`; returns how many. */
  interruptLeftovers(): number {
    return this.db.prepare(
      "UPDATE automation_run SET status = 'interrupted', ended_at = ? WHERE status = 'running'",
    ).run(this.now()).changes as number;
  }
}
