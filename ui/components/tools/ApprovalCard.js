/**
 * The Approval card inside the tool card of a call that waits for the user (SPEC
 * §4.6): what the call does (for write/edit a preview of the change — the card head
 * names the file —, for a command the whole command line, else the server's one-line
 * summary) and Allow / Always allow / Reject. Reject opens an
 * optional feedback field; Enter sends it (Shift+Enter adds a line, IME-safe), Esc
 * goes back. Works the same from any client; buttons are ≥ 44 px on phones.
 *
 * @typedef {import("../../../server/protocol.ts").PendingApproval} PendingApproval
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { decide, deciding } from "../../state/approvals.js";
import { changePreview } from "../../state/tool_model.js";
import { FeedbackForm } from "../interact/FeedbackForm.js";
import { DiffPreview } from "./DiffView.js";
import { IconHand } from "./ToolIcons.js";

/** @param {{approval: PendingApproval}} props */
export function ApprovalCard({ approval }) {
  const [rejecting, setRejecting] = useState(false);
  const busy = deciding.value.has(approval.id) || deciding.value.has("*");
  const { name, args } = approval.call;
  const cp = changePreview(name, args);
  const preview = cp && (cp.lines.length > 0 || cp.more > 0) ? cp : null;
  const command = name === "exec_command" && typeof args.command === "string" ? args.command : null;

  return html`
    <div
      class="approval"
      data-testid="approval-card"
      data-approval-id=${approval.id}
      role="group"
      aria-label=${t("approval.needed")}
    >
      <p class="approval-title">
        <${IconHand} size=${15} />
        <span>${t("approval.needed")}</span>
        <span class="approval-kind">${t(
          /** @type {any} */ (`approval.kind.${approval.kind}`),
        )}</span>
      </p>
      ${command === null && !preview &&
        html`<p class="approval-summary" data-testid="approval-summary">${approval.summary}</p>`}
      ${command !== null &&
        html`<pre class="approval-command" data-testid="approval-summary">$ ${command}</pre>`}
      ${preview && html`<${DiffPreview} lines=${preview.lines} more=${preview.more} />`}
      ${rejecting
        ? html`
          <${FeedbackForm}
            testid="approval"
            label=${t("approval.feedback")}
            send=${t("approval.rejectSend")}
            cancel=${t("approval.cancel")}
            hint=${t("approval.feedbackHint")}
            busy=${busy}
            onSend=${(/** @type {string} */ text) => decide(approval.id, "reject", text)}
            onCancel=${() => setRejecting(false)}
          />
        `
        : html`
          <div class="approval-actions">
            <button
              type="button"
              class="ap-btn ap-allow"
              data-testid="approval-allow"
              disabled=${busy}
              onClick=${() => decide(approval.id, "allow")}
            >
              ${t("approval.allow")}
            </button>
            <button
              type="button"
              class="ap-btn"
              data-testid="approval-always"
              title=${t("approval.alwaysTitle", { tool: name })}
              disabled=${busy}
              onClick=${() => decide(approval.id, "always")}
            >
              ${t("approval.always")}
            </button>
            <button
              type="button"
              class="ap-btn ap-reject-outline"
              data-testid="approval-reject"
              disabled=${busy}
              onClick=${() => setRejecting(true)}
            >
              ${t("approval.reject")}
            </button>
          </div>
        `}
    </div>
  `;
}
