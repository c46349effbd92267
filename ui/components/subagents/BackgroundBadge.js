/**
 * The composer's background-work badge: hidden when nothing runs, else the
 * count of the task's background commands and background sub-agents still running. It
 * opens a list — a command with its duration and the tail of its output; a sub-agent
 * with its type, task, step and duration (and its transcript) — each with Stop.
 */
import { useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { backgroundRunning, stopSubagent } from "../../state/subagents.js";
import { runningJobs, stopJob } from "../../state/jobs.js";
import { openSubagent } from "../../state/panel.js";
import { currentId } from "../../state/tasks.js";
import { serverNow } from "../../state/timeline.js";
import { useDismiss } from "../useDismiss.js";
import { useNow } from "../useNow.js";
import { fmtDuration } from "../format.js";
import { IconAgent, IconStopSq } from "./SubagentIcons.js";

export function BackgroundBadge() {
  const runs = backgroundRunning.value;
  const cmds = runningJobs.value;
  const n = runs.length + cmds.length;
  const taskId = currentId.value;
  const [open, setOpen] = useState(false);
  const [error, setError] = useState("");
  const wrap = useRef(/** @type {HTMLDivElement|null} */ (null));
  useDismiss(open, wrap, () => setOpen(false));
  useNow(1000, open && n > 0);
  if (!taskId || n === 0) return null;
  const label = t("bg.badge", { n });
  /** @param {unknown} e */
  const failed = (e) => setError(e instanceof Error ? e.message : String(e));
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
        <span class="sa-badge-n" data-testid="bg-badge-count">${n}</span>
      </button>
      ${open && html`
        <div class="sa-popover" role="dialog" aria-label=${label} data-testid="bg-popover">
          <p class="sa-popover-title">${label}</p>
          <ul class="sa-popover-list">
            ${cmds.map((j) =>
              html`
                <li class="sa-popover-row bg-job" key=${j.id} data-testid="bg-job" data-job-id=${j
                  .id}>
                  <div class="sa-popover-open bg-job-main">
                    <code class="bg-job-cmd" title=${j.command}>${j.command}</code>
                    <span class="sa-popover-meta">${t("bg.jobMeta", {
                      time: fmtDuration(serverNow() - j.startedAt, true),
                    })}</span>
                    ${j.tail &&
                      html`<pre class="bg-job-tail" data-testid="bg-job-tail">${
                        j.tail.split("\n").filter(Boolean).slice(-3).join("\n")
                      }</pre>`}
                  </div>
                  <button
                    type="button"
                    class="icon-btn sa-popover-stop"
                    data-testid="bg-job-stop"
                    aria-label=${t("bg.stopJob", { command: j.command })}
                    title=${t("subagent.stop")}
                    onClick=${() => stopJob(taskId, j.id).catch(failed)}
                  >
                    <${IconStopSq} size=${16} />
                  </button>
                </li>
              `
            )}
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
                    onClick=${() => stopSubagent(taskId, r.id).catch(failed)}
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
