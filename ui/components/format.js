/** Small display helpers shared by the components (durations, times, clients). */
import { t } from "../i18n/index.js";
import { durationParts } from "../state/timeline_model.js";
import { lang } from "../state/prefs.js";

/**
 * A duration as "12s", "3m 48s" or "1h 5m" in the UI language; a finished span under
 * a second is "<1s" (a live timer counts from "0s").
 * @param {number} ms
 * @param {boolean} [live]
 */
export function fmtDuration(ms, live = false) {
  if (!live && ms < 1000) return t("dur.lt1");
  const { h, m, s } = durationParts(ms);
  if (h) return t("dur.hm", { h, m });
  if (m) return t("dur.ms", { m, s });
  return t("dur.s", { s });
}

/**
 * "Phone (Chrome, Android)", "Command line"; with `withIp` also "… from 192.168.1.7".
 * @param {import("../../protocol/index.ts").ClientInfo|undefined} c
 * @param {boolean} [withIp]
 */
export function clientText(c, withIp = false) {
  const kind = t(/** @type {const} */ (`client.${c?.kind ?? "unknown"}`));
  const detail = c && c.kind !== "cli" ? [c.browser, c.os].filter(Boolean).join(", ") : "";
  const who = detail ? t("client.detail", { kind, detail }) : kind;
  return withIp && c?.ip ? t("client.from", { client: who, ip: c.ip }) : who;
}

/**
 * A short time: the clock today, with the date on another day.
 * @param {number} at
 */
export function shortTime(at) {
  const sameDay = new Date(at).toDateString() === new Date().toDateString();
  return new Intl.DateTimeFormat(lang.value, {
    ...(sameDay ? {} : { month: "short", day: "numeric" }),
    hour: "2-digit",
    minute: "2-digit",
  }).format(at);
}
