/** The panel's Sub-agents tab: the task's sub-agent runs, newest first; one opens its transcript. */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { openSubagent } from "../../state/panel.js";
import { subagentRuns } from "../../state/subagents.js";
import { useNow } from "../useNow.js";
import { SubagentFacts } from "../subagents/SubagentFacts.js";

/** @param {{taskId: string}} props */
export function SubagentList({ taskId }) {
  const runs = [...subagentRuns.value.values()].filter((r) => r.taskId === taskId)
    .sort((a, b) => b.startedAt - a.startedAt);
  const now = useNow(1000, runs.some((r) => r.status === "running"));
  if (!runs.length) {
    return html`<p class="rpanel-msg" data-testid="subagents-empty">${t("panel.noSubagents")}</p>`;
  }
  return html`
    <ul class="subagent-list" data-testid="subagent-list">
      ${runs.map((r) =>
        html`
          <li key=${r.id}>
            <button
              type="button"
              class="subagent-list-item"
              data-testid="subagent-list-item"
              onClick=${() => openSubagent(taskId, r.id, r.description || r.type)}
            >
              <span class="subagent-list-title">${r.description || r.type}</span>
              <${SubagentFacts} run=${r} now=${now} />
            </button>
          </li>
        `
      )}
    </ul>
  `;
}
