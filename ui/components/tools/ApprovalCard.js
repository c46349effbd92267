/**
 * The Approval card inside the tool card of a call that waits for the user:
 * what the call does (for write/edit a preview of the change — the card head
 * names the file —, for a command the whole command line, else the server's one-line
 * summary) and Allow / Always allow / Reject. Reject opens an
 * optional feedback field; Enter sends it (Shift+Enter adds a line, IME-safe), Esc
 * goes back. Works the same from any client; buttons are ≥ 44 px on phones.
 *
 * @typedef {import("../../../protocol/index.ts").PendingApproval} PendingApproval
 * @typedef {import("../../i18n/index.js").MsgKey} MsgKey
 */
import { suggestCommandRule } from "../../../protocol/permission_rules.ts";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { deciding } from "../../state/approvals.js";
import { changePreview } from "../../state/tool_model.js";
import { DecisionActions } from "./DecisionActions.js";
import { DiffPreview } from "./DiffView.js";
import { IconHand } from "./ToolIcons.js";

/** The Reject button and its feedback form, the same on both approval cards. */
const rejectTexts = () => ({
  label: t("approval.reject"),
  feedback: t("approval.feedback"),
  send: t("approval.rejectSend"),
  hint: t("approval.feedbackHint"),
});

/**
 * Once per task in full mode when commands would run without a sandbox: allow for the
 * task, or reject (the model is told to use the file tools).
 * @param {{approval: PendingApproval, command: string|null, busy: boolean}} props
 */
function UnsandboxedCard({ approval, command, busy }) {
  return html`
    <div
      class="approval approval-unsandboxed"
      data-testid="approval-card"
      data-approval-id=${approval.id}
      data-kind="unsandboxed"
      role="group"
      aria-label=${t("approval.unsandboxed.title")}
    >
      <p class="approval-title">
        <${IconHand} size=${15} />
        <span>${t("approval.unsandboxed.title")}</span>
      </p>
      <p class="approval-warn" data-testid="approval-unsandboxed">${t(
        /** @type {const} */ (`approval.unsandboxed.${approval.unsandboxed ?? "unavailable"}`),
      )}</p>
      ${command !== null &&
        html`<pre class="approval-command" data-testid="approval-summary">$ ${command}</pre>`}
      <${DecisionActions}
        approvalId=${approval.id}
        busy=${busy}
        testid="approval"
        choices=${[{
          key: "allow",
          label: t("approval.unsandboxed.allow"),
          testid: "approval-allow",
          decision: "allow",
          primary: true,
        }]}
        reject=${rejectTexts()}
      />
    </div>
  `;
}

/** @param {{approval: PendingApproval}} props */
export function ApprovalCard({ approval }) {
  const busy = deciding.value.has(approval.id) || deciding.value.has("*");
  const { name, args } = approval.call;
  const cp = changePreview(name, args);
  const preview = cp && (cp.lines.length > 0 || cp.more > 0) ? cp : null;
  if (approval.kind === "unsandboxed") {
    const line = typeof args.command === "string" ? args.command : null;
    return html`<${UnsandboxedCard} approval=${approval} command=${line} busy=${busy} />`;
  }
  const command = name === "exec_command" && typeof args.command === "string" ? args.command : null;
  // "Always allow `npm test *`": the command's own prefix, for this task.
  const prefixRule = typeof args.command === "string"
    ? suggestCommandRule(name, args.command)
    : null;
  const prefix = prefixRule ? /\((.*)\)$/.exec(prefixRule)?.[1] ?? "" : "";

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
          /** @type {MsgKey} */ (`approval.kind.${approval.kind}`),
        )}</span>
      </p>
      ${approval.subagent &&
        html`
          <p class="approval-origin"
            data-testid="approval-subagent">${t(
              "subagent.from",
              approval.subagent,
            )} · <code>${name}</code></p>
        `}
      ${command === null && !preview &&
        html`<p class="approval-summary" data-testid="approval-summary">${approval.summary}</p>`}
      ${command !== null &&
        html`<pre class="approval-command" data-testid="approval-summary">$ ${command}</pre>`}
      ${approval.unsandboxed &&
        html`<p class="approval-warn" data-testid="approval-unsandboxed">${
          t(
            "approval.unsandboxed.note",
          )
        }</p>`}
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
          ...(prefixRule
            ? [{
              key: "always-prefix",
              label: t("approval.alwaysPrefix", { prefix }),
              testid: "approval-always-prefix",
              decision: /** @type {"always"} */ ("always"),
              title: t("approval.alwaysPrefixTitle", { prefix }),
              rule: prefixRule,
            }]
            : []),
          {
            key: "always",
            label: t("approval.always"),
            testid: "approval-always",
            decision: "always",
            title: t("approval.alwaysTitle", { tool: name }),
          },
        ]}
        reject=${rejectTexts()}
      />
    </div>
  `;
}
