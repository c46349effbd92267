/**
 * "This project's .mcp.json defines MCP servers": what each would run, with Import
 * (trusting this file's content once) and Ignore. Nothing runs before Import; a file
 * that changes later is offered again.
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { decideWorkspace, workspaceOffer } from "../../state/mcp.js";
import { targetOf } from "../../state/mcp_model.js";

export function McpWorkspaceBanner() {
  const offer = workspaceOffer.value;
  if (!offer) return null;
  return html`
    <div class="banner banner-warn mcp-offer" role="region" data-testid="mcp-workspace-offer"
      aria-label=${t("mcp.offer.title")}>
      <div class="mcp-offer-body">
        <p>${t("mcp.offer.text", { file: offer.file, n: offer.servers.length })}</p>
        <ul class="mcp-offer-list">
          ${offer.servers.map((s) =>
            html`<li><span class="mcp-id">${s.id}</span> <span class="mcp-target">${
              targetOf(s)
            }</span></li>`
          )}
        </ul>
        <div class="field-row">
          <button type="button" class="btn btn-accent btn-small" data-testid="mcp-offer-import"
            onClick=${() => decideWorkspace("import")}>${t("mcp.offer.import")}</button>
          <button type="button" class="btn btn-small" data-testid="mcp-offer-dismiss"
            onClick=${() => decideWorkspace("dismiss")}>${t("mcp.offer.dismiss")}</button>
        </div>
      </div>
    </div>
  `;
}
