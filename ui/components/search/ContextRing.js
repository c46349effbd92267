/**
 * The context usage ring in the composer: used / limit of the latest
 * request. Hover (desktop) or tap opens a panel (ContextPanel.js) with the breakdown of
 * the next request by category.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { currentId } from "../../state/tasks.js";
import { runState } from "../../state/timeline.js";
import { compactTokens, currentStats, percentText as pct } from "../../state/stats.js";
import { loadBreakdown, viewing } from "../../state/context.js";
import { lazy } from "../lazy.js";

/** The breakdown panel: a chunk of its own, fetched when the ring is first opened. */
const ContextPanel = lazy(() => import("./ContextPanel.js"), "ContextPanel");

const R = 7;
const CIRC = 2 * Math.PI * R;

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
      ${open && html`<${ContextPanel} taskId=${id} />`}
    </div>
  `;
}
