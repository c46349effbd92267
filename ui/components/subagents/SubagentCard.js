/**
 * The `agent` and `subagent_output` tool cards: the sub-agent's type and task in the
 * head, its facts as badges, "Open transcript" (a read-only replay in the right
 * panel) and, expanded, its final report as Markdown (or the error).
 *
 * @typedef {import("../tools/card_props.js").CardProps} CardProps
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { resultMeta, resultText } from "../../state/tool_model.js";
import { runOfMeta } from "../../state/subagents.js";
import { openSubagent } from "../../state/panel.js";
import { currentId } from "../../state/tasks.js";
import { useNow } from "../useNow.js";
import { serverNow } from "../../state/timeline.js";
import { CardShell } from "../tools/CardShell.js";
import { Markdown } from "../Markdown.js";
import { SubagentFacts } from "./SubagentFacts.js";
import { IconAgent } from "./SubagentIcons.js";

/** @param {CardProps} props */
export function SubagentCard({ name, args, result, status, ms, approval, receiving, callId }) {
  const live = !result && (status === "running" || status === "waiting");
  const run = runOfMeta(resultMeta(result, ["agent", "subagent_output"]), callId, live);
  useNow(1000, run?.status === "running");
  const now = serverNow();
  const type = String(run?.type ?? args.subagent_type ?? "");
  const description = String(run?.description ?? args.description ?? args.id ?? "");
  const taskId = currentId.value;
  const report = run && run.status !== "running" && run.report ? run.report : null;
  const body = result || report
    ? () =>
      report && status !== "failed"
        ? html`
          <div class="sa-report part-md" data-testid="subagent-report">
            <${Markdown} text=${report} />
          </div>
        `
        : html`
          <pre
            class=${status === "failed" ? "tool-out tool-out-error" : "tool-out"}
            data-testid="tool-output"
          >${resultText(result) || t("tool.noOutput")}</pre>
        `
    : null;
  const sub = run && taskId &&
    html`
      <div class="sa-sub">
        <${SubagentFacts} run=${run} now=${now} />
        <button
          type="button"
          class="sa-open"
          data-testid="subagent-open"
          onClick=${() => openSubagent(taskId, run.id, `${type} · ${description}`)}
        >
          <${IconAgent} size=${14} /> ${t("subagent.open")}
        </button>
      </div>
    `;
  return html`
    <${CardShell}
      name=${name}
      kind="subagent"
      status=${status}
      summary=${html`<span class="sa-type">${type}</span> ${description}`}
      sub=${sub}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      body=${body}
    />
  `;
}
