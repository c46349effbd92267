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
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { decide, deciding } from "../../state/approvals.js";
import { changePreview } from "../../state/tool_model.js";
import { DiffPreview } from "./DiffView.js";
import { IconHand } from "./ToolIcons.js";

/** @param {{approval: PendingApproval}} props */
export function ApprovalCard({ approval }) {
  const [rejecting, setRejecting] = useState(false);
  const [feedback, setFeedback] = useState("");
  const input = useRef(/** @type {HTMLTextAreaElement|null} */ (null));
  const busy = deciding.value.has(approval.id) || deciding.value.has("*");
  const { name, args } = approval.call;
  const cp = changePreview(name, args);
  const preview = cp && (cp.lines.length > 0 || cp.more > 0) ? cp : null;
  const command = name === "exec_command" && typeof args.command === "string" ? args.command : null;
  useEffect(() => {
    if (rejecting) input.current?.focus();
  }, [rejecting]);
  const reject = () => decide(approval.id, "reject", feedback);

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
          <form
            class="approval-reject"
            onSubmit=${(/** @type {Event} */ e) => {
              e.preventDefault();
              reject();
            }}
          >
            <textarea
              ref=${input}
              class="approval-feedback"
              data-testid="approval-feedback"
              rows="2"
              maxlength="4000"
              aria-label=${t("approval.feedback")}
              placeholder=${t("approval.feedback")}
              value=${feedback}
              onInput=${(/** @type {Event} */ e) =>
                setFeedback(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value)}
              onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
                if (e.isComposing || e.keyCode === 229) return;
                if (e.key === "Escape") {
                  e.preventDefault();
                  setRejecting(false);
                } else if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault();
                  reject();
                }
              }}
            ></textarea>
            <div class="approval-actions">
              <button
                type="submit"
                class="ap-btn ap-reject"
                data-testid="approval-reject-send"
                disabled=${busy}
              >
                ${t("approval.rejectSend")}
              </button>
              <button type="button" class="ap-btn" onClick=${() => setRejecting(false)}>
                ${t("approval.cancel")}
              </button>
              <span class="approval-hint">${t("approval.feedbackHint")}</span>
            </div>
          </form>
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
