/**
 * Benchmark of the `grep` and `glob` tools against ripgrep and find on a generated tree
 * of 50 000 files (nested folders, mixed sizes, some binary, a few over 2 MB).
 *
 *   deno run -A scripts/bench_search.ts [--files N] [--runs N] [--dir PATH] [--keep]
 *
 * Prints the median of `--runs` warm runs for each command and the ratio ours/theirs.
 * Without `rg` (apt-get install ripgrep) or `find`, that comparison is skipped with a note.
 */
import { join } from "node:path";
import { grep } from "../tools/grep.ts";
import { glob } from "../tools/glob.ts";
import type { ToolResult } from "../tools/types.ts";

function flag(name: string, def: string): string {
  const i = Deno.args.indexOf(name);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : def;
}

/** Issue #15: `grep` and `glob` stay within this many times ripgrep's time. */
export const SEARCH_BUDGET_RATIO = 3;

export interface SearchBenchOptions {
  files: number;
  runs: number;
  /** An existing tree to reuse (kept), or "" for a fresh temporary one. */
  dir: string;
  keep: boolean;
}

/** One comparison: our median ms, the other command and its median (null = not installed). */
export type SearchRow = [label: string, ours: number, other: string, theirs: number | null];

/** Deterministic pseudo-random numbers (LCG), so every run builds the same tree. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const WORDS = ("const let function return import export from class interface type async " +
  "await if else for while switch case break value result error index count string number " +
  "boolean handler request response config options buffer stream").split(" ");

function makeText(rand: () => number, bytes: number): string {
  const lines: string[] = [];
  let n = 0;
  while (n < bytes) {
    const words = 3 + Math.floor(rand() * 10);
    let line = "  ".repeat(Math.floor(rand() * 4));
    for (let w = 0; w < words; w++) line += WORDS[Math.floor(rand() * WORDS.length)] + " ";
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join("\n") + "\n";
}

/** Builds the tree; returns counts of what was written. */
function generate(root: string, files: number) {
  const rand = rng(42);
  const exts = [".ts", ".js", ".md", ".json", ".rs", ".py"];
  const enc = new TextEncoder();
  const perDir = 50;
  let made = 0, binary = 0, large = 0, needles = 0;
  for (let d = 0; made < files; d++) {
    const dir = join(root, `pkg${d % 10}`, `mod${Math.floor(d / 10) % 10}`, `part${d}`);
    Deno.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < perDir && made < files; f++, made++) {
      const r = rand();
      const name = join(dir, `file${f}${exts[made % exts.length]}`);
      if (made % 10_000 === 5) {
        large++;
        Deno.writeTextFileSync(name, makeText(rand, 1024).repeat(3 * 1024)); // ≈3 MB
      } else if (r < 0.01) {
        binary++;
        const b = new Uint8Array(2048 + Math.floor(rand() * 30_000));
        for (let i = 0; i < b.length; i++) b[i] = Math.floor(rand() * 256);
        b[10] = 0;
        Deno.writeFileSync(name.replace(/\.\w+$/, ".bin"), b);
      } else {
        const size = r < 0.06 ? 20_000 + rand() * 80_000 : 300 + rand() * 6000;
        let text = makeText(rand, size);
        if (made % 1000 === 17) {
          needles++;
          text += "  // NEEDLE_marker: the needle we search for\n";
        }
        Deno.writeFileSync(name, enc.encode(text));
      }
    }
  }
  return { made, binary, large, needles };
}

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const med = (ts: number[]) => [...ts].sort((a, b) => a - b)[Math.floor(ts.length / 2)];

/**
 * Medians of `ours` and `theirs` over RUNS warm runs, interleaved (ours, theirs, ours…)
 * so that load changes on a shared machine hit both sides alike.
 */
async function pair(
  RUNS: number,
  ours: () => Promise<unknown>,
  theirs: (() => Promise<unknown>) | null,
): Promise<[number, number | null]> {
  await ours(); // warm-up (page cache, JIT)
  await theirs?.();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(await time(ours));
    if (theirs) b.push(await time(theirs));
  }
  return [med(a), theirs ? med(b) : null];
}

function has(cmd: string): boolean {
  try {
    return new Deno.Command("sh", { args: ["-c", `command -v ${cmd}`], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

async function run(cmd: string, args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(out.stdout);
}

/** Generates (or reuses) the tree and measures every case; logs progress notes. */
export async function benchSearch(o: SearchBenchOptions): Promise<SearchRow[]> {
  const dir = o.dir || await Deno.makeTempDir({ prefix: "ra-bench-search-" });
  const ctx = { workspace: dir, signal: new AbortController().signal };
  const call = async (p: Promise<ToolResult>) => {
    const r = await p;
    if (r.isError) throw new Error(r.content);
    return r;
  };

  try {
    let exists = false;
    try {
      exists = Deno.readDirSync(dir).next().done === false;
    } catch { /* new dir */ }
    if (!exists) {
      const t0 = performance.now();
      const g = generate(dir, o.files);
      console.log(
        `generated ${g.made} files (${g.binary} binary, ${g.large} over 2 MB, ${g.needles} ` +
          `with the needle) in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${dir}`,
      );
    } else console.log(`using the existing tree at ${dir}`);
    const cores = navigator.hardwareConcurrency;
    console.log(`${cores} cores, median of ${o.runs} warm runs\n`);

    const rows: [string, number, string, number | null][] = [];
    const rg = has("rg");
    const find = has("find");
    if (!rg) {
      console.log(
        "NOTE: ripgrep (rg) not found — grep comparison skipped (apt-get install ripgrep)",
      );
    }
    if (!find) console.log("NOTE: find not found — glob comparison skipped");
    const rgBase = ["--no-ignore", "--hidden", "--no-messages", "-n", "--max-filesize", "2M"];

    const cases: [string, Record<string, unknown>, string[]][] = [
      ["grep literal (rare)", { pattern: "NEEDLE_marker", limit: 1000 }, ["NEEDLE_marker"]],
      ["grep regex -i (rare)", { pattern: "needle_\\w+:", ignore_case: true, limit: 1000 }, [
        "-i",
        "needle_\\w+:",
      ]],
      ["grep include *.md", { pattern: "NEEDLE_marker", include: "*.md", limit: 1000 }, [
        "-g",
        "*.md",
        "NEEDLE_marker",
      ]],
    ];
    for (const [label, args, rgArgs] of cases) {
      const r = await call(grep.execute(args, ctx));
      if (rg) {
        const lines = (await run("rg", [...rgBase, ...rgArgs, dir])).split("\n").filter(Boolean);
        if (lines.length !== (r.meta?.matches as number)) {
          console.log(
            `  (!) ${label}: rg found ${lines.length} lines, we found ${r.meta?.matches}`,
          );
        }
      }
      const [ours, theirs] = await pair(
        o.runs,
        () => call(grep.execute(args, ctx)),
        rg ? () => run("rg", [...rgBase, ...rgArgs, dir]) : null,
      );
      rows.push([label, ours, "rg", theirs]);
      if (rg && label.startsWith("grep literal")) {
        const [o1, j1] = await pair(
          o.runs,
          () => call(grep.execute(args, ctx)),
          () => run("rg", ["-j1", ...rgBase, ...rgArgs, dir]),
        );
        rows.push([`${label} vs rg -j1`, o1, "rg -j1", j1]);
      }
    }

    // find and `rg --files` only list; our glob also lstats every match to sort by mtime.
    const globCases: [string, Record<string, unknown>, string[], string][] = [
      ["glob **/*.md (all dirs)", { pattern: "**/*.md", limit: 2000 }, ["-name", "*.md"], "*.md"],
      ["glob pkg3/**/file1?.ts", { pattern: "pkg3/**/file1?.ts" }, [
        "-path",
        `${dir}/pkg3/*/file1?.ts`,
      ], "pkg3/**/file1?.ts"],
    ];
    for (const [label, args, findArgs, rgGlob] of globCases) {
      const [ours, theirs] = await pair(
        o.runs,
        () => call(glob.execute(args, ctx)),
        find ? () => run("find", [dir, "-type", "f", ...findArgs]) : null,
      );
      rows.push([label, ours, "find", theirs]);
      if (!rg) continue;
      const [o2, files] = await pair(
        o.runs,
        () => call(glob.execute(args, ctx)),
        () => run("rg", ["--files", "--no-ignore", "--hidden", "-g", rgGlob], dir),
      );
      rows.push([label, o2, "rg --files", files]);
    }

    return rows;
  } finally {
    if (!o.keep && !o.dir) await Deno.remove(dir, { recursive: true });
  }
}

/** The table, one line per case, with the budget verdict against rg (find is context). */
export function reportSearch(rows: SearchRow[]): string[] {
  const out = [
    "case".padEnd(34) + "ours ms".padStart(10) + "   vs".padEnd(14) + "ms".padStart(8) +
    "   ratio",
  ];
  for (const [label, ours, other, theirs] of rows) {
    const ratio = theirs === null ? null : ours / theirs;
    const verdict = ratio === null || !other.startsWith("rg")
      ? ""
      : ratio <= SEARCH_BUDGET_RATIO
      ? ` (budget ≤ ${SEARCH_BUDGET_RATIO}×) OK`
      : ` (budget ≤ ${SEARCH_BUDGET_RATIO}×) OVER`;
    out.push(
      label.padEnd(34) + ours.toFixed(0).padStart(10) + `   ${other}`.padEnd(14) +
        (theirs === null ? "—" : theirs.toFixed(0)).padStart(8) +
        (ratio === null ? "   (skipped)" : `   ${ratio.toFixed(2)}×${verdict}`),
    );
  }
  return out;
}

if (import.meta.main) {
  const rows = await benchSearch({
    files: Number(flag("--files", "50000")),
    runs: Number(flag("--runs", "5")),
    dir: flag("--dir", ""),
    keep: Deno.args.includes("--keep"),
  });
  for (const line of reportSearch(rows)) console.log(line);
}
