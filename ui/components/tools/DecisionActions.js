/**
 * The decision row of a waiting approval (tool call or plan): its allow-type buttons
 * plus Reject, which swaps the row for an optional feedback form (Enter sends, Esc
 * goes back). Shared by the Approval card and the Plan card.
 *
 * @typedef {{key: string, label: string, testid: string, decision: "allow"|"always",
 *   primary?: boolean, title?: string, rule?: string}} Choice
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { decide } from "../../state/approvals.js";
import { FeedbackForm } from "../interact/FeedbackForm.js";

/**
 * @param {{
 *   approvalId: string,
 *   busy: boolean,
 *   testid: string,
 *   choices: Choice[],
 *   reject: {label: string, feedback: string, send: string, hint: string},
 *   hint?: string,
 * }} props `testid` prefixes the reject button (`<testid>-reject`) and the form.
 */
export function DecisionActions({ approvalId, busy, testid, choices, reject, hint }) {
  const [rejecting, setRejecting] = useState(false);
  if (rejecting) {
    return html`
      <${FeedbackForm}
        testid=${testid}
        label=${reject.feedback}
        send=${reject.send}
        cancel=${t("approval.cancel")}
        hint=${reject.hint}
        busy=${busy}
        onSend=${(/** @type {string} */ text) => decide(approvalId, "reject", text)}
        onCancel=${() => setRejecting(false)}
      />
    `;
  }
  return html`
    <div class="approval-actions">
      ${choices.map((c) =>
        html`
          <button
            key=${c.key}
            type="button"
            class=${c.primary ? "ap-btn ap-allow" : "ap-btn"}
            data-testid=${c.testid}
            title=${c.title}
            disabled=${busy}
            onClick=${() => decide(approvalId, c.decision, undefined, c.rule)}
          >
            ${c.label}
          </button>
        `
      )}
      <button
        type="button"
        class="ap-btn ap-reject-outline"
        data-testid=${`${testid}-reject`}
        disabled=${busy}
        onClick=${() => setRejecting(true)}
      >
        ${reject.label}
      </button>
      ${hint && html`<span class="approval-hint">${hint}</span>`}
    </div>
  `;
}
