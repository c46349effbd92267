/**
 * The request preview, opened from the context panel: the exact next request
 * of the task as the server would send it now — system prompt, tools, each message (the
 * reminder and microcompact included) — or the raw wire JSON.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { closePreview, preview, previewTab } from "../../state/context.js";
import { compactTokens } from "../../state/stats.js";
import { ViewerDialog } from "./ViewerDialog.js";

export function RequestPreview() {
  const p = preview.value;
  if (!p) return null;
  const r = p.data;
  const tab = previewTab.value;
  const meta = r &&
    html`<span class="ctx-viewer-meta" data-testid="preview-meta">${
      t("preview.meta", {
        model: r.model,
        format: r.format,
        n: r.messages.length,
        tokens: compactTokens(r.tokens),
      })
    }</span>`;
  return html`
    <${ViewerDialog}
      title=${t("preview.title")}
      meta=${meta}
      onClose=${closePreview}
      testid="request-preview"
      closeTestid="preview-close"
      extraClass="req-preview"
    >
        <div class="req-tabs" role="tablist">
          ${(/** @type {const} */ (["parts", "json"])).map((k) =>
            html`
              <button
                type="button"
                role="tab"
                class="req-tab"
                aria-selected=${tab === k ? "true" : "false"}
                data-testid=${`preview-tab-${k}`}
                onClick=${() => (previewTab.value = k)}
              >${t(/** @type {const} */ (`preview.tab.${k}`))}</button>
            `
          )}
        </div>
        ${p.error
          ? html`<p class="ctx-msg" role="alert">${t("ctx.failed", { error: p.error })}</p>`
          : !r
          ? html`<p class="ctx-msg">${t("ctx.loading")}</p>`
          : tab === "json"
          ? html`
            <pre class="ctx-viewer-text" data-format="json" tabindex="0"
              data-testid="preview-json">${JSON.stringify(r.body, null, 2)}</pre>
          `
          : html`
            <div class="req-parts" tabindex="0" data-testid="preview-parts">
              <${Part} label=${t("preview.system")} text=${r.system} kind="system" />
              <${Part}
                label=${t("preview.tools", { n: r.tools.length })}
                text=${r.tools.map((x) => `${x.name} — ${x.description.split("\n")[0]}`).join(
                  "\n",
                )}
                kind="tools"
              />
              ${r.messages.map((m, i) =>
                html`
                  <${Part}
                    key=${i}
                    label=${t(/** @type {const} */ (`preview.role.${m.role}`), { n: i + 1 })}
                    text=${m.text}
                    kind=${m.role}
                  />
                `
              )}
            </div>
          `}
    <//>
  `;
}

/** @param {{label: string, text: string, kind: string}} props */
function Part({ label, text, kind }) {
  return html`
    <section class="req-part" data-kind=${kind} data-testid="preview-part">
      <h3 class="req-part-label">${label}</h3>
      <pre class="req-part-text">${text || t("ctx.viewer.empty")}</pre>
    </section>
  `;
}
