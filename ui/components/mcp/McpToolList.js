/**
 * A connected server's tools under its row: the name the model calls, the server's
 * description, and the approval of each tool (as the mode says / always allow / always
 * ask / never), saved into the server's `toolPolicies`.
 *
 * @typedef {import("../../../protocol/index.ts").McpServerStatus} McpServerStatus
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { saveServer } from "../../state/mcp.js";

/** @param {{s: McpServerStatus}} props */
export function McpToolList({ s }) {
  const [err, setErr] = useState(/** @type {string|null} */ (null));
  const policies = s.config.toolPolicies ?? {};
  const setPolicy = async (/** @type {string} */ tool, /** @type {string} */ value) => {
    /** @type {Record<string, "allow"|"ask"|"deny">} */
    const next = { ...policies };
    if (value) next[tool] = /** @type {"allow"|"ask"|"deny"} */ (value);
    else delete next[tool];
    const { toolPolicies: _old, ...rest } = s.config;
    setErr(
      await saveServer(
        Object.keys(next).length ? { ...rest, toolPolicies: next } : rest,
        s.config.id,
      ),
    );
  };
  return html`
    <ul class="mcp-tools" data-testid="mcp-tools">
      ${s.tools.map((tool) =>
        html`
          <li class="mcp-tool" data-testid="mcp-tool" data-tool=${tool.name}>
            <div class="mcp-tool-main">
              <span class="mcp-id" title=${tool.agentName}>${tool.name}</span>
              <span class="mcp-desc">${tool.description}</span>
            </div>
            <select class="input mcp-tool-policy" data-testid="mcp-tool-policy"
              aria-label=${t("mcp.toolPolicy", { tool: tool.name })}
              value=${policies[tool.name] ?? ""}
              onChange=${(/** @type {Event} */ e) =>
                setPolicy(tool.name, /** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
              <option value="">${s.config.policy
                ? t("mcp.policy.server", { policy: t(`mcp.policy.${s.config.policy}`) })
                : t("mcp.policy.byMode")}</option>
              <option value="allow">${t("mcp.policy.allow")}</option>
              <option value="ask">${t("mcp.policy.ask")}</option>
              <option value="deny">${t("mcp.policy.deny")}</option>
            </select>
          </li>
        `
      )}
      ${err && html`<li class="field-help field-error" role="alert">${err}</li>`}
    </ul>
  `;
}
