/**
 * A call of an MCP server's tool (`mcp__<server>__<tool>`): the server and the tool in
 * the head, and in the body the arguments, the result text, images the server sent,
 * resource links and structured content. Failures (the server's `isError`, a crashed
 * server) start expanded with the error.
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 * @typedef {import("../../../protocol/tool_details.ts").McpResultDetails} McpResultDetails
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { resultMeta, resultText } from "../../state/tool_model.js";
import { splitToolName } from "../../state/mcp_model.js";
import { CardShell } from "./CardShell.js";

/** @param {CardProps} props */
export function McpCard({ name, args, result, status, ms, approval, receiving }) {
  /** @type {Partial<McpResultDetails>} */
  const meta = resultMeta(result, ["mcp"]).mcp ?? {};
  const parts = splitToolName(name);
  const server = String(meta.server ?? parts?.server ?? "?");
  const tool = String(meta.tool ?? parts?.tool ?? name);
  const images = Array.isArray(meta.images) ? meta.images : [];
  const links = Array.isArray(meta.links) ? meta.links : [];
  const argText = JSON.stringify(args ?? {}, null, 2);
  const body = () =>
    html`
      <div class="mcp-card-body" data-testid="mcp-card-body">
        <div class="mcp-card-label">${t("mcp.card.args")}</div>
        <pre class="tool-out" data-testid="mcp-card-args">${argText}</pre>
        ${result &&
          html`
            <div class="mcp-card-label">${t("mcp.card.result")}</div>
            <pre
              class=${status === "failed" ? "tool-out tool-out-error" : "tool-out"}
              data-testid="tool-output"
            >${resultText(result) || t("tool.noOutput")}</pre>
          `}
        ${images.length > 0 &&
          html`<div class="mcp-card-images">
            ${
            images.map((im) =>
              html`
                <img class="mcp-card-image" data-testid="mcp-card-image" alt=${t("mcp.card.image")}
                  src=${`data:${im.mimeType};base64,${im.data}`} />
              `
            )
          }
          </div>`}
        ${(meta.imagesOmitted ?? 0) > 0 &&
          html`<p class="field-help">${t("mcp.card.imagesOmitted", { n: meta.imagesOmitted })}</p>`}
        ${links.length > 0 &&
          html`<ul class="mcp-card-links" data-testid="mcp-card-links">
            ${
            links.map((l) =>
              html`<li><span class="mcp-id">${l.name}</span> <span class="mcp-target">${l.uri}</span></li>`
            )
          }
          </ul>`}
        ${meta.structured &&
          html`
            <div class="mcp-card-label">${t("mcp.card.structured")}</div>
            <pre class="tool-out" data-testid="mcp-card-structured">${meta.structured}</pre>
          `}
      </div>
    `;
  return html`
    <${CardShell}
      name=${name}
      label=${tool}
      kind="mcp"
      status=${status}
      summary=${html`<span class="mcp-card-sum" data-testid="mcp-card-server">${
        t("mcp.card.server", { server })
      }</span>`}
      badges=${html`<span class="tool-badge mcp-badge">MCP</span>`}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${body}
    />
  `;
}
