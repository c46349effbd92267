/**
 * write_file, edit_file and delete_file: a file chip ("created" / "deleted"), the
 * `+N −N` line statistics ("rewound" when a rewind put the turn's files back) and,
 * expanded, the line diff with old/new line numbers.
 * Before the result exists the new content's line count is shown.
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 * @typedef {import("../../../protocol/tool_details.ts").DetailsOf<"write_file"|"edit_file"|"delete_file">}
 *   ChangeDetails
 */
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { diffOf, resultMeta, resultText } from "../../state/tool_model.js";
import { currentId } from "../../state/tasks.js";
import { openDiff } from "../../state/panel.js";
import { CardShell } from "./CardShell.js";
import { DiffStats, DiffView } from "./DiffView.js";
import { FileChip } from "./FileChip.js";
import { DiagnosticsBadge, DiagnosticsList, diagnosticsOf } from "./DiagnosticsList.js";
import { useContext } from "preact/hooks";
import { RewoundContext } from "../timeline/rewound.js";

/**
 * @param {string} name
 * @param {ChangeDetails} meta
 * @param {boolean} ok
 * @returns {[string, "" | "ok" | "bad"]}
 */
function chipLabel(name, meta, ok) {
  if (!ok) return ["", ""];
  if (name === "delete_file") return [t("tool.deleted"), "bad"];
  if (meta.created === true) return [t("tool.created"), "ok"];
  if (name === "edit_file" && (meta.replacements ?? 0) > 1) {
    return [t("tool.replacements", { n: meta.replacements }), ""];
  }
  return ["", ""];
}

/** @param {CardProps} props */
export function ChangeCard({ name, args, result, status, ms, approval, receiving, callId }) {
  const meta = resultMeta(result, ["write_file", "edit_file", "delete_file"]);
  const diff = status === "done" ? diffOf(meta) : null;
  const path = String(meta.path ?? args.path ?? "");
  const [label, tone] = chipLabel(name, meta, status === "done");
  // In a turn whose changes a rewind put back: say so next to the edit's own numbers.
  const rewound = useContext(RewoundContext) !== null && status === "done";
  const rewoundTag = rewound
    ? html`
      <span class="tool-badge tool-rewound" data-testid="change-rewound"
        title=${t("tool.rewoundTitle")}>${t("tool.rewound")}</span>
    `
    : null;
  let badges = rewoundTag;
  if (diff) {
    badges = html`<${DiffStats} added=${diff.added} removed=${diff.removed} />${rewoundTag}`;
  } else if (!result && name === "write_file" && typeof args.content === "string") {
    const n = args.content === "" ? 0 : args.content.replace(/\n$/, "").split("\n").length;
    badges = html`<span class="tool-badge">${tn("tool.lineCount", n)}</span>`;
  }
  const problems = status === "done" ? diagnosticsOf(meta) : [];
  if (problems.length) {
    badges = html`${badges}<${DiagnosticsBadge} count=${problems.length} />`;
  }
  const text = resultText(result);
  const taskId = currentId.value;
  const body = diff
    ? () =>
      html`
        ${problems.length > 0 && html`<${DiagnosticsList} list=${problems} />`}
        <${DiffView} diff=${diff} />
        ${callId && taskId && html`
          <div class="change-actions">
            <button
              type="button"
              class="btn btn-small"
              data-testid="open-diff-panel"
              onClick=${() => openDiff(taskId, path, callId)}
            >${t("panel.openInPanel")}</button>
          </div>
        `}
      `
    : result
    ? () =>
      html`
        <pre
          class=${status === "failed" ? "tool-out tool-out-error" : "tool-out"}
          data-testid="tool-output"
        >${text || t("tool.noOutput")}</pre>
      `
    : null;
  return html`
    <${CardShell}
      name=${name}
      kind="change"
      status=${status}
      summary=${path &&
        html`
          <${FileChip}
            path=${path}
            label=${label}
            tone=${tone}
            callId=${diff && callId ? callId : undefined}
            open=${!!diff || name !== "delete_file"}
          />
        `}
      badges=${badges}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${body}
    />
  `;
}
