/**
 * The composer's approval-mode menu: plan / ask / edit / full, each with
 * an icon, a title and a one-line description; `full` in the warning colour, and the
 * button says the mode in words (a short word on phones) with its meaning in the
 * tooltip, so "no prompts" is never just an icon. Below,
 * for a task, its own shell sandbox level and its tool rules ("Always allow" and the
 * like), each rule with a Remove that sends the tool back to what the mode says, and
 * "Edit this task's rules…", which opens them in Settings (add, change, remove).
 */
import { APPROVAL_MODES, SANDBOX_LEVELS } from "../../protocol/index.ts";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import {
  deciding,
  policyList,
  removePolicy,
  removeRule,
  taskRuleList,
} from "../state/approvals.js";
import { activeOptions, setOption, setTaskSandbox } from "../state/run_actions.js";
import { currentId, currentTask } from "../state/tasks.js";
import { openTaskRules, sandboxLevel, taskSandbox } from "../state/settings.js";
import { IconGear } from "./settings/controls.js";
import { Menu } from "./Menu.js";
import { MenuItem } from "./MenuItem.js";
import { IconAsk, IconBolt, IconChevronDown, IconEdit, IconPlan, IconX } from "./RunIcons.js";

const ICONS = { plan: IconPlan, ask: IconAsk, edit: IconEdit, full: IconBolt };

/** The shown task's own shell sandbox level (a new task starts at the system level). */
function TaskSandboxLevel() {
  const task = currentTask.value;
  if (!currentId.value || !task) return null;
  const level = task.settings.sandbox ?? sandboxLevel.value;
  return html`
    <div class="opt-group" data-testid="task-sandbox">
      <div class="opt-group-label" id="task-sandbox-label">${t("sandbox.task.title")}</div>
      <div class="pills task-sandbox-pills" role="group" aria-labelledby="task-sandbox-label">
        ${SANDBOX_LEVELS.map((l) =>
          html`
            <button
              type="button"
              class=${`pill${l === "off" ? " pill-warn" : ""}`}
              data-testid="task-sandbox-option"
              data-value=${l}
              aria-pressed=${l === level ? "true" : "false"}
              onClick=${() => l !== level && setTaskSandbox(task.id, l)}
            >${t(/** @type {const} */ (`safety.level.${l}`))}</button>
          `
        )}
      </div>
    </div>
  `;
}

/** The shown task's tool rules, each removable. */
function Policies() {
  const taskId = currentId.value;
  const list = taskId ? policyList(currentTask.value?.settings) : [];
  const rules = taskId ? taskRuleList(currentTask.value?.settings) : [];
  if (!taskId || (!list.length && !rules.length)) return null;
  const mode = t(/** @type {const} */ (`approval.${activeOptions.value.approval}`));
  return html`
    <div class="opt-group" data-testid="policy-list">
      <div class="opt-group-label">${t("policies.title")}</div>
      <p class="policy-hint">${t("policies.hint", { mode })}</p>
      ${list.map(({ tool, policy }) => {
        const busy = deciding.value.has(`policy:${taskId}:${tool}`);
        return html`
          <div class="policy-row" data-testid="policy-row" data-tool=${tool} data-policy=${policy}>
            <span class="policy-text">
              <span class="policy-tool" title=${tool}>${tool}</span>
              <span class=${`policy-kind policy-${policy}`}>${t(
                /** @type {const} */ (`policies.${policy}`),
              )}</span>
            </span>
            <button
              type="button"
              role="menuitem"
              class="policy-remove"
              data-testid="policy-remove"
              disabled=${busy}
              aria-label=${t("policies.removeTitle", { tool, mode })}
              title=${t("policies.removeTitle", { tool, mode })}
              onClick=${() => removePolicy(taskId, tool)}
            >
              <${IconX} size=${14} />
              <span>${t("policies.remove")}</span>
            </button>
          </div>
        `;
      })}
      ${rules.map(({ rule, policy }) => {
        const busy = deciding.value.has(`rule:${taskId}:${rule}`);
        return html`
          <div class="policy-row" data-testid="task-rule-row" data-policy=${policy}>
            <span class="policy-text">
              <span class="policy-tool" title=${rule}>${rule}</span>
              <span class=${`policy-kind policy-${policy}`}>${t(
                /** @type {const} */ (`policies.${policy}`),
              )}</span>
            </span>
            <button
              type="button"
              role="menuitem"
              class="policy-remove"
              data-testid="task-rule-remove"
              disabled=${busy}
              aria-label=${t("policies.removeTitle", { tool: rule, mode })}
              title=${t("policies.removeTitle", { tool: rule, mode })}
              onClick=${() => removeRule(taskId, rule)}
            >
              <${IconX} size=${14} />
              <span>${t("policies.remove")}</span>
            </button>
          </div>
        `;
      })}
    </div>
  `;
}

export function ApprovalMenu() {
  const opts = activeOptions.value;
  const mode = opts.approval;
  const Icon = ICONS[mode] ?? IconAsk;
  const name = t(/** @type {const} */ (`approval.${mode}`));
  return html`
    <${Menu}
      testid="approval-select"
      title=${t("tools.approval")}
      value=${`${name} — ${t(/** @type {const} */ (`approval.${mode}.desc`))}`}
      tone=${mode === "full" ? "tool-warn" : ""}
      button=${html`
        <${Icon} size=${15} />
        <span class="tool-label tl-long" data-testid="approval-label">${name}</span>
        <span class="tool-label tl-short" data-testid="approval-short" aria-hidden="true">${t(
          /** @type {const} */ (`approval.${mode}.short`),
        )}</span>
        <${IconChevronDown} size=${13} />
      `}
    >
      ${(/** @type {() => void} */ close) =>
        html`
          <div class="opt-group">
            ${APPROVAL_MODES.map((m) => {
              const ModeIcon = ICONS[m];
              return html`
                <${MenuItem}
                  testid="approval-option"
                  value=${m}
                  checked=${m === mode}
                  tone=${m === "full" ? "mi-warn" : ""}
                  icon=${html`<${ModeIcon} size=${18} />`}
                  title=${t(/** @type {const} */ (`approval.${m}`))}
                  desc=${t(/** @type {const} */ (`approval.${m}.desc`))}
                  onSelect=${() => {
                    close();
                    if (m !== mode || opts.inherited.approval) setOption("approval", m);
                  }}
                />
              `;
            })}
          </div>
          <${TaskSandboxLevel} />
          ${taskSandbox.value !== "ok" &&
            html`<p class="approval-menu-note" data-testid="approval-unsandboxed-note">${
              t(
                /** @type {const} */ (`approval.menu.unsandboxed.${taskSandbox.value}`),
              )
            }</p>`}
          <${Policies} />
          ${currentId.value &&
            html`
              <div class="opt-group">
                <${MenuItem}
                  testid="edit-task-rules"
                  role="menuitem"
                  checked=${false}
                  icon=${html`<${IconGear} size=${18} />`}
                  title=${t("policies.edit")}
                  desc=${t("policies.editDesc")}
                  onSelect=${() => {
                    close();
                    openTaskRules();
                  }}
                />
              </div>
            `}
        `}
    <//>
  `;
}
