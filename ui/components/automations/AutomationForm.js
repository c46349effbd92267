/**
 * Create / edit an automation: name, prompt, the schedule (presets hourly · daily ·
 * weekdays · weekly · monthly, or a custom rule: every N minutes/hours/days/weeks/
 * months with time, weekdays, dates), model, project and approval mode (default
 * `edit`; `full` is marked as running every tool without asking). Nothing is stored
 * before Save; the server's refusal is shown as it is.
 *
 * @typedef {import("../../../protocol/index.ts").Automation} Automation
 * @typedef {import("../../../protocol/index.ts").ScheduleRule} ScheduleRule
 * @typedef {import("../../../protocol/index.ts").SchedulePreset} SchedulePreset
 * @typedef {import("../../../protocol/index.ts").ApprovalMode} ApprovalMode
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  APPROVAL_MODES,
  AUTOMATION_LIMITS,
  inferPreset,
  MAX_INTERVAL,
  presetRule,
  SCHEDULE_PRESETS,
  SCHEDULE_UNITS,
} from "../../../protocol/index.ts";
import { usableModels } from "../../state/settings.js";
import { projects } from "../../state/projects.js";
import { automationForm, createAutomation, updateAutomation } from "../../state/automations.js";
import { describeRule, weekdayName } from "./describe.js";

const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
const DATES = Array.from({ length: 31 }, (_, i) => i + 1);
const WEEK = [1, 2, 3, 4, 5, 6, 0]; // Monday first on the chips

/**
 * Toggle chips (weekdays or dates); `single` = exactly one chosen (the presets).
 * @param {{values: number[], chosen: number[], label: (v: number) => string, single: boolean,
 *   onChange: (v: number[]) => void, testid: string, name: string}} props
 */
function Chips({ values, chosen, label, single, onChange, testid, name }) {
  return html`
    <div class="auto-chips" role="group" aria-label=${name} data-testid=${testid}>
      ${values.map((v) => {
        const on = chosen.includes(v);
        return html`
          <button type="button" class="auto-chip" aria-pressed=${on ? "true" : "false"}
            data-value=${v}
            onClick=${() =>
              onChange(
                single
                  ? [v]
                  : on
                  ? chosen.filter((x) => x !== v)
                  : [...chosen, v].sort((a, b) => a - b),
              )}>${label(v)}</button>
        `;
      })}
    </div>
  `;
}

/** @param {{automation: Automation|null}} props */
export function AutomationForm({ automation }) {
  const [name, setName] = useState(automation?.name ?? "");
  const [prompt, setPrompt] = useState(automation?.prompt ?? "");
  const [rule, setRule] = useState(
    /** @type {ScheduleRule} */ (automation?.rule ?? presetRule("daily")),
  );
  const [preset, setPreset] = useState(/** @type {SchedulePreset} */ (inferPreset(rule)));
  const [model, setModel] = useState(
    automation?.model ? `${automation.model.providerId}\n${automation.model.modelId}` : "",
  );
  const [project, setProject] = useState(automation?.projectPath ?? "");
  const [approval, setApproval] = useState(
    /** @type {ApprovalMode} */ (automation?.approval ?? "edit"),
  );
  const [error, setError] = useState(/** @type {string|null} */ (null));
  const [saving, setSaving] = useState(false);

  /** @param {Partial<ScheduleRule>} patch */
  const change = (patch) => setRule({ ...rule, ...patch });
  const custom = preset === "custom";
  const timeOfDay = rule.unit === "daily" || rule.unit === "weekly" || rule.unit === "monthly";

  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (!name.trim() || !prompt.trim()) {
      setError(t("automations.form.required"));
      return;
    }
    const [providerId, modelId] = model.split("\n");
    const args = {
      name: name.trim(),
      prompt,
      rule,
      model: model ? { providerId, modelId } : null,
      projectPath: project || null,
      approval,
    };
    setSaving(true);
    const err = automation
      ? await updateAutomation({ id: automation.id, ...args })
      : await createAutomation(args);
    setSaving(false);
    if (err) setError(err);
    else automationForm.value = null;
  };

  const modelGone = automation?.model &&
    !usableModels.value.some((g) =>
      g.provider.id === automation.model?.providerId &&
      g.models.some((m) => m.id === automation.model?.modelId)
    );
  return html`
    <form class="provider-card auto-form" data-testid="automation-form" onSubmit=${submit}
      aria-label=${automation ? t("automations.form.editTitle") : t("automations.form.addTitle")}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === "Escape" && !e.isComposing) automationForm.value = null;
      }}>
      <h3 class="provider-title">${automation
        ? t("automations.form.editTitle")
        : t("automations.form.addTitle")}</h3>
      <div class="field">
        <label class="field-label" for="auto-name">${t("automations.form.name")}</label>
        <input id="auto-name" class="input" data-testid="automation-name" value=${name}
          maxlength=${AUTOMATION_LIMITS.nameChars} autocomplete="off"
          placeholder=${t("automations.form.namePlaceholder")}
          onInput=${(/** @type {Event} */ e) =>
            setName(/** @type {HTMLInputElement} */ (e.currentTarget).value)} />
      </div>
      <div class="field">
        <label class="field-label" for="auto-prompt">${t("automations.form.prompt")}</label>
        <textarea id="auto-prompt" class="input" rows="4" data-testid="automation-prompt"
          maxlength=${AUTOMATION_LIMITS.promptChars} value=${prompt}
          placeholder=${t("automations.form.promptPlaceholder")}
          onInput=${(/** @type {Event} */ e) =>
            setPrompt(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value)}></textarea>
      </div>
      <div class="field">
        <span class="field-label" id="auto-freq">${t("automations.form.frequency")}</span>
        <div class="auto-presets" role="group" aria-labelledby="auto-freq">
          ${SCHEDULE_PRESETS.map((p) =>
            html`
              <button type="button" class="auto-chip" data-testid=${`automation-preset-${p}`}
                aria-pressed=${preset === p ? "true" : "false"}
                onClick=${() => {
                  setPreset(p);
                  setRule(presetRule(p, rule));
                }}>${t(/** @type {const} */ (`automations.preset.${p}`))}</button>
            `
          )}
        </div>
      </div>
      ${custom &&
        html`
          <div class="field-row auto-every">
            <label class="field-label" for="auto-interval">${t("automations.form.every")}</label>
            <input id="auto-interval" class="input input-narrow" type="number" min="1"
              max=${MAX_INTERVAL[rule.unit]} data-testid="automation-interval" value=${rule
                .interval}
              onInput=${(/** @type {Event} */ e) =>
                change({
                  interval: Math.max(
                    1,
                    Number(/** @type {HTMLInputElement} */ (e.currentTarget).value) || 1,
                  ),
                })} />
            <select class="input" data-testid="automation-unit" aria-label=${t(
              "automations.form.unit",
            )}
              value=${rule.unit}
              onChange=${(/** @type {Event} */ e) => {
                const unit = /** @type {ScheduleRule["unit"]} */ (
                  /** @type {HTMLSelectElement} */ (e.currentTarget).value
                );
                change({
                  unit,
                  weekdays: unit === "weekly" && !rule.weekdays.length ? [1] : rule.weekdays,
                  monthDays: unit === "monthly" && !rule.monthDays.length ? [1] : rule.monthDays,
                });
              }}>
              ${SCHEDULE_UNITS.map((u) =>
                html`<option value=${u}>${
                  t(/** @type {const} */ (`automations.unit.${u}`))
                }</option>`
              )}
            </select>
          </div>
        `}
      ${rule.unit === "weekly" && preset !== "weekdays" &&
        html`
          <${Chips} values=${WEEK} chosen=${rule.weekdays} label=${weekdayName} single=${!custom}
            name=${t("automations.form.weekdays")} testid="automation-weekdays"
            onChange=${(/** @type {number[]} */ v) => change({ weekdays: v })} />
        `}
      ${rule.unit === "monthly" &&
        html`
          <${Chips} values=${DATES} chosen=${rule.monthDays} label=${String} single=${!custom}
            name=${t("automations.form.dates")} testid="automation-dates"
            onChange=${(/** @type {number[]} */ v) => change({ monthDays: v })} />
        `}
      ${timeOfDay &&
        html`
          <div class="field-row">
            <label class="field-label" for="auto-time">${t("automations.form.time")}</label>
            <input id="auto-time" type="time" class="input input-narrow" data-testid="automation-time"
              value=${`${pad(rule.hour)}:${pad(rule.minute)}`}
              onInput=${(/** @type {Event} */ e) => {
                const [h, m] = /** @type {HTMLInputElement} */ (e.currentTarget).value.split(":");
                if (h !== undefined && m !== undefined) {
                  change({ hour: Number(h), minute: Number(m) });
                }
              }} />
          </div>
        `}
      ${rule.unit === "hourly" &&
        html`
          <div class="field-row">
            <label class="field-label" for="auto-minute">${t("automations.form.minute")}</label>
            <input id="auto-minute" type="number" min="0" max="59" class="input input-narrow"
              data-testid="automation-minute" value=${rule.minute}
              onInput=${(/** @type {Event} */ e) =>
                change({
                  minute: Math.min(
                    59,
                    Math.max(
                      0,
                      Number(/** @type {HTMLInputElement} */ (e.currentTarget).value) || 0,
                    ),
                  ),
                })} />
          </div>
        `}
      <p class="field-help" data-testid="automation-summary">${describeRule(rule)} · ${t(
        "automations.form.localTime",
      )}</p>
      <div class="auto-form-grid">
        <div class="field">
          <label class="field-label" for="auto-model">${t("automations.form.model")}</label>
          <select id="auto-model" class="input" data-testid="automation-model" value=${model}
            onChange=${(/** @type {Event} */ e) =>
              setModel(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
            <option value="">${t("automations.form.defaultModel")}</option>
            ${modelGone &&
              html`<option value=${model}>${automation?.model?.providerId} / ${automation?.model?.modelId}</option>`}
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
        </div>
        <div class="field">
          <label class="field-label" for="auto-project">${t("automations.form.project")}</label>
          <select id="auto-project" class="input" data-testid="automation-project" value=${project}
            onChange=${(/** @type {Event} */ e) =>
              setProject(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
            <option value="">${t("automations.form.defaultProject")}</option>
            ${project && !projects.value.some((p) => p.path === project) &&
              html`<option value=${project}>${project}</option>`}
            ${projects.value.map((p) => html`<option value=${p.path}>${p.name}</option>`)}
          </select>
        </div>
        <div class="field">
          <label class="field-label" for="auto-approval">${t("automations.form.approval")}</label>
          <select id="auto-approval" class="input" data-testid="automation-approval" value=${approval}
            onChange=${(/** @type {Event} */ e) =>
              setApproval(
                /** @type {ApprovalMode} */ (/** @type {HTMLSelectElement} */ (e.currentTarget)
                  .value),
              )}>
            ${APPROVAL_MODES.map((m) =>
              html`<option value=${m}>${
                t(/** @type {const} */ (`automations.approval.${m}`))
              }</option>`
            )}
          </select>
          <p class=${`field-help${approval === "full" ? " field-warn" : ""}`}>
            ${t(
              approval === "full" ? "automations.form.fullWarn" : "automations.form.approvalHelp",
            )}
          </p>
        </div>
      </div>
      ${error &&
        html`<p class="field-help field-error" role="alert" data-testid="automation-error">${error}</p>`}
      <div class="form-actions">
        <button type="submit" class="btn btn-accent" data-testid="automation-save" disabled=${saving}>
          ${t("automations.form.save")}
        </button>
        <button type="button" class="btn" data-testid="automation-cancel"
          onClick=${() => automationForm.value = null}>${t("task.cancel")}</button>
      </div>
    </form>
  `;
}
