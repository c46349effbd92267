/**
 * How long the first sandbox tool worker takes: from `new Worker(worker.ts)`
 * (through tools/sandbox/pool.ts) to its reply to a `read_file` job. Each run is a fresh
 * process, as in `reinagent run`; prints every run's wall time and CPU time (all threads,
 * from /proc on Linux) and the medians.
 *
 *   deno run -A --unstable-worker-options --no-prompt scripts/bench_worker_start.ts [--runs N] [--root DIR]
 *
 * `--root` measures another checkout (e.g. a clone at an older commit) with this script.
 */
const ROOT = new URL("../", import.meta.url);

function flag(name: string, def: string): string {
  const i = Deno.args.indexOf(name);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : def;
}

/** CPU time of every thread of this process, in ms (NaN where /proc is missing). */
function cpuMs(): number {
  try {
    let ns = 0;
    for (const t of Deno.readDirSync("/proc/self/task")) {
      try {
        ns += Number(Deno.readTextFileSync(`/proc/self/task/${t.name}/schedstat`).split(" ")[0]);
      } catch { /* the thread ended meanwhile */ }
    }
    return ns / 1e6;
  } catch {
    return NaN;
  }
}

/** One measurement, in this process: spawn the worker, post read_file, await the reply. */
async function once(root: string): Promise<void> {
  const { SandboxPool } = await import(new URL("tools/sandbox/pool.ts", root).href);
  const dir = Deno.makeTempDirSync({ prefix: "reinagent-worker-bench-" });
  Deno.writeTextFileSync(`${dir}/a.txt`, "hello\n");
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const pool = new SandboxPool();
  const result = await pool.run(
    "read",
    [dir],
    "read_file",
    { path: "a.txt" },
    dir,
    new AbortController().signal,
  );
  const wall = performance.now() - t0;
  const cpu = cpuMs() - cpu0;
  pool.closeAll();
  Deno.removeSync(dir, { recursive: true });
  if (result.isError) throw new Error(result.content);
  console.log(JSON.stringify({ wall, cpu }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (Deno.args.includes("--once")) {
  await once(flag("--root", ROOT.href));
} else {
  const runs = Number(flag("--runs", "5"));
  const rootArg = flag("--root", "");
  const root = rootArg ? new URL(`file://${Deno.realPathSync(rootArg)}/`).href : ROOT.href;
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--unstable-worker-options",
        "--no-prompt",
        import.meta.filename!,
        "--once",
        "--root",
        root,
      ],
      stderr: "inherit",
    }).output();
    if (!out.success) Deno.exit(1);
    const { wall, cpu } = JSON.parse(new TextDecoder().decode(out.stdout));
    walls.push(wall);
    cpus.push(cpu);
    console.log(`run ${i + 1}: ${wall.toFixed(1)} ms wall, ${cpu.toFixed(1)} ms CPU`);
  }
  console.log(
    `median of ${runs}: ${median(walls).toFixed(1)} ms wall, ${median(cpus).toFixed(1)} ms CPU`,
  );
}
