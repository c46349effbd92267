/**
 * Pure parts of the peer benchmark: /proc parsing and the statistics and number
 * formatting of the report. No I/O here, so tests/bench_peers_test.ts can check it.
 */

/** The fields of /proc/PID/stat the sampler needs (times in clock ticks). */
export interface ProcStat {
  pid: number;
  ppid: number;
  utime: number;
  stime: number;
}

/**
 * Parses /proc/PID/stat. The command name (field 2) is in parentheses and may itself
 * contain spaces and parentheses, so fields are counted from the last ")".
 */
export function parseProcStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(")");
  const open = text.indexOf("(");
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  // After ")": state(3) ppid(4) pgrp(5) session(6) tty(7) tpgid(8) flags(9) minflt(10)
  // cminflt(11) majflt(12) cmajflt(13) utime(14) stime(15).
  const rest = text.slice(close + 1).trim().split(/\s+/);
  const ppid = Number(rest[1]);
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (![pid, ppid, utime, stime].every(Number.isFinite)) return null;
  return { pid, ppid, utime, stime };
}

/** Resident pages from /proc/PID/statm (second field). */
export function parseStatmResidentPages(text: string): number {
  const n = Number(text.trim().split(/\s+/)[1]);
  return Number.isFinite(n) ? n : 0;
}

/** A "Key: 123 kB" value of /proc/meminfo or /proc/PID/status, in kB (NaN when absent). */
export function procKb(text: string, key: string): number {
  const m = text.match(new RegExp(`^${key}:\\s+(\\d+)`, "m"));
  return m ? Number(m[1]) : NaN;
}

/** The 1-, 5- and 15-minute load averages of /proc/loadavg. */
export function parseLoadavg(text: string): [number, number, number] {
  const [a, b, c] = text.trim().split(/\s+/).map(Number);
  return [a, b, c];
}

/**
 * CPU seconds of the reaped children from bash's `times` builtin, whose second line is
 * "<user>m<s>s <sys>m<s>s" for the shell's children (recursively, as rusage counts them).
 */
export function parseBashTimes(text: string): number {
  const lines = text.trim().split("\n").filter((l) => /\d+m[\d.]+s/.test(l));
  const last = lines.at(-1);
  if (!last) return NaN;
  let total = 0;
  for (const m of last.matchAll(/(\d+)m([\d.]+)s/g)) total += Number(m[1]) * 60 + Number(m[2]);
  return total;
}

/** The pids listed in /proc/PID/task/TID/children (space separated). */
export function parseChildren(text: string): number[] {
  return text.trim().split(/\s+/).filter((c) => /^\d+$/.test(c)).map(Number);
}

export function median(xs: number[]): number {
  const ok = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!ok.length) return NaN;
  const mid = Math.floor(ok.length / 2);
  return ok.length % 2 ? ok[mid] : (ok[mid - 1] + ok[mid]) / 2;
}

/** Smallest and largest finite value. */
export function spread(xs: number[]): { min: number; max: number } {
  const ok = xs.filter(Number.isFinite);
  return ok.length ? { min: Math.min(...ok), max: Math.max(...ok) } : { min: NaN, max: NaN };
}

/** A number with `digits` decimals, "–" when it is not a number. */
export function fmt(x: number, digits = 0): string {
  return Number.isFinite(x) ? x.toFixed(digits) : "–";
}

/** "median (min–max)" of several runs; just the median for one run. */
export function fmtRuns(xs: number[], digits = 0): string {
  const m = median(xs);
  if (!Number.isFinite(m)) return "–";
  const { min, max } = spread(xs);
  return xs.filter(Number.isFinite).length > 1
    ? `${fmt(m, digits)} (${fmt(min, digits)}–${fmt(max, digits)})`
    : fmt(m, digits);
}

/** `ours ÷ theirs` as "0.42×" ("–" when either is missing or theirs is 0). */
export function fmtRatio(ours: number, theirs: number): string {
  if (!Number.isFinite(ours) || !Number.isFinite(theirs) || theirs === 0) return "–";
  const r = ours / theirs;
  return `${r.toFixed(r < 0.095 ? 3 : 2)}×`;
}

/**
 * Agent time per model turn: the run's time after the first request, less the time
 * the mock spent answering, spread over the turns.
 */
export function perTurnMs(
  wallEndMs: number,
  requests: { at: number; doneAt?: number }[],
): number {
  if (!requests.length) return NaN;
  const first = Math.min(...requests.map((r) => r.at));
  const mock = requests.reduce((s, r) => s + Math.max(0, (r.doneAt ?? r.at) - r.at), 0);
  return (wallEndMs - first - mock) / requests.length;
}
