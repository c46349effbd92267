/**
 * The context usage ring in the composer: used / limit of the latest
 * request. Hover (desktop) or tap opens a panel with the breakdown of the next
 * request by category, estimated by characters; a category opens its exact text.
 * "Compact now" summarises the conversation (`task.compact`); the note says when the
 * task compacts by itself and whether the model's window is known.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { currentId } from "../../state/tasks.js";
import { runState } from "../../state/timeline.js";
import { compactTokens, currentStats } from "../../state/stats.js";
import {
  breakdown,
  breakdownError,
  breakdownStatus,
  compactingTask,
  compactNow,
  loadBreakdown,
  openPreview,
  shares,
  viewCategory,
  viewing,
} from "../../state/context.js";

const R = 7;
const CIRC = 2 * Math.PI * R;
/** @param {number} x percent */
const pct = (x) => `${(Math.round(x * 10) / 10).toString()}%`;

/** @param {{percent: number|null}} props */
function Ring({ percent }) {
  const p = percent ?? 0;
  return html`
    <svg class="ctx-ring-svg" width="18" height="18" viewBox="0 0 18 18" aria-hidden="true">
      <circle class="ctx-ring-track" cx="9" cy="9" r=${R} />
      <circle
        class="ctx-ring-arc"
        cx="9"
        cy="9"
        r=${R}
        stroke-dasharray=${`${(CIRC * Math.min(100, p)) / 100} ${CIRC}`}
        transform="rotate(-90 9 9)"
        data-level=${p >= 90 ? "high" : p >= 70 ? "mid" : "low"}
      />
    </svg>
  `;
}

export function ContextRing() {
  const id = currentId.value;
  const [open, setOpen] = useState(false);
  const wrap = useRef(/** @type {HTMLDivElement|null} */ (null));
  const hoverTimer = useRef(/** @type {ReturnType<typeof setTimeout>|undefined} */ (undefined));
  const pinned = useRef(false);
  const running = runState.value !== null;

  // Fresh numbers each time the panel opens, and when a run ends while it is open.
  useEffect(() => {
    if (open && id) loadBreakdown(id);
  }, [open, id, running]);
  useEffect(() => {
    setOpen(false);
  }, [id]);
  useEffect(() => {
    if (!open) return;
    const onDown = (/** @type {Event} */ e) => {
      // Clicks in the text viewer (opened from the panel) keep the panel.
      if (viewing.peek()) return;
      if (wrap.current && !wrap.current.contains(/** @type {Node} */ (e.target))) close();
    };
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape" && !document.querySelector("[data-testid=ctx-viewer]")) close();
    };
    document.addEventListener("pointerdown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  if (id === null) return null;

  function close() {
    pinned.current = false;
    setOpen(false);
  }
  const hoverable = () => typeof matchMedia === "function" && matchMedia("(hover: hover)").matches;
  const onEnter = () => {
    if (!hoverable()) return;
    clearTimeout(hoverTimer.current);
    hoverTimer.current = setTimeout(() => setOpen(true), 150);
  };
  const onLeave = () => {
    if (!hoverable()) return;
    clearTimeout(hoverTimer.current);
    // The text viewer covers the page: leaving for it keeps the panel.
    if (!pinned.current && !viewing.peek()) {
      hoverTimer.current = setTimeout(() => !viewing.peek() && setOpen(false), 250);
    }
  };

  const c = currentStats.value.context;
  const label = c.used === null
    ? t("ctx.ringNone")
    : c.limit === null
    ? t("ctx.ringNoLimit", { used: compactTokens(c.used) })
    : t("ctx.ring", {
      used: compactTokens(c.used),
      limit: compactTokens(c.limit),
      p: pct(c.percent ?? 0),
    });
  return html`
    <div class="opt-wrap ctx-wrap" ref=${wrap} onMouseEnter=${onEnter} onMouseLeave=${onLeave}>
      <button
        type="button"
        class="tool-btn ctx-ring"
        data-testid="context-ring"
        data-percent=${c.percent === null ? "" : String(Math.round(c.percent * 10) / 10)}
        aria-label=${label}
        aria-expanded=${open ? "true" : "false"}
        aria-haspopup="dialog"
        onClick=${() => {
          clearTimeout(hoverTimer.current);
          if (open && pinned.current) close();
          else {
            pinned.current = true;
            setOpen(true);
          }
        }}
      >
        <${Ring} percent=${c.percent} />
        <span class="ctx-ring-pct">${c.percent === null ? "" : `${Math.round(c.percent)}%`}</span>
      </button>
      ${open && html`<${Panel} taskId=${id} />`}
    </div>
  `;
}

/** @param {{taskId: string}} props */
function Panel({ taskId }) {
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
