/**
 * The Usage page's snapshot (`usage.stats` for the chosen range, in this device's local
 * days) and its reset. A newer request wins over an older answer arriving late.
 *
 * @typedef {import("../../protocol/index.ts").UsageSnapshot} UsageSnapshot
 * @typedef {import("../../protocol/index.ts").UsageRange} UsageRange
 */
import { signal } from "@preact/signals";
import { errorCode, request } from "./connection.js";

export const usageRange = signal(/** @type {UsageRange} */ ("30d"));
export const usage = signal(/** @type {UsageSnapshot|null} */ (null));
export const usageError = signal(/** @type {string|null} */ (null));

let generation = 0;

export async function loadUsage() {
  const gen = ++generation;
  try {
    const snap = await request("usage.stats", {
      range: usageRange.value,
      utcOffsetMin: -new Date().getTimezoneOffset(),
    });
    if (gen !== generation) return;
    usage.value = snap;
    usageError.value = null;
  } catch (e) {
    if (gen !== generation || errorCode(e) === "disconnected") return;
    usageError.value = e instanceof Error ? e.message : String(e);
  }
}

/** @param {UsageRange} range */
export function setUsageRange(range) {
  usageRange.value = range;
  void loadUsage();
}

/** Records a reset point (no task is deleted); returns an error message or null. */
export async function resetUsage() {
  try {
    await request("usage.reset", {});
    await loadUsage();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
