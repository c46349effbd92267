/**
 * A line diff: old and new line numbers, a +/− sign column and the text, hunks
 * separated by a gap row; notes for a truncated or approximate diff and changed line
 * endings. Also renders a preview (lines without numbers) for approval cards.
 *
 * @typedef {import("../../state/tool_model.js").LineDiff} LineDiff
 * @typedef {import("../../state/tool_model.js").DiffLine} DiffLine
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { diffRows } from "../../state/tool_model.js";

const CLS = { "+": "dl-add", "-": "dl-del", " ": "dl-ctx" };

/** @param {{diff: LineDiff}} props */
export function DiffView({ diff }) {
  const rows = diffRows(diff.hunks);
  const kept = rows.filter((r) => r.t !== "gap").length;
  return html`
    <div class="diff-wrap" data-testid="diff">
      ${rows.length > 0 &&
        html`
          <div class="diff" role="table" aria-label=${t("tool.diffLabel")}>
            ${rows.map((r) =>
              r.t === "gap"
                ? html`<div class="dl dl-gap" role="row"><span role="cell">⋯</span></div>`
                : html`
                  <div class=${`dl ${CLS[r.t]}`} role="row" data-sign=${r.t}>
                    <span class="dn" role="cell">${r.old ?? ""}</span>
                    <span class="dn" role="cell">${r.new ?? ""}</span>
                    <span class="ds" role="cell" aria-hidden="true">${r.t}</span>
                    <span class="dt" role="cell">${r.text}</span>
                  </div>
                `
            )}
          </div>
        `}
      ${diff.truncated &&
        html`<p class="diff-note" data-testid="diff-truncated">${
          t("tool.diffTruncated", { n: kept })
        }</p>`}
      ${diff.approximate && html`<p class="diff-note">${t("tool.diffApprox")}</p>`}
      ${diff.eolChanged && html`<p class="diff-note">${t("tool.eol")}</p>`}
      ${rows.length === 0 && !diff.eolChanged &&
        html`<p class="diff-note">${t("tool.noChange")}</p>`}
    </div>
  `;
}

/** @param {{lines: DiffLine[], more: number}} props */
export function DiffPreview({ lines, more }) {
  return html`
    <div class="diff-wrap" data-testid="approval-preview">
      <div class="diff diff-plain">
        ${lines.map((l) =>
          html`
            <div class=${`dl ${CLS[l.t]}`} data-sign=${l.t}>
              <span class="ds" aria-hidden="true">${l.t}</span>
              <span class="dt">${l.text}</span>
            </div>
          `
        )}
      </div>
      ${more > 0 && html`<p class="diff-note">${tn("approval.more", more)}</p>`}
    </div>
  `;
}

/** `+N −N` with an accessible description. @param {{added: number, removed: number}} props */
export function DiffStats({ added, removed }) {
  return html`
    <span class="diff-stats" data-testid="diff-stats" title=${t("tool.diffStats", {
      added,
      removed,
    })}>
      <span class="stat-add">+${added}</span>${" "}<span class="stat-del">−${removed}</span>
    </span>
  `;
}
