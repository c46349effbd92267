/**
 * Settings → Assistants: every assistant with its icon, name, description
 * and bindings; the global default (a new task starts with it) is set here. Built-ins
 * are read-only (Duplicate makes an editable copy); custom ones can be edited and
 * deleted (two-step). Files that could not be used are listed with their problem —
 * they are left as they are.
 *
 * @typedef {import("../../../protocol/index.ts").Assistant} Assistant
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import {
  assistantForm,
  assistantList,
  deleteAssistant,
  formOf,
  loadAssistants,
  setDefaultAssistant,
} from "../../state/assistants.js";
import { IconEdit, IconPlus, IconTrash, InlineConfirm } from "../settings/controls.js";
import { AssistantForm } from "./AssistantForm.js";
import { assistantDesc, assistantName } from "./labels.js";
import { AssistantIcon } from "./AssistantIcon.js";

/** The bound model / effort / MCP servers / skills in one line ("" when none). @param {Assistant} a */
function bindingsLine(a) {
  const parts = [];
  if (a.model) parts.push(`${a.model.providerId} / ${a.model.modelId}`);
  if (a.effort) parts.push(t(/** @type {const} */ (`effort.${a.effort}`)));
  if (a.mcpServers.length) parts.push(`MCP: ${a.mcpServers.join(", ")}`);
  if (a.skills.length) parts.push(`${t("assistants.skills")}: ${a.skills.join(", ")}`);
  return parts.join(" · ");
}

/** @param {{a: Assistant, isDefault: boolean}} props */
function AssistantRow({ a, isDefault }) {
  const [confirm, setConfirm] = useState(false);
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const name = assistantName(a);
  const bound = bindingsLine(a);
  return html`
    <li class="assistant-row" data-testid="assistant-row" data-assistant=${a.id}
      data-default=${isDefault ? "true" : "false"}>
      <span class="assistant-row-icon"><${AssistantIcon} a=${a} size=${22} /></span>
      <div class="assistant-row-main">
        <div class="assistant-row-title">
          <span class="assistant-row-name">${name}</span>
          ${a.builtin &&
            html`<span class="badge" data-testid="assistant-builtin">${
              t("assistants.builtin")
            }</span>`}
          ${isDefault &&
            html`<span class="badge assistant-default" data-testid="assistant-default">${
              t(
                "assistants.default",
              )
            }</span>`}
        </div>
        ${assistantDesc(a) && html`<div class="assistant-desc">${assistantDesc(a)}</div>`}
        ${bound && html`<div class="assistant-bound" data-testid="assistant-bound">${bound}</div>`}
        ${a.persona &&
          html`
            <details class="assistant-persona-box">
              <summary>${t("assistants.showPersona")}</summary>
              <pre class="assistant-persona-text" data-testid="assistant-persona">${a.persona}</pre>
            </details>
          `}
        ${err && html`<p class="field-help field-error" role="alert">${err}</p>`}
      </div>
      <div class="assistant-row-actions">
        <button type="button" class="btn btn-small" data-testid="assistant-set-default"
          disabled=${isDefault}
          onClick=${async () => setErr(await setDefaultAssistant(a.id))}>
          ${isDefault ? t("assistants.isDefault") : t("assistants.setDefault")}
        </button>
        <button type="button" class="btn btn-small" data-testid="assistant-duplicate"
          onClick=${() => assistantForm.value = { mode: "new", assistant: formOf(a, "duplicate") }}>
          ${t("assistants.duplicate")}
        </button>
        ${!a.builtin &&
          html`
            <button type="button" class="icon-btn" data-testid="assistant-edit"
              title=${t("assistants.edit")} aria-label=${t("assistants.edit")}
              onClick=${() => assistantForm.value = { mode: "edit", assistant: formOf(a) }}>
              <${IconEdit} size=${16} />
            </button>
          `}
        ${!a.builtin && (confirm
          ? html`
            <${InlineConfirm}
              text=${t("assistants.deleteConfirm", { name })}
              confirmLabel=${t("assistants.delete")}
              testid="assistant-delete-confirm"
              onConfirm=${async () => {
                setConfirm(false);
                setErr(await deleteAssistant(a.id));
              }}
              onCancel=${() => setConfirm(false)}
            />
          `
          : html`
            <button type="button" class="icon-btn" data-testid="assistant-delete"
              title=${t("assistants.delete")} aria-label=${t("assistants.delete")}
              onClick=${() => setConfirm(true)}><${IconTrash} size=${16} /></button>
          `)}
      </div>
    </li>
  `;
}

export function AssistantsPane() {
  useEffect(() => void loadAssistants(), []);
  const list = assistantList.value;
  const form = assistantForm.value;
  return html`
    <section class="settings-section assistants-pane" data-testid="assistants-pane"
      aria-labelledby="assistants-title">
      <div class="mcp-head">
        <h2 id="assistants-title" class="provider-title">${t("assistants.title")}</h2>
        <span class="grow"></span>
        <button type="button" class="btn btn-accent" data-testid="assistant-add"
          onClick=${() => assistantForm.value = { mode: "new", assistant: formOf(null) }}>
          <${IconPlus} size=${16} /> ${t("assistants.add")}
        </button>
      </div>
      <p class="settings-note">${t("assistants.intro")}</p>
      ${list && list.problems.length > 0 &&
        html`
          <div class="banner banner-warn" role="alert" data-testid="assistant-problems">
            <p>${t("assistants.problems")}</p>
            <ul class="assistant-problems">
              ${list.problems.map((p) =>
                html`<li><span class="mono">${p.path}</span>: ${p.message}</li>`
              )}
            </ul>
          </div>
        `}
      ${form &&
        html`
          <${AssistantForm} key=${form.mode + form.assistant.id} mode=${form.mode}
            initial=${form.assistant} />
        `}
      ${!list ? html`<p class="settings-note">${t("settings.loading")}</p>` : html`
        <ul class="mcp-list" data-testid="assistant-list">
          ${list.assistants.map((a) =>
            html`<${AssistantRow} key=${a.id} a=${a} isDefault=${a.id === list.defaultId} />`
          )}
        </ul>
        <p class="field-help">${t("assistants.dir", { path: list.dir })}</p>
      `}
    </section>
  `;
}
