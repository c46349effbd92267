/**
 * A task's state as a small badge — the same word and colour on the desktop sidebar
 * rows and the phone home (the CLI prints the same words): Running (with a spinner),
 * Waiting for you, Message queued, Failed, Stopped, Step limit reached, Interrupted,
 * Done. A task that never ran (`new`) has none.
 *
 * @typedef {import("../../protocol/index.ts").TaskState} TaskState
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";

/**
 * The state's word in the reader's language (a task that never ran has none).
 * @param {Exclude<TaskState, "new">} state
 */
export const stateWord = (state) => t(/** @type {const} */ (`task.state.${state}`));

/**
 * @param {{state: TaskState, testid: string, compact?: boolean}} props `compact`: the
 *   sidebar's quieter form (Done without a background).
 */
export function StatusBadge({ state, testid, compact = false }) {
  if (state === "new") return null;
  return html`
    <span
      class=${`state-badge state-${state}${compact ? " state-compact" : ""}`}
      data-testid=${testid}
      data-status=${state}
    >
      ${state === "running" && html`<span class="spinner state-spinner" aria-hidden="true"></span>`}
      ${stateWord(state)}
    </span>
  `;
}
