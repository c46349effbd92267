/**
 * The timeline of the task shown now: its entries, the live run (RunState) and the
 * streaming pipeline. Text deltas are buffered and applied at most once per
 * animation frame; any other event first applies the buffered deltas so
 * the order the server produced is kept.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {import("../../protocol/index.ts").RunState} RunState
 * @typedef {import("../../protocol/index.ts").TaskEvent} TaskEvent
 * @typedef {import("./timeline_model.js").Delta} Delta
 */
import { batch, signal } from "@preact/signals";
import {
  applyDeltas,
  mergeOlder,
  queueDelta,
  truncateAfter,
  upsertInto,
} from "./timeline_model.js";
import { appendLive } from "./exec_model.js";
import { LIMITS } from "../../protocol/index.ts";

/** Entries of the shown task, ordered by `pos`. */
export const entries = signal(/** @type {Entry[]} */ ([]));
/** Total entries of the shown task on the server (may exceed `entries.length`). */
export const entriesTotal = signal(0);
/** The shown task's active run, or null when it is idle. */
export const runState = signal(/** @type {RunState|null} */ (null));
/** Output of commands still running by stream, by tool call id (the result replaces it). */
export const liveOutput = signal(
  /** @type {Map<string, import("./exec_model.js").Segment[]>} */ (new Map()),
);
const LIVE_OUTPUT_CAP = LIMITS.liveOutputChars;

/** @type {Delta[]} */
let pending = [];
/**
 * Cancels the scheduled flush of `pending` (a frame, or a timer); null when none.
 * @type {(() => void)|null}
 */
let cancelFlush = null;
/** Estimated (client clock − server clock) in ms; null until observed. */
let skew = /** @type {number|null} */ (null);

/** The server's clock, estimated from live entries (phones may have another time). */
export function serverNow() {
  return Date.now() - (skew ?? 0);
}

/** @param {Entry} e */
function noteClock(e) {
  if (e.status !== "streaming" || typeof e.updatedAt !== "number") return;
  // Arrival time minus server time ≥ skew (+ latency): the smallest is the best guess.
  const d = Date.now() - e.updatedAt;
  skew = skew === null ? d : Math.min(skew, d);
}

/**
 * Runs `fn` once after `ms`, or at the next animation frame when `ms` is null (16 ms
 * where there are no frames); returns what cancels it (a timer is never cancelled as
 * a frame, nor the other way round).
 * @param {() => void} fn
 * @param {number|null} ms
 */
function schedule(fn, ms) {
  if (ms === null && typeof requestAnimationFrame === "function") {
    const id = requestAnimationFrame(fn);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(fn, ms ?? 16);
  return () => clearTimeout(id);
}

function cancelScheduledFlush() {
  cancelFlush?.();
  cancelFlush = null;
}

/** Applies the buffered deltas now (called per frame, and before any other event). */
export function flushDeltas() {
  cancelScheduledFlush();
  if (pending.length === 0) return;
  const list = pending;
  pending = [];
  entries.value = applyDeltas(entries.value, list, serverNow());
}

/** @param {Delta} d */
function bufferDelta(d) {
  queueDelta(pending, d);
  // A hidden page gets no animation frames: keep the buffer bounded by a timer then.
  if (!cancelFlush) {
    const hidden = typeof document !== "undefined" && document.visibilityState === "hidden";
    cancelFlush = schedule(flushDeltas, hidden ? 250 : null);
  }
}

/**
 * Inserts or replaces an entry of the shown task, keeping `pos` order.
 * @param {Entry} entry
 */
export function upsertEntry(entry) {
  flushDeltas();
  noteClock(entry);
  const r = upsertInto(entries.value, entry);
  entries.value = r.list;
  if (r.added) entriesTotal.value = Math.max(entriesTotal.value + 1, r.list.length);
}

/**
 * Applies a `task:<id>` event of the shown task; returns false for kinds it does not
 * handle (e.g. `deleted`).
 * @param {TaskEvent} data
 */
export function applyTimelineEvent(data) {
  switch (data?.kind) {
    case "delta":
      if (typeof data.entryId === "string" && typeof data.text === "string") bufferDelta(data);
      return true;
    case "entry":
      if (data.entry) upsertEntry(data.entry);
      return true;
    case "run":
      flushDeltas();
      runState.value = data.run ?? null;
      return true;
    case "truncate": {
      flushDeltas();
      if (typeof data.afterPos !== "number") return true;
      batch(() => {
        entries.value = truncateAfter(entries.value, data.afterPos);
        if (typeof data.total === "number") entriesTotal.value = data.total;
        liveOutput.value = new Map();
      });
      return true;
    }
    case "output": {
      if (typeof data.callId !== "string" || typeof data.text !== "string") return true;
      const next = new Map(liveOutput.value);
      const segs = next.get(data.callId) ?? [];
      next.set(data.callId, appendLive(segs, data.stream, data.text, LIVE_OUTPUT_CAP));
      liveOutput.value = next;
      return true;
    }
  }
  flushDeltas();
  return false;
}

/**
 * Adds a page of older entries (from `task.entriesBefore`) in front of the loaded ones.
 * @param {Entry[]} older
 * @param {number} total
 */
export function prependEntries(older, total) {
  flushDeltas();
  batch(() => {
    entries.value = mergeOlder(entries.value, older);
    entriesTotal.value = Math.max(total, entries.value.length);
  });
}

/**
 * Replaces the timeline (a snapshot, or empty when leaving a task); buffered deltas
 * belong to the previous state and are dropped.
 * @param {{entries: Entry[], total: number, run: RunState|null}|null} snap
 */
export function resetTimeline(snap) {
  cancelScheduledFlush();
  pending = [];
  batch(() => {
    entries.value = snap ? [...snap.entries].sort((a, b) => a.pos - b.pos) : [];
    entriesTotal.value = snap?.total ?? 0;
    runState.value = snap?.run ?? null;
    liveOutput.value = new Map();
  });
}
