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
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { deciding } from "../../state/approvals.js";
import { changePreview } from "../../state/tool_model.js";
import { DecisionActions } from "./DecisionActions.js";
import { DiffPreview } from "./DiffView.js";
import { IconHand } from "./ToolIcons.js";

/** @param {{approval: PendingApproval}} props */
export function ApprovalCard({ approval }) {
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
      <${DecisionActions}
        approvalId=${approval.id}
        busy=${busy}
        testid="approval"
        choices=${[
          {
            key: "allow",
            label: t("approval.allow"),
            testid: "approval-allow",
            decision: "allow",
            primary: true,
          },
          {
            key: "always",
            label: t("approval.always"),
            testid: "approval-always",
            decision: "always",
            title: t("approval.alwaysTitle", { tool: name }),
          },
        ]}
        reject=${{
          label: t("approval.reject"),
          feedback: t("approval.feedback"),
          send: t("approval.rejectSend"),
          hint: t("approval.feedbackHint"),
        }}
      />
    </div>
  `;
}
