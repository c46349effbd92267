/**
 * The server's own memory for Settings → About: resident size now, and the
 * peak since start as the kernel counts it (getrusage's max RSS, which needs no
 * permission — /proc/self would need --allow-all). A sampled maximum would miss spikes.
 */

export interface ProcessMemory {
  rssBytes: number;
  peakRssBytes: number | null;
}

/**
 * Async: `node:process` is imported on first use — importing it boots Node's process
 * object (console, streams…), which cost tens of ms on every start.
 */
export async function processMemory(): Promise<ProcessMemory> {
  const { default: process } = await import("node:process");
  const rssBytes = Deno.memoryUsage().rss;
  let peak: number | null = null;
  try {
    const kb = process.resourceUsage().maxRSS; // kilobytes, as Node reports it everywhere
    if (Number.isFinite(kb) && kb > 0) peak = kb * 1024;
  } catch { /* not reported on this platform */ }
  // The two are read a moment apart: never show a peak below the current size.
  return { rssBytes, peakRssBytes: peak === null ? null : Math.max(peak, rssBytes) };
}
