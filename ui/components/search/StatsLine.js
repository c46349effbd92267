/**
 * The session stats line: turns · steps · context % · time worked · tokens ·
 * cache hit, from the usage the providers reported. Unknown values say so. The time is
 * what the turns' "Worked …" lines say, added up.
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { currentId } from "../../state/tasks.js";
import { compactTokens, currentCost, currentStats, shortDuration } from "../../state/stats.js";
import { moneyLabel } from "../../state/cost_model.js";
import { lang } from "../../state/prefs.js";
import { fmtDuration } from "../format.js";

/** @param {number} x 0…1 or 0…100 (see `scale`) */
const pct = (x, scale = 100) => `${(Math.round(x * scale * 10) / 10).toString()}%`;

/** The task's cost so far: money (with "≥" when older entries are not loaded) or unknown. */
function costItem(/** @type {string} */ ge) {
  const c = currentCost.value;
  const money = moneyLabel(c.sums, lang.value);
  return {
    key: "cost",
    text: money === null
      ? t("cost.unknown")
      : c.unpriced
      ? t("cost.partial", { money: ge + money, n: c.unpriced })
      : t("stats.cost", { money: ge + money }),
    title: t("stats.costTitle", { replies: c.replies, n: c.unpriced }),
  };
}

export function StatsLine() {
  if (currentId.value === null) return null;
  const s = currentStats.value;
  if (s.turns === 0 && s.steps === 0) return null;
  const unknown = t("stats.unknown");
  const ge = s.partial ? "≥" : "";
  const c = s.context;
  const tokensTitle = s.tokens === null ? unknown : [
    t("stats.tokensDetail", {
      input: compactTokens(s.input ?? 0),
      output: compactTokens(s.output ?? 0),
    }),
    s.stepsWithoutUsage ? t("stats.noUsage", { n: s.stepsWithoutUsage }) : "",
  ].filter(Boolean).join(" ");
  /** @type {{key: string, text: string, title?: string, ms?: number}[]} */
  const items = [
    { key: "turns", text: ge + tn("stats.turns", s.turns) },
    { key: "steps", text: ge + tn("stats.steps", s.steps) },
    {
      key: "context",
      text: t("stats.context", { p: c.percent === null ? unknown : pct(c.percent, 1) }),
      title: c.used === null
        ? t("ctx.ringNone")
        : c.limit === null
        ? t("ctx.ringNoLimit", { used: compactTokens(c.used) })
        : t("ctx.ring", {
          used: compactTokens(c.used),
          limit: compactTokens(c.limit),
          p: pct(c.percent ?? 0, 1),
        }),
    },
    s.durationMs === null ? { key: "duration", text: t("stats.durationUnknown") } : {
      key: "duration",
      // In the words of the turns' own "Worked …" lines.
      text: t("stats.duration", { d: ge + fmtDuration(s.durationMs) }),
      title: t("stats.durationTitle"),
      ms: s.durationMs,
    },
    {
      key: "tokens",
      text: s.tokens === null
        ? t("stats.tokensUnknown")
        : t("stats.tokens", { n: ge + compactTokens(s.tokens) }),
      title: tokensTitle,
    },
    {
      key: "cache",
      text: t("stats.cache", { p: s.cacheHit === null ? unknown : pct(s.cacheHit) }),
    },
    costItem(ge),
    ...(s.compactions
      ? [{
        key: "compactions",
        text: ge + tn("stats.compactions", s.compactions, { d: shortDuration(s.compactMs) }),
      }]
      : []),
  ];
  return html`
    <div
      class="stats-line"
      role="status"
      aria-label=${t("stats.label")}
      data-testid="stats-line"
      title=${s.partial ? t("stats.partial") : undefined}
    >
      ${items.map((it, i) =>
        html`
          ${i > 0 && html`<span class="stats-sep" aria-hidden="true">·</span>`}
          <span class="stats-item" data-stat=${it.key} data-ms=${it.ms}
            title=${it.title}>${it.text}</span>
        `
      )}
    </div>
  `;
}
