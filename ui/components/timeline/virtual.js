/**
 * Pure layout for the virtualised timeline: offsets of turns from measured heights
 * (an estimate — the mean of the measured ones — for turns never rendered) and the
 * range of turns that covers a viewport plus overscan.
 *
 * @typedef {import("../../state/timeline_model.js").Turn} Turn
 * @typedef {{turns: Turn[], offsets: Float64Array, total: number,
 *   index: Map<string, number>}} Layout
 */

/** Height assumed for a turn before any has been measured. */
export const DEFAULT_TURN_PX = 220;

/**
 * @param {Turn[]} turns
 * @param {Map<string, number>} heights measured heights by turn id
 * @param {number} [estimate] height of unmeasured turns (default: the measured mean)
 * @returns {Layout} `offsets[i]` = top of turn i; `offsets[n]` = total height
 */
export function layoutOf(turns, heights, estimate) {
  let est = estimate ?? DEFAULT_TURN_PX;
  if (estimate === undefined && heights.size) {
    let sum = 0;
    for (const h of heights.values()) sum += h;
    est = sum / heights.size;
  }
  const offsets = new Float64Array(turns.length + 1);
  /** @type {Map<string, number>} */
  const index = new Map();
  for (let i = 0; i < turns.length; i++) {
    index.set(turns[i].id, i);
    offsets[i + 1] = offsets[i] + (heights.get(turns[i].id) ?? est);
  }
  return { turns, offsets, total: offsets[turns.length], index };
}

/**
 * The turns [start, end) that intersect [top − overscan, top + height + overscan].
 * Always at least one turn when there are any.
 * @param {Float64Array} offsets from {@link layoutOf}
 * @param {number} top
 * @param {number} height
 * @param {number} overscan
 */
export function rangeOf(offsets, top, height, overscan) {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  const lo = top - overscan, hi = top + height + overscan;
  // First turn whose bottom is below `lo` (binary search).
  let a = 0, b = n - 1;
  while (a < b) {
    const m = (a + b) >> 1;
    if (offsets[m + 1] > lo) b = m;
    else a = m + 1;
  }
  const start = a;
  let end = start + 1;
  while (end < n && offsets[end] < hi) end++;
  return { start, end };
}
