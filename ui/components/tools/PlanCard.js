/**
 * exit_plan_mode: the plan as Markdown. While it waits for review:
 * Approve plan (the server switches the task to Ask and the run goes on) or Reject
 * with feedback. Afterwards: "Plan approved — mode switched to Ask", or "Not approved"
 * with the feedback given; the plan stays readable (shown open).
 *
 * @typedef {import("./card_props.js").CardProps} CardProps
 * @typedef {import("../../../protocol/index.ts").PendingApproval} PendingApproval
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { deciding } from "../../state/approvals.js";
import { refusalMessage, refusalOf } from "../../state/interact_model.js";
import { resultMeta, resultText } from "../../state/tool_model.js";
import { DecisionActions } from "./DecisionActions.js";
import { Markdown } from "../Markdown.js";
import { IconPlan } from "../RunIcons.js";
import { CardShell } from "./CardShell.js";

/** @param {{plan: string}} props */
const PlanText = ({ plan }) =>
  html`
    <div class="plan-text" data-testid="plan-text">
      <${Markdown} text=${plan} />
    </div>
  `;

/** @param {{approval: PendingApproval, plan: string}} props */
function PlanReview({ approval, plan }) {
  const busy = deciding.value.has(approval.id);
  return html`
    <div class="plan-review" data-testid="plan-card" data-approval-id=${approval.id}>
      <p class="approval-title">
        <${IconPlan} size=${15} />
        <span>${t("plan.ready")}</span>
      </p>
      <${PlanText} plan=${plan} />
      <${DecisionActions}
        approvalId=${approval.id}
        busy=${busy}
        testid="plan"
        choices=${[
          {
            key: "approve",
            label: t("plan.approve"),
            testid: "plan-approve",
            decision: "allow",
            primary: true,
          },
        ]}
        reject=${{
          label: t("plan.reject"),
          feedback: t("plan.feedback"),
          send: t("plan.rejectSend"),
          hint: t("plan.feedbackHint"),
        }}
        hint=${t("plan.approveHint")}
      />
    </div>
  `;
}

/** @param {CardProps} props */
export function PlanCard({ name, args, result, status, ms, approval, receiving }) {
  const plan = typeof args.plan === "string" ? args.plan : "";
  const text = resultText(result);
  const approved = status === "done" && resultMeta(result, ["exit_plan_mode"]).approved === true;
  const why = status === "failed" || status === "refused" ? refusalOf(result) : null;
  const rejected = why?.code === "plan_rejected";
  const feedback = rejected ? why?.feedback ?? "" : "";
  const badge = approved
    ? html`<span class="tool-badge tone-ok" data-testid="plan-badge">${
      t("plan.approvedBadge")
    }</span>`
    : rejected
    ? html`<span class="tool-badge tone-bad" data-testid="plan-badge">${
      t("plan.rejectedBadge")
    }</span>`
    : null;
  const sub = approved
    ? html`<span class="plan-outcome plan-ok" data-testid="plan-outcome">${
      t("plan.approved")
    }</span>`
    : rejected
    ? html`<span class="plan-outcome plan-bad" data-testid="plan-outcome">${
      feedback ? t("plan.rejectedWith", { feedback }) : t("plan.rejected")
    }</span>`
    : null;
  const failure = (status === "failed" || status === "refused") && !rejected;
  // Another refusal (stopped, restart, not in plan mode …) is said in the reader's
  // language; an unknown failure shows the text the model got.
  const other = failure && why ? refusalMessage(why) : null;
  const body = plan || result
    ? () =>
      html`
        <div class="plan-body">
          ${plan && html`<${PlanText} plan=${plan} />`}
          ${other &&
            html`<p class="tool-refusal" data-testid="tool-refusal" data-code=${why?.code}>${
              t(/** @type {any} */ (other.key), other.params)
            }</p>`}
          ${failure && !other &&
            html`<pre class="tool-out tool-out-error" data-testid="tool-output">${text}</pre>`}
        </div>
      `
    : null;
  return html`
    <${CardShell}
      name=${name}
      kind="plan"
      status=${status}
      summary=${t("plan.summary")}
      badges=${badge}
      sub=${sub}
      ms=${ms}
      approval=${approval}
      receiving=${receiving}
      open=${!rejected}
      body=${body}
      pending=${approval && html`<${PlanReview} approval=${approval} plan=${plan} />`}
    />
  `;
}
