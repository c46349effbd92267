/**
 * Runs a command and measures its whole process tree (Linux /proc): wall time, peak
 * RSS summed over every live descendant (sampled every ~10 ms in a worker thread) and
 * CPU seconds.
 *
 * The command runs under a small bash wrapper whose `times` builtin reports the CPU of
 * every reaped descendant (as rusage counts it, so short-lived children that a sample
 * would miss still count); the wrapper itself is excluded from RSS and CPU.
 */
import { parseBashTimes } from "./peer_stats.ts";
import type { TreeSample } from "./tree_sampler_worker.ts";

const CLOCK_TICK = 100;

export interface TreeRun {
  code: number;
  /** Epoch ms (performance.timeOrigin + now) when the wrapper was spawned / exited. */
  startedAt: number;
  endedAt: number;
  wallMs: number;
  peakRssMb: number;
  cpuS: number;
  /** Most processes alive at once below the wrapper. */
  maxProcs: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const now = () => performance.timeOrigin + performance.now();

export async function runTree(
  cmd: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs: number; sampleMs?: number },
): Promise<TreeRun> {
  const dir = await Deno.makeTempDir({ prefix: "ra-peer-run-" });
  const script = `"$@" >"${dir}/out" 2>"${dir}/err" </dev/null; rc=$?; times; exit $rc`;
  const worker = new Worker(new URL("./tree_sampler_worker.ts", import.meta.url), {
    type: "module",
  });
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  const sampled = new Promise<TreeSample>((resolve) => {
    worker.onmessage = (e) => e.data === "ready" ? ready() : resolve(e.data as TreeSample);
  });
  await isReady;
  const startedAt = now();
  // setsid: the run gets its own process group, so a timeout can end all of it.
  const child = new Deno.Command("setsid", {
    args: ["-w", "bash", "-c", script, "bench", ...cmd],
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  worker.postMessage({ pid: child.pid, sampleMs: opts.sampleMs ?? 10 });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch { /* already gone */ }
  }, opts.timeoutMs);
  const out = await child.output();
  const endedAt = now();
  clearTimeout(timer);
  worker.postMessage("stop");
  const tree = await sampled;
  worker.terminate();
  const read = (f: string) => Deno.readTextFile(`${dir}/${f}`).catch(() => "");
  const [stdout, stderr] = [await read("out"), await read("err")];
  await Deno.remove(dir, { recursive: true });
  const reaped = parseBashTimes(new TextDecoder().decode(out.stdout));
  return {
    code: out.code,
    startedAt,
    endedAt,
    wallMs: endedAt - startedAt,
    peakRssMb: tree.peakBytes / 1024 / 1024,
    // Children that were never reaped (reparented away) are only in the samples.
    cpuS: Math.max(Number.isFinite(reaped) ? reaped : 0, tree.ticks / CLOCK_TICK),
    maxProcs: tree.maxProcs,
    stdout,
    stderr,
    timedOut,
  };
}
