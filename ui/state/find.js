/**
 * Find in conversation. Matches come from the loaded entries model (the
 * timeline is virtualised, so the DOM alone would miss entries not rendered):
 * case-insensitive occurrences in the text of user and assistant entries. The current
 * match is brought into view with `scrollToEntry`, then placed below the find bar
 * (never under it) and above the composer; rendered matches are highlighted
 * with the CSS Custom Highlight API (fallback: the current entry is outlined).
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {{entryId: string, nth: number}} FindMatch nth = occurrence within the entry
 */
import { batch, computed, effect, signal } from "@preact/signals";
import { entries } from "./timeline.js";
import { currentId } from "./tasks.js";
import { findOpen, scrollToEntry } from "./overlays.js";
import { matchesIn, stepIndex } from "./find_model.js";

export { entryText, matchesIn, stepIndex } from "./find_model.js";

export const findQuery = signal("");
/** Index of the current match in {@link findMatches}; -1 when none. */
export const findIndex = signal(-1);

export const findMatches = computed(() =>
  findOpen.value ? matchesIn(entries.value, findQuery.value.trim()) : []
);

/** @param {string} q */
export function setFindQuery(q) {
  batch(() => {
    findQuery.value = q;
    findIndex.value = -1;
  });
  const m = findMatches.value;
  if (m.length) goTo(0);
  else paintSoon();
}

/** @param {number} delta */
export function findStep(delta) {
  const next = stepIndex(findIndex.value, findMatches.value.length, delta);
  if (next >= 0) goTo(next);
}

/** @param {number} i */
function goTo(i) {
  findIndex.value = i;
  const m = findMatches.value[i];
  if (!m) return;
  scrollToEntry(m.entryId);
  paintSoon(true);
}

export function openFind() {
  if (currentId.value === null) return false;
  findOpen.value = true;
  return true;
}

export function closeFind() {
  findOpen.value = false;
  clearPaint();
}

// ---------- highlighting in the rendered DOM ----------

const HL_ALL = "reinagent-find";
const HL_CURRENT = "reinagent-find-current";
/** @type {ReturnType<typeof setTimeout>[]} */
let timers = [];

/** Paints now and again shortly after (the timeline may still be rendering). */
function paintSoon(show = false) {
  for (const t of timers) clearTimeout(t);
  timers = [0, 120, 400].map((ms) => setTimeout(() => paint(show), ms));
}

/** Space kept between the current match and the find bar / the view's edges. */
const REVEAL_MARGIN_PX = 12;

/**
 * Scrolls the timeline so that `box` (the current match) lies in the part of the view
 * the find bar does not cover — below the bar, above the composer — a third of the way
 * down that free area. Nothing moves when it is already there.
 * @param {DOMRect} box
 */
function reveal(box) {
  const view = document.querySelector("[data-testid=timeline]");
  if (!view) return;
  const v = view.getBoundingClientRect();
  const bar = document.querySelector("[data-testid=find-bar]")?.getBoundingClientRect();
  const top = Math.max(v.top, bar?.bottom ?? v.top) + REVEAL_MARGIN_PX;
  const bottom = v.bottom - REVEAL_MARGIN_PX;
  if (box.top >= top && box.bottom <= bottom) return;
  const want = top + Math.max(0, (bottom - top - box.height) / 3);
  view.scrollTop += box.top - want;
}

function clearPaint() {
  for (const t of timers) clearTimeout(t);
  timers = [];
  const hl = highlights();
  hl?.delete(HL_ALL);
  hl?.delete(HL_CURRENT);
  for (const el of document.querySelectorAll("[data-find-current]")) {
    el.removeAttribute("data-find-current");
  }
}

function highlights() {
  const c = /** @type {any} */ (globalThis).CSS;
  return c?.highlights && typeof (/** @type {any} */ (globalThis).Highlight) === "function"
    ? /** @type {Map<string, unknown>} */ (c.highlights)
    : null;
}

/**
 * Ranges of `needle` in the text under `root` (skipping the find bar and controls).
 * @param {Element} root
 * @param {string} needle lower-case
 */
function rangesIn(root, needle) {
  /** @type {Range[]} */
  const out = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) =>
      n.parentElement?.closest("button, textarea, input, [data-find-skip]")
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const text = (n.nodeValue ?? "").toLocaleLowerCase();
    let at = text.indexOf(needle);
    while (at >= 0) {
      const r = document.createRange();
      r.setStart(n, at);
      r.setEnd(n, at + needle.length);
      out.push(r);
      at = text.indexOf(needle, at + needle.length);
    }
  }
  return out;
}

/** @param {boolean} show scroll the current match into view (below the find bar) */
function paint(show) {
  if (!findOpen.value) return;
  const q = findQuery.value.trim().toLocaleLowerCase();
  const matches = findMatches.value;
  const current = matches[findIndex.value] ?? null;
  const ids = new Set(matches.map((m) => m.entryId));
  /** @type {Range[]} */
  const all = [];
  /** @type {Range|null} */
  let cur = null;
  /** @type {Element|null} */
  let curEl = null;
  for (const el of document.querySelectorAll("[data-entry-id]")) {
    el.removeAttribute("data-find-current");
    const id = el.getAttribute("data-entry-id") ?? "";
    if (!q || !ids.has(id) || el.parentElement?.closest("[data-entry-id]")) continue;
    const ranges = rangesIn(el, q);
    all.push(...ranges);
    if (current && current.entryId === id) {
      curEl = el;
      cur = ranges[Math.min(current.nth, ranges.length - 1)] ?? null;
    }
  }
  const hl = highlights();
  if (hl) {
    const H = /** @type {any} */ (globalThis).Highlight;
    hl.set(HL_ALL, new H(...all.filter((r) => r !== cur)));
    if (cur) hl.set(HL_CURRENT, new H(cur));
    else hl.delete(HL_CURRENT);
  }
  if (curEl) curEl.setAttribute("data-find-current", hl && cur ? "range" : "entry");
  const box = (cur ?? curEl)?.getBoundingClientRect();
  if (show && box) reveal(box);
}

if (typeof document !== "undefined") {
  // The model changed (streaming, another page loaded): keep the index in range and
  // repaint what is rendered.
  effect(() => {
    const n = findMatches.value.length;
    if (findIndex.peek() >= n) findIndex.value = n - 1;
    if (findOpen.peek()) paintSoon();
  });
  // The timeline renders entries as they scroll into view: repaint after scrolling.
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let scrollTimer;
  document.addEventListener("scroll", () => {
    if (!findOpen.peek()) return;
    clearTimeout(scrollTimer);
    scrollTimer = setTimeout(() => paint(false), 60);
  }, { capture: true, passive: true });
  // Another task: the bar closes.
  effect(() => {
    currentId.value;
    if (findOpen.peek()) closeFind();
  });
}
