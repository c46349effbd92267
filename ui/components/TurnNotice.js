/**
 * A notice under a turn that ended without a complete answer: the step budget ran out,
 * the answer hit the output limit (both with Continue, `task.continue`, on the last
 * turn), the model refused, or the provider's content filter blocked it.
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { continueRun, continuing } from "../state/run_actions.js";
import { IconAlert } from "./RunIcons.js";

/** @typedef {"maxSteps" | "max_tokens" | "refusal" | "content_filter"} NoticeKind */
/** @typedef {import("../i18n/index.js").MsgKey} MsgKey */

/**
 * Title and hint keys, and whether Continue can pick the work up again.
 * @type {Record<NoticeKind, {title: MsgKey, hint: MsgKey, more: boolean, id: string}>}
 */
const KINDS = {
  maxSteps: { title: "turn.maxSteps", hint: "turn.maxStepsHint", more: true, id: "max-steps" },
  max_tokens: {
    title: "turn.stop.maxTokens",
    hint: "turn.stop.maxTokensHint",
    more: true,
    id: "max-tokens",
  },
  refusal: {
    title: "turn.stop.refusal",
    hint: "turn.stop.refusalHint",
    more: false,
    id: "refusal",
  },
  content_filter: {
    title: "turn.stop.contentFilter",
    hint: "turn.stop.contentFilterHint",
    more: false,
    id: "content-filter",
  },
};

/** @param {{kind?: NoticeKind, canContinue: boolean}} props */
export function TurnNotice({ kind = "maxSteps", canContinue }) {
  const k = KINDS[kind] ?? KINDS.maxSteps;
  return html`
    <div class="turn-notice" data-testid=${k.id} data-kind=${kind} role="status">
      <span class="turn-notice-icon"><${IconAlert} size=${16} /></span>
      <span class="turn-notice-text">
        <strong>${t(k.title)}</strong>
        <span>${t(k.hint)}</span>
      </span>
      ${canContinue && k.more &&
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
