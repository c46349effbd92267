/**
 * Settings → General: the model that writes compaction summaries. Default:
 * each task's own model; a model chosen here that is gone or disabled is named as such
 * (the task's model then writes the summary).
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { compactModel, providers, setGeneral, usableModels } from "../../state/settings.js";

export function CompactModelField() {
  const c = compactModel.value;
  const value = c ? `${c.providerId}\n${c.modelId}` : "";
  const p = c ? providers.value.find((x) => x.id === c.providerId) : null;
  const m = c ? p?.models.find((x) => x.id === c.modelId) : null;
  const usable = !c || (p?.enabled && m?.enabled);
  return html`
    <div class="field">
      <label class="field-label" for="compact-model">${t("settings.compact.label")}</label>
      <select
        id="compact-model"
        class="input"
        data-testid="compact-model"
        value=${value}
        onChange=${(/** @type {Event} */ e) => {
          const v = /** @type {HTMLSelectElement} */ (e.currentTarget).value;
          const [providerId, modelId] = v.split("\n");
          setGeneral({ compactModel: v ? { providerId, modelId } : null });
        }}
      >
        <option value="">${t("settings.compact.same")}</option>
        ${c && !usable && html`<option value=${value}>${c.providerId} / ${c.modelId}</option>`}
        ${usableModels.value.map((g) =>
          html`
            <optgroup label=${g.provider.name}>
              ${g.models.map((x) =>
                html`<option value=${`${g.provider.id}\n${x.id}`}>${g.provider.name} · ${x.name}</option>`
              )}
            </optgroup>
          `
        )}
      </select>
      <p class=${`field-help${usable ? "" : " field-error"}`} data-testid="compact-model-help">
        ${usable ? t("settings.compact.help") : t("settings.compact.unusable")}
      </p>
    </div>
  `;
}
