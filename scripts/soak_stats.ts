/**
 * Pure parts of the soak benchmark (scripts/bench_soak.ts): the RSS trend as a
 * least-squares line, and the budget lines it prints.
 */

/** One RSS reading of the server: ms since the soak began, resident MB. */
export interface RssSample {
  ms: number;
  mb: number;
}

/** Slope of the least-squares line through the samples, in MB per minute (NaN below 2). */
export function slopeMbPerMin(samples: RssSample[]): number {
  const n = samples.length;
  if (n < 2) return NaN;
  const meanT = samples.reduce((s, x) => s + x.ms, 0) / n;
  const meanM = samples.reduce((s, x) => s + x.mb, 0) / n;
  let cov = 0;
  let varT = 0;
  for (const x of samples) {
    cov += (x.ms - meanT) * (x.mb - meanM);
    varT += (x.ms - meanT) ** 2;
  }
  return varT === 0 ? NaN : (cov / varT) * 60_000;
}

export interface SoakResult {
  tasks: number;
  steps: number;
  ms: number;
  /** Every sample, from the server's start to the last task's end. */
  samples: RssSample[];
  /** When warm-up ended (ms since start): samples from here on make the slope. */
  warmupEndMs: number;
  /** The kernel's high-water mark of the server's RSS (VmHWM, MB): spikes between samples. */
  hwmMb: number;
  /**
   * The heap after a full collection (MB) at warm-up's end and at the end, `tasks` apart:
   * what the server keeps for good, without the collector's sawtooth.
   */
  heap?: { warmMb: number; endMb: number; tasks: number };
  /**
   * A paced soak's RSS read right after a full collection, from warm-up's end to the end at
   * even task intervals: the trend without the collector's sawtooth.
   */
  afterGc?: RssSample[];
  /** The delay of each mock answer (ms; 0 or absent: unpaced, the slope is GC sawtooth). */
  paceMs?: number;
}

export const SOAK_BUDGET = { slopeMbPerMin: 1, peakMb: 150 };

/**
 * The lines `deno task bench` prints; OVER when a budget is missed (or nothing measured). The
 * slope of an unpaced soak is shown but not judged (see {@link unpacedHint}).
 */
export function reportSoak(r: SoakResult): string[] {
  const after = r.samples.filter((s) => s.ms >= r.warmupEndMs);
  const slope = slopeMbPerMin(after);
  const sampled = Math.max(...r.samples.map((s) => s.mb));
  const peak = Math.max(sampled, r.hwmMb);
  const start = after[0]?.mb ?? NaN;
  const end = after.at(-1)?.mb ?? NaN;
  const verdict = (ok: boolean) => ok ? "OK" : "OVER";
  return [
    `soak: ${r.steps} tool steps over ${r.tasks} tasks in ${(r.ms / 1000).toFixed(0)} s, ` +
    `${r.samples.length} RSS samples${r.paceMs ? `, paced: ${r.paceMs} ms per answer` : ""}`,
    `soak RSS slope after warm-up: ${slope.toFixed(2)} MB/min (${start.toFixed(1)} → ` +
    `${end.toFixed(1)} MB over ${after.length} samples; budget ${SOAK_BUDGET.slopeMbPerMin} ` +
    // Unpaced, the window is seconds of the collector's sawtooth: no verdict either way.
    `MB/min) ${r.paceMs ? verdict(slope <= SOAK_BUDGET.slopeMbPerMin) : "not judged"}`,
    ...afterGcLine(r),
    ...unpacedHint(r, after),
    ...heapLine(r),
    `soak peak RSS: ${peak.toFixed(1)} MB (kernel high-water mark; highest 1 s sample ` +
    `${sampled.toFixed(1)} MB${r.afterGc ? "; lowered by the forced collections" : ""}; ` +
    `budget ${SOAK_BUDGET.peakMb} MB) ${verdict(peak <= SOAK_BUDGET.peakMb)}`,
  ];
}

/**
 * The slope of the RSS read after full collections (a paced soak), held to the same budget:
 * between forced collections at even task intervals the sawtooth cannot tilt it, while in the
 * 1-second samples a few of its cycles can (the window also starts at the warm-up's forced one).
 */
function afterGcLine(r: SoakResult): string[] {
  const points = r.afterGc ?? [];
  if (points.length < 3) return [];
  const slope = slopeMbPerMin(points);
  const ok = slope <= SOAK_BUDGET.slopeMbPerMin;
  return [
    `soak RSS after full collections: ${slope.toFixed(2)} MB/min (${points[0].mb.toFixed(1)} → ` +
    `${points.at(-1)!.mb.toFixed(1)} MB over ${points.length} points; budget ` +
    `${SOAK_BUDGET.slopeMbPerMin} MB/min) ${ok ? "OK" : "OVER"}`,
  ];
}

/** An unpaced soak's slope spans seconds of the collector's sawtooth: where the verdict is made. */
function unpacedHint(r: SoakResult, after: RssSample[]): string[] {
  if (r.paceMs) return [];
  const secs = after.length ? (after.at(-1)!.ms - after[0].ms) / 1000 : 0;
  return [
    `  (unpaced: ${secs.toFixed(0)} s of the collector's sawtooth, not a trend; the slope is ` +
    `judged by a paced soak: scripts/bench_soak.ts --pace-ms 150 --warmup 100 --tasks 150)`,
  ];
}

/**
 * Growth of the heap after a full collection, per task after warm-up (informational: the
 * bounded caches — the event ring, 200 tasks' read trackers — still fill up then).
 */
function heapLine(r: SoakResult): string[] {
  if (!r.heap) return [];
  const { warmMb, endMb, tasks } = r.heap;
  const perTask = ((endMb - warmMb) * 1024) / Math.max(1, tasks);
  return [
    `soak heap after a full GC: ${warmMb.toFixed(2)} MB after warm-up → ${endMb.toFixed(2)} MB ` +
    `${tasks} tasks later (${perTask >= 0 ? "+" : ""}${perTask.toFixed(1)} KB per task)`,
  ];
}
