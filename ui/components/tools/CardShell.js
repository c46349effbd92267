/**
 * The frame every tool card shares: a head button (state, tool name, what it works on,
 * badges, duration, chevron) that shows or hides the body; a failure starts expanded.
 * While the call waits for the user, the Approval card replaces the body (or `pending`,
 * the card's own view of the wait: questions, a plan to review).
 *
 * @typedef {import("../../../protocol/index.ts").PendingApproval} PendingApproval
 * @typedef {import("./card_props.js").CallStatus} CallStatus
 * @typedef {{name: string, status: CallStatus, summary: any, badges?: any, sub?: any,
 *   ms?: number, body: (() => any) | null, open?: boolean, approval?: PendingApproval,
 *   kind?: string, receiving?: number, pending?: any, label?: string}} Props
 */
import { useState } from "preact/hooks";
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { IconCheck, IconChevron, IconTool, IconX } from "../RunIcons.js";
import { ApprovalCard } from "./ApprovalCard.js";
import { resultText } from "../../state/tool_model.js";
import { IconHand } from "./ToolIcons.js";
import { RefusalNote } from "./RefusalNote.js";

/** @param {{status: CallStatus}} props */
function StateIcon({ status }) {
  const label = t(/** @type {const} */ (`tool.state.${status}`));
  const icon = status === "running"
    ? html`<span class="spinner" aria-hidden="true"></span>`
    : status === "waiting" || status === "refused"
    ? html`<${IconHand} size=${14} />`
    : status === "done"
    ? html`<${IconCheck} size=${14} />`
    : status === "failed"
    ? html`<${IconX} size=${14} />`
    : html`<${IconTool} size=${14} />`;
  return html`
    <span class=${`tool-state tool-${status}`} title=${label}>
      ${icon}<span class="sr-only">${label}</span>
    </span>
  `;
}

/** @param {number} chars */
const fmtSize = (chars) =>
  chars < 1000
    ? `${chars}`
    : chars < 1e6
    ? `${(chars / 1000).toFixed(1)}K`
    : `${(chars / 1e6).toFixed(1)}M`;

/**
 * The usual expanded body: the result text in a monospace box (red when failed).
 * @param {import("../../../protocol/index.ts").Entry|undefined} result
 * @param {string} status
 */
export function resultBody(result, status) {
  if (!result) return null;
  return () =>
    html`
      <pre
        class=${status === "failed" ? "tool-out tool-out-error" : "tool-out"}
        data-testid="tool-output"
      >${resultText(result) || t("tool.noOutput")}</pre>
    `;
}

/** @param {Props} props */
export function CardShell(props) {
  const { name, status, summary, badges, sub, ms, body, approval, kind } = props;
  const [open, setOpen] = useState(/** @type {boolean|null} */ (null));
  const waitView = approval &&
    (props.pending ?? html`<${ApprovalCard} approval=${approval} />`);
  const expanded = !approval && body !== null &&
    (open ?? (props.open || status === "failed" || status === "refused"));
  return html`
    <div
      class=${`tool-card${approval ? " tool-card-waiting" : ""}`}
      data-testid="tool-card"
      data-tool=${name}
      data-kind=${kind ?? "other"}
      data-status=${status}
    >
      <button
        type="button"
        class="tool-head"
        aria-expanded=${expanded ? "true" : "false"}
        title=${t("tool.toggle")}
        disabled=${!!approval || body === null}
        onClick=${() => setOpen(!expanded)}
      >
        <${StateIcon} status=${status} />
        <span class="tool-name" title=${name}>${props.label ?? name}</span>
        <span class="tool-arg" data-testid="tool-arg">${summary}</span>
        ${badges}
        ${props.receiving !== undefined &&
          html`<span class="tool-badge" data-testid="tool-receiving">${
            props.receiving
              ? t("tool.receiving", { size: fmtSize(props.receiving) })
              : t("tool.receivingStart")
          }</span>`}
        ${Number.isFinite(ms) &&
          html`<span class="tool-ms">${(/** @type {number} */ (ms) / 1000).toFixed(1)}s</span>`}
        ${!approval && body !== null &&
          html`<span class="chev"><${IconChevron} size=${14} /></span>`}
      </button>
      ${sub && html`<div class="tool-sub">${sub}</div>`}
      <${RefusalNote} />
      ${waitView}
      ${expanded && body && body()}
    </div>
  `;
}
