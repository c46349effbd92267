/** The exact text of one context category (opened from the context panel). */
import { useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { closeViewer, viewing } from "../../state/context.js";
import { estimateTokens } from "../../../protocol/index.ts";
import { compactTokens } from "../../state/stats.js";
import { IconClose } from "../Icons.js";
import { useModalFocus } from "../useModalFocus.js";

export function ContextViewer() {
  return viewing.value ? html`<${Viewer} />` : null;
}

function Viewer() {
  const closeBtn = useRef(/** @type {HTMLButtonElement|null} */ (null));
  useModalFocus(closeBtn, closeViewer);
  const v = viewing.value;
  if (!v) return null;
  const name = t(/** @type {const} */ (`ctx.cat.${v.key}`));
  return html`
    <div class="search-backdrop" onClick=${closeViewer}>
      <div
        class="ctx-viewer"
        role="dialog"
        aria-modal="true"
        aria-label=${name}
        data-testid="ctx-viewer"
        data-cat=${v.key}
        onClick=${(/** @type {Event} */ e) => e.stopPropagation()}
      >
        <div class="ctx-viewer-head">
          <div class="ctx-viewer-title">
            <strong>${name}</strong>
            ${v.text !== null && html`
              <span class="ctx-viewer-meta">${t("ctx.viewer.meta", {
                chars: v.text.length.toLocaleString(),
                tokens: compactTokens(estimateTokens(v.text)),
              })}</span>
            `}
          </div>
          <button
            ref=${closeBtn}
            type="button"
            class="icon-btn"
            aria-label=${t("ctx.viewer.close")}
            data-testid="ctx-viewer-close"
            onClick=${closeViewer}
          >
            <${IconClose} />
          </button>
        </div>
        ${v.error
          ? html`<p class="ctx-msg" role="alert">${t("ctx.failed", { error: v.error })}</p>`
          : v.text === null
          ? html`<p class="ctx-msg">${t("ctx.loading")}</p>`
          : html`
            <pre class="ctx-viewer-text" data-format=${v.format} tabindex="0"
              data-testid="ctx-viewer-text">${v.text ||
                t("ctx.viewer.empty")}</pre>
          `}
      </div>
    </div>
  `;
}
