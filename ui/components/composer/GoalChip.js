/**
 * The task's goal above the composer (set with `/goal <text>`): a one-line chip with
 * the goal (the full text in its tooltip), dimmed while paused, and buttons to pause
 * or resume and to clear it. Every window shows the same goal (it is a task setting).
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { currentTask } from "../../state/tasks.js";
import { connState } from "../../state/connection.js";
import { changeGoal } from "../../state/commands.js";
import { IconX } from "../RunIcons.js";
import { IconPause, IconPlay, IconTarget } from "./CommandIcons.js";

export function GoalChip() {
  const goal = currentTask.value?.settings.goal;
  if (!goal) return null;
  const off = connState.value !== "open";
  const paused = goal.paused;
  return html`
    <section
      class=${`goal-chip${paused ? " goal-paused" : ""}`}
      data-testid="goal-chip"
      data-paused=${paused ? "true" : "false"}
      aria-label=${t("goal.label")}
    >
      <span class="goal-icon" aria-hidden="true"><${IconTarget} size=${15} /></span>
      <span class="goal-label">${paused
        ? `${t("goal.label")} · ${t("goal.paused")}`
        : t("goal.label")}</span>
      <span class="goal-text" title=${goal.text} data-testid="goal-text">${goal.text}</span>
      <button
        type="button"
        class="goal-btn"
        data-testid=${paused ? "goal-resume" : "goal-pause"}
        aria-label=${paused ? t("goal.resume") : t("goal.pause")}
        title=${paused ? t("goal.resume") : t("goal.pause")}
        disabled=${off}
        onClick=${() => changeGoal({ paused: !paused })}
      >
        ${paused ? html`<${IconPlay} size=${14} />` : html`<${IconPause} size=${14} />`}
      </button>
      <button
        type="button"
        class="goal-btn"
        data-testid="goal-clear"
        aria-label=${t("goal.clear")}
        title=${t("goal.clear")}
        disabled=${off}
        onClick=${() => changeGoal({ text: null })}
      >
        <${IconX} size=${14} />
      </button>
    </section>
  `;
}
