/**
 * The facts of a sub-agent run as small badges: its state (running, ⚠ max steps,
 * stopped, failed, interrupted), background, tool calls, duration and tokens. Shared
 * by the tool card, the transcript pane and the background badge.
 *
 * @typedef {import("../../../protocol/index.ts").SubagentRun} SubagentRun
 */
import { html } from "../../html.js";
import { t } from "../../i18n/index.js";
import { fmtDuration } from "../format.js";

/** @param {number} n */
const compact = (n) =>
  n < 1000 ? String(n) : n < 1e6 ? `${(n / 1000).toFixed(1)}K` : `${(n / 1e6).toFixed(1)}M`;

/** @param {{run: SubagentRun, now: number, full?: boolean}} props */
export function SubagentFacts({ run, now, full = false }) {
  const ms = (run.endedAt ?? now) - run.startedAt;
  const tokens = run.tokens.input + run.tokens.output;
  const warn = run.status === "maxSteps" || run.status === "failed" || run.status === "stopped" ||
    run.status === "interrupted";
  return html`
    <span class="sa-facts" data-testid="subagent-facts" data-status=${run.status}>
      ${run.status !== "done" &&
        html`
          <span class=${`tool-badge sa-state${warn ? " sa-warn" : ""}`} data-testid="subagent-state"
          >${warn ? "⚠ " : ""}${t(/** @type {const} */ (`subagent.state.${run.status}`), {
            n: run.maxSteps,
          })}</span>
        `}
      ${run.background &&
        html`<span class="tool-badge" data-testid="subagent-bg">${t("subagent.background")}</span>`}
      ${(full || run.status !== "running") &&
        html`<span class="tool-badge" data-testid="subagent-calls">${
          t(run.toolCalls === 1 ? "subagent.calls.one" : "subagent.calls", { n: run.toolCalls })
        }</span>`}
      <span class="tool-badge">${fmtDuration(ms, run.status === "running")}</span>
      ${tokens > 0 &&
        html`<span class="tool-badge" title=${
          t("subagent.tokensTitle", {
            input: run.tokens.input,
            output: run.tokens.output,
          })
        }>${t("subagent.tokens", { n: compact(tokens) })}</span>`}
    </span>
  `;
}
