/**
 * The conversation navigator's rail: one tick per user question at the
 * right edge of the timeline, when there are at least two and the conversation is at
 * least 864 px wide. A tick's tooltip previews the question; a click jumps to it. The
 * tick of the question in view is marked (updated on scroll).
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { entries } from "../../state/tasks.js";
import { scrollToEntry } from "../../state/overlays.js";
import { questionsOf, railSlot, showRail } from "../../state/navigator_model.js";
import { openOverlay } from "../../state/palette.js";
import { questionInView } from "./jump.js";

export function QuestionRail() {
  const ref = useRef(/** @type {HTMLElement|null} */ (null));
  const [width, setWidth] = useState(0);
  const [here, setHere] = useState(/** @type {string|null} */ (null));
  const list = entries.value;
  const qs = useMemo(() => questionsOf(list), [list]);

  useEffect(() => {
    const wrap = ref.current?.parentElement;
    if (!wrap || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(() => setWidth(wrap.clientWidth));
    ro.observe(wrap);
    setWidth(wrap.clientWidth);
    const tl = wrap.querySelector("[data-testid=timeline]");
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setHere(questionInView()?.id ?? null);
      });
    };
    tl?.addEventListener("scroll", onScroll, { passive: true });
    onScroll();
    return () => {
      ro.disconnect();
      tl?.removeEventListener("scroll", onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);

  const shown = showRail(qs.length, width);
  const ticksRef = useRef(/** @type {HTMLDivElement|null} */ (null));
  // Keep the tick of the question in view visible inside the (scrolling) rail; by hand,
  // as scrollIntoView would move the timeline too.
  useEffect(() => {
    const box = ticksRef.current;
    const el = box?.querySelector("[data-here=true]");
    if (!box || !el) return;
    const b = box.getBoundingClientRect(), r = el.getBoundingClientRect();
    if (r.top < b.top) box.scrollTop -= b.top - r.top;
    else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
  }, [here, shown]);
  return html`
    <nav
      ref=${ref}
      class="q-rail"
      hidden=${!shown}
      aria-label=${t("palette.questions")}
      data-testid="question-rail"
    >
      ${shown && html`
        <button
          type="button"
          class="q-rail-all"
          title=${t("palette.questions")}
          aria-label=${t("palette.questions")}
          data-testid="question-rail-all"
          onClick=${() => openOverlay("questions")}
        >
          ${qs.length}
        </button>
        <div class="q-rail-ticks" ref=${ticksRef} style=${`--q-slot:${railSlot(qs.length)}px`}>
          ${qs.map((q) =>
            html`
              <button
                type="button"
                class="q-tick"
                data-here=${q.id === here ? "true" : undefined}
                data-testid="question-tick"
                data-entry=${q.id}
                aria-label=${t("palette.jumpTo", { line: q.line || t("palette.questionEmpty") })}
                onClick=${() => scrollToEntry(q.id)}
              >
                <span class="q-tip" aria-hidden="true">${q.line ||
                  t("palette.questionEmpty")}</span>
              </button>
            `
          )}
        </div>
      `}
    </nav>
  `;
}
