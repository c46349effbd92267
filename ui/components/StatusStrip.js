/**
 * A turn's status strip: "Working 12s" (ticking) while its run is live, with the
 * "Reconnecting… n/10 · error" line during provider retries ("Compacting…" while the
 * conversation is summarised; a progress line while a long rewind snapshot is taken); "Worked 3m 48s",
 * "Stopped" or "Error" afterwards — then a toggle for the collapsed process.
 *
 * @typedef {import("../../protocol/index.ts").RunState} RunState
 * @typedef {import("../state/timeline_model.js").TurnStatus} TurnStatus
 */
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { serverNow } from "../state/timeline.js";
import { fmtDuration } from "./format.js";
import { IconAlert, IconChevron } from "./RunIcons.js";
import { useNow } from "./useNow.js";

/**
 * @param {{status: TurnStatus, run: RunState|null, waiting: boolean, startedAt: number,
 *   endedAt: number, open: boolean, expandable: boolean, onToggle: () => void,
 *   cost?: {text: string, title: string, unknown: boolean}|null}} props
 */
export function StatusStrip(props) {
  const { status, run, waiting, open, expandable, onToggle } = props;
  const live = status === "working";
  useNow(1000, live);
  if (live) {
    const since = run?.startedAt ?? props.startedAt;
    const time = fmtDuration(Math.max(0, serverNow() - since), true);
    const retry = run?.retry ?? null;
    const snap = run?.snapshot ?? null;
    return html`
      <div class="strip strip-live" data-testid="turn-status" data-state=${waiting
        ? "waiting"
        : "working"}>
        <button
          type="button"
          class="strip-btn"
          aria-expanded=${open ? "true" : "false"}
          disabled=${!expandable}
          title=${t("turn.toggle")}
          onClick=${onToggle}
        >
          <span class="spinner" aria-hidden="true"></span>
          <span class="strip-label" data-phase=${run?.phase ?? ""}>${waiting
            ? t("turn.waiting", { time })
            : run?.phase === "compacting"
            ? t("turn.compacting", { time })
            : t("turn.working", { time })}</span>
          ${expandable && html`<span class="chev"><${IconChevron} size=${14} /></span>`}
        </button>
        ${snap &&
          html`
            <div class="strip-retry" role="status" data-testid="snapshot-line">
              <span>${t("turn.snapshot", {
                files: snap.files,
                mb: (snap.bytes / 1048576).toFixed(0),
              })}</span>
            </div>
          `}
        ${retry &&
          html`
            <div class="strip-retry" role="status" data-testid="reconnect-line">
              <${IconAlert} size=${14} />
              <span>${t("turn.reconnecting", {
                attempt: retry.attempt,
                max: retry.max,
                message: retry.message,
              })}</span>
            </div>
          `}
      </div>
    `;
  }
  const time = fmtDuration(Math.max(0, props.endedAt - props.startedAt));
  const label = status === "stopped"
    ? t("turn.stopped", { time })
    : status === "error"
    ? t("turn.error", { time })
    : t("turn.worked", { time });
  return html`
    <div class=${`strip strip-${status}`} data-testid="turn-status" data-state=${status}
      data-ms=${Math.max(0, props.endedAt - props.startedAt)}>
      <button
        type="button"
        class="strip-btn"
        aria-expanded=${open ? "true" : "false"}
        disabled=${!expandable}
        title=${t("turn.toggle")}
        onClick=${onToggle}
      >
        <span class="strip-label">${label}</span>
        ${expandable && html`<span class="chev"><${IconChevron} size=${14} /></span>`}
      </button>
      ${props.cost &&
        html`
          <span class=${`strip-cost${props.cost.unknown ? " strip-cost-unknown" : ""}`}
            data-testid="turn-cost" title=${props.cost.title}>${props.cost.text}</span>
        `}
    </div>
  `;
}
