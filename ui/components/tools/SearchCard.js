/**
 * glob and grep: the pattern (and where / which files), the hit count ("12 files",
 * "8 matches in 3 files", "+ more" when truncated) and what was skipped (binary,
 * large or unreadable files); expanded, the list the tool returned.
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 * @typedef {import("../../../protocol/tool_details.ts").DetailsOf<"glob"|"grep">} SearchDetails
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { resultMeta, skippedNotes } from "../../state/tool_model.js";
import { CardShell, resultBody } from "./CardShell.js";
import { IconSearch } from "./ToolIcons.js";

/**
 * @param {string} name
 * @param {SearchDetails} meta
 */
function hits(name, meta) {
  if (name === "glob" && typeof meta.count === "number") return tn("tool.files", meta.count);
  if (name === "grep" && typeof meta.matches === "number") {
    return tn("tool.matches", meta.matches, { files: tn("tool.files", meta.files ?? 0) });
  }
  return "";
}

/** @param {CardProps} props */
export function SearchCard({ name, args, result, status, ms, approval, receiving }) {
  /** @type {SearchDetails} */
  const meta = status === "done" ? resultMeta(result, ["glob", "grep"]) : {};
  const where = [
    typeof args.include === "string" && args.include ? args.include : "",
    typeof args.path === "string" && args.path && args.path !== "." ? args.path : "",
  ].filter(Boolean).join(" · ");
  const count = hits(name, meta);
  const skipped = skippedNotes(meta);
  return html`
    <${CardShell}
      name=${name}
      kind="search"
      status=${status}
      summary=${html`<span class="search-sum"><${IconSearch} size=${13} /><span class="search-pat"
        >${String(args.pattern ?? "")}</span>${
        where &&
        html`<span class="search-where">${where}</span>`
      }</span>`}
      badges=${count &&
        html`<span class="tool-badge" data-testid="tool-count">${count}${
          meta.truncated ? html`<span class="badge-more">${t("tool.truncated")}</span>` : ""
        }</span>`}
      sub=${skipped.length > 0 &&
        html`<span data-testid="tool-skipped">${
          t("tool.skipped", {
            list: skipped.map(([k, n]) => t(/** @type {any} */ (k), { n })).join(", "),
          })
        }</span>`}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${resultBody(result, status)}
    />
  `;
}
