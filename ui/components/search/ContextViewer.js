/** The exact text of one context category (opened from the context panel). */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { closeViewer, viewing } from "../../state/context.js";
import { estimateTokens } from "../../../protocol/index.ts";
import { compactTokens } from "../../state/stats.js";
import { ViewerDialog } from "./ViewerDialog.js";

export function ContextViewer() {
  const v = viewing.value;
  if (!v) return null;
  const name = t(/** @type {const} */ (`ctx.cat.${v.key}`));
  const meta = v.text !== null && html`
    <span class="ctx-viewer-meta">${t("ctx.viewer.meta", {
      chars: v.text.length.toLocaleString(),
      tokens: compactTokens(estimateTokens(v.text)),
    })}</span>
  `;
  return html`
    <${ViewerDialog}
      title=${name}
      meta=${meta}
      onClose=${closeViewer}
      testid="ctx-viewer"
      closeTestid="ctx-viewer-close"
      attrs=${{ "data-cat": v.key }}
    >
      ${v.error
        ? html`<p class="ctx-msg" role="alert">${t("ctx.failed", { error: v.error })}</p>`
        : v.text === null
        ? html`<p class="ctx-msg">${t("ctx.loading")}</p>`
        : html`
          <pre class="ctx-viewer-text" data-format=${v.format} tabindex="0"
            data-testid="ctx-viewer-text">${v.text || t("ctx.viewer.empty")}</pre>
        `}
    <//>
  `;
}
