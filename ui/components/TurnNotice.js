/** "Max steps reached" under a turn, with Continue (`task.continue`) on the last turn. */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { continueRun, continuing } from "../state/run_actions.js";
import { IconAlert } from "./RunIcons.js";

/** @param {{canContinue: boolean}} props */
export function TurnNotice({ canContinue }) {
  return html`
    <div class="turn-notice" data-testid="max-steps" role="status">
      <span class="turn-notice-icon"><${IconAlert} size=${16} /></span>
      <span class="turn-notice-text">
        <strong>${t("turn.maxSteps")}</strong>
        <span>${t("turn.maxStepsHint")}</span>
      </span>
      ${canContinue &&
        html`
          <button
            type="button"
            class="btn btn-small"
            data-testid="continue"
            disabled=${continuing.value}
            onClick=${continueRun}
          >
                    ${t("turn.continue")}
                  </button>
        `}
    </div>
  `;
}
