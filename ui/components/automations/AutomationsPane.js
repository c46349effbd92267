/**
 * Settings → Automations (also the sidebar's clock): scheduled prompts, each row with
 * its schedule, next run, approval mode and run count; enable, run now, edit, two-step
 * delete. Below, the run history: outcome, when, and a link to the task it created.
 * The page says plainly that runs need the server running and that missed runs are not
 * replayed.
 *
 * @typedef {import("../../../protocol/index.ts").Automation} Automation
 * @typedef {import("../../../protocol/index.ts").AutomationRun} AutomationRun
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import {
  automationForm,
  automationRuns,
  automations,
  deleteAutomation,
  loadAutomations,
  runAutomationNow,
  updateAutomation,
} from "../../state/automations.js";
import { openTask, tasksById } from "../../state/tasks.js";
import { closeSettings } from "../../state/settings.js";
import { IconEdit, IconPlus, IconTrash, InlineConfirm, Switch } from "../settings/controls.js";
import { AutomationForm } from "./AutomationForm.js";
import { describeRule, when } from "./describe.js";

/** @param {{a: Automation}} props */
function AutomationRow({ a }) {
  const [confirm, setConfirm] = useState(false);
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const running = automationRuns.value.some((r) =>
    r.automationId === a.id && r.status === "running"
  );
  return html`
    <li class="auto-row" data-testid="automation-row" data-id=${a.id}
      data-enabled=${a.enabled ? "true" : "false"}>
      <div class="auto-row-main">
        <div class="auto-row-title">
          <span class="auto-name">${a.name}</span>
          <span class="badge" data-testid="automation-rule">${describeRule(a.rule)}</span>
          <span class=${`badge auto-mode auto-mode-${a.approval}`} data-testid="automation-mode">
            ${t(/** @type {const} */ (`automations.mode.${a.approval}`))}
          </span>
        </div>
        <div class="auto-prompt" title=${a.prompt}>${a.prompt}</div>
        <div class="auto-meta">
          <span data-testid="automation-next">${a.enabled && a.nextRunAt
            ? t("automations.next", { when: when(a.nextRunAt) })
            : t("automations.paused")}</span>
          <span data-testid="automation-count">${tn("automations.runs", a.runCount)}</span>
        </div>
        ${a.lastError &&
          html`<div class="field-help field-error" data-testid="automation-last-error">${a.lastError}</div>`}
        ${err && html`<p class="field-help field-error" role="alert">${err}</p>`}
      </div>
      <div class="auto-row-actions">
        <${Switch}
          checked=${a.enabled}
          label=${t("automations.enabled")}
          testid="automation-enable"
          onChange=${async (/** @type {boolean} */ v) =>
            setErr(await updateAutomation({ id: a.id, enabled: v }))}
        />
        <button type="button" class="btn btn-small" data-testid="automation-run-now"
          disabled=${running}
          onClick=${async () => setErr(await runAutomationNow(a.id))}>
          ${running ? t("automations.running") : t("automations.runNow")}
        </button>
        <button type="button" class="icon-btn" data-testid="automation-edit"
          title=${t("automations.edit")} aria-label=${t("automations.edit")}
          onClick=${() =>
            automationForm.value = { automation: a }}><${IconEdit} size=${16} /></button>
        ${confirm
          ? html`
            <${InlineConfirm}
              text=${t("automations.deleteConfirm", { name: a.name })}
              confirmLabel=${t("automations.delete")}
              testid="automation-delete-confirm"
              onConfirm=${async () => {
                setConfirm(false);
                setErr(await deleteAutomation(a.id));
              }}
              onCancel=${() => setConfirm(false)}
            />
          `
          : html`
            <button type="button" class="icon-btn" data-testid="automation-delete"
              title=${t("automations.delete")} aria-label=${t("automations.delete")}
              onClick=${() => setConfirm(true)}><${IconTrash} size=${16} /></button>
          `}
      </div>
    </li>
  `;
}

/** @param {{run: AutomationRun, name: string}} props */
function RunRow({ run, name }) {
  const task = run.taskId ? tasksById.value.get(run.taskId) : undefined;
  return html`
    <li class="auto-run" data-testid="automation-run" data-status=${run.status}>
      <span class=${`badge auto-status auto-status-${run.status}`} data-testid="automation-run-status">
        ${t(/** @type {const} */ (`automations.status.${run.status}`))}
      </span>
      <span class="auto-run-name">${name}</span>
      <span class="auto-run-when">${when(run.dueAt)} · ${t(
        /** @type {const} */ (`automations.trigger.${run.trigger}`),
      )}</span>
      ${run.taskId && task
        ? html`
          <button type="button" class="link-btn" data-testid="automation-run-task"
            onClick=${() => {
              openTask(/** @type {string} */ (run.taskId));
              closeSettings();
            }}>${t("automations.openTask")}</button>
        `
        : run.taskId && html`<span class="auto-faint">${t("automations.taskGone")}</span>`}
      ${run.error && html`<span class="auto-run-error" title=${run.error}>${run.error}</span>`}
    </li>
  `;
}

export function AutomationsPane() {
  useEffect(() => void loadAutomations(), []);
  const list = automations.value;
  const form = automationForm.value;
  const names = new Map((list ?? []).map((a) => [a.id, a.name]));
  return html`
    <section class="settings-section auto-pane" data-testid="automations-pane"
      aria-labelledby="auto-title">
      <div class="mcp-head">
        <h2 id="auto-title" class="provider-title">${t("automations.title")}</h2>
        <span class="grow"></span>
        <button type="button" class="btn btn-accent" data-testid="automation-add"
          onClick=${() => automationForm.value = { automation: null }}>
          <${IconPlus} size=${16} /> ${t("automations.add")}
        </button>
      </div>
      <p class="settings-note">${t("automations.intro")}</p>
      <p class="settings-note auto-missed" data-testid="automations-missed-note">
        ${t("automations.missedNote")}
      </p>
      ${form &&
        html`<${AutomationForm} key=${
          form.automation?.id ?? "new"
        } automation=${form.automation} />`}
      ${!list
        ? html`<p class="settings-note">${t("settings.loading")}</p>`
        : list.length === 0
        ? html`<p class="settings-note" data-testid="automations-empty">${
          t("automations.empty")
        }</p>`
        : html`<ul class="auto-list" data-testid="automations-list">
          ${list.map((a) => html`<${AutomationRow} key=${a.id} a=${a} />`)}
        </ul>`}
      ${list && list.length > 0 &&
        html`
          <h3 class="auto-subtitle">${t("automations.history")}</h3>
          ${automationRuns.value.length === 0
            ? html`<p class="settings-note" data-testid="automation-runs-empty">${
              t("automations.noRuns")
            }</p>`
            : html`<ul class="auto-runs" data-testid="automation-runs">
              ${
              automationRuns.value.map((r) =>
                html`<${RunRow} key=${r.id} run=${r} name=${names.get(r.automationId) ?? ""} />`
              )
            }
            </ul>`}
        `}
    </section>
  `;
}
