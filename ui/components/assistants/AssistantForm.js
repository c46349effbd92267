/**
 * Create or edit a custom assistant: id (new ones only; it names the file), name, icon,
 * description, the bound model / effort / MCP servers / skills (applied once when a
 * task starts with it) and the persona text. Nothing is stored before Save; the
 * server's refusal is shown in the form.
 *
 * @typedef {import("../../../protocol/index.ts").AssistantInput} AssistantInput
 */
import { useEffect, useState } from "preact/hooks";
import { ASSISTANT_ID_RE, ASSISTANT_LIMITS, EFFORT_LEVELS } from "../../../protocol/index.ts";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { assistantForm, saveAssistant } from "../../state/assistants.js";
import { loadMcp, mcpOverview } from "../../state/mcp.js";
import { usableModels } from "../../state/settings.js";

/** @param {string} s */
const splitList = (s) => s.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean);

/** @param {{mode: "new"|"edit", initial: AssistantInput}} props */
export function AssistantForm({ mode, initial }) {
  const [f, setF] = useState(initial);
  const [skills, setSkills] = useState(initial.skills.join(", "));
  const [error, setError] = useState(/** @type {string|null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => void (mcpOverview.value || loadMcp()), []);
  /** @param {keyof AssistantInput} k */
  const set = (k) => (/** @type {Event} */ e) =>
    setF({ ...f, [k]: /** @type {HTMLInputElement} */ (e.currentTarget).value });
  const idOk = ASSISTANT_ID_RE.test(f.id);
  const servers = [
    ...new Set([...(mcpOverview.value?.servers.map((s) => s.config.id) ?? []), ...f.mcpServers]),
  ];
  const modelValue = f.model ? `${f.model.providerId}\n${f.model.modelId}` : "";
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (!idOk || !f.name.trim()) return;
    setBusy(true);
    const err = await saveAssistant(
      { ...f, name: f.name.trim(), skills: splitList(skills) },
      mode === "new" ? "new" : "replace",
    );
    setBusy(false);
    if (err) setError(err);
    else assistantForm.value = null;
  };
  const title = mode === "new"
    ? t("assistants.form.newTitle")
    : t("assistants.form.editTitle", { name: initial.name });
  return html`
    <form class="provider-card assistant-form" data-testid="assistant-form" onSubmit=${submit}
      aria-label=${title}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === "Escape" && !e.isComposing) assistantForm.value = null;
      }}>
      <h3 class="provider-title">${title}</h3>
      <div class="assistant-form-grid assistant-name-icon">
        <div class="field">
          <label class="field-label" for="assistant-name">${t("assistants.form.name")}</label>
          <input id="assistant-name" class="input" data-testid="assistant-form-name" value=${f.name}
            maxlength=${ASSISTANT_LIMITS.nameChars} required onInput=${set("name")} />
        </div>
        <div class="field">
          <label class="field-label" for="assistant-icon">${t("assistants.form.icon")}</label>
          <input id="assistant-icon" class="input" data-testid="assistant-form-icon"
            value=${f.icon} maxlength=${ASSISTANT_LIMITS.iconChars} placeholder="🧭"
            onInput=${set("icon")} />
        </div>
      </div>
      <div class="field">
        <label class="field-label" for="assistant-id">${t("assistants.form.id")}</label>
        <input id="assistant-id" class="input mono" data-testid="assistant-form-id" value=${f.id}
          disabled=${mode === "edit"} autocomplete="off" spellcheck=${false}
          maxlength=${ASSISTANT_LIMITS.idChars} placeholder="reviewer" onInput=${set("id")} />
        <p class=${`field-help${
          f.id && !idOk ? " field-error" : ""
        }`} data-testid="assistant-form-id-help">
          ${f.id && !idOk ? t("assistants.form.idBad") : t("assistants.form.idHelp")}
        </p>
      </div>
      <div class="field">
        <label class="field-label" for="assistant-desc">${t("assistants.form.description")}</label>
        <input id="assistant-desc" class="input" data-testid="assistant-form-description"
          value=${f.description} maxlength=${ASSISTANT_LIMITS.descriptionChars}
          onInput=${set("description")} />
      </div>
      <div class="field">
        <label class="field-label" for="assistant-persona">${t("assistants.form.persona")}</label>
        <textarea id="assistant-persona" class="input assistant-persona" rows="8"
          data-testid="assistant-form-persona" maxlength=${ASSISTANT_LIMITS.personaChars}
          placeholder=${t("assistants.form.personaPlaceholder")} value=${f.persona}
          onInput=${set("persona")}></textarea>
        <p class="field-help">${t("assistants.form.personaHelp", {
          n: f.persona.length,
          max: ASSISTANT_LIMITS.personaChars,
        })}</p>
      </div>
      <fieldset class="assistant-bindings">
        <legend class="field-label">${t("assistants.form.bindings")}</legend>
        <p class="field-help">${t("assistants.form.bindingsHelp")}</p>
        <div class="assistant-form-grid">
          <div class="field">
            <label class="field-label" for="assistant-model">${t("assistants.form.model")}</label>
            <select id="assistant-model" class="input" data-testid="assistant-form-model"
              value=${modelValue}
              onChange=${(/** @type {Event} */ e) => {
                const v = /** @type {HTMLSelectElement} */ (e.currentTarget).value;
                const [providerId, modelId] = v.split("\n");
                setF({ ...f, model: v ? { providerId, modelId } : null });
              }}>
              <option value="">${t("assistants.form.noBinding")}</option>
              ${f.model &&
                !usableModels.value.some((g) =>
                  g.provider.id === f.model?.providerId &&
                  g.models.some((m) => m.id === f.model?.modelId)
                ) &&
                html`<option value=${modelValue}>${f.model.providerId} / ${f.model.modelId}</option>`}
              ${usableModels.value.map((g) =>
                html`
                  <optgroup label=${g.provider.name}>
                    ${g.models.map((m) =>
                      html`<option value=${`${g.provider.id}\n${m.id}`}>${g.provider.name} · ${m.name}</option>`
                    )}
                  </optgroup>
                `
              )}
            </select>
          </div>
          <div class="field">
            <label class="field-label" for="assistant-effort">${t("assistants.form.effort")}</label>
            <select id="assistant-effort" class="input" data-testid="assistant-form-effort"
              value=${f.effort ?? ""}
              onChange=${(/** @type {Event} */ e) => {
                const v = /** @type {HTMLSelectElement} */ (e.currentTarget).value;
                setF({ ...f, effort: /** @type {any} */ (v || null) });
              }}>
              <option value="">${t("assistants.form.noBinding")}</option>
              ${EFFORT_LEVELS.map((x) =>
                html`<option value=${x}>${t(/** @type {const} */ (`effort.${x}`))}</option>`
              )}
            </select>
          </div>
        </div>
        <div class="field">
          <span class="field-label">${t("assistants.form.mcp")}</span>
          ${servers.length === 0
            ? html`<p class="field-help">${t("assistants.form.mcpNone")}</p>`
            : html`
              <div class="assistant-mcp-list" data-testid="assistant-form-mcp">
                ${servers.map((id) =>
                  html`
                    <label class="assistant-mcp-item">
                      <input type="checkbox" value=${id} checked=${f.mcpServers.includes(id)}
                        onChange=${(/** @type {Event} */ e) => {
                          const on = /** @type {HTMLInputElement} */ (e.currentTarget).checked;
                          setF({
                            ...f,
                            mcpServers: on
                              ? [...f.mcpServers, id]
                              : f.mcpServers.filter((x) => x !== id),
                          });
                        }} />
                      <span class="mono">${id}</span>
                    </label>
                  `
                )}
              </div>
              <p class="field-help">${t("assistants.form.mcpHelp")}</p>
            `}
        </div>
        <div class="field">
          <label class="field-label" for="assistant-skills">${t("assistants.form.skills")}</label>
          <input id="assistant-skills" class="input mono" data-testid="assistant-form-skills"
            value=${skills} spellcheck=${false} placeholder="pdf, docx"
            onInput=${(/** @type {Event} */ e) =>
              setSkills(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
          <p class="field-help">${t("assistants.form.skillsHelp")}</p>
        </div>
      </fieldset>
      ${error &&
        html`<p class="field-help field-error" role="alert" data-testid="assistant-form-error">${error}</p>`}
      <div class="form-actions">
        <button type="button" class="btn" data-testid="assistant-form-cancel"
          onClick=${() => assistantForm.value = null}>${t("assistants.form.cancel")}</button>
        <button type="submit" class="btn btn-accent" data-testid="assistant-form-save"
          disabled=${busy || !idOk || !f.name.trim()}>${t("assistants.form.save")}</button>
      </div>
    </form>
  `;
}
