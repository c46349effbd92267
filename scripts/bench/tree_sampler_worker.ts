/**
 * Samples a process tree every few ms in its own thread, so the synchronous /proc reads
 * never delay the mock LLM answering in the bench's main thread. Protocol:
 * it says `"ready"` once loaded; `{ pid, sampleMs }` starts, `"stop"` ends; the reply is a
 * TreeSample.
 */
import { parseChildren, parseProcStat, parseStatmResidentPages } from "./peer_stats.ts";

export interface TreeSample {
  /** Largest sum of resident bytes over the tree (the root excluded). */
  peakBytes: number;
  maxProcs: number;
  /** Largest sum of utime+stime ticks seen over the tree's live processes. */
  ticks: number;
}

const PAGE = 4096;

/** Children of every thread of `pid` (a child belongs to the thread that forked it). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
      const text = Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/children`);
      out.push(...parseChildren(text));
    }
  } catch { /* gone meanwhile */ }
  return out;
}

function sample(root: number): { bytes: number; procs: number; ticks: number } {
  let bytes = 0;
  let ticks = 0;
  let procs = 0;
  const queue = childrenOf(root);
  while (queue.length) {
    const pid = queue.shift()!;
    try {
      bytes += parseStatmResidentPages(Deno.readTextFileSync(`/proc/${pid}/statm`)) * PAGE;
      const s = parseProcStat(Deno.readTextFileSync(`/proc/${pid}/stat`));
      if (s) ticks += s.utime + s.stime;
      procs++;
    } catch { /* gone meanwhile */ }
    queue.push(...childrenOf(pid));
  }
  return { bytes, procs, ticks };
}

/** The worker's global scope (typed by hand: a `deno.worker` lib reference would change the
 * globals of every file checked together with this one). */
const scope = self as unknown as {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
};

let stop = false;
scope.onmessage = async (e: MessageEvent) => {
  if (e.data === "stop") {
    stop = true;
    return;
  }
  const { pid, sampleMs } = e.data as { pid: number; sampleMs: number };
  const result: TreeSample = { peakBytes: 0, maxProcs: 0, ticks: 0 };
  while (!stop) {
    const s = sample(pid);
    result.peakBytes = Math.max(result.peakBytes, s.bytes);
    result.maxProcs = Math.max(result.maxProcs, s.procs);
    result.ticks = Math.max(result.ticks, s.ticks);
    await new Promise((r) => setTimeout(r, sampleMs));
  }
  scope.postMessage(result);
};
// Loaded and listening: the run may start (a late sampler would miss its first moments).
scope.postMessage("ready");
