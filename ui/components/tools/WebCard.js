/**
 * webfetch and websearch: the URL (or the query) and how it went — the HTTP status,
 * "cached", or the number of results; a refused or failed fetch starts expanded with
 * the error text.
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 * @typedef {import("../../../protocol/tool_details.ts").DetailsOf<"webfetch"|"websearch">}
 *   WebDetails
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { resultMeta, shortUrl } from "../../state/tool_model.js";
import { CardShell, resultBody } from "./CardShell.js";
import { IconWeb } from "./ToolIcons.js";

/**
 * @param {string} name
 * @param {WebDetails} meta
 * @param {string} status
 */
function badges(name, meta, status) {
  const out = [];
  if (name === "webfetch" && typeof meta.status === "number") {
    const tone = meta.status >= 400 ? "bad" : "ok";
    out.push(
      html`<span class=${`tool-badge tone-${tone}`} data-testid="web-status">${
        t("tool.http", { status: meta.status })
      }</span>`,
    );
  }
  if (meta.cached) out.push(html`<span class="tool-badge">${t("tool.cached")}</span>`);
  if (name === "webfetch" && meta.blocked && status === "failed") {
    out.push(html`<span class="tool-badge tone-bad">${t("tool.blocked")}</span>`);
  }
  if (name === "websearch" && typeof meta.count === "number") {
    out.push(
      html`<span class="tool-badge" data-testid="tool-count">${
        tn("tool.results", meta.count)
      }</span>`,
    );
  }
  return out;
}

/** @param {CardProps} props */
export function WebCard({ name, args, result, status, ms, approval, receiving }) {
  const meta = resultMeta(result, ["webfetch", "websearch"]);
  const target = name === "websearch"
    ? `“${String(args.query ?? meta.query ?? "")}”`
    : shortUrl(String(meta.finalUrl ?? args.url ?? ""));
  return html`
    <${CardShell}
      name=${name}
      kind="web"
      status=${status}
      summary=${html`<span class="web-sum" title=${String(args.url ?? args.query ?? "")}><${IconWeb}
        size=${13}
      /><span class="web-target">${target}</span></span>`}
      badges=${badges(name, meta, status)}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${resultBody(result, status)}
    />
  `;
}
