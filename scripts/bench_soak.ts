/**
 * Soak: one real server (`main.ts serve`) runs 50 tasks × 40 tool
 * steps against the mock LLM, driven over the WebSocket as the UI does (create the task,
 * follow its events, leave it when it ends). The server's RSS is read from /proc every
 * second; the slope after warm-up (least squares) and the peak are held to their budgets.
 *
 *   deno run -A scripts/bench_soak.ts [--quick] [--tasks N] [--warmup N] [--pace-ms N]   (Linux: /proc)
 *
 * `--pace-ms N` delays each mock answer N ms, as a real model's seconds per step would: unpaced,
 * the 2 000 steps end in ~20 s and the slope over those few samples is the collector's sawtooth,
 * not a leak (150 ms makes the soak ~5 minutes).
 */
import { startTestServer } from "../tests/helpers/server.ts";
import { BUNDLE_RUN_FLAGS, ensureServer, SERVER_ENTRY } from "./build-server.ts";
import { TestClient } from "../tests/helpers/ws_client.ts";
import { homeWithProvider } from "../tests/helpers/seed.ts";
import { startMockLlm } from "./mock-llm.ts";
import type { MockTurn } from "./mock_llm/scenario.ts";
import type { TaskEvent } from "../protocol/index.ts";
import { reportSoak, type RssSample, type SoakResult } from "./soak_stats.ts";
import { freePort, heapProbe } from "./bench/heap_probe.ts";

export interface SoakOptions {
  tasks: number;
  stepsPerTask: number;
  /** Tasks run before the slope starts counting (code paths loaded, caches filled). */
  warmupTasks: number;
  /** Each mock answer waits this long before its first frame (0: as fast as possible). */
  paceMs?: number;
}

/**
 * In a paced soak, the RSS is also read right after a full collection every this many tasks
 * from warm-up's end: the sawtooth (±10 MB) spans several minutes there and hides a trend in
 * the 1-second samples. Not in the unpaced soak: forced collections would lower its peak.
 */
export const GC_SAMPLE_EVERY = 5;

/**
 * Warm-up is 20 tasks: the hub's replay ring (the last 5 000 events, for clients that
 * reconnect) fills by design at ~300 events per task, so until task ~17 the RSS rises
 * toward a bound; a leak is what still grows after that.
 */
export const FULL_SOAK: SoakOptions = { tasks: 50, stepsPerTask: 40, warmupTasks: 20 };
/** A smoke run (the ring does not fill: its slope is not a leak verdict). */
export const QUICK_SOAK: SoakOptions = { tasks: 10, stepsPerTask: 40, warmupTasks: 2 };

/** One tool call of step `k` of task `i`: the everyday mix (write, read, edit, search, shell). */
function toolCall(i: number, k: number): MockTurn["toolCalls"] {
  const path = `soak/t${i}.txt`;
  const calls = [
    {
      name: "write_file",
      args: { path, content: `task ${i} step ${k}\n${"lorem ipsum dolor sit amet\n".repeat(80)}` },
    },
    { name: "read_file", args: { path } },
    { name: "edit_file", args: { path, old_string: `step ${k - 2}`, new_string: `step ${k}` } },
    { name: "grep", args: { pattern: "step \\d+", path: "soak" } },
    { name: "glob", args: { pattern: "**/*.txt" } },
    { name: "exec_command", args: { command: "ls soak | wc -l; echo done" } },
    { name: "list_dir", args: { path: "." } },
    { name: "todo_write", args: { todos: [{ content: `step ${k}`, status: "in_progress" }] } },
  ];
  return [calls[k % calls.length]];
}

function scenarioOf(i: number, steps: number, paceMs: number): { turns: MockTurn[] } {
  const turns: MockTurn[] = [];
  for (let k = 0; k < steps; k++) {
    turns.push({
      thinking: `Step ${k} of task ${i}: deciding what to look at next.`,
      text: `Working on step ${k}.`,
      toolCalls: toolCall(i, k),
      chunk: 16,
      firstDelayMs: paceMs,
    });
  }
  turns.push({ text: `Task ${i} is done.`, firstDelayMs: paceMs });
  return { turns };
}

/** A field of /proc/<pid>/status in MB (NaN when unreadable). */
const statusMb = (pid: number, field: "VmRSS" | "VmHWM") => {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
};

/** RSS split (anonymous / file-backed) and thread count (each worker is a thread). */
function statusLine(pid: number): string {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (k: string) => Number(status.match(new RegExp(`${k}:\\s+(\\d+)`))?.[1] ?? NaN);
  const mb = (k: string) => (kb(k) / 1024).toFixed(1);
  return `RSS ${mb("VmRSS")} MB (anon ${mb("RssAnon")}, file ${mb("RssFile")}), ` +
    `${kb("Threads")} threads`;
}

export async function runSoak(o: SoakOptions, log = (_: string) => {}): Promise<SoakResult> {
  const paceMs = o.paceMs ?? 0;
  const mock = startMockLlm({ quiet: true });
  const models = Array.from({ length: o.tasks }, (_, i) => `soak-${i}`);
  models.forEach((m, i) => mock.register(m, scenarioOf(i, o.stepsPerTask, paceMs)));
  const home = await homeWithProvider(mock.base, models, {
    defaultApproval: "full",
    workspaceFiles: { "README.md": "soak workspace\n" },
  });
  await Deno.mkdir(`${home}/DefaultProject/soak`);
  const port = freePort();
  const s = await startTestServer({
    home,
    entry: SERVER_ENTRY,
    runFlags: [BUNDLE_RUN_FLAGS[0], `--inspect=127.0.0.1:${port}`, ...BUNDLE_RUN_FLAGS.slice(1)],
  });
  const probe = await heapProbe(port);
  let warmMb = NaN;
  const t0 = performance.now();
  const samples: RssSample[] = [];
  const sample = () => {
    const mb = statusMb(s.process.pid, "VmRSS");
    if (Number.isFinite(mb)) samples.push({ ms: performance.now() - t0, mb });
  };
  sample();
  const timer = setInterval(sample, 1000);
  const c = await TestClient.connect(s.base, s.token);
  let warmupEndMs = 0;
  let steps = 0;
  const afterGc: RssSample[] = [];
  const sampleAfterGc = async () => {
    const heapMb = await probe.heapAfterGcMb();
    const mb = statusMb(s.process.pid, "VmRSS");
    if (paceMs > 0 && Number.isFinite(mb)) afterGc.push({ ms: performance.now() - t0, mb });
    return heapMb;
  };
  try {
    for (let i = 0; i < o.tasks; i++) {
      const { task } = await c.request("tasks.create", {
        title: `soak ${i}`,
        message: `Task ${i}: work through the soak folder.`,
        options: { model: { providerId: "mock", modelId: models[i] } },
      });
      const topic = `task:${task.id}`;
      // Only the events since the last check are looked at (a task sends thousands).
      let seen = 0;
      let ended = false;
      await c.until(
        () => {
          for (; seen < c.events.length; seen++) {
            const e = c.events[seen];
            if (e.topic !== topic) continue;
            const d = e.data as TaskEvent;
            if (d.kind === "entry" && d.entry.role === "tool" && d.entry.status === "done") steps++;
            if (d.kind === "run" && d.run === null) ended = true;
          }
          return ended;
        },
        `soak task ${i} ends`,
        120_000 + (o.stepsPerTask + 1) * paceMs,
      );
      // Leave the task, as the UI does when the user moves on; drop what this client kept.
      await c.request("task.unsubscribe", { id: task.id });
      c.events.length = 0;
      if (i + 1 === o.warmupTasks) {
        warmMb = await sampleAfterGc();
        warmupEndMs = performance.now() - t0;
      } else if (
        paceMs > 0 && i + 1 > o.warmupTasks && i + 1 < o.tasks &&
        (i + 1 - o.warmupTasks) % GC_SAMPLE_EVERY === 0
      ) {
        await sampleAfterGc();
      }
      if ((i + 1) % Math.max(1, Math.floor(o.tasks / 10)) === 0) {
        log(`  ${i + 1}/${o.tasks} tasks: ${statusLine(s.process.pid)}`);
      }
    }
    sample();
    const hwmMb = statusMb(s.process.pid, "VmHWM");
    const ms = performance.now() - t0;
    const heap = { warmMb, endMb: await sampleAfterGc(), tasks: o.tasks - o.warmupTasks };
    return {
      tasks: o.tasks,
      steps,
      ms,
      samples,
      warmupEndMs,
      hwmMb,
      heap,
      paceMs,
      ...(afterGc.length ? { afterGc } : {}),
    };
  } finally {
    clearInterval(timer);
    probe.close();
    c.ws.close();
    await s.stop();
    await mock.close();
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

/** The whole number after `flag`, undefined when the flag is absent. */
function intFlag(args: string[], flag: string, min: number, max: number): number | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const n = Number(args[i + 1]);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${flag} must be a whole number from ${min} to ${max}`);
  }
  return n;
}

/**
 * `--tasks N` runs more tasks than the 50 of the budget and `--pace-ms N` slows each answer:
 * 2 000 unpaced steps take under a minute here, too short for a slope in MB/min to rise above
 * the GC's sawtooth. `--warmup N` counts the slope from task N on (default 20): memory outside
 * the JS heap still grows for ~80 tasks after the event ring has filled (README, the soak).
 */
function soakOptions(args: string[]): SoakOptions {
  const base = args.includes("--quick") ? QUICK_SOAK : FULL_SOAK;
  const warmupTasks = intFlag(args, "--warmup", 1, 1999) ?? base.warmupTasks;
  const tasks = intFlag(args, "--tasks", warmupTasks + 1, 2000) ?? base.tasks;
  if (tasks <= warmupTasks) throw new Error(`--warmup ${warmupTasks} needs --tasks above it`);
  const paceMs = intFlag(args, "--pace-ms", 0, 5000) ?? 0;
  return { ...base, tasks, warmupTasks, paceMs };
}

if (import.meta.main) {
  console.log(await ensureServer()); // the bundle it runs, rebuilt when a source changed
  const r = await runSoak(soakOptions(Deno.args), console.log);
  for (const line of reportSoak(r)) console.log(line);
  if (Deno.args.includes("--samples")) console.log(JSON.stringify(r.samples));
}
