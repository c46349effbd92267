/**
 * The add / edit form of the Memory page: title, type, one-line description, body.
 * What the user saves here counts as accepted (they wrote it).
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { MEMORY_LIMITS, MEMORY_TYPES } from "../../../protocol/index.ts";
import { memoryDraft, saveMemory } from "../../state/memory.js";

/** @param {{draft: import("../../state/memory.js").MemoryDraft}} props */
export function MemoryForm({ draft }) {
  const [f, setF] = useState(draft);
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const [busy, setBusy] = useState(false);
  /** @param {"title"|"description"|"type"|"body"} k */
  const set = (k) => (/** @type {Event} */ e) =>
    setF({ ...f, [k]: /** @type {HTMLInputElement} */ (e.currentTarget).value });
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    if (!f.title.trim()) return setErr(t("memory.form.titleRequired"));
    setBusy(true);
    const problem = await saveMemory(f);
    setBusy(false);
    if (problem) setErr(problem);
    else memoryDraft.value = null;
  };
  return html`
    <form class="provider-card memory-form" data-testid="memory-form" onSubmit=${submit}>
      <h3 class="provider-title">${draft.id ? t("memory.form.edit") : t("memory.form.new")}</h3>
      <div class="memory-form-grid">
        <div class="field">
          <label class="field-label" for="memory-title">${t("memory.form.title")}</label>
          <input id="memory-title" class="input" data-testid="memory-form-title" value=${f.title}
            maxlength=${MEMORY_LIMITS.titleChars} onInput=${set("title")} />
        </div>
        <div class="field">
          <label class="field-label" for="memory-type">${t("memory.form.type")}</label>
          <select id="memory-type" class="input" data-testid="memory-form-type" value=${f.type}
            onChange=${set("type")}>
            ${MEMORY_TYPES.map((x) =>
              html`<option value=${x}>${t(/** @type {const} */ (`memory.type.${x}`))}</option>`
            )}
          </select>
        </div>
      </div>
      <div class="field">
        <label class="field-label" for="memory-desc">${t("memory.form.description")}</label>
        <input id="memory-desc" class="input" data-testid="memory-form-description"
          value=${f.description} maxlength=${MEMORY_LIMITS.descriptionChars}
          placeholder=${t("memory.form.descriptionHelp")} onInput=${set("description")} />
      </div>
      <div class="field">
        <label class="field-label" for="memory-body">${t("memory.form.body")}</label>
        <textarea id="memory-body" class="input" rows="5" data-testid="memory-form-body"
          maxlength=${MEMORY_LIMITS.bodyChars} value=${f.body} onInput=${set("body")}></textarea>
      </div>
      ${err &&
        html`<p class="field-help field-error" role="alert" data-testid="memory-form-error">${err}</p>`}
      <div class="form-actions">
        <button type="button" class="btn" data-testid="memory-form-cancel"
          onClick=${() => memoryDraft.value = null}>${t("task.cancel")}</button>
        <button type="submit" class="btn btn-accent" data-testid="memory-form-save" disabled=${busy}>
          ${t("memory.form.save")}
        </button>
      </div>
    </form>
  `;
}
