/**
 * The trajectory of the shown task: what the agent did, turn by turn —
 * model calls (model, duration, tokens), tool calls (kind, outcome, duration),
 * refused calls, compactions, sub-agents, errors — from the stored entries only (a
 * value that was not stored shows as "—"). A step opens its place in the
 * conversation. Only loaded entries are covered; "Load earlier" pages older ones in.
 */
import { useRef } from "preact/hooks";
import { html } from "../../html.js";
import { t, tn } from "../../i18n/index.js";
import { entries, entriesTotal } from "../../state/tasks.js";
import { isRunning } from "../../state/run_actions.js";
import { loadEarlier, loadingEarlier } from "../../state/history.js";
import { scrollToEntry } from "../../state/overlays.js";
import { compactTokens } from "../../state/stats_model.js";
import { stepDuration, totalsOf, trajectoryOf } from "../../state/trajectory_model.js";
import { closeOverlay } from "../../state/palette.js";
import { IconClose } from "../Icons.js";
import { useModalFocus } from "../useModalFocus.js";

/** @typedef {import("../../state/trajectory_model.js").Step} Step */

const OUTCOME = /** @type {const} */ ({
  ok: "palette.traj.ok",
  failed: "palette.traj.failed",
  refused: "palette.traj.refused",
  running: "palette.traj.running",
  none: "palette.traj.noResult",
});

/** @param {number|null} ms */
const dur = (ms) => ms === null ? "—" : stepDuration(ms);

/** @param {{step: Step}} props */
function StepRow({ step }) {
  const open = () => {
    closeOverlay();
    scrollToEntry(step.entryId);
  };
  let kind = "", main = "", detail = "", tone = "";
  if (step.kind === "model") {
    kind = t("palette.traj.model");
    main = step.model || t("palette.traj.unknownModel");
    const tokens = step.tokensIn === null && step.tokensOut === null
      ? t("palette.traj.noUsage")
      : t("palette.traj.tokens", {
        input: compactTokens(step.tokensIn ?? 0),
        output: compactTokens(step.tokensOut ?? 0),
      });
    detail = [
      tokens,
      step.thinkingMs !== null
        ? t("palette.traj.thought", { d: stepDuration(step.thinkingMs) })
        : "",
      step.calls ? tn("palette.traj.calls", step.calls) : "",
      step.stopReason && step.stopReason !== "end" && step.stopReason !== "tool_use"
        ? step.stopReason
        : "",
      step.status === "error"
        ? t("palette.traj.error")
        : step.status === "stopped"
        ? t("palette.traj.stopped")
        : "",
    ].filter(Boolean).join(" · ");
    tone = step.status === "error" ? "bad" : "";
  } else if (step.kind === "tool") {
    kind = t(step.family === "subagent" ? "palette.traj.subagent" : "palette.traj.tool");
    main = step.summary ? `${step.name} ${step.summary}` : step.name;
    detail = t(OUTCOME[step.outcome]) + (step.refusal ? ` (${step.refusal})` : "");
    tone = step.outcome === "failed" || step.outcome === "refused" ? "bad" : "";
  } else {
    kind = t(
      step.kind === "compaction"
        ? "palette.traj.compaction"
        : step.kind === "error"
        ? "palette.traj.error"
        : "palette.traj.note",
    );
    main = step.text;
    tone = step.kind === "error" ? "bad" : "";
  }
  return html`
    <li>
      <button
        type="button"
        class=${`traj-step ${tone}`}
        data-testid="traj-step"
        data-kind=${step.kind}
        data-outcome=${step.kind === "tool" ? step.outcome : undefined}
        onClick=${open}
      >
        <span class=${`traj-kind traj-${step.kind}`}>${kind}</span>
        <span class="traj-main">${main}</span>
        <span class="traj-detail">${detail}</span>
        <span class="traj-dur">${dur(step.durationMs)}</span>
      </button>
    </li>
  `;
}

export function TrajectoryView() {
  const close = useRef(/** @type {HTMLButtonElement|null} */ (null));
  useModalFocus(close, closeOverlay);
  const turns = trajectoryOf(entries.value, isRunning.value);
  const tot = totalsOf(turns);
  const older = Math.max(0, entriesTotal.value - entries.value.length);
  return html`
    <div class="search-backdrop" data-testid="trajectory-backdrop" onClick=${closeOverlay}>
      <div
        class="search-dialog pal-dialog traj-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="traj-title"
        data-testid="trajectory"
        onClick=${(/** @type {Event} */ e) => e.stopPropagation()}
      >
        <div class="search-head">
          <h2 id="traj-title" class="pal-heading">${t("palette.trajectory")}</h2>
          <button
            ref=${close}
            type="button"
            class="icon-btn"
            aria-label=${t("palette.close")}
            data-testid="trajectory-close"
            onClick=${closeOverlay}
          >
            <${IconClose} />
          </button>
        </div>
        <p class="traj-totals" data-testid="traj-totals">
          ${t("palette.traj.totals", {
            models: tot.models,
            tools: tot.tools,
            failed: tot.failed,
            refused: tot.refused,
            compactions: tot.compactions,
            subagents: tot.subagents,
          })}
          ${tot.models > tot.unknownUsage &&
            ` · ${
              t("palette.traj.tokens", {
                input: compactTokens(tot.tokensIn),
                output: compactTokens(tot.tokensOut),
              })
            }`}
          ${tot.unknownUsage > 0 && ` · ${t("palette.traj.unknownUsage", { n: tot.unknownUsage })}`}
        </p>
        ${older > 0 &&
          html`
            <button
              type="button"
              class="pal-older"
              data-testid="trajectory-load-earlier"
              disabled=${loadingEarlier.value}
              onClick=${() => loadEarlier()}
            >
              ${t("palette.trajOlder", { n: older })}
            </button>
          `}
        <ol class="traj-turns" data-testid="traj-turns">
          ${turns.map((turn, i) =>
            html`
              <li class="traj-turn" data-testid="traj-turn">
                <div class="traj-turn-head">
                  <span class="pal-n">${i + 1}</span>
                  <span class="traj-q">${turn.userId
                    ? turn.line || t("palette.questionEmpty")
                    : t("palette.traj.earlier")}</span>
                  <span class="traj-dur">${dur(turn.durationMs)}</span>
                </div>
                <ol class="traj-steps">
                  ${turn.steps.map((s) => html`<${StepRow} step=${s} />`)}
                </ol>
              </li>
            `
          )}
        </ol>
        ${turns.length === 0 && html`<p class="pal-none">${t("palette.traj.empty")}</p>`}
        <p class="search-keys">${t("palette.trajNote")}</p>
      </div>
    </div>
  `;
}
