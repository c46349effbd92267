/**
 * The composer's background-work badge (SPEC §8.2) for sub-agents: hidden when none
 * runs, else a robot and the count of the task's background sub-agents still
 * running. It opens a list of them — type, task, step, duration — each with its
 * transcript and a Stop button.
 */
import { useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { backgroundRunning, stopSubagent } from "../../state/subagents.js";
import { openSubagent } from "../../state/panel.js";
import { currentId } from "../../state/tasks.js";
import { serverNow } from "../../state/timeline.js";
import { useDismiss } from "../useDismiss.js";
import { useNow } from "../useNow.js";
import { fmtDuration } from "../format.js";
import { IconAgent, IconStopSq } from "./SubagentIcons.js";

export function BackgroundBadge() {
  const runs = backgroundRunning.value;
  const taskId = currentId.value;
  const [open, setOpen] = useState(false);
  const [error, setError] = useState("");
  const wrap = useRef(/** @type {HTMLDivElement|null} */ (null));
  useDismiss(open, wrap, () => setOpen(false));
  useNow(1000, open && runs.length > 0);
  if (!taskId || runs.length === 0) return null;
  const label = t("subagent.badge", { n: runs.length });
  return html`
    <div class="opt-wrap sa-badge-wrap" ref=${wrap}>
      <button
        type="button"
        class="tool-btn sa-badge"
        data-testid="bg-badge"
        aria-label=${label}
        title=${label}
        aria-expanded=${open ? "true" : "false"}
        onClick=${() => setOpen(!open)}
      >
        <${IconAgent} size=${16} />
        <span class="sa-badge-n" data-testid="bg-badge-count">${runs.length}</span>
      </button>
      ${open && html`
        <div class="sa-popover" role="dialog" aria-label=${label} data-testid="bg-popover">
          <p class="sa-popover-title">${label}</p>
          <ul class="sa-popover-list">
            ${runs.map((r) =>
              html`
                <li class="sa-popover-row" key=${r.id} data-testid="bg-row" data-run-id=${r.id}>
                  <button
                    type="button"
                    class="sa-popover-open"
                    data-testid="bg-open"
                    onClick=${() => {
                      setOpen(false);
                      openSubagent(taskId, r.id, `${r.type} · ${r.description}`);
                    }}
                  >
                    <span class="sa-type">${r.type}</span>
                    <span class="sa-popover-desc">${r.description}</span>
                    <span class="sa-popover-meta">${t("subagent.step", {
                      n: r.steps,
                      max: r.maxSteps,
                    })} · ${fmtDuration(serverNow() - r.startedAt, true)}</span>
                  </button>
                  <button
                    type="button"
                    class="icon-btn sa-popover-stop"
                    data-testid="bg-stop"
                    aria-label=${t("subagent.stopOne", { name: r.description })}
                    title=${t("subagent.stop")}
                    onClick=${() =>
                      stopSubagent(taskId, r.id).catch((e) =>
                        setError(e instanceof Error ? e.message : String(e))
                      )}
                  >
                    <${IconStopSq} size=${16} />
                  </button>
                </li>
              `
            )}
          </ul>
          ${error && html`<p class="sa-popover-error" role="alert">${error}</p>`}
        </div>
      `}
    </div>
  `;
}
