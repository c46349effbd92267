/**
 * Small pieces of the virtualised timeline: the measured slot around a turn, the
 * "Load earlier (N left)" button and the "back to bottom" button.
 */
import { useLayoutEffect, useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";

/**
 * A turn's box, observed for its height while it is rendered.
 * @param {{id: string, observer: ResizeObserver|null, children: any}} props
 */
export function TurnSlot({ id, observer, children }) {
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !observer) return;
    observer.observe(el);
    return () => observer.unobserve(el);
  }, [observer]);
  return html`<div class="tl-item" ref=${ref} data-turn-key=${id}>${children}</div>`;
}

/** @param {{count: number, busy: boolean, onLoad: () => void}} props */
export function LoadEarlier({ count, busy, onLoad }) {
  return html`
    <div class="tl-more-row">
      <button
        type="button"
        class="btn btn-small tl-more"
        data-testid="load-earlier"
        disabled=${busy}
        aria-busy=${busy ? "true" : "false"}
        onClick=${onLoad}
      >
        ${busy ? t("history.loading") : t("history.loadEarlier", { count })}
      </button>
    </div>
  `;
}

/** @param {{onClick: () => void}} props */
export function BackToBottom({ onClick }) {
  return html`
    <button
      type="button"
      class="tl-bottom"
      data-testid="back-to-bottom"
      aria-label=${t("history.backToBottom")}
      title=${t("history.backToBottom")}
      onClick=${onClick}
    >
      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none"
        stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
        <path d="M12 5v14M6 13l6 6 6-6" />
      </svg>
      <span class="tl-bottom-label">${t("history.backToBottom")}</span>
    </button>
  `;
}
