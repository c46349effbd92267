/**
 * Finding a run of lines in a file the way careful agents do: exactly first, then
 * ignoring trailing whitespace, then ignoring indentation, then with typographic
 * punctuation folded to ASCII. Each pass is tried over the whole file before the next,
 * so a looser match never wins over an exact one elsewhere.
 */

const FOLD: Record<string, string> = {
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2212": "-",
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u00A0": " ",
  "\u2002": " ",
  "\u2003": " ",
  "\u2009": " ",
  "\u202F": " ",
};
const foldPunct = (s: string) =>
  s.trim().replace(
    /[\u2010-\u2014\u2212\u2018-\u201F\u00A0\u2002\u2003\u2009\u202F]/g,
    (c) => FOLD[c] ?? c,
  );

/** The comparisons, strictest first; the name says how the match was made. */
export const PASSES: ReadonlyArray<{ name: string; norm: (s: string) => string }> = [
  { name: "exact", norm: (s) => s },
  { name: "trailing-whitespace", norm: (s) => s.trimEnd() },
  { name: "indentation", norm: (s) => s.trim() },
  { name: "punctuation", norm: foldPunct },
];

/**
 * Every start index ≥ `from` where `pattern` matches `lines` under the first pass
 * that finds any; `eof` asks for a match ending at the file's last line.
 */
export function seekAll(
  lines: readonly string[],
  pattern: readonly string[],
  from: number,
  eof = false,
): { starts: number[]; pass: string } {
  if (!pattern.length) return { starts: [eof ? lines.length : from], pass: "exact" };
  for (const { name, norm } of PASSES) {
    const want = pattern.map(norm);
    const starts: number[] = [];
    const first = eof ? Math.max(from, lines.length - pattern.length) : from;
    for (let s = first; s + pattern.length <= lines.length; s++) {
      let k = 0;
      while (k < want.length && norm(lines[s + k]) === want[k]) k++;
      if (k === want.length) starts.push(s);
    }
    if (starts.length) return { starts, pass: name };
  }
  return { starts: [], pass: "" };
}

/**
 * The windows of `lines` most like `pattern` (lines equal after trimming, counted), for
 * an error that shows the model where it probably meant: at most `n`, best first.
 */
export function closest(
  lines: readonly string[],
  pattern: readonly string[],
  n = 3,
): { start: number; score: number }[] {
  const want = pattern.map((s) => s.trim());
  const scored: { start: number; score: number }[] = [];
  const span = Math.max(1, pattern.length);
  for (let s = 0; s + 1 <= lines.length; s++) {
    let score = 0;
    for (let k = 0; k < span && s + k < lines.length; k++) {
      const a = lines[s + k].trim(), b = want[k] ?? "";
      if (a === b && a !== "") score += 2;
      else if (a && b && (a.includes(b) || b.includes(a))) score += 1;
    }
    if (score > 0) scored.push({ start: s, score });
  }
  scored.sort((x, y) => y.score - x.score || x.start - y.start);
  const out: { start: number; score: number }[] = [];
  for (const c of scored) {
    if (out.length >= n) break;
    if (out.some((o) => Math.abs(o.start - c.start) < span)) continue;
    out.push(c);
  }
  return out;
}

/** Lines `start`… of `lines` numbered for an error text (1-based), at most `max`. */
export function numbered(lines: readonly string[], start: number, count: number, max = 6): string {
  const shown = lines.slice(start, start + Math.min(count, max));
  const more = count > max ? `\n      …` : "";
  return shown.map((l, k) => `${String(start + k + 1).padStart(5)}| ${l}`).join("\n") + more;
}
