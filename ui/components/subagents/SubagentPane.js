/**
 * A sub-agent's transcript in the right panel: its facts, then its conversation
 * replayed with the same turn view as the task (thinking, tool cards, the report),
 * read-only — no edit, rewind, retry or branch. Fetched from the server (it survives
 * restarts) and fetched again as the live run advances; a running background run can
 * be stopped here.
 *
 * @typedef {import("../../../protocol/index.ts").SubagentRun} SubagentRun
 * @typedef {import("../../../protocol/index.ts").Entry} Entry
 */
import { useEffect, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { lang } from "../../state/prefs.js";
import { fetchTranscript, stopSubagent, subagentRuns } from "../../state/subagents.js";
import { groupTurns } from "../../state/timeline_model.js";
import { serverNow } from "../../state/timeline.js";
import { useNow } from "../useNow.js";
import { Turn } from "../Turn.js";
import { ReadOnlyContext } from "../timeline/readonly.js";
import { SubagentFacts } from "./SubagentFacts.js";
import { IconStopSq } from "./SubagentIcons.js";

/** @param {{taskId: string, runId: string}} props */
export function SubagentPane({ taskId, runId }) {
  const [data, setData] = useState(
    /** @type {{run: SubagentRun, entries: Entry[], truncated: boolean}|null} */ (null),
  );
  const [error, setError] = useState("");
  const live = subagentRuns.value.get(runId);
  // Fetched again whenever the live run moves on (a step, its end).
  const version = live ? `${live.status}:${live.steps}:${live.toolCalls}` : "";
  useEffect(() => {
    let gone = false;
    fetchTranscript(taskId, runId).then((d) => !gone && setData(d), (e) => {
      if (!gone) setError(e instanceof Error ? e.message : String(e));
    });
    return () => {
      gone = true;
    };
  }, [taskId, runId, version]);
  const run = live ?? data?.run;
  useNow(1000, run?.status === "running");
  if (error && !data) {
    return html`<p class="rpanel-msg rpanel-error" data-testid="subagent-error" role="alert">${error}</p>`;
  }
  if (!data || !run) {
    return html`<p class="rpanel-msg" data-testid="panel-loading">${t("panel.loading")}</p>`;
  }
  const turns = groupTurns(data.entries);
  const running = run.status === "running";
  return html`
    <div class="sa-pane" data-testid="subagent-pane" data-status=${run.status}>
      <div class="sa-pane-head">
        <span class="sa-type">${run.type}</span>
        <span class="sa-pane-desc">${run.description}</span>
        <${SubagentFacts} run=${run} now=${serverNow()} full=${true} />
        <span class="sa-pane-model" title=${t("subagent.model")}>${run.model}</span>
        ${running && html`
          <button
            type="button"
            class="sa-stop"
            data-testid="subagent-stop"
            onClick=${() => stopSubagent(taskId, runId).catch((e) => setError(String(e)))}
          >
            <${IconStopSq} size=${14} /> ${t("subagent.stop")}
          </button>
        `}
      </div>
      <p class="sa-readonly" data-testid="subagent-readonly">${t("subagent.readOnly")}</p>
      ${run.notes.length > 0 && html`
        <ul class="sa-notes">${run.notes.map((n) => html`<li>⚠ ${n}</li>`)}</ul>
      `}
      <div class="sa-turns" data-testid="subagent-transcript">
        <${ReadOnlyContext.Provider} value=${true}>
          ${turns.map((turn, i) =>
            html`
              <${Turn}
                key=${turn.id}
                turn=${turn}
                live=${running && i === turns.length - 1}
                run=${null}
                waiting=${false}
                canAct=${false}
                lang=${lang.value}
              />
            `
          )}
        <//>
      </div>
      ${data.truncated && html`<p class="sa-notes">${t("subagent.truncated")}</p>`}
      ${error && html`<p class="rpanel-msg rpanel-error" role="alert">${error}</p>`}
    </div>
  `;
}
