/**
 * The conversation of the shown task, as turns (see Turn.js). Follows the bottom
 * while the reader is there — also when content grows without a new entry (an
 * approval, a question or a plan to review appearing in a card); scrolling up stops
 * following until they come back down. Only the live turn re-renders while a run
 * streams.
 */
import { useEffect, useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { connState } from "../state/connection.js";
import { lang } from "../state/prefs.js";
import { isRunning } from "../state/run_actions.js";
import {
  currentId,
  currentTask,
  entries,
  entriesTotal,
  runState,
  timelineStatus,
} from "../state/tasks.js";
import { groupTurns } from "../state/timeline_model.js";
import { Turn } from "./Turn.js";

const NEAR_BOTTOM_PX = 80;

export function Timeline() {
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  const follow = useRef(true);
  const lastTop = useRef(0);
  const shownId = useRef(/** @type {string|null} */ (null));
  const list = entries.value;
  const status = timelineStatus.value;
  const id = currentId.value;
  const run = runState.value;
  const waiting = currentTask.value?.status === "waiting";
  const canAct = !isRunning.value && connState.value === "open";
  const turns = useMemo(() => groupTurns(list), [list]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (shownId.current !== id) {
      shownId.current = id;
      follow.current = true;
    }
    if (follow.current) el.scrollTop = el.scrollHeight;
  }, [list, id, run]);

  // Cards re-render on their own (signals): follow their growth too.
  useEffect(() => {
    const el = ref.current;
    const box = /** @type {Element|null|undefined} */ (el?.firstElementChild);
    if (!el || !box || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(() => {
      if (follow.current) el.scrollTop = el.scrollHeight;
    });
    ro.observe(box);
    return () => ro.disconnect();
  }, []);

  // Only the reader scrolling up stops following: the browser may move the view down
  // on its own (scroll anchoring) while content grows.
  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX) follow.current = true;
    else if (el.scrollTop < lastTop.current) follow.current = false;
    lastTop.current = el.scrollTop;
  };
  const older = entriesTotal.value - list.length;

  return html`
    <div
      class="timeline"
      ref=${ref}
      onScroll=${onScroll}
      role="log"
      aria-label=${t("timeline.label")}
      data-testid="timeline"
    >
      <div class="timeline-inner">
        ${older > 0 && html`<p class="timeline-note">${t("timeline.older", { count: older })}</p>`}
        ${turns.map((turn, k) => {
          const last = k === turns.length - 1;
          const live = last && (run !== null || turn.items.some((e) => e.status === "streaming"));
          return html`
            <${Turn}
              key=${turn.id}
              turn=${turn}
              live=${live}
              run=${live ? run : null}
              waiting=${live && waiting}
              canAct=${last && canAct}
              lang=${lang.value}
            />
          `;
        })}
        ${list.length === 0 &&
          html`<p class="timeline-note">
            ${status === "loading" ? t("timeline.loading") : t("timeline.empty")}
          </p>`}
      </div>
    </div>
  `;
}
