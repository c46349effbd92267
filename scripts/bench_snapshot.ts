/**
 * The rewind snapshot on a big workspace: a generated 20 000-file / ~2 GB
 * workspace (the large files are sparse: they are only stat'ed, never read), then
 *   - the first snapshot (every small file read, hashed and stored once),
 *   - a later turn's snapshot with nothing changed, and with 20 files changed,
 *   - the comparison after a command (what `exec_command` adds after it runs),
 *   - the size of the checkpoint store.
 * Budgets: a later turn's snapshot + comparison ≤ 150 ms, the first snapshot ≤ 3 s.
 *
 *   deno run --allow-all scripts/bench_snapshot.ts [--files 20000] [--keep DIR] [--runs 3]
 *
 * Medians of `--runs` passes. `--keep DIR` keeps (and reuses) the generated workspace.
 *
 *   deno run --allow-all scripts/bench_snapshot.ts --git [--files 20000] [--turns 5]
 *
 * A git repository instead: a generated, committed 20 000-file / ~1 GB workspace (real
 * bytes, as git must hash them) against a tiny repository, the same one-command turn in
 * both (snapshot, a command that changes one tracked file, the comparison), the two
 * workspaces' turns alternating so that both see the same load. Reports the first turn in
 * each, the median of later turns (and of their parts), and how much the data folder grew
 * with the first turn. Each turn's command comes `--model-ms` (1000) after the turn began,
 * as after a model's answer (the checkpoints prepare meanwhile); a cold first turn, its
 * command at once, is reported too. Budgets: growth ≤ 5% of the workspace, later turns ≤
 * 1.3× the tiny workspace's, the first turn ≤ 1 s above the tiny one's. Both are deleted
 * afterwards.
 */
import { join } from "node:path";
import { Store } from "../store/store.ts";
import { Checkpointer } from "../server/agent/checkpoints.ts";
import { bwrapArgs, findInPath, probeBwrap } from "../tools/exec/bwrap.ts";

export interface SnapshotBench {
  files: number;
  workspaceBytes: number;
  /** The first snapshot (every small file read and stored). */
  firstMs: number;
  /** A new process: the persisted index, every file lstat'ed, none read. */
  restartMs: number;
  /** Watched (after the watcher is armed): nothing changed / 20 files changed. */
  unchangedMs: number;
  changedMs: number;
  /** The comparison after a command that changed one file (watched). */
  compareMs: number;
  /** The same comparison without a watcher (every file lstat'ed). */
  fullCompareMs: number;
  storeMb: number;
}

const SMALL_DIRS = 200;

/** Writes the workspace once (reused when `dir` already holds it). */
export async function generateWorkspace(dir: string, files: number): Promise<number> {
  const marker = join(dir, ".bench-complete");
  const big = Math.max(1, Math.round(files / 200));
  const bigBytes = 18 * 1024 * 1024;
  const small = files - big;
  let total = 0;
  const done = await Deno.stat(marker).then(() => true, () => false);
  let seed = 1;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < small; i++) {
    // Source-like sizes: mostly a few KB, some up to ~60 KB (≈ 140 MB in all for 20 000).
    const size = Math.floor(200 + rand() * rand() * 28_000);
    total += size;
    if (done) continue;
    const sub = join(dir, "src", `m${i % SMALL_DIRS}`, `d${(i >> 3) % 7}`);
    if (i < SMALL_DIRS * 7) await Deno.mkdir(sub, { recursive: true });
    const line = `export const v${i} = ${i}; // ${"x".repeat(40)}\n`;
    await Deno.writeTextFile(join(sub, `f${i}.ts`), line.repeat(Math.ceil(size / line.length)));
  }
  for (let i = 0; i < big; i++) {
    total += bigBytes;
    if (done) continue;
    await Deno.mkdir(join(dir, "assets"), { recursive: true });
    const f = await Deno.open(join(dir, "assets", `blob${i}.bin`), { create: true, write: true });
    await f.truncate(bigBytes); // sparse: > 2 MB is never read by the snapshot
    f.close();
  }
  if (!done) await Deno.writeTextFile(marker, "");
  return total;
}

async function duSize(dir: string): Promise<number> {
  const out = await new Deno.Command("du", { args: ["-sk", dir], stdout: "piped" }).output();
  return Number(new TextDecoder().decode(out.stdout).split("\t")[0]) * 1024;
}

/** Medians over `runs` passes (each with a fresh checkpoint store) on one workspace. */
export async function benchSnapshot(
  opts: { files?: number; keep?: string; runs?: number } = {},
): Promise<SnapshotBench> {
  const ws = opts.keep ?? await Deno.makeTempDir({ prefix: "ra-bench-ws-" });
  try {
    const runs: SnapshotBench[] = [];
    for (let i = 0; i < (opts.runs ?? 3); i++) {
      runs.push(await benchOnce(opts.files ?? 20_000, ws));
    }
    const med = (k: keyof SnapshotBench) =>
      [...runs.map((r) => r[k])].sort((a, b) => a - b)[Math.floor(runs.length / 2)];
    const out = { ...runs[0] };
    for (const k of Object.keys(out) as (keyof SnapshotBench)[]) out[k] = med(k);
    return out;
  } finally {
    if (!opts.keep) await Deno.remove(ws, { recursive: true });
  }
}

async function benchOnce(files: number, ws: string): Promise<SnapshotBench> {
  const home = await Deno.makeTempDir({ prefix: "ra-bench-cp-" });
  try {
    const workspaceBytes = await generateWorkspace(ws, files);
    const store = new Store(join(home, "db.sqlite"));
    const repos = store.repos!;
    repos.tasks.create({ id: "t1", title: "bench", projectPath: ws });
    const dir = join(home, "checkpoints");
    const time = async (f: () => Promise<unknown>) => {
      const t0 = performance.now();
      await f();
      return performance.now() - t0;
    };
    const first = new Checkpointer(repos.checkpoints, dir);
    const firstMs = await time(() => first.beforeShell("t1", { id: "u1" }, ws));
    first.close();
    // A new process: the index from disk; this full scan also arms the watcher.
    const cp = new Checkpointer(repos.checkpoints, dir);
    const restartMs = await time(() => cp.beforeShell("t1", { id: "u2" }, ws));
    const unchangedMs = await time(() => cp.beforeShell("t1", { id: "u3" }, ws));
    for (let i = 0; i < 20; i++) {
      await Deno.writeTextFile(join(ws, "src", `m${i}`, "d0", `f${i}.ts`), `changed ${i}\n`);
    }
    const changedMs = await time(() => cp.beforeShell("t1", { id: "u4" }, ws));
    await Deno.writeTextFile(join(ws, "src", "m0", "d0", "f0.ts"), "changed again\n");
    const compareMs = await time(() => cp.afterShell("t1", { id: "u4", pos: 4 }, ws));
    const watched = cp.scans.counts.watched === 2 && cp.compares.watched === 1;
    if (!watched) console.log("(the watcher was not used:", cp.scans.counts, cp.compares, ")");
    cp.close();
    const unwatched = new Checkpointer(repos.checkpoints, dir, { watchFiles: Infinity });
    await unwatched.beforeShell("t1", { id: "u5" }, ws);
    await Deno.writeTextFile(join(ws, "src", "m0", "d0", "f0.ts"), "changed once more\n");
    const fullCompareMs = await time(() => unwatched.afterShell("t1", { id: "u5", pos: 5 }, ws));
    unwatched.close();
    const storeMb = (await duSize(dir)) / 1048576;
    store.close();
    return {
      files,
      workspaceBytes,
      firstMs,
      restartMs,
      unchangedMs,
      changedMs,
      compareMs,
      fullCompareMs,
      storeMb,
    };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

export function reportSnapshot(r: SnapshotBench): string[] {
  const later = Math.max(r.unchangedMs, r.changedMs) + r.compareMs;
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  return [
    `snapshot, ${r.files} files / ${(r.workspaceBytes / 1e9).toFixed(1)} GB: first ${
      ms(r.firstMs)
    } (budget 3000 ms) ${r.firstMs <= 3000 ? "OK" : "OVER"}`,
    `snapshot, later turn (watched): unchanged ${ms(r.unchangedMs)}, 20 files changed ${
      ms(r.changedMs)
    }, + compare after a command ${ms(r.compareMs)} (budget 150 ms) ${
      later <= 150 ? "OK" : "OVER"
    }`,
    `snapshot, unwatched (after a restart, stat index only): ${ms(r.restartMs)}; compare ${
      ms(r.fullCompareMs)
    }`,
    `checkpoint store after the run: ${r.storeMb.toFixed(1)} MB`,
  ];
}

/** Writes a committed repository of `files` files, ~50 KB each on average (~1 GB). */
export async function generateGitWorkspace(dir: string, files: number): Promise<number> {
  let total = 0;
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < files; i++) {
    const size = Math.floor(500 + rand() * rand() * 200_000);
    const sub = join(dir, "src", `m${i % SMALL_DIRS}`, `d${(i >> 3) % 7}`);
    if (i < SMALL_DIRS * 7) await Deno.mkdir(sub, { recursive: true });
    const line = `export const v${i} = ${i}; // ${rand().toString(36).repeat(4)}\n`;
    const text = line.repeat(Math.ceil(size / line.length));
    total += text.length;
    await Deno.writeTextFile(join(sub, `f${i}.ts`), text);
  }
  await git(dir, ["init", "-q"]);
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "-q", "-m", "generated"]);
  return total;
}

async function git(cwd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    // No automatic gc: detached after the commit, it would write into .git while the
    // bench runs and while the workspace is deleted.
    args: [
      "-c",
      "user.name=bench",
      "-c",
      "user.email=bench@localhost",
      "-c",
      "gc.auto=0",
      "-c",
      "maintenance.auto=false",
      ...args,
    ],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

export interface GitTurnBench {
  files: number;
  workspaceBytes: number;
  tinyFirstMs: number;
  bigFirstMs: number;
  /** The first turn without the preparation while the model answers. */
  tinyColdMs: number;
  bigColdMs: number;
  modelMs: number;
  tinyLaterMs: number;
  bigLaterMs: number;
  /** CPU time of the server's thread in later turns (medians). */
  tinyLaterCpuMs: number;
  bigLaterCpuMs: number;
  /** Later turns, medians of each part: snapshot, command, comparison after it. */
  tinyParts: TurnParts;
  bigParts: TurnParts;
  /** Growth of the data folder (database and checkpoint store) with the first turn. */
  growthBytes: number;
}

export interface TurnParts {
  snapshotMs: number;
  commandMs: number;
  compareMs: number;
}

/**
 * CPU time of this thread so far (ms; Linux, else 0): the checkpoints' own work, which a
 * loaded machine's wall clock hides. Child processes (the command, git) are not in it.
 */
function cpuMs(): number {
  try {
    return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
  } catch {
    return 0;
  }
}

/**
 * One workspace: a fresh data folder, then one-command turns, one per {@link turn}. With
 * `modelMs` > 0 each turn starts as the server starts one (the checkpoints prepare while
 * the model answers) and its command comes after that long; the time is counted from the
 * command's arrival.
 */
async function gitSession(ws: string, file: string, modelMs: number) {
  const bwrap = (await probeBwrap()).available ? findInPath("bwrap") : null;
  const home = await Deno.makeTempDir({ prefix: "ra-bench-cp-" });
  const store = new Store(join(home, "db.sqlite"));
  store.repos!.tasks.create({ id: "t1", title: "bench", projectPath: ws });
  const sizeBefore = await duSize(home);
  const cp = new Checkpointer(store.repos!.checkpoints, join(home, "checkpoints"));
  const times: number[] = [];
  const cpu: number[] = [];
  const parts: TurnParts[] = [];
  let growth = 0;
  const turn = async () => {
    const t = times.length;
    const turn = { id: `u${t}`, pos: t };
    if (modelMs > 0) {
      cp.warm(ws);
      await new Promise((r) => setTimeout(r, modelMs));
    }
    const t0 = performance.now();
    const c0 = cpuMs();
    await cp.beforeShell("t1", turn, ws);
    const t1 = performance.now();
    // As exec_command runs it: under bubblewrap, the workspace bound read-write.
    const sh = ["sh", "-c", `echo "turn ${t}" >> ${file}`];
    const args = bwrap
      ? [
        ...bwrapArgs({ level: "workspace-write", network: false, workspace: ws, cwd: ws }),
        "--",
        ...sh,
      ]
      : sh.slice(1);
    const out = await new Deno.Command(bwrap ?? "sh", { args, cwd: ws }).output();
    if (!out.success) throw new Error("the command failed");
    const t2 = performance.now();
    const r = await cp.afterShell("t1", turn, ws);
    const t3 = performance.now();
    times.push(t3 - t0);
    parts.push({ snapshotMs: t1 - t0, commandMs: t2 - t1, compareMs: t3 - t2 });
    cpu.push(cpuMs() - c0);
    if (r.changed.length !== 1) throw new Error(`expected one change: ${r.changed}`);
    if (t === 0) {
      cp.scans.indexOf(ws).save(); // the index as a restart would find it
      growth = (await duSize(home)) - sizeBefore;
    }
  };
  const finish = async () => {
    cp.close();
    store.close();
    await Deno.remove(home, { recursive: true });
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const later = parts.slice(1);
    return {
      firstMs: times[0],
      laterMs: median(times.slice(1)),
      laterCpuMs: median(cpu.slice(1)),
      parts: {
        snapshotMs: median(later.map((p) => p.snapshotMs)),
        commandMs: median(later.map((p) => p.commandMs)),
        compareMs: median(later.map((p) => p.compareMs)),
      },
      growth,
    };
  };
  return { turn, finish };
}

/**
 * `turns` turns in each workspace, alternately: on a shared machine whose load changes
 * from second to second, each pair of turns is measured under the same load.
 */
async function gitTurns(
  workspaces: [string, string],
  turns: number,
  file: string,
  modelMs: number,
) {
  const sessions = [
    await gitSession(workspaces[0], file, modelMs),
    await gitSession(workspaces[1], file, modelMs),
  ];
  try {
    for (let t = 0; t < turns; t++) for (const s of sessions) await s.turn();
  } catch (e) {
    await Promise.allSettled(sessions.map((s) => s.finish()));
    throw e;
  }
  return await Promise.all(sessions.map((s) => s.finish()));
}

export async function benchGitTurns(
  opts: { files?: number; turns?: number; modelMs?: number } = {},
): Promise<GitTurnBench> {
  const modelMs = opts.modelMs ?? 1000;
  const files = opts.files ?? 20_000;
  const turns = Math.max(3, opts.turns ?? 7);
  const big = await Deno.makeTempDir({ prefix: "ra-bench-git-" });
  const tiny = await Deno.makeTempDir({ prefix: "ra-bench-git-tiny-" });
  try {
    const workspaceBytes = await generateGitWorkspace(big, files);
    await generateGitWorkspace(tiny, 10);
    // The generated gigabyte written back first: its writeback stalls every small file
    // operation (the watcher's barrier, the stat stamp) of the turns measured after it.
    await new Deno.Command("sync").output().catch(() => {});
    const [t, b] = await gitTurns([tiny, big], turns, "src/m0/d0/f0.ts", modelMs);
    const [tc, bc] = await gitTurns([tiny, big], 1, "src/m0/d0/f1.ts", 0);
    return {
      files,
      workspaceBytes,
      tinyFirstMs: t.firstMs,
      bigFirstMs: b.firstMs,
      tinyColdMs: tc.firstMs,
      bigColdMs: bc.firstMs,
      modelMs,
      tinyLaterMs: t.laterMs,
      bigLaterMs: b.laterMs,
      tinyLaterCpuMs: t.laterCpuMs,
      bigLaterCpuMs: b.laterCpuMs,
      tinyParts: t.parts,
      bigParts: b.parts,
      growthBytes: b.growth,
    };
  } finally {
    for (const dir of [big, tiny]) {
      await Deno.remove(dir, { recursive: true }).catch((e) => {
        console.error(`could not delete ${dir} (delete it by hand): ${e}`);
      });
    }
  }
}

export function reportGitTurns(r: GitTurnBench): string[] {
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  const pct = (100 * r.growthBytes) / r.workspaceBytes;
  const ratio = r.bigLaterMs / r.tinyLaterMs;
  const extra = r.bigFirstMs - r.tinyFirstMs;
  const part = (p: TurnParts) =>
    [p.snapshotMs, p.commandMs, p.compareMs].map((n) => n.toFixed(1)).join(" / ") + " ms";
  return [
    `git workspace, ${r.files} files / ${(r.workspaceBytes / 1e9).toFixed(2)} GB vs a tiny one`,
    `first turn (command ${r.modelMs} ms after the turn began): ${ms(r.bigFirstMs)} vs ${
      ms(r.tinyFirstMs)
    }, +${ms(extra)} (budget +1000 ms) ${extra <= 1000 ? "OK" : "OVER"}`,
    `first turn, cold (command at once): ${ms(r.bigColdMs)} vs ${ms(r.tinyColdMs)}, +${
      ms(r.bigColdMs - r.tinyColdMs)
    }`,
    `later turns (median): ${ms(r.bigLaterMs)} vs ${ms(r.tinyLaterMs)}, ${
      ratio.toFixed(2)
    }× (budget 1.3×) ${ratio <= 1.3 ? "OK" : "OVER"}; CPU of the server's thread ${
      r.bigLaterCpuMs.toFixed(1)
    } ms vs ${r.tinyLaterCpuMs.toFixed(1)} ms`,
    `later turns' parts (medians; snapshot / command / comparison): ${part(r.bigParts)} vs ${
      part(r.tinyParts)
    }`,
    `data folder growth after the first turn: ${(r.growthBytes / 1048576).toFixed(1)} MB, ${
      pct.toFixed(1)
    }% of the workspace (budget 5%) ${pct <= 5 ? "OK" : "OVER"}`,
  ];
}

if (import.meta.main && Deno.args.includes("--git")) {
  const arg = (name: string) => {
    const i = Deno.args.indexOf(name);
    return i >= 0 ? Deno.args[i + 1] : undefined;
  };
  const r = await benchGitTurns({
    files: Number(arg("--files") ?? 20_000),
    turns: Number(arg("--turns") ?? 7),
    modelMs: Number(arg("--model-ms") ?? 1000),
  });
  for (const line of reportGitTurns(r)) console.log(line);
} else if (import.meta.main) {
  const arg = (name: string) => {
    const i = Deno.args.indexOf(name);
    return i >= 0 ? Deno.args[i + 1] : undefined;
  };
  const r = await benchSnapshot({
    files: Number(arg("--files") ?? 20_000),
    keep: arg("--keep"),
    runs: Number(arg("--runs") ?? 3),
  });
  for (const line of reportSnapshot(r)) console.log(line);
}
