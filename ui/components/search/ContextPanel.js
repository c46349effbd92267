/**
 * The context ring's panel: the breakdown of the next request by category, estimated by
 * characters; a category opens its exact text. "Compact now" summarises the
 * conversation (`task.compact`); the note says when the task compacts by itself and
 * whether the model's window is known.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { runState } from "../../state/timeline.js";
import { compactTokens, currentStats, percentText as pct } from "../../state/stats.js";
import {
  breakdown,
  breakdownError,
  breakdownStatus,
  compactingTask,
  compactNow,
  openPreview,
  shares,
  viewCategory,
} from "../../state/context.js";

/** @param {{taskId: string}} props */
export function ContextPanel({ taskId }) {
  const s = currentStats.value;
  const c = s.context;
  const b = breakdown.value?.taskId === taskId ? breakdown.value : null;
  const status = breakdownStatus.value;
  const cats = b?.categories ?? [];
  const share = shares(cats);
  const head = c.used === null
    ? t("ctx.none")
    : c.limit === null
    ? t("ctx.usedNoLimit", { used: compactTokens(c.used) })
    : t("ctx.usedOf", {
      used: compactTokens(c.used),
      limit: compactTokens(c.limit),
      p: pct(c.percent ?? 0),
    });
  return html`
    <div class="ctx-panel" role="dialog" aria-label=${t("ctx.label")} data-testid="context-panel">
      <div class="ctx-head">
        <span class="ctx-title">${t("ctx.title")}</span>
        <span class="ctx-used" data-testid="context-used">${head}</span>
      </div>
      <div class="ctx-bar" aria-hidden="true">
        <div class="ctx-bar-fill" style=${`width:${Math.max(c.percent ?? 0, c.used ? 1 : 0)}%`}>
          ${cats.map((cat, i) =>
            share[i] > 0
              ? html`<span class="ctx-seg" data-cat=${cat.key} style=${`flex-basis:${
                share[i]
              }%`}></span>`
              : null
          )}
        </div>
      </div>
      <p class="ctx-sub">${t("ctx.breakdown")}</p>
      ${status === "error" && !b
        ? html`<p class="ctx-msg" role="alert">${
          t("ctx.failed", { error: breakdownError.value })
        }</p>`
        : !b
        ? html`<p class="ctx-msg">${t("ctx.loading")}</p>`
        : html`
          <ul class="ctx-rows" data-testid="context-rows">
            ${cats.map((cat, i) => {
              const name = t(/** @type {const} */ (`ctx.cat.${cat.key}`));
              const empty = cat.tokens === 0;
              return html`
                <li>
                  <button
                    type="button"
                    class="ctx-row"
                    data-testid="context-row"
                    data-cat=${cat.key}
                    data-tokens=${String(cat.tokens)}
                    disabled=${empty}
                    aria-label=${empty ? `${name}: ${t("ctx.none.cat")}` : t("ctx.view", { name })}
                    onClick=${() => viewCategory(taskId, cat.key)}
                  >
                    <span class="ctx-dot" data-cat=${cat.key} aria-hidden="true"></span>
                    <span class="ctx-name">${name}</span>
                    <span class="ctx-num">
                      ${empty
                        ? t("ctx.none.cat")
                        : t("ctx.approx", { n: compactTokens(cat.tokens) })}
                    </span>
                    <span class="ctx-share">${empty ? "" : pct(share[i])}</span>
                  </button>
                </li>
              `;
            })}
          </ul>
        `}
      <p class="ctx-note">
        ${t("ctx.note")}${s.cacheHit !== null
          ? ` ${t("ctx.cache", { p: pct(s.cacheHit * 100) })}`
          : ""}
      </p>
      <button
        type="button"
        class="btn btn-small ctx-preview-btn"
        data-testid="open-request-preview"
        onClick=${() => openPreview(taskId)}
      >
        ${t("preview.open")}
      </button>
      <${CompactRow} taskId=${taskId} compaction=${b?.compaction ?? null} />
    </div>
  `;
}

/**
 * When the task compacts by itself, and "Compact now".
 * @param {{taskId: string, compaction: import("../../../protocol/index.ts").ContextBreakdown["compaction"]}} props
 */
function CompactRow({ taskId, compaction }) {
  const busy = compactingTask.value === taskId;
  const running = runState.value !== null;
  const when = compaction
    ? compaction.windowKnown
      ? t("ctx.compactAt", { n: compactTokens(compaction.watermark) })
      : t("ctx.compactAtUnknown", {
        n: compactTokens(compaction.watermark),
        window: compactTokens(compaction.window),
      })
    : "";
  return html`
    <div class="ctx-compact">
      ${when && html`
        <p class="ctx-note" data-testid="context-compact-at"
          data-window-known=${String(compaction?.windowKnown)}>${when}</p>
      `}
      <button
        type="button"
        class="btn btn-small ctx-compact-btn"
        data-testid="compact-now"
        disabled=${busy || running}
        title=${running && !busy ? t("ctx.compactBusy") : undefined}
        onClick=${() => compactNow(taskId)}
      >
        ${busy ? t("ctx.compacting") : t("ctx.compactNow")}
      </button>
    </div>
  `;
}
