/**
 * The next time a schedule rule is due, strictly after a moment, in the server's local
 * time. Intervals are anchored on the epoch (minute, hour, day, week starting Sunday,
 * month) so "every 2 days" keeps its rhythm across restarts. The search is bounded:
 * a rule that never matches (e.g. only the 31st every 2nd month from an even month
 * pattern that lacks it) returns null instead of looping.
 *
 * @example
 * nextRunAt({unit: "daily", interval: 1, hour: 9, minute: 0, weekdays: [], monthDays: []},
 *   Date.parse("2026-12-03T10:00:00")); // 2026-12-04 09:00 local
 */
import type { ScheduleRule } from "../../protocol/automations.ts";

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Local wall-clock ms of `d` as if it were UTC (for anchoring on local boundaries). */
const localMs = (d: Date) => d.getTime() - d.getTimezoneOffset() * MIN;
const dayIndex = (d: Date) => Math.floor(localMs(d) / DAY);
/** Weeks since the Sunday before 1970-01-01 (a Thursday). */
const weekIndex = (d: Date) => Math.floor((dayIndex(d) + 4) / 7);
const monthIndex = (d: Date) => d.getFullYear() * 12 + d.getMonth();

export function nextRunAt(rule: ScheduleRule, after: number): number | null {
  const n = Math.max(1, Math.floor(rule.interval));
  if (rule.unit === "minute") {
    const step = n * MIN;
    return (Math.floor(after / step) + 1) * step;
  }
  if (rule.unit === "hourly") {
    const d = new Date(after);
    d.setMinutes(rule.minute, 0, 0);
    if (d.getTime() <= after) d.setTime(d.getTime() + HOUR);
    for (let i = 0; i <= n + 2; i++) {
      if (Math.floor(localMs(d) / HOUR) % n === 0) return d.getTime();
      d.setTime(d.getTime() + HOUR);
    }
    return null;
  }
  // Day-based units: walk local days from the day of `after` (bounded: ~2 years × n).
  const limit = rule.unit === "monthly" ? 31 * 13 * n : 7 * (n + 1) + 1;
  const day = new Date(after);
  day.setHours(0, 0, 0, 0);
  for (let i = 0; i <= limit; i++) {
    const at = new Date(
      day.getFullYear(),
      day.getMonth(),
      day.getDate() + i,
      rule.hour,
      rule.minute,
    );
    if (at.getTime() <= after) continue;
    if (matchesDay(rule, n, at)) return at.getTime();
  }
  return null;
}

function matchesDay(rule: ScheduleRule, n: number, d: Date): boolean {
  switch (rule.unit) {
    case "daily":
      return dayIndex(d) % n === 0;
    case "weekly":
      return rule.weekdays.includes(d.getDay()) && weekIndex(d) % n === 0;
    case "monthly":
      return rule.monthDays.includes(d.getDate()) && monthIndex(d) % n === 0;
    default:
      return false;
  }
}
