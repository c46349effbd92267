/**
 * `deno task bench:peers`: ReinAgent beside other coding agents, side by side on this
 * machine. Installs pinned peers from npm into a scratch folder, points each at the
 * project's mock LLM (dummy keys), runs the same 10-tool-step scenario on a generated
 * repository, measures each run's whole process tree and writes docs/BENCHMARKS.md.
 *
 *   deno task bench:peers [--runs 3] [--peers reinagent,codex,pi] [--scratch DIR] [--out FILE]
 *
 * Linux only (reads /proc). Not part of `deno task test`: a pass takes minutes.
 */
import { join } from "node:path";
import { type MockLlm, type RecordedRequest, startMockLlm } from "../mock-llm.ts";
import type { Scenario } from "../mock_llm/scenario.ts";
import { ROOT } from "../../tests/helpers/server.ts";
import { FINAL_TEXT, type Peer, type PeerLaunch, PEERS, READS } from "./peer_agents.ts";
import { generateRepo, marker, moduleFile } from "./peer_repo.ts";
import { runTree } from "./proc_tree.ts";
import { median, parseLoadavg, perTurnMs, procKb } from "./peer_stats.ts";
import { type Machine, type PeerResult, renderReport, type RunResult } from "./peer_report.ts";

/** The line after which docs/BENCHMARKS.md is written by hand and kept by a rerun. */
const HAND_WRITTEN = "<!-- Written by hand from here on";

const STEPS = 1 + READS;
const RUN_TIMEOUT_MS = 120_000;

interface Options {
  runs: number;
  peers: string[];
  scratch: string;
  out: string;
}

function parseOptions(args: string[]): Options {
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const runs = Number(value("--runs") ?? 3);
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) {
    throw new Error("--runs must be a whole number from 1 to 50");
  }
  const known = PEERS.map((p) => p.id);
  const peers = (value("--peers") ?? known.join(",")).split(",").map((s) => s.trim());
  const unknown = peers.filter((p) => !known.includes(p));
  if (unknown.length) throw new Error(`unknown peer ${unknown.join(", ")}; known: ${known}`);
  if (!peers.includes("reinagent")) peers.unshift("reinagent");
  const home = Deno.env.get("HOME") ?? "/root";
  return {
    runs,
    peers,
    // Not under /tmp: Codex refuses to set up its helpers when CODEX_HOME is in a temp dir.
    scratch: value("--scratch") ?? join(home, ".cache", "reinagent-peers"),
    out: value("--out") ?? join(ROOT, "docs", "BENCHMARKS.md"),
  };
}

async function sh(
  cmd: string,
  args: string[],
  cwd?: string,
): Promise<{ ok: boolean; out: string }> {
  try {
    const r = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
      .output();
    const dec = new TextDecoder();
    return { ok: r.success, out: (dec.decode(r.stdout) + dec.decode(r.stderr)).trim() };
  } catch (e) {
    return { ok: false, out: String(e) };
  }
}

async function installedVersion(prefix: string, pkg: string): Promise<string | null> {
  try {
    const text = await Deno.readTextFile(join(prefix, "node_modules", pkg, "package.json"));
    return JSON.parse(text).version ?? null;
  } catch {
    return null;
  }
}

/** Installs the pinned versions that are missing; returns the failure of each peer that has one. */
async function installPeers(prefix: string, peers: Peer[]): Promise<Map<string, string>> {
  const failures = new Map<string, string>();
  await Deno.mkdir(prefix, { recursive: true });
  const missing: Peer[] = [];
  for (const p of peers) {
    if (p.npm && await installedVersion(prefix, p.npm.pkg) !== p.npm.version) missing.push(p);
  }
  if (missing.length) {
    const specs = missing.map((p) => `${p.npm!.pkg}@${p.npm!.version}`);
    console.error(`installing ${specs.join(" ")} into ${prefix} …`);
    const r = await sh("npm", [
      "install",
      "--prefix",
      prefix,
      "--no-audit",
      "--no-fund",
      // The packages ship their platform binaries as dependencies: no install script is needed.
      "--ignore-scripts",
      ...specs,
    ]);
    if (!r.ok) {
      for (const p of missing) failures.set(p.id, `npm install failed: ${r.out.slice(-400)}`);
    }
    for (const p of missing) {
      if (!p.npm!.postinstall || failures.has(p.id)) continue;
      const dir = join(prefix, "node_modules", p.npm!.pkg);
      const post = await sh("node", [p.npm!.postinstall], dir);
      if (!post.ok) failures.set(p.id, `its postinstall failed: ${post.out.slice(-400)}`);
    }
  }
  for (const p of peers) {
    if (!p.npm || failures.has(p.id)) continue;
    const v = await installedVersion(prefix, p.npm.pkg);
    if (v !== p.npm.version) {
      failures.set(p.id, `npm installed ${v ?? "nothing"}, not ${p.npm.version}`);
    }
  }
  return failures;
}

/** The scenario of one peer: list src/, read READS modules, then the final answer. */
function scenarioFor(peer: Peer, repo: string): Scenario {
  // A distinct call id per step: some agents de-duplicate tool calls by id.
  const turns = [
    { text: "Listing the modules.", toolCalls: [{ ...peer.listCall(repo), id: "call_list" }] },
    ...Array.from({ length: READS }, (_, i) => ({
      text: `Reading module ${i + 1}.`,
      toolCalls: [{ ...peer.readCall(repo, moduleFile(i + 1)), id: `call_read_${i + 1}` }],
    })),
    { text: FINAL_TEXT },
  ];
  return { turns };
}

/** The run's result, or why it does not count. */
function evaluate(
  peer: Peer,
  run: Awaited<ReturnType<typeof runTree>>,
  all: RecordedRequest[],
): RunResult | string {
  const tail = (s: string) => s.trim().split("\n").slice(-6).join(" ⏎ ").slice(-600);
  if (run.timedOut) return `timed out after ${RUN_TIMEOUT_MS / 1000} s: ${tail(run.stderr)}`;
  if (run.code !== 0) return `exit code ${run.code}: ${tail(run.stderr || run.stdout)}`;
  // The main conversation offers tools; side requests (titles, summaries) do not.
  const main = all
    .filter((r) => r.model === peer.model && Array.isArray(r.body.tools) && r.body.tools.length)
    .sort((a, b) => a.at - b.at);
  if (main.length !== STEPS + 1) {
    return `made ${main.length} requests to the main model, expected ${STEPS + 1}: ` +
      tail(run.stdout + run.stderr);
  }
  if (!run.stdout.includes("BENCH-DONE")) {
    return `the final answer was not printed: ${tail(run.stdout + run.stderr)}`;
  }
  const last = JSON.stringify(main.at(-1)!.body);
  if (!last.includes(marker(1)) || !last.includes(marker(READS))) {
    return "the last request lacks a module's content: a tool call failed";
  }
  const gaps = main.slice(1).map((r, i) => r.at - (main[i].doneAt ?? main[i].at));
  return {
    wallMs: run.wallMs,
    peakRssMb: run.peakRssMb,
    cpuS: run.cpuS,
    firstRequestMs: main[0].at - run.startedAt,
    perTurnMs: perTurnMs(run.endedAt, main),
    gapMs: median(gaps),
    exitMs: run.endedAt - (main.at(-1)!.doneAt ?? main.at(-1)!.at),
    kbSent: all.reduce((s, r) => s + r.bytes, 0) / 1024,
    requests: all.length,
    maxProcs: run.maxProcs,
  };
}

async function runOnce(
  mock: MockLlm,
  peer: Peer,
  launch: PeerLaunch,
  repo: string,
): Promise<RunResult | string> {
  mock.register(peer.model, scenarioFor(peer, repo));
  if (peer.smallModel) {
    mock.register(peer.smallModel, { turns: [{ text: "Benchmark run" }], repeatLast: true });
  }
  const run = await runTree(launch.cmd, {
    cwd: repo,
    env: launch.env,
    timeoutMs: RUN_TIMEOUT_MS,
  });
  const requests = mock.requests().filter((r) => r.at >= run.startedAt && r.at <= run.endedAt);
  return evaluate(peer, run, requests);
}

async function machine(loadBefore: string, loadRuns: number[]): Promise<Machine> {
  const read = (p: string) => Deno.readTextFile(p).catch(() => "");
  const cpuinfo = await read("/proc/cpuinfo");
  const os = (await read("/etc/os-release")).match(/^PRETTY_NAME="?([^"\n]*)"?/m)?.[1];
  const node = await sh("node", ["--version"]);
  return {
    cores: navigator.hardwareConcurrency,
    cpu: cpuinfo.match(/^model name\s*:\s*(.+)$/m)?.[1]?.trim() ?? "unknown CPU",
    memGb: procKb(await read("/proc/meminfo"), "MemTotal") / 1024 / 1024,
    os: os ?? Deno.build.os,
    kernel: Deno.osRelease(),
    loadBefore,
    loadRuns: [Math.min(...loadRuns), Math.max(...loadRuns)],
    loadAfter: parseLoadavg(await read("/proc/loadavg")).join(", "),
    deno: Deno.version.deno,
    node: node.ok ? node.out.replace(/^v/, "") : "not installed",
  };
}

async function reinagentVersion(): Promise<string> {
  const head = await sh("git", ["rev-parse", "--short", "HEAD"], ROOT);
  const dirty = await sh("git", ["status", "--porcelain", "--untracked-files=no"], ROOT);
  return head.ok ? `${head.out}${dirty.ok && dirty.out ? " (+ local changes)" : ""}` : "unknown";
}

if (import.meta.main) {
  const opts = parseOptions(Deno.args);
  const loadBefore = parseLoadavg(await Deno.readTextFile("/proc/loadavg")).join(", ");
  const peers = PEERS.filter((p) => opts.peers.includes(p.id));
  const prefix = join(opts.scratch, "npm");
  const failures = await installPeers(prefix, peers);
  const session = await Deno.makeTempDir({ dir: opts.scratch, prefix: "run-" });
  const repo = join(session, "repo");
  await generateRepo(repo);
  const mock = startMockLlm({ quiet: true });
  const commit = await reinagentVersion();
  const results = new Map<string, PeerResult>();
  const launches = new Map<string, PeerLaunch>();
  const loadRuns: number[] = [];
  for (const p of peers) {
    results.set(p.id, {
      id: p.id,
      label: p.label,
      version: p.npm ? p.npm.version : commit,
      tools: p.tools,
      note: p.note,
      format: p.format,
      runs: [],
      failure: failures.get(p.id),
    });
    if (failures.has(p.id)) continue;
    const home = join(session, p.id);
    await Deno.mkdir(home, { recursive: true });
    const launch = await p.prepare({ base: mock.base, home, repo, prefix });
    launches.set(p.id, launch);
    // The warm-up fills caches (module caches, page cache, lazily installed parts).
    const warm = await runOnce(mock, p, launch, repo);
    if (typeof warm === "string") {
      results.get(p.id)!.failure = `cannot be driven headless against the mock: ${warm}`;
      console.error(`${p.label}: ${warm}`);
    } else console.error(`${p.label}: warm-up ${warm.wallMs.toFixed(0)} ms`);
  }
  // Rounds over the peers rather than all runs of one peer at once, so a burst of load
  // from others on this shared machine spreads over every agent.
  for (let round = 0; round < opts.runs; round++) {
    for (const p of peers) {
      const res = results.get(p.id)!;
      if (res.failure) continue;
      loadRuns.push(parseLoadavg(await Deno.readTextFile("/proc/loadavg"))[0]);
      const r = await runOnce(mock, p, launches.get(p.id)!, repo);
      if (typeof r === "string") {
        console.error(`${p.label} run ${round + 1}: ${r}`);
        (res.failedRuns ??= []).push(`run ${round + 1}: ${r}`);
        continue;
      }
      res.runs.push(r);
      console.error(
        `${p.label} run ${round + 1}: ${r.wallMs.toFixed(0)} ms, ${r.peakRssMb.toFixed(0)} MB, ` +
          `${r.cpuS.toFixed(2)} s CPU, first call ${r.firstRequestMs.toFixed(0)} ms, ` +
          `${r.perTurnMs.toFixed(1)} ms/turn`,
      );
    }
  }
  await mock.close();
  for (const res of results.values()) {
    if (!res.failure && !res.runs.length) res.failure = "no run counted (see below)";
  }
  const markdown = renderReport({
    date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
    commit,
    runs: opts.runs,
    steps: STEPS,
    machine: await machine(loadBefore, loadRuns),
    peers: [...results.values()],
    command: `deno task bench:peers --runs ${opts.runs}`,
  });
  await Deno.mkdir(join(opts.out, ".."), { recursive: true });
  // Notes written by hand below the marker (measurements of a change, say) outlive a rerun.
  const kept = await Deno.readTextFile(opts.out).then((old) => {
    const at = old.indexOf(HAND_WRITTEN);
    return at < 0 ? "" : "\n" + old.slice(at);
  }, () => "");
  await Deno.writeTextFile(opts.out, markdown + kept);
  // The project's formatter owns the layout (so `deno task check` stays clean).
  const fmt = await sh(Deno.execPath(), [
    "fmt",
    "--quiet",
    "--config",
    join(ROOT, "deno.json"),
    opts.out,
  ]);
  if (!fmt.ok) console.error(`deno fmt ${opts.out}: ${fmt.out}`);
  await Deno.remove(session, { recursive: true }).catch(() => {});
  console.error(`wrote ${opts.out}`);
}
