/**
 * Automations: prompts the server sends on a schedule, each in a new task
 * with the automation's model, project and approval mode. The schedule is a structured
 * rule (the authority); `cronOf` only shows it in cron's words.
 *
 * Ops: `automations.list {}` (+ the `automations` topic), `automations.create`,
 * `automations.update`, `automations.delete {id}`, `automations.runNow {id}`,
 * `automations.runs {id?, limit?}`.
 */
import { arr, bool, int, nullable, obj, oneOf, type Schema, str } from "./schema.ts";
import { APPROVAL_MODES, type ApprovalMode } from "./constants.ts";
import type { ModelRef } from "./domain.ts";

export const AUTOMATIONS_TOPIC = "automations";

export const SCHEDULE_UNITS = ["minute", "hourly", "daily", "weekly", "monthly"] as const;
export type ScheduleUnit = typeof SCHEDULE_UNITS[number];

/**
 * When an automation runs: every `interval` units; `hour`/`minute` the time of day
 * (`minute` only for `hourly`), `weekdays` (0 = Sunday … 6) for `weekly`, `monthDays`
 * (1–31; a day a month lacks is skipped) for `monthly`. Times are the server's local time.
 */
export interface ScheduleRule {
  unit: ScheduleUnit;
  interval: number;
  hour: number;
  minute: number;
  weekdays: number[];
  monthDays: number[];
}

/** The presets of the form; `custom` = any rule. */
export const SCHEDULE_PRESETS = [
  "hourly",
  "daily",
  "weekdays",
  "weekly",
  "monthly",
  "custom",
] as const;
export type SchedulePreset = typeof SCHEDULE_PRESETS[number];

/** Largest interval per unit (keeps the next-run search bounded). */
export const MAX_INTERVAL: Readonly<Record<ScheduleUnit, number>> = Object.freeze({
  minute: 1440,
  hourly: 168,
  daily: 366,
  weekly: 52,
  monthly: 12,
});

export const AUTOMATION_LIMITS = {
  nameChars: 120,
  promptChars: 20_000,
  automations: 200,
  /** Run rows kept per automation (older ones are dropped). */
  runsKept: 100,
} as const;

/**
 * How a run ended; `missed` = it was due while the server was down (never replayed);
 * `skipped` = it was due while its previous run still ran.
 */
export const AUTOMATION_RUN_STATUSES = [
  "running",
  "done",
  "failed",
  "stopped",
  "maxSteps",
  "interrupted",
  "missed",
  "skipped",
] as const;
export type AutomationRunStatus = typeof AUTOMATION_RUN_STATUSES[number];

export interface Automation {
  id: string;
  name: string;
  prompt: string;
  rule: ScheduleRule;
  /** Null = the default model when it runs. */
  model: ModelRef | null;
  /** Null = the default project folder. */
  projectPath: string | null;
  approval: ApprovalMode;
  /** Each run's task works in a git worktree and branch of its own. */
  worktree: boolean;
  enabled: boolean;
  /** Null when disabled. */
  nextRunAt: number | null;
  lastRunAt: number | null;
  runCount: number;
  /** Why the last attempt could not start a task, or null. */
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface AutomationRun {
  id: string;
  automationId: string;
  /** The task it created (null for a missed run, or when the task was deleted). */
  taskId: string | null;
  trigger: "schedule" | "manual";
  status: AutomationRunStatus;
  error: string | null;
  /** When it was due (a schedule) or asked for (manual). */
  dueAt: number;
  startedAt: number;
  endedAt: number | null;
}

export type AutomationsEvent =
  | { kind: "upsert"; automation: Automation }
  | { kind: "delete"; id: string }
  | { kind: "run"; run: AutomationRun };

/** The rule a preset stands for (time of day and days from `base`). */
export function presetRule(preset: SchedulePreset, base: Partial<ScheduleRule> = {}): ScheduleRule {
  const hour = base.hour ?? 9;
  const minute = base.minute ?? 0;
  const weekdays = base.weekdays?.length ? base.weekdays : [1];
  const monthDays = base.monthDays?.length ? base.monthDays : [1];
  const r = (u: ScheduleUnit, extra: Partial<ScheduleRule> = {}): ScheduleRule => ({
    unit: u,
    interval: 1,
    hour,
    minute,
    weekdays: [],
    monthDays: [],
    ...extra,
  });
  switch (preset) {
    case "hourly":
      return r("hourly", { hour: 0 });
    case "daily":
      return r("daily");
    case "weekdays":
      return r("weekly", { weekdays: [1, 2, 3, 4, 5] });
    case "weekly":
      return r("weekly", { weekdays: [weekdays[0]] });
    case "monthly":
      return r("monthly", { monthDays: [monthDays[0]] });
    case "custom":
      return {
        unit: base.unit ?? "daily",
        interval: base.interval ?? 1,
        hour,
        minute,
        weekdays: base.weekdays ?? [],
        monthDays: base.monthDays ?? [],
      };
  }
}

/** The preset a rule matches, or `custom`. */
export function inferPreset(rule: ScheduleRule): SchedulePreset {
  if (rule.interval !== 1) return "custom";
  if (rule.unit === "hourly") return "hourly";
  if (rule.unit === "daily") return "daily";
  if (rule.unit === "weekly") {
    const d = [...rule.weekdays].sort().join(",");
    if (d === "1,2,3,4,5") return "weekdays";
    if (rule.weekdays.length === 1) return "weekly";
  }
  if (rule.unit === "monthly" && rule.monthDays.length === 1) return "monthly";
  return "custom";
}

/** Problems of a rule beyond its schema (empty when it can run). */
export function ruleProblems(rule: ScheduleRule): string[] {
  const out: string[] = [];
  if (!Number.isInteger(rule.interval) || rule.interval < 1) out.push("interval: at least 1");
  if (rule.interval > MAX_INTERVAL[rule.unit]) {
    out.push(`interval: at most ${MAX_INTERVAL[rule.unit]} for ${rule.unit}`);
  }
  if (rule.unit === "weekly" && rule.weekdays.length === 0) out.push("weekdays: pick at least one");
  if (rule.unit === "monthly" && rule.monthDays.length === 0) {
    out.push("monthDays: pick at least one");
  }
  return out;
}

const list = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b).join(",");

/** The rule in cron's five fields, for display (`*\/n` steps approximate the interval). */
export function cronOf(rule: ScheduleRule): string {
  const step = (n: number) => (n === 1 ? "*" : `*/${n}`);
  switch (rule.unit) {
    case "minute":
      return `${step(rule.interval)} * * * *`;
    case "hourly":
      return `${rule.minute} ${step(rule.interval)} * * *`;
    case "daily":
      return `${rule.minute} ${rule.hour} ${step(rule.interval)} * *`;
    case "weekly":
      return `${rule.minute} ${rule.hour} * * ${list(rule.weekdays)}` +
        (rule.interval > 1 ? ` (every ${rule.interval} weeks)` : "");
    case "monthly":
      return `${rule.minute} ${rule.hour} ${list(rule.monthDays)} ${step(rule.interval)} *`;
  }
}

const name = str({ min: 1, max: AUTOMATION_LIMITS.nameChars });
const prompt = str({ min: 1, max: AUTOMATION_LIMITS.promptChars });
const automationId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
export const scheduleRuleSchema = obj({
  unit: oneOf(SCHEDULE_UNITS),
  interval: int({ min: 1, max: 1440 }),
  hour: int({ min: 0, max: 23 }),
  minute: int({ min: 0, max: 59 }),
  weekdays: arr(int({ min: 0, max: 6 }), 7),
  monthDays: arr(int({ min: 1, max: 31 }), 31),
});
const modelRef = obj({
  providerId: str({ min: 1, max: 64 }),
  modelId: str({ min: 1, max: 200 }),
});
const projectPath = str({ min: 1, max: 4096 });

export const AUTOMATION_OP_ARGS = {
  /** Every automation, and the `automations` topic from now on. */
  "automations.list": obj({}),
  "automations.create": obj({
    name,
    prompt,
    rule: scheduleRuleSchema,
    "model?": nullable(modelRef),
    "projectPath?": nullable(projectPath),
    /** Default `edit` (never `full` unless chosen). */
    "approval?": oneOf(APPROVAL_MODES),
    /** Each run's task in a worktree of its own (the project must be a git repository). */
    "worktree?": bool,
    "enabled?": bool,
  }),
  "automations.update": obj({
    id: automationId,
    "name?": name,
    "prompt?": prompt,
    "rule?": scheduleRuleSchema,
    "model?": nullable(modelRef),
    "projectPath?": nullable(projectPath),
    "approval?": oneOf(APPROVAL_MODES),
    "worktree?": bool,
    "enabled?": bool,
  }),
  "automations.delete": obj({ id: automationId }),
  /** Runs it now (a new task), whatever its schedule; the next scheduled run stays. */
  "automations.runNow": obj({ id: automationId }),
  /** Run history, newest first: of one automation, or of all. */
  "automations.runs": obj({
    "id?": automationId,
    "limit?": int({ min: 1, max: 500 }),
  }),
} satisfies Record<string, Schema>;

export interface AutomationOpResults {
  "automations.list": { automations: Automation[]; seq: number };
  "automations.create": { automation: Automation };
  "automations.update": { automation: Automation };
  "automations.delete": { id: string };
  "automations.runNow": { run: AutomationRun };
  "automations.runs": { runs: AutomationRun[] };
}
