/**
 * The problems a language server reported in the files a change tool just wrote: a
 * badge with their count for the card's head, and the list (file:line:column, message)
 * for its body.
 */
/** @typedef {import("../../../protocol/tool_details.ts").Diagnostic} Diagnostic */
import { html } from "../../html.js";
import { tn } from "../../i18n/index.js";

/**
 * @param {{diagnostics?: Diagnostic[]}} meta the details of a file-changing tool
 * @returns {Diagnostic[]}
 */
export function diagnosticsOf(meta) {
  return Array.isArray(meta.diagnostics)
    ? meta.diagnostics.filter((d) => d && typeof d.message === "string")
    : [];
}

/** @param {{count: number}} props */
export function DiagnosticsBadge({ count }) {
  return html`<span class="tool-badge tool-badge-bad" data-testid="diagnostics-badge">${
    tn("tool.problems", count)
  }</span>`;
}

/** @param {{list: ReturnType<typeof diagnosticsOf>}} props */
export function DiagnosticsList({ list }) {
  return html`
    <ul class="diagnostics" data-testid="diagnostics">
      ${list.map((d) =>
        html`
          <li class=${`diagnostic diagnostic-${d.severity}`}>
            <code>${d.path}:${d.line}:${d.column}</code> ${d.message}
          </li>
        `
      )}
    </ul>
  `;
}
