/**
 * Automations: CRUD, the scheduler and run records.
 *
 * The scheduler is one timer set for the earliest next run (re-armed on every change,
 * and at most every 15 minutes so a changed wall clock is noticed); nothing polls.
 * A due automation creates a task with its model, project and approval mode and sends
 * its prompt through the ops (the same validation, slash commands and safety notices
 * as a client). Its run record follows the task: it ends when the task's run ends
 * (done, failed, stopped, maxSteps). A waiting approval notifies like any task.
 *
 * Missed runs are never replayed: what was due while the server was down (or while
 * this machine slept, beyond `LATE_MS`) is recorded once as `missed` and the next run
 * is computed from now.
 */
import {
  type Automation,
  AUTOMATION_LIMITS,
  type AutomationRun,
  type AutomationRunStatus,
  AUTOMATIONS_TOPIC,
  type ClientInfo,
  type EvtMsg,
  type OpName,
  type OpResults,
  type ProtocolError,
  ruleProblems,
  type ScheduleRule,
  TASKS_TOPIC,
} from "../../protocol/index.ts";
import type { ApprovalMode } from "../../protocol/constants.ts";
import type { ModelRef } from "../../protocol/domain.ts";
import type { Repos } from "../../store/store.ts";
import type { EventHub, HubClient } from "../sessions/hub.ts";
import { OpError } from "../errors.ts";
import { APPROVAL_RANK } from "../sessions/safety.ts";
import { getSettings, resolveModel } from "../providers/catalog.ts";
import { nextRunAt } from "./schedule.ts";

/** A run due longer ago than this (a sleeping machine) counts as missed. */
export const LATE_MS = 5 * 60_000;
/** The timer never sleeps longer (a changed clock is noticed within it). */
const MAX_SLEEP_MS = 15 * 60_000;

/** Runs an op as the automation client; the same dispatcher as every client. */
export type OpCaller = (
  op: OpName,
  args: unknown,
) => Promise<{ ok: true; result: unknown } | { ok: false; error: ProtocolError }>;

export const AUTOMATION_CLIENT: ClientInfo = { kind: "unknown", browser: "Automation", os: "" };

export interface AutomationDeps {
  repos: Repos;
  hub: EventHub;
  newId: (prefix: string) => string;
  now: () => number;
  /** Checks a folder is usable as a project (realpath), or throws with why. */
  checkFolder: (path: string) => Promise<string>;
}

export interface AutomationInput {
  name: string;
  prompt: string;
  rule: ScheduleRule;
  model?: ModelRef | null;
  projectPath?: string | null;
  approval?: ApprovalMode;
  worktree?: boolean;
  enabled?: boolean;
}

export class AutomationService {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private started = false;
  private call: OpCaller | null = null;
  private readonly client: HubClient;

  constructor(private d: AutomationDeps) {
    // A process that ended while an automation's task ran: that run is over.
    d.repos.automations.interruptLeftovers();
    // Runs end with their task's run: the task list says how it ended.
    this.client = {
      id: "automations",
      topics: new Set(["tasks"]),
      info: AUTOMATION_CLIENT,
      deliver: (events) => this.onEvents(events),
    };
    d.hub.observe(this.client); // a listener, not a connected client (Remote access lists those)
  }

  /** How ops are run (set by the composition root, which knows the dispatcher). */
  bind(call: OpCaller): void {
    this.call = call;
  }

  /** Starts the scheduler: records what was missed while down, then arms the timer. */
  start(): void {
    this.started = true;
    const at = this.d.now();
    for (const a of this.d.repos.automations.due(at)) this.skipMissed(a, a.nextRunAt ?? at, at);
    this.arm();
  }

  stop(): void {
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.d.hub.remove(this.client);
  }

  // ---------- CRUD ----------

  list(): Automation[] {
    return this.d.repos.automations.list();
  }

  get(id: string): Automation {
    const a = this.d.repos.automations.get(id);
    if (!a) throw new OpError("not_found", `automation ${id} does not exist`);
    return a;
  }

  /** A worktree needs a project (a git repository, checked when a run starts). */
  private checkWorktree(on: boolean, projectPath: string | null): boolean {
    if (on && !projectPath) {
      throw new OpError(
        "invalid_args",
        "an automation runs in a worktree of its own only in a project folder (a git repository)",
      );
    }
    return on;
  }

  async create(input: AutomationInput): Promise<Automation> {
    const repo = this.d.repos.automations;
    if (repo.count() >= AUTOMATION_LIMITS.automations) {
      throw new OpError("too_large", `at most ${AUTOMATION_LIMITS.automations} automations`);
    }
    const enabled = input.enabled ?? true;
    const rule = normaliseRule(input.rule);
    const a = repo.create({
      id: this.d.newId("au"),
      name: input.name.trim() || "Automation",
      prompt: input.prompt,
      rule,
      model: this.checkModel(input.model ?? null),
      projectPath: await this.checkProject(input.projectPath ?? null),
      approval: input.approval ?? "edit",
      worktree: this.checkWorktree(input.worktree ?? false, input.projectPath ?? null),
      enabled,
      nextRunAt: enabled ? this.firstRun(rule) : null,
    });
    this.changed(a);
    return a;
  }

  async update(id: string, patch: Partial<AutomationInput>): Promise<Automation> {
    const cur = this.get(id);
    const rule = patch.rule ? normaliseRule(patch.rule) : cur.rule;
    const enabled = patch.enabled ?? cur.enabled;
    const reschedule = patch.rule !== undefined || enabled !== cur.enabled;
    const a = this.d.repos.automations.update(id, {
      ...(patch.name !== undefined ? { name: patch.name.trim() || cur.name } : {}),
      ...(patch.prompt !== undefined ? { prompt: patch.prompt } : {}),
      ...(patch.rule ? { rule } : {}),
      ...(patch.model !== undefined ? { model: this.checkModel(patch.model) } : {}),
      ...(patch.projectPath !== undefined
        ? { projectPath: await this.checkProject(patch.projectPath) }
        : {}),
      ...(patch.approval ? { approval: patch.approval } : {}),
      ...(patch.worktree !== undefined
        ? {
          worktree: this.checkWorktree(
            patch.worktree,
            patch.projectPath !== undefined ? patch.projectPath : cur.projectPath,
          ),
        }
        : {}),
      enabled,
      ...(reschedule ? { nextRunAt: enabled ? this.firstRun(rule) : null } : {}),
    })!;
    this.changed(a);
    return a;
  }

  delete(id: string): void {
    this.get(id);
    this.d.repos.automations.delete(id);
    this.d.hub.publish(AUTOMATIONS_TOPIC, { kind: "delete", id });
    this.arm();
  }

  runs(id: string | null, limit: number): AutomationRun[] {
    if (id) this.get(id);
    return this.d.repos.automations.runs(id, limit);
  }

  /** Runs it now in a new task; its schedule is unchanged. */
  runNow(id: string): Promise<AutomationRun> {
    const a = this.get(id);
    if (this.d.repos.automations.runs(id, 1)[0]?.status === "running") {
      throw new OpError("busy", "its previous run is still running");
    }
    return this.launch(a, "manual", this.d.now());
  }

  // ---------- the scheduler ----------

  /** Runs every automation due now (the timer calls it; tests may too), then re-arms. */
  async tick(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const at = this.d.now();
    try {
      for (const listed of this.d.repos.automations.due(at)) {
        // Read again: a run started meanwhile (another tick, a change) may have moved it.
        const a = this.d.repos.automations.get(listed.id);
        if (!a?.enabled || a.nextRunAt === null || a.nextRunAt > at) continue;
        const due = a.nextRunAt;
        if (at - due > LATE_MS) {
          this.skipMissed(a, due, at);
          continue;
        }
        this.advance(a, at);
        if (this.d.repos.automations.runs(a.id, 1)[0]?.status === "running") {
          this.record(a, "skipped", due, "its previous run was still running");
          continue;
        }
        await this.launch(a, "schedule", due);
      }
    } catch (e) {
      console.error("automations: tick failed:", e);
    } finally {
      this.arm();
    }
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.started) return;
    const next = this.d.repos.automations.nextDue();
    if (next === null) return;
    const delay = Math.min(Math.max(0, next - this.d.now()), MAX_SLEEP_MS);
    this.timer = setTimeout(() => void this.tick(), delay);
    Deno.unrefTimer(this.timer as unknown as number);
  }

  /** Moves the next run past `at` (never replaying what was missed). */
  private advance(a: Automation, at: number): void {
    const next = nextRunAt(a.rule, at);
    const u = this.d.repos.automations.update(a.id, { nextRunAt: next });
    if (u) this.changed(u, false);
  }

  private skipMissed(a: Automation, due: number, at: number): void {
    this.advance(a, at);
    this.record(a, "missed", due, "the server was not running when it was due; not replayed");
  }

  /** A run that did not start a task. */
  private record(a: Automation, status: AutomationRunStatus, due: number, error: string): void {
    const run = this.d.repos.automations.addRun({
      id: this.d.newId("ar"),
      automationId: a.id,
      taskId: null,
      trigger: "schedule",
      status,
      error,
      dueAt: due,
      startedAt: this.d.now(),
      endedAt: this.d.now(),
    });
    this.publishRun(run);
  }

  private async launch(
    a: Automation,
    trigger: AutomationRun["trigger"],
    due: number,
  ): Promise<AutomationRun> {
    const repo = this.d.repos.automations;
    let run = repo.addRun({
      id: this.d.newId("ar"),
      automationId: a.id,
      taskId: null,
      trigger,
      status: "running",
      error: null,
      dueAt: due,
      startedAt: this.d.now(),
      endedAt: null,
    });
    this.publishRun(run);
    const counted = repo.update(a.id, { lastRunAt: this.d.now(), runCount: a.runCount + 1 });
    if (counted) this.changed(counted, false);
    try {
      await this.startTask(a, (id) => {
        run = repo.updateRun(run.id, { taskId: id })!;
        this.publishRun(run);
      });
      const ok = repo.update(a.id, { lastError: null });
      if (ok && a.lastError) this.changed(ok, false);
      return repo.getRun(run.id) ?? run;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      run = repo.updateRun(run.id, { status: "failed", error: message }) ?? run;
      this.publishRun(run);
      const failed = repo.update(a.id, { lastError: message });
      if (failed) this.changed(failed, false);
      return run;
    }
  }

  /** Creates the task (reporting its id before the run starts) and sends the prompt. */
  private async startTask(a: Automation, created: (id: string) => void): Promise<void> {
    if (!this.call) throw new Error("automations are not connected to the ops");
    if (a.projectPath) await this.d.checkFolder(a.projectPath);
    const defaultApproval = getSettings(this.d.repos).defaultApproval;
    // A mode more permissive than the default is set as the approval menu does it, so
    // every client is told (a safety notice), like any lowered setting.
    const lowers = APPROVAL_RANK[a.approval] < APPROVAL_RANK[defaultApproval];
    const { task } = await this.op("tasks.create", {
      title: a.name.slice(0, 200),
      projectPath: a.projectPath,
      options: {
        ...(a.model ? { model: a.model } : {}),
        ...(lowers ? {} : { approval: a.approval }),
      },
      ...(a.worktree ? { worktree: {} } : {}),
    });
    created(task.id);
    if (lowers) await this.op("task.setOptions", { id: task.id, approval: a.approval });
    await this.op("task.send", { id: task.id, text: a.prompt });
  }

  private async op<K extends OpName>(op: K, args: unknown): Promise<OpResults[K]> {
    const out = await this.call!(op, args);
    if (!out.ok) throw new OpError(out.error.code, out.error.message);
    return out.result as OpResults[K];
  }

  /** A task's run ended (it is idle with an outcome): its automation run ends with it. */
  private onEvents(events: EvtMsg[]): void {
    try {
      this.settleEnded(events);
    } catch (e) {
      // A harness may close the store before the hub's last flush: nothing to settle then.
      if (!/database is not open/.test(String((e as Error)?.message))) {
        console.error("automations: settling a run failed:", e);
      }
    }
  }

  private settleEnded(events: EvtMsg[]): void {
    for (const e of events) {
      if (e.topic !== TASKS_TOPIC) continue;
      const ev = e.data;
      const taskId = ev.kind === "upsert" ? ev.task.id : ev.id;
      const open = this.d.repos.automations.runningFor(taskId);
      if (!open) continue;
      if (ev.kind === "delete") {
        this.settle(open, "stopped", "its task was deleted");
      } else if (ev.task.status === "idle" && ev.task.lastRun) {
        this.settle(open, ev.task.lastRun, null);
      }
    }
  }

  private settle(run: AutomationRun, status: AutomationRunStatus, error: string | null): void {
    const done = this.d.repos.automations.updateRun(run.id, { status, error });
    if (done) this.publishRun(done);
  }

  // ---------- helpers ----------

  private firstRun(rule: ScheduleRule): number {
    const next = nextRunAt(rule, this.d.now());
    if (next === null) throw new OpError("invalid_args", "this schedule never comes due");
    return next;
  }

  /** The model must be usable now (enabled, its provider too). */
  private checkModel(m: ModelRef | null): ModelRef | null {
    if (!m) return null;
    try {
      resolveModel(this.d.repos, m);
    } catch (e) {
      throw new OpError("invalid_args", (e as Error).message);
    }
    return m;
  }

  private async checkProject(p: string | null): Promise<string | null> {
    return p ? await this.d.checkFolder(p) : null;
  }

  private changed(a: Automation, rearm = true): void {
    this.d.hub.publish(AUTOMATIONS_TOPIC, { kind: "upsert", automation: a });
    if (rearm) this.arm();
  }

  private publishRun(run: AutomationRun): void {
    this.d.hub.publish(AUTOMATIONS_TOPIC, { kind: "run", run });
  }
}

/** Sorted, unique days; a rule that cannot run is refused with why. */
function normaliseRule(rule: ScheduleRule): ScheduleRule {
  const uniq = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);
  const r: ScheduleRule = {
    ...rule,
    weekdays: rule.unit === "weekly" ? uniq(rule.weekdays) : [],
    monthDays: rule.unit === "monthly" ? uniq(rule.monthDays) : [],
  };
  const problems = ruleProblems(r);
  if (problems.length) throw new OpError("invalid_args", `rule: ${problems.join("; ")}`);
  return r;
}
