/**
 * Add or edit an MCP server: id, transport, the command and its arguments (one per
 * line) with environment and folder for stdio, the URL and headers for HTTP / SSE,
 * timeout, approval policy, description. Nothing is stored before Save; "Test" tries
 * the form as it is without saving. Problems are shown by their field.
 *
 * @typedef {import("../../../protocol/index.ts").McpServerConfig} McpServerConfig
 * @typedef {import("../../state/mcp_model.js").McpForm} McpForm
 */
import { useState } from "preact/hooks";
import { MCP_TRANSPORTS } from "../../../protocol/index.ts";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { mcpForm, saveServer } from "../../state/mcp.js";
import { configOf, formOf } from "../../state/mcp_model.js";
import { request } from "../../state/connection.js";
import { McpTestLine } from "./McpTestLine.js";

/** @param {{server: McpServerConfig|null}} props */
export function McpServerForm({ server }) {
  const [f, setF] = useState(() => formOf(server));
  const [errors, setErrors] = useState(/** @type {Record<string, string>} */ ({}));
  const [saveError, setSaveError] = useState(/** @type {string|null} */ (null));
  const [test, setTest] = useState(/** @type {any} */ (null));
  /** @param {keyof McpForm} k */
  const set = (k) => (/** @type {Event} */ e) => {
    const el = /** @type {HTMLInputElement} */ (e.currentTarget);
    setF({ ...f, [k]: el.type === "checkbox" ? el.checked : el.value });
  };
  const built = () => {
    const r = configOf(f, server);
    if ("errors" in r) {
      /** @type {Record<string, string>} */
      const shown = {};
      for (const [k, v] of Object.entries(r.errors)) {
        shown[k] = k === "env" || k === "headers"
          ? t(`mcp.form.bad.${k}`, { line: v })
          : t(/** @type {any} */ (`mcp.form.bad.${k}`));
      }
      setErrors(shown);
      return null;
    }
    setErrors({});
    return r.config;
  };
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    const config = built();
    if (!config) return;
    const err = await saveServer(config, server?.id);
    if (err) setSaveError(err);
    else mcpForm.value = null;
  };
  const tryIt = async () => {
    const config = built();
    if (!config) return;
    setTest({ running: true });
    try {
      setTest(await request("mcp.test", { server: config }));
    } catch (e) {
      setTest({ ok: false, phase: "config", error: e instanceof Error ? e.message : String(e) });
    }
  };
  /** @param {string} k */
  const err = (k) =>
    errors[k] &&
    html`<p class="field-help field-error" role="alert" data-testid=${`mcp-form-${k}-error`}>${
      errors[k]
    }</p>`;
  const stdio = f.transport === "stdio";
  return html`
    <form class="provider-card mcp-form" data-testid="mcp-form" onSubmit=${submit}
      aria-label=${server ? t("mcp.form.editTitle", { id: server.id }) : t("mcp.form.addTitle")}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === "Escape" && !e.isComposing) mcpForm.value = null;
      }}>
      <h3 class="provider-title">${server
        ? t("mcp.form.editTitle", { id: server.id })
        : t("mcp.form.addTitle")}</h3>
      <div class="mcp-form-grid">
        <div class="field">
          <label class="field-label" for="mcp-id">${t("mcp.form.id")}</label>
          <input id="mcp-id" class="input" data-testid="mcp-form-id" value=${f.id}
            autocomplete="off" spellcheck=${false} onInput=${set("id")} placeholder="filesystem" />
          ${err("id") || html`<p class="field-help">${t("mcp.form.idHelp")}</p>`}
        </div>
        <div class="field">
          <label class="field-label" for="mcp-transport">${t("mcp.form.transport")}</label>
          <select id="mcp-transport" class="input" data-testid="mcp-form-transport"
            value=${f.transport} onChange=${set("transport")}>
            ${MCP_TRANSPORTS.map((x) =>
              html`<option value=${x}>${t(/** @type {const} */ (`mcp.transport.${x}`))}</option>`
            )}
          </select>
        </div>
      </div>
      ${stdio
        ? html`
          <div class="field">
            <label class="field-label" for="mcp-command">${t("mcp.form.command")}</label>
            <input id="mcp-command" class="input mono" data-testid="mcp-form-command"
              value=${f.command} spellcheck=${false} placeholder="npx" onInput=${set("command")} />
            ${err("command")}
          </div>
          <div class="field">
            <label class="field-label" for="mcp-args">${t("mcp.form.args")}</label>
            <textarea id="mcp-args" class="input mono" rows="3" data-testid="mcp-form-args"
              spellcheck=${false} placeholder=${"-y\n@modelcontextprotocol/server-filesystem\n/home/me/docs"}
              value=${f.args} onInput=${set("args")}></textarea>
            <p class="field-help">${t("mcp.form.argsHelp")}</p>
          </div>
          <div class="field">
            <label class="field-label" for="mcp-env">${t("mcp.form.env")}</label>
            <textarea id="mcp-env" class="input mono" rows="2" data-testid="mcp-form-env"
              spellcheck=${false} placeholder="API_BASE=https://…" value=${f.env}
              onInput=${set("env")}></textarea>
            ${err("env") || html`<p class="field-help">${t("mcp.form.envHelp")}</p>`}
          </div>
          <div class="field">
            <label class="field-label" for="mcp-cwd">${t("mcp.form.cwd")}</label>
            <input id="mcp-cwd" class="input mono" data-testid="mcp-form-cwd" value=${f.cwd}
              spellcheck=${false} onInput=${set("cwd")} />
          </div>
        `
        : html`
          <div class="field">
            <label class="field-label" for="mcp-url">${t("mcp.form.url")}</label>
            <input id="mcp-url" class="input mono" data-testid="mcp-form-url" value=${f.url}
              inputmode="url" spellcheck=${false} placeholder="https://example.com/mcp"
              onInput=${set("url")} />
            ${err("url")}
          </div>
          <div class="field">
            <label class="field-label" for="mcp-headers">${t("mcp.form.headers")}</label>
            <textarea id="mcp-headers" class="input mono" rows="2" data-testid="mcp-form-headers"
              spellcheck=${false} placeholder="Authorization: Bearer …" value=${f.headers}
              onInput=${set("headers")}></textarea>
            ${err("headers")}
          </div>
        `}
      <div class="mcp-form-grid">
        <div class="field">
          <label class="field-label" for="mcp-timeout">${t("mcp.form.timeout")}</label>
          <input id="mcp-timeout" class="input input-narrow" data-testid="mcp-form-timeout"
            inputmode="numeric" placeholder="60000" value=${f.timeoutMs} onInput=${set(
              "timeoutMs",
            )} />
          ${err("timeoutMs")}
        </div>
        <div class="field">
          <label class="field-label" for="mcp-policy">${t("mcp.form.policy")}</label>
          <select id="mcp-policy" class="input" data-testid="mcp-form-policy" value=${f.policy}
            onChange=${set("policy")}>
            <option value="">${t("mcp.policy.mode")}</option>
            <option value="allow">${t("mcp.policy.allow")}</option>
            <option value="ask">${t("mcp.policy.ask")}</option>
            <option value="deny">${t("mcp.policy.deny")}</option>
          </select>
        </div>
      </div>
      <div class="field">
        <label class="field-label" for="mcp-desc">${t("mcp.form.description")}</label>
        <input id="mcp-desc" class="input" data-testid="mcp-form-description"
          value=${f.description} onInput=${set("description")} />
      </div>
      ${test && html`<${McpTestLine} test=${test} />`}
      ${saveError &&
        html`<p class="field-help field-error" role="alert" data-testid="mcp-form-error">${saveError}</p>`}
      <div class="field-row">
        <button type="submit" class="btn btn-accent" data-testid="mcp-form-save">${t(
          "mcp.form.save",
        )}</button>
        <button type="button" class="btn" data-testid="mcp-form-test" onClick=${tryIt}>${t(
          "mcp.test",
        )}</button>
        <button type="button" class="btn btn-ghost" data-testid="mcp-form-cancel"
          onClick=${() => mcpForm.value = null}>${t("task.cancel")}</button>
      </div>
    </form>
  `;
}
