/**
 * apply_patch: one card for every file the patch touched — a chip per file ("created",
 * "deleted", "moved from …"), the patch's total `+N −N`, and, expanded, each file's line
 * diff under its name. Before the result exists the number of files named is shown.
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { patchFilesOf, patchTargets, resultMeta, resultText } from "../../state/tool_model.js";
import { CardShell } from "./CardShell.js";
import { DiffStats, DiffView } from "./DiffView.js";
import { FileChip } from "./FileChip.js";
import { DiagnosticsBadge, DiagnosticsList, diagnosticsOf } from "./DiagnosticsList.js";

/** @param {{op: string, movedFrom?: string}} f @returns {[string, "" | "ok" | "bad"]} */
function chipOf(f) {
  if (f.op === "add") return [t("tool.created"), "ok"];
  if (f.op === "delete") return [t("tool.deleted"), "bad"];
  if (f.op === "move") return [t("tool.movedFrom", { path: f.movedFrom ?? "" }), ""];
  return ["", ""];
}

/** @param {CardProps} props */
export function PatchCard({ name, args, result, status, ms, approval, receiving }) {
  const meta = resultMeta(result, ["apply_patch"]);
  const files = status === "done" ? patchFilesOf(meta) : [];
  const named = patchTargets(args.input);
  const added = files.reduce((n, f) => n + f.diff.added, 0);
  const removed = files.reduce((n, f) => n + f.diff.removed, 0);
  const badges = files.length
    ? html`<${DiffStats} added=${added} removed=${removed} />`
    : named.length
    ? html`<span class="tool-badge">${tn("tool.fileCount", named.length)}</span>`
    : null;
  const problems = status === "done" ? diagnosticsOf(meta) : [];
  const shownBadges = problems.length
    ? html`${badges}<${DiagnosticsBadge} count=${problems.length} />`
    : badges;
  const first = files[0]?.path ?? named[0] ?? "";
  const more = Math.max(files.length, named.length) - 1;
  const body = files.length
    ? () =>
      html`${problems.length > 0 && html`<${DiagnosticsList} list=${problems} />`}${
        files.map((f) => {
          const [label, tone] = chipOf(f);
          return html`
            <div class="patch-file" data-testid="patch-file">
              <${FileChip} path=${f.path} label=${label} tone=${tone} open=${f.op !== "delete"} />
              <${DiffView} diff=${f.diff} />
            </div>
          `;
        })
      }`
    : result
    ? () =>
      html`
        <pre class=${status === "failed" ? "tool-out tool-out-error" : "tool-out"}
          data-testid="tool-output">${resultText(result) || t("tool.noOutput")}</pre>
      `
    : null;
  return html`
    <${CardShell}
      name=${name}
      kind="change"
      status=${status}
      summary=${first &&
        html`
          <${FileChip} path=${first} open=${false} />
          ${more > 0 && html`<span class="tool-badge">${tn("tool.moreFiles", more)}</span>`}
        `}
      badges=${shownBadges}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${body}
    />
  `;
}
