/**
 * Settings → MCP (also the sidebar's MCP entry): the servers the agent uses as tools —
 * each row with its transport, command or URL, state, tool count and last failure
 * (phase-tagged badge); enable, test, restart, edit, two-step delete. A corrupt file is
 * a banner (nothing can be saved until it is fixed). Add / import open in place.
 *
 * @typedef {import("../../../protocol/index.ts").McpServerStatus} McpServerStatus
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import {
  loadMcp,
  mcpForm,
  mcpImportOpen,
  mcpOverview,
  mcpTests,
  removeServer,
  setServerEnabled,
  testServer,
} from "../../state/mcp.js";
import { targetOf } from "../../state/mcp_model.js";
import {
  IconEdit,
  IconPlus,
  IconRefresh,
  IconTrash,
  InlineConfirm,
  Switch,
} from "../settings/controls.js";
import { McpServerForm } from "./McpServerForm.js";
import { McpImport } from "./McpImport.js";
import { McpTestLine } from "./McpTestLine.js";
import { McpToolList } from "./McpToolList.js";
import { McpOAuthLine } from "./McpOAuthLine.js";

/** @param {{s: McpServerStatus}} props */
function ServerRow({ s }) {
  const id = s.config.id;
  const [confirm, setConfirm] = useState(false);
  const [showTools, setShowTools] = useState(false);
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const test = mcpTests.value.get(id);
  const stateText = t(/** @type {const} */ (`mcp.state.${s.state}`));
  return html`
    <li class="mcp-row" data-testid="mcp-row" data-server=${id} data-state=${s.state}>
      <div class="mcp-row-main">
        <div class="mcp-row-title">
          <span class="mcp-id">${id}</span>
          <span class="badge" data-testid="mcp-transport">${t(
            /** @type {const} */ (`mcp.transport.${s.config.transport}`),
          )}</span>
          <span class=${`badge mcp-state mcp-state-${s.state}`} data-testid="mcp-state">${stateText}</span>
          ${s.toolCount !== null &&
            html`
              <button
                type="button"
                class="badge mcp-tools-toggle"
                data-testid="mcp-tool-count"
                aria-expanded=${showTools ? "true" : "false"}
                title=${t("mcp.showTools")}
                onClick=${() => setShowTools(!showTools)}
              >${tn("mcp.tools", s.toolCount)}</button>
            `}
          ${s.error &&
            html`
              <span
                class="badge mcp-error-badge"
                data-testid="mcp-error-badge"
                title=${s.error.message}
              >${t(/** @type {const} */ (`mcp.phase.${s.error.phase}`))}</span>
            `}
        </div>
        <div class="mcp-target" title=${targetOf(s.config)}>${targetOf(s.config)}</div>
        ${s.config.description && html`<div class="mcp-desc">${s.config.description}</div>`}
        ${s.config.transport !== "stdio" && html`<${McpOAuthLine} s=${s} />`}
        ${s.error && !test &&
          html`<div class="mcp-error" data-testid="mcp-error">${s.error.message}</div>`}
        ${test && html`<${McpTestLine} test=${test} />`}
        ${!test && s.stderrTail.length > 0 &&
          html`
            <details class="mcp-stderr-box" data-testid="mcp-stderr-tail">
              <summary>${t("mcp.stderr", { n: s.stderrTail.length })}</summary>
              <pre class="tool-out mcp-stderr">${s.stderrTail.join("\n")}</pre>
            </details>
          `}
        ${err && html`<p class="field-help field-error" role="alert">${err}</p>`}
      </div>
      <div class="mcp-row-actions">
        <${Switch}
          checked=${s.config.enabled}
          label=${t("mcp.enabled")}
          testid="mcp-enable"
          onChange=${async (/** @type {boolean} */ v) => setErr(await setServerEnabled(id, v))}
        />
        <button type="button" class="btn btn-small" data-testid="mcp-test"
          disabled=${test && "running" in test}
          onClick=${() => testServer(id, "test")}>${t("mcp.test")}</button>
        <button type="button" class="icon-btn" data-testid="mcp-restart" title=${t("mcp.restart")}
          aria-label=${t("mcp.restart")} disabled=${!s.config.enabled}
          onClick=${() => testServer(id, "restart")}><${IconRefresh} size=${16} /></button>
        <button type="button" class="icon-btn" data-testid="mcp-edit" title=${t("mcp.edit")}
          aria-label=${t("mcp.edit")}
          onClick=${() => mcpForm.value = { server: s.config }}><${IconEdit} size=${16} /></button>
        ${confirm
          ? html`
            <${InlineConfirm}
              text=${t("mcp.deleteConfirm", { id })}
              confirmLabel=${t("mcp.delete")}
              testid="mcp-delete-confirm"
              onConfirm=${async () => {
                setConfirm(false);
                setErr(await removeServer(id));
              }}
              onCancel=${() => setConfirm(false)}
            />
          `
          : html`
            <button type="button" class="icon-btn" data-testid="mcp-delete"
              title=${t("mcp.delete")} aria-label=${t("mcp.delete")}
              onClick=${() => setConfirm(true)}><${IconTrash} size=${16} /></button>
          `}
      </div>
      ${showTools && s.tools.length > 0 && html`<${McpToolList} s=${s} />`}
    </li>
  `;
}

export function McpPane() {
  useEffect(() => void loadMcp(), []);
  const o = mcpOverview.value;
  const form = mcpForm.value;
  return html`
    <section class="settings-section mcp-pane" data-testid="mcp-pane" aria-labelledby="mcp-title">
      <div class="mcp-head">
        <h2 id="mcp-title" class="provider-title">${t("mcp.title")}</h2>
        <span class="grow"></span>
        <button type="button" class="btn" data-testid="mcp-import-open"
          onClick=${() => {
            mcpForm.value = null;
            mcpImportOpen.value = !mcpImportOpen.value;
          }}>${t("mcp.import")}</button>
        <button type="button" class="btn btn-accent" data-testid="mcp-add"
          onClick=${() => {
            mcpImportOpen.value = false;
            mcpForm.value = { server: null };
          }}><${IconPlus} size=${16} /> ${t("mcp.add")}</button>
      </div>
      <p class="settings-note">${t("mcp.intro")}</p>
      ${o?.fileError &&
        html`
          <div class="banner banner-danger" role="alert" data-testid="mcp-file-error">
            <p>${t("mcp.fileError")}</p>
            <p class="banner-sub">${o.fileError}</p>
          </div>
        `}
      ${form && html`<${McpServerForm} server=${form.server} />`}
      ${mcpImportOpen.value && html`<${McpImport} />`}
      ${!o
        ? html`<p class="settings-note">${t("settings.loading")}</p>`
        : o.servers.length === 0 && !o.fileError
        ? html`<p class="settings-note" data-testid="mcp-empty">${t("mcp.empty")}</p>`
        : html`<ul class="mcp-list" data-testid="mcp-list">
          ${o.servers.map((s) => html`<${ServerRow} key=${s.config.id} s=${s} />`)}
        </ul>`}
      ${o && html`<p class="field-help">${t("mcp.file", { path: o.path })}</p>`}
    </section>
  `;
}
