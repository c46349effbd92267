/**
 * Settings → Usage: tokens from the usage stored on each model reply —
 * totals, the 53-week heatmap, daily tokens per model, model share, streaks, peak day
 * and the longest task, for 7 days / 30 days / all — and what they cost (per day, model
 * and task; unpriced replies counted as such, never as free). Replies that stored no usage are
 * counted as "without usage", never estimated. Reset records a reset point (two-step);
 * task history is kept.
 *
 * @typedef {import("../../../protocol/index.ts").UsageRange} UsageRange
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { USAGE_RANGES } from "../../../protocol/index.ts";
import {
  loadUsage,
  resetUsage,
  setUsageRange,
  usage,
  usageError,
  usageRange,
} from "../../state/usage.js";
import { openTask } from "../../state/tasks.js";
import { lang } from "../../state/prefs.js";
import { closeSettings } from "../../state/settings.js";
import { InlineConfirm } from "../settings/controls.js";
import {
  CostDays,
  CostTasks,
  DailyChart,
  Heatmap,
  ModelShare,
  moneyText,
  tokens,
} from "./UsageCharts.js";
import { when } from "../automations/describe.js";

/** @param {number} ms */
function duration(ms) {
  const m = Math.round(ms / 60_000);
  if (m < 60) return t("usage.minutes", { n: m });
  return t("usage.hours", { h: Math.floor(m / 60), m: m % 60 });
}

/** @param {{label: string, value: string, sub?: string, testid: string}} props */
function Stat({ label, value, sub, testid }) {
  return html`
    <div class="usage-stat" data-testid=${testid}>
      <span class="usage-stat-label">${label}</span>
      <span class="usage-stat-value" data-testid=${`${testid}-value`}>${value}</span>
      ${sub && html`<span class="usage-stat-sub">${sub}</span>`}
    </div>
  `;
}

export function UsagePane() {
  useEffect(() => void loadUsage(), []);
  const [confirm, setConfirm] = useState(false);
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const s = usage.value;
  const range = usageRange.value;
  const n = (/** @type {number} */ x) => x.toLocaleString();
  return html`
    <section class="settings-section usage-pane" data-testid="usage-pane" aria-labelledby="usage-title">
      <div class="mcp-head">
        <h2 id="usage-title" class="provider-title">${t("usage.title")}</h2>
        <span class="grow"></span>
        <div class="seg seg-sm usage-range" role="group" aria-label=${t("usage.range")}>
          ${USAGE_RANGES.map((r) =>
            html`
              <button type="button" class="seg-btn" data-testid=${`usage-range-${r}`}
                aria-pressed=${range === r ? "true" : "false"}
                onClick=${() => setUsageRange(/** @type {UsageRange} */ (r))}>
                ${t(/** @type {const} */ (`usage.range.${r}`))}
              </button>
            `
          )}
        </div>
      </div>
      <p class="settings-note">${t("usage.intro")}</p>
      ${usageError.value &&
        html`<p class="field-help field-error" role="alert">${usageError.value}</p>`}
      ${!s ? html`<p class="settings-note">${t("settings.loading")}</p>` : html`
        <div class="usage-stats" data-testid="usage-totals">
          <${Stat} testid="usage-cost" label=${t("usage.cost")}
            value=${moneyText(s.totals.cost, 0)}
            sub=${s.totals.unpriced
              ? tn("usage.costUnpriced", s.totals.unpriced, { n: n(s.totals.unpriced) })
              : t("usage.costAllPriced")} />
          <${Stat} testid="usage-total" label=${t("usage.total")} value=${n(s.totals.total)}
            sub=${t("usage.inOut", { input: n(s.totals.input), output: n(s.totals.output) })} />
          <${Stat} testid="usage-requests" label=${t("usage.requests")} value=${n(
            s.totals.requests,
          )}
            sub=${s.totals.unknownRequests
              ? t("usage.unknown", { n: n(s.totals.unknownRequests) })
              : t("usage.allKnown")} />
          <${Stat} testid="usage-cache" label=${t("usage.cache")} value=${n(s.totals.cacheRead)}
            sub=${t("usage.cacheWrite", { n: n(s.totals.cacheWrite) })} />
          <${Stat} testid="usage-tasks" label=${t("usage.tasks")} value=${n(s.totals.tasks)}
            sub=${tn("usage.activeDays", s.totals.activeDays)} />
          <${Stat} testid="usage-streak" label=${t("usage.streak")}
            value=${tn("usage.days", s.streaks.current)}
            sub=${tn("usage.longestStreak", s.streaks.longest)} />
          <${Stat} testid="usage-peak" label=${t("usage.peak")}
            value=${s.peakDay ? tokens(s.peakDay.total) : "—"}
            sub=${s.peakDay
              ? new Date(`${s.peakDay.day}T12:00:00`).toLocaleDateString(lang.value)
              : ""} />
        </div>
        <div class="usage-card">
          <h3 class="usage-card-title">${t("usage.heatmap")}</h3>
          <${Heatmap} heatmap=${s.heatmap} today=${s.to} />
        </div>
        <div class="usage-grid">
          <div class="usage-card">
            <h3 class="usage-card-title">${t("usage.daily")}</h3>
            ${s.daily.length
              ? html`<${DailyChart} s=${s} />`
              : html`<p class="settings-note">${t("usage.nothing")}</p>`}
          </div>
          <div class="usage-card">
            <h3 class="usage-card-title">${t("usage.models")}</h3>
            <${ModelShare} s=${s} />
          </div>
        </div>
        <div class="usage-grid">
          <div class="usage-card">
            <h3 class="usage-card-title">${t("usage.costDaily")}</h3>
            <${CostDays} s=${s} />
          </div>
          <div class="usage-card">
            <h3 class="usage-card-title">${t("usage.costTasks")}</h3>
            <${CostTasks} s=${s} onOpen=${(/** @type {string} */ id) => {
              openTask(id);
              closeSettings();
            }} />
          </div>
        </div>
        <div class="usage-card usage-longest" data-testid="usage-longest">
          <h3 class="usage-card-title">${t("usage.longestTask")}</h3>
          ${s.longestTask
            ? html`
              <button type="button" class="link-btn" data-testid="usage-longest-task"
                onClick=${() => {
                  openTask(/** @type {NonNullable<typeof s.longestTask>} */ (s.longestTask).taskId);
                  closeSettings();
                }}>${s.longestTask.title}</button>
              <span class="usage-stat-sub">${duration(s.longestTask.durationMs)}</span>
            `
            : html`<span class="settings-note">—</span>`}
        </div>
        <div class="usage-foot">
          <p class="field-help" data-testid="usage-reset-note">${s.resetAt
            ? t("usage.since", { when: when(s.resetAt) })
            : t("usage.resetHelp")}</p>
          ${confirm
            ? html`
              <${InlineConfirm}
                text=${t("usage.resetConfirm")}
                confirmLabel=${t("usage.reset")}
                testid="usage-reset-confirm"
                onConfirm=${async () => {
                  setConfirm(false);
                  setErr(await resetUsage());
                }}
                onCancel=${() => setConfirm(false)}
              />
            `
            : html`
              <button type="button" class="btn btn-small" data-testid="usage-reset"
                onClick=${() => setConfirm(true)}>${t("usage.reset")}</button>
            `}
          ${err && html`<p class="field-help field-error" role="alert">${err}</p>`}
        </div>
      `}
    </section>
  `;
}
