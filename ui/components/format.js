/** Small display helpers shared by the run components (durations). */
import { t } from "../i18n/index.js";
import { durationParts } from "../state/timeline_model.js";

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
