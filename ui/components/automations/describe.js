/**
 * A schedule rule and run times in the page's language: "Weekdays at 09:00",
 * "Every 2 weeks on Mon, Fri at 18:30", "Every 30 minutes".
 *
 * @typedef {import("../../../protocol/index.ts").ScheduleRule} ScheduleRule
 */
import { inferPreset } from "../../../protocol/index.ts";
import { t } from "../../i18n/index.js";
import { lang } from "../../state/prefs.js";

const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");

/** Short weekday names, Sunday first, in the page's language. @param {number} d */
export function weekdayName(d) {
  // 2026-11-29 was a Sunday.
  return new Date(2026, 10, 29 + d).toLocaleDateString(lang.value, { weekday: "short" });
}

/** @param {ScheduleRule} r */
export function describeRule(r) {
  const at = `${pad(r.hour)}:${pad(r.minute)}`;
  const preset = inferPreset(r);
  const days = r.weekdays.map(weekdayName).join(", ");
  const dates = r.monthDays.join(", ");
  if (preset === "hourly") return t("automations.rule.hourly", { minute: pad(r.minute) });
  if (preset === "daily") return t("automations.rule.daily", { at });
  if (preset === "weekdays") return t("automations.rule.weekdays", { at });
  if (preset === "weekly") return t("automations.rule.weekly", { days, at });
  if (preset === "monthly") return t("automations.rule.monthly", { dates, at });
  const n = r.interval;
  switch (r.unit) {
    case "minute":
      return t("automations.rule.everyMinutes", { n });
    case "hourly":
      return t("automations.rule.everyHours", { n, minute: pad(r.minute) });
    case "daily":
      return t("automations.rule.everyDays", { n, at });
    case "weekly":
      return t("automations.rule.everyWeeks", { n, days, at });
    case "monthly":
      return t("automations.rule.everyMonths", { n, dates, at });
  }
}

/** A moment as a short local date and time. @param {number} ms */
export function when(ms) {
  return new Date(ms).toLocaleString(lang.value, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}
