/**
 * The Usage page's pictures: the 53-week heatmap (a column per week, Sunday on top),
 * the daily tokens per model (stacked bars, SVG), the model share list and the cost
 * lists (per day, per task; money always with its currency). Colours are
 * theme variables (`--usage-1…6`, `--usage-heat-0…4`).
 *
 * @typedef {import("../../../protocol/index.ts").UsageSnapshot} UsageSnapshot
 */
import { useEffect, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { lang } from "../../state/prefs.js";
import { moneyLabel } from "../../state/cost_model.js";

/** Models drawn in their own colour; the rest are summed as "other". */
const COLOURS = 5;

/** @param {number} n */
export function tokens(n) {
  return new Intl.NumberFormat(lang.value, {
    notation: n >= 10_000 ? "compact" : "standard",
    maximumFractionDigits: 1,
  }).format(n);
}

/** @param {string} day `YYYY-MM-DD` */
const dayLabel = (day) =>
  new Date(`${day}T12:00:00`).toLocaleDateString(lang.value, { month: "short", day: "numeric" });

/** @param {{heatmap: UsageSnapshot["heatmap"], today: string}} props */
export function Heatmap({ heatmap, today }) {
  const box = useRef(/** @type {HTMLDivElement|null} */ (null));
  // The latest weeks are what matter: a narrow screen starts scrolled to them.
  useEffect(() => {
    if (box.current) box.current.scrollLeft = box.current.scrollWidth;
  }, [heatmap.length]);
  return html`
    <div class="usage-heat-scroll" ref=${box}>
      <div class="usage-heat" data-testid="usage-heatmap" role="img"
        aria-label=${t("usage.heatmap")}>
        ${heatmap.map((d) =>
          html`
            <span class="usage-cell" data-level=${d.level} data-day=${d.day}
              data-future=${d.day > today ? "true" : undefined}
              title=${`${dayLabel(d.day)} · ${
                t("usage.cellTip", { tokens: tokens(d.total), n: d.requests })
              }`}></span>
          `
        )}
      </div>
    </div>
    <div class="usage-legend" aria-hidden="true">
      <span>${t("usage.less")}</span>
      ${[0, 1, 2, 3, 4].map((l) => html`<span class="usage-cell" data-level=${l}></span>`)}
      <span>${t("usage.more")}</span>
    </div>
  `;
}

/** The models drawn in colour (largest first) for a snapshot. @param {UsageSnapshot} s */
export function chartModels(s) {
  return s.models.slice(0, COLOURS).map((m) => m.model);
}

/** @param {{s: UsageSnapshot}} props */
export function DailyChart({ s }) {
  const shown = chartModels(s);
  const max = Math.max(1, ...s.daily.map((d) => d.total));
  const w = 600, h = 160, n = Math.max(1, s.daily.length);
  const bw = w / n;
  const gap = bw > 6 ? 1.5 : 0;
  return html`
    <svg class="usage-daily" data-testid="usage-daily" viewBox=${`0 0 ${w} ${h}`}
      preserveAspectRatio="none" role="img" aria-label=${t("usage.daily")}>
      <line x1="0" y1=${h - 0.5} x2=${w} y2=${h - 0.5} class="usage-axis" />
      ${s.daily.map((d, i) => {
        let y = h;
        const bars = [];
        const parts = shown.map((m, k) => ({ v: d.models[m] ?? 0, k }));
        const other = d.total - parts.reduce((a, p) => a + p.v, 0);
        if (other > 0) parts.push({ v: other, k: COLOURS });
        for (const p of parts) {
          if (p.v <= 0) continue;
          const bh = (p.v / max) * (h - 4);
          y -= bh;
          bars.push(html`
            <rect x=${i * bw + gap / 2} y=${y} width=${Math.max(0.5, bw - gap)}
              height=${bh} class=${`usage-fill-${p.k + 1}`} />
          `);
        }
        return html`<g><title>${dayLabel(d.day)} · ${tokens(d.total)}</title>${bars}</g>`;
      })}
    </svg>
    <div class="usage-axis-labels" aria-hidden="true">
      <span>${s.daily[0] ? dayLabel(s.daily[0].day) : ""}</span>
      <span>${s.daily.length ? dayLabel(s.daily[s.daily.length - 1].day) : ""}</span>
    </div>
  `;
}

/** @param {{s: UsageSnapshot}} props */
/**
 * Money with its currency; "price unknown" when nothing is priced; a note of the
 * replies without a price beside a known amount.
 * @param {readonly import("../../../protocol/index.ts").MoneySum[]} sums
 * @param {number} unpriced
 */
export function moneyText(sums, unpriced) {
  const money = moneyLabel(sums, lang.value);
  if (money === null) return t("cost.unknown");
  return unpriced ? t("cost.partial", { money, n: unpriced }) : money;
}

/**
 * Cost per day of the range, newest first; days without replies are left out.
 * @param {{s: UsageSnapshot}} props
 */
export function CostDays({ s }) {
  const days = s.daily.filter((d) => d.cost.length || d.unpriced).reverse();
  if (!days.length) return html`<p class="settings-note">${t("usage.costNone")}</p>`;
  return html`
    <ul class="usage-costs" data-testid="usage-cost-days">
      ${days.map((d) =>
        html`
          <li class="usage-cost-row" data-day=${d.day}>
            <span class="usage-cost-name">${dayLabel(d.day)}</span>
            <span class="usage-cost-num" data-testid="usage-cost-day">${moneyText(d.cost, 0)}</span>
            ${d.cost.length && d.unpriced
              ? html`<span class="usage-cost-sub">${tn("usage.costUnpriced", d.unpriced)}</span>`
              : null}
          </li>
        `
      )}
    </ul>
  `;
}

/**
 * The costliest tasks of the range; a click opens the task.
 * @param {{s: UsageSnapshot, onOpen: (taskId: string) => void}} props
 */
export function CostTasks({ s, onOpen }) {
  if (!s.taskCosts.length) return html`<p class="settings-note">${t("usage.costNone")}</p>`;
  return html`
    <ul class="usage-costs" data-testid="usage-cost-tasks">
      ${s.taskCosts.map((x) =>
        html`
          <li class="usage-cost-row" data-task=${x.taskId}>
            <button type="button" class="link-btn usage-cost-name" title=${x.title}
              onClick=${() => onOpen(x.taskId)}>${x.title}</button>
            <span class="usage-cost-num" data-testid="usage-cost-task">${moneyText(
              x.cost,
              0,
            )}</span>
            <span class="usage-cost-sub">${[
              tn("usage.replies", x.replies),
              x.cost.length && x.unpriced ? t("usage.unpricedOf", { n: x.unpriced }) : "",
            ].filter(Boolean).join(" · ")}</span>
          </li>
        `
      )}
    </ul>
  `;
}

/** @param {{s: UsageSnapshot}} props */
export function ModelShare({ s }) {
  const shown = chartModels(s);
  if (!s.models.length) return html`<p class="settings-note">${t("usage.noModels")}</p>`;
  return html`
    <ul class="usage-models" data-testid="usage-models">
      ${s.models.map((m) => {
        const k = shown.indexOf(m.model);
        const pct = `${(m.share * 100).toFixed(1)}%`;
        return html`
          <li class="usage-model" data-model=${m.model}>
            <span class=${`usage-swatch usage-bg-${k < 0 ? COLOURS + 1 : k + 1}`}></span>
            <span class="usage-model-name" title=${m.model}>${m.model === "unknown"
              ? t("usage.unknownModel")
              : m.model}</span>
            <span class="usage-model-bar"><span class=${`usage-bg-${k < 0 ? COLOURS + 1 : k + 1}`}
              style=${`width: ${Math.max(0.5, m.share * 100)}%`}></span></span>
            <span class="usage-model-num">${tokens(m.total)} · ${pct}</span>
            <span class="usage-model-cost" data-testid="usage-model-cost">${moneyText(
              m.cost,
              m.unpriced,
            )}</span>
          </li>
        `;
      })}
    </ul>
  `;
}
