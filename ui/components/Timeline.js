/**
 * The conversation of the shown task, as turns (see Turn.js), virtualised: only the
 * turns near the viewport are in the DOM (measured heights, estimates for the rest,
 * overscan above and below). Scrolling is anchored by hand: the first visible turn
 * and its offset are remembered, so a page of older entries ("Load earlier (N
 * left)") or a turn above growing never moves what the reader looks at.
 *
 * Stick-to-bottom state machine: following (new content keeps the view
 * at the bottom) until the reader scrolls up; then frozen, with a "back to bottom"
 * button — shown only while the view is really away from the bottom (a find or a
 * jump that lands at the end, or a task that fits on screen, shows none) — until they
 * scroll back down or press it. Only the live turn re-renders
 * while a run streams. A `scrollTarget` (find bar, search) is loaded, rendered and
 * scrolled into view even when it was virtualised away.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { html } from "../html.js";
import { t } from "../i18n/index.js";
import { connState } from "../state/connection.js";
import { loadEarlier, loadingEarlier, loadUntil } from "../state/history.js";
import { bottomRequest, scrollTarget } from "../state/overlays.js";
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
import { BackToBottom, LoadEarlier, TurnSlot } from "./timeline/VirtualParts.js";
import { layoutOf, rangeOf } from "./timeline/virtual.js";
import { QuestionRail } from "./palette/QuestionRail.js";

const NEAR_BOTTOM_PX = 80;

/** @param {HTMLElement} el the scrolling timeline */
const isAtEnd = (el) => el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
/** Pixels rendered beyond the viewport, above and below. */
const OVERSCAN_PX = 900;

export function Timeline() {
  const ref = useRef(/** @type {HTMLDivElement|null} */ (null));
  const listRef = useRef(/** @type {HTMLDivElement|null} */ (null));
  const follow = useRef(true);
  const [following, setFollowing] = useState(true);
  /** Whether the view is at (near) the bottom now: "Back to bottom" shows only when not. */
  const [atEnd, setAtEnd] = useState(true);
  const [, setTick] = useState(0);
  const lastTop = useRef(0);
  const shownId = useRef(/** @type {string|null} */ (null));
  const heights = useRef(/** @type {Map<string, number>} */ (new Map()));
  /** The first visible turn and how far the viewport's top is below its top. */
  const anchor = useRef(/** @type {{id: string, delta: number}|null} */ (null));
  /** Where the last render placed the view (list coordinates), for the layout effect. */
  const plan = useRef({ top: 0, follow: true });
  const pendingTarget = useRef(/** @type {string|null} */ (null));
  const viewH = useRef(800);
  /** Sum and count of the measured heights (their mean estimates the others). */
  const hstats = useRef({ sum: 0, n: 0 });
  /** The layout of the last render (what the DOM shows). */
  const layRef = useRef(/** @type {import("./timeline/virtual.js").Layout|null} */ (null));
  const frame = useRef(0);

  const list = entries.value;
  const status = timelineStatus.value;
  const id = currentId.value;
  const run = runState.value;
  const waiting = currentTask.value?.status === "waiting";
  const canAct = !isRunning.value && connState.value === "open";
  const turns = useMemo(() => groupTurns(list), [list]);

  if (shownId.current !== id) {
    shownId.current = id;
    follow.current = true;
    anchor.current = null;
    if (!following) setFollowing(true);
  }

  // A message sent from here: follow the bottom again even if the user had scrolled up.
  const bottomSeen = useRef(bottomRequest.peek());
  if (bottomSeen.current !== bottomRequest.value) {
    bottomSeen.current = bottomRequest.value;
    follow.current = true;
    anchor.current = null;
    if (!following) setFollowing(true);
  }

  const rerender = () => setTick((n) => n + 1);
  const setFollow = (/** @type {boolean} */ on) => {
    follow.current = on;
    if (on) anchor.current = null;
    setFollowing(on);
  };

  // ---- layout: offsets, the view's top, the rendered range ----
  const lay = layoutOf(
    turns,
    heights.current,
    hstats.current.n ? hstats.current.sum / hstats.current.n : undefined,
  );
  layRef.current = lay;
  const vh = viewH.current;
  let top;
  if (follow.current) top = Math.max(0, lay.total - vh);
  else {
    const a = anchor.current;
    const at = a ? lay.index.get(a.id) : undefined;
    const el = ref.current;
    top = at !== undefined && a
      ? lay.offsets[at] + a.delta
      : Math.max(0, (el?.scrollTop ?? 0) - (listRef.current?.offsetTop ?? 0));
  }
  plan.current = { top, follow: follow.current };
  const { start, end } = rangeOf(lay.offsets, top, vh, OVERSCAN_PX);

  /** Remembers the first visible turn from the real scroll position. */
  const noteAnchor = () => {
    const el = ref.current;
    if (!el || follow.current) return;
    const y = el.scrollTop - (listRef.current?.offsetTop ?? 0);
    const l = layRef.current;
    if (!l || l.turns.length === 0) return;
    let { start: i } = rangeOf(l.offsets, y, 0, 0);
    // Anchor on a measured turn that starts with a user message: an estimated one
    // changes height once it renders, and a partial first turn (no user message yet)
    // disappears into its whole turn when older entries arrive.
    const good = (/** @type {number} */ k) =>
      heights.current.has(l.turns[k].id) && l.turns[k].user !== null;
    const first = i;
    while (i < l.turns.length - 1 && !good(i)) i++;
    if (!l.turns[i] || !good(i)) i = first;
    const turn = l.turns[i];
    anchor.current = turn ? { id: turn.id, delta: y - l.offsets[i] } : null;
  };

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const listTop = listRef.current?.offsetTop ?? 0;
    if (plan.current.follow) el.scrollTop = el.scrollHeight;
    else if (anchor.current) {
      const want = Math.round(listTop + plan.current.top);
      if (Math.abs(el.scrollTop - want) > 1) el.scrollTop = want;
    }
    lastTop.current = el.scrollTop;
    setAtEnd(isAtEnd(el));
    const target = pendingTarget.current;
    if (target) {
      const hit = /** @type {HTMLElement|null} */ (
        el.querySelector(`[data-entry-id="${CSS.escape(target)}"]`)
      );
      const slot = hit?.closest(".tl-item");
      if (slot) {
        pendingTarget.current = null;
        const shown = hit && hit.offsetParent !== null ? hit : /** @type {HTMLElement} */ (slot);
        shown.scrollIntoView({ block: "center" });
        slot.classList.add("tl-target");
        setTimeout(() => slot.classList.remove("tl-target"), 1600);
        lastTop.current = el.scrollTop;
        setAtEnd(isAtEnd(el));
        noteAnchor();
      }
    }
  });

  // The viewport's height (window resize, keyboard on phones).
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const ro = new ResizeObserver(() => {
      if (Math.abs(el.clientHeight - viewH.current) < 1) return;
      viewH.current = el.clientHeight;
      rerender();
    });
    ro.observe(el);
    viewH.current = el.clientHeight || viewH.current;
    return () => ro.disconnect();
  }, []);

  // Measured turn heights: a change re-lays the list out (and keeps the anchor).
  const measure = useMemo(() => {
    if (typeof ResizeObserver === "undefined") return null;
    return new ResizeObserver((list) => {
      let changed = false;
      for (const r of list) {
        const el = /** @type {HTMLElement} */ (r.target);
        const key = el.dataset.turnKey;
        if (!key || !el.isConnected) continue;
        const h = r.borderBoxSize?.[0]?.blockSize ?? el.offsetHeight;
        const was = heights.current.get(key);
        if (was === undefined || Math.abs(was - h) > 0.5) {
          const st = hstats.current;
          st.sum += h - (was ?? 0);
          if (was === undefined) st.n++;
          heights.current.set(key, h);
          changed = true;
        }
      }
      if (changed) rerender();
    });
  }, []);
  useEffect(() => () => {
    measure?.disconnect();
    if (frame.current) cancelAnimationFrame(frame.current);
  }, [measure]);

  // Find bar / search: load the entry if needed, then render it and bring it into view.
  const target = scrollTarget.value;
  useEffect(() => {
    if (!target) return;
    let cancelled = false;
    (async () => {
      await loadUntil(target.entryId);
      if (cancelled) return;
      const l = layoutOf(groupTurns(entries.peek()), heights.current);
      const i = l.turns.findIndex((turn) =>
        turn.user?.id === target.entryId || turn.items.some((e) => e.id === target.entryId)
      );
      if (i < 0) return;
      follow.current = false;
      setFollowing(false);
      anchor.current = { id: l.turns[i].id, delta: -viewH.current / 3 };
      pendingTarget.current = target.entryId;
      rerender();
    })();
    return () => {
      cancelled = true;
    };
  }, [target]);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    const atBottom = isAtEnd(el);
    setAtEnd(atBottom);
    if (atBottom) {
      if (!follow.current) setFollow(true);
    } else if (el.scrollTop < lastTop.current - 1 && follow.current) {
      // Only the reader moves the view up: our own adjustments only move it down.
      follow.current = false;
      setFollowing(false);
    }
    lastTop.current = el.scrollTop;
    noteAnchor();
    if (!frame.current) {
      frame.current = requestAnimationFrame(() => {
        frame.current = 0;
        rerender();
      });
    }
  };
  const onWheel = (/** @type {WheelEvent} */ e) => {
    if (e.deltaY < 0 && follow.current && ref.current && ref.current.scrollTop > 0) {
      follow.current = false;
      setFollowing(false);
      noteAnchor();
    }
  };
  const toBottom = () => {
    setFollow(true);
    rerender();
  };
  const onLoadEarlier = () => {
    if (follow.current) {
      follow.current = false;
      setFollowing(false);
    }
    noteAnchor();
    loadEarlier();
  };

  const older = Math.max(0, entriesTotal.value - list.length);
  const lastIdx = turns.length - 1;
  const shown = [];
  for (let k = start; k < end; k++) {
    const turn = turns[k];
    const last = k === lastIdx;
    const live = last && (run !== null || turn.items.some((e) => e.status === "streaming"));
    shown.push(html`
      <${TurnSlot} key=${turn.id} id=${turn.id} observer=${measure}>
        <${Turn}
          turn=${turn}
          live=${live}
          run=${live ? run : null}
          waiting=${live && waiting}
          canAct=${last && canAct}
          lang=${lang.value}
        />
        <//>
    `);
  }

  return html`
    <div class="timeline-wrap">
      <div
        class="timeline"
        ref=${ref}
        onScroll=${onScroll}
        onWheel=${onWheel}
        role="log"
        aria-label=${t("timeline.label")}
        data-testid="timeline"
        data-following=${following ? "true" : "false"}
      >
        <div class="timeline-inner">
          ${older > 0 &&
            html`<${LoadEarlier} count=${older} busy=${loadingEarlier.value} onLoad=${onLoadEarlier} />`}
          <div class="tl-list" ref=${listRef} data-testid="timeline-list" data-turns=${turns
            .length}>
            <div class="tl-pad" style=${`height:${lay.offsets[start]}px`}></div>
            ${shown}
            <div class="tl-pad" style=${`height:${lay.total - lay.offsets[end]}px`}></div>
          </div>
          ${list.length === 0 &&
            html`<p class="timeline-note">
              ${status === "loading" ? t("timeline.loading") : t("timeline.empty")}
            </p>`}
        </div>
      </div>
      ${!following && !atEnd && list.length > 0 && html`<${BackToBottom} onClick=${toBottom} />`}
      <${QuestionRail} />
    </div>
  `;
}
