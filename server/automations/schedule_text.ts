/**
 * Schedules written as words, for the CLI (`reinagent automations add --schedule …`):
 *
 *   hourly [:MM]                 every hour at minute MM (default :00)
 *   daily HH:MM                  every day
 *   weekdays HH:MM               Monday to Friday
 *   weekly DAYS HH:MM            DAYS = mon,wed or 1,3 (0 = Sunday)
 *   monthly DATES HH:MM          DATES = 1,15 (a date a month lacks is skipped)
 *   every N (m|h|d|w|mo) [DAYS] [HH:MM | :MM]   the custom rule: any interval
 *
 * @example
 * parseSchedule("weekly mon,fri 09:30"); // {unit: "weekly", weekdays: [1, 5], hour: 9, minute: 30, …}
 */
import { ruleProblems, type ScheduleRule } from "../../protocol/automations.ts";

const DAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const UNITS: Record<string, ScheduleRule["unit"]> = {
  m: "minute",
  min: "minute",
  minutes: "minute",
  h: "hourly",
  hours: "hourly",
  d: "daily",
  days: "daily",
  w: "weekly",
  weeks: "weekly",
  mo: "monthly",
  months: "monthly",
};

function time(s: string | undefined): { hour: number; minute: number } | string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(s ?? "");
  if (!m) return `expected a time HH:MM, got "${s ?? ""}"`;
  const hour = Number(m[1]), minute = Number(m[2]);
  if (hour > 23 || minute > 59) return `"${s}" is not a time of day`;
  return { hour, minute };
}

function minuteOf(s: string | undefined): number | string {
  if (s === undefined) return 0;
  const m = /^:(\d{2})$/.exec(s);
  if (!m || Number(m[1]) > 59) return `expected :MM (minute of the hour), got "${s}"`;
  return Number(m[1]);
}

function list(s: string | undefined, kind: "weekdays" | "dates"): number[] | string {
  if (!s) return `expected ${kind === "weekdays" ? "days like mon,fri" : "dates like 1,15"}`;
  const out: number[] = [];
  for (const part of s.toLowerCase().split(",")) {
    const named = DAY_NAMES.indexOf(part.slice(0, 3));
    const n = kind === "weekdays" && named >= 0
      ? named
      : /^\d{1,2}$/.test(part)
      ? Number(part)
      : NaN;
    const ok = kind === "weekdays" ? n >= 0 && n <= 6 : n >= 1 && n <= 31;
    if (!ok) return `"${part}" is not a ${kind === "weekdays" ? "weekday" : "date (1-31)"}`;
    out.push(n);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

const base = (unit: ScheduleRule["unit"]): ScheduleRule => ({
  unit,
  interval: 1,
  hour: 0,
  minute: 0,
  weekdays: [],
  monthDays: [],
});

export function parseSchedule(text: string): ScheduleRule | { error: string } {
  const w = text.trim().split(/\s+/);
  const head = w[0]?.toLowerCase();
  const fail = (error: string) => ({ error: `schedule "${text}": ${error}` });
  let rule: ScheduleRule;
  let rest: string[];
  if (head === "every") {
    // "every 30m" or "every 30 m"
    const m = /^(\d+)([a-z]*)$/.exec(w[1]?.toLowerCase() ?? "");
    const unit = m && (m[2] || w[2]?.toLowerCase());
    if (!m || !unit || !Object.hasOwn(UNITS, unit)) return fail("expected every N m|h|d|w|mo");
    rule = { ...base(UNITS[unit]), interval: Number(m[1]) };
    rest = w.slice(m[2] ? 2 : 3);
  } else if (head === "hourly" || head === "daily" || head === "weekdays") {
    rule = head === "weekdays"
      ? { ...base("weekly"), weekdays: [1, 2, 3, 4, 5] }
      : base(head === "hourly" ? "hourly" : "daily");
    rest = w.slice(1);
  } else if (head === "weekly" || head === "monthly") {
    rule = base(head);
    rest = w.slice(1);
  } else {
    return fail("start with hourly, daily, weekdays, weekly, monthly or every");
  }
  if (rule.unit === "weekly" && rule.weekdays.length === 0) {
    const days = list(rest.shift(), "weekdays");
    if (typeof days === "string") return fail(days);
    rule.weekdays = days;
  } else if (rule.unit === "monthly") {
    const dates = list(rest.shift(), "dates");
    if (typeof dates === "string") return fail(dates);
    rule.monthDays = dates;
  }
  if (rule.unit === "hourly") {
    const m = minuteOf(rest.shift());
    if (typeof m === "string") return fail(m);
    rule.minute = m;
  } else if (rule.unit !== "minute") {
    const t = time(rest.shift());
    if (typeof t === "string") return fail(t);
    Object.assign(rule, t);
  }
  if (rest.length) return fail(`unexpected "${rest.join(" ")}"`);
  const problems = ruleProblems(rule);
  return problems.length ? fail(problems.join("; ")) : rule;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The rule in words, for the CLI's table. */
export function describeSchedule(r: ScheduleRule): string {
  const at = `${pad(r.hour)}:${pad(r.minute)}`;
  const every = (
    one: string,
    many: string,
  ) => (r.interval === 1 ? one : `every ${r.interval} ${many}`);
  switch (r.unit) {
    case "minute":
      return every("every minute", "minutes");
    case "hourly":
      return `${every("hourly", "hours")} at :${pad(r.minute)}`;
    case "daily":
      return `${every("daily", "days")} at ${at}`;
    case "weekly": {
      const days = r.weekdays.join(",") === "1,2,3,4,5"
        ? "weekdays"
        : r.weekdays.map((d) => DAY_NAMES[d]).join(",");
      return `${every("weekly", "weeks")} ${days} at ${at}`;
    }
    case "monthly":
      return `${every("monthly", "months")} on ${r.monthDays.join(",")} at ${at}`;
  }
}
