/**
 * Line diff for the UI's edit/write cards, pure and shared by the server and UI: `+N −N` statistics and hunks
 * with 3 lines of context, computed on the server so the timeline stores a small diff
 * instead of two copies of the file.
 *
 * - Myers' O((N+M)·D) algorithm in linear space (middle snake, divide and conquer)
 *   after trimming the common prefix and suffix; lines are interned to integers.
 * - Line endings are not content: lines are split on `\n` or `\r\n` and compared
 *   without them, so a CRLF file edited with CRLF text diffs like an LF one. A change
 *   of line-ending style (CRLF ↔ LF) or of the final newline is reported as
 *   `eolChanged` (alone, it leaves the line statistics at 0).
 * - Beyond `maxCells` (default 4 000 × 4 000 changed-region lines) the changed region
 *   is reported as replaced wholesale (`approximate: true`) instead of being diffed.
 * - At most `maxLines` (default 500) diff lines are kept in `hunks` (`truncated` then);
 *   a line longer than `maxLineChars` (400) is cut and ends with "…". The statistics
 *   always cover the whole change.
 *
 * @example
 * const d = lineDiff("a\nb\nc\n", "a\nB\nc\n");
 * // d.added === 1, d.removed === 1,
 * // d.hunks[0] = {oldStart: 1, newStart: 1, lines: [" a", "-b", "+B", " c"] as {t, text}}
 */

export interface DiffLine {
  t: " " | "+" | "-";
  text: string;
}

/** `oldStart`/`newStart`: 1-based numbers of the first old/new line the hunk shows. */
export interface Hunk {
  oldStart: number;
  newStart: number;
  lines: DiffLine[];
}

export interface LineDiff {
  added: number;
  removed: number;
  hunks: Hunk[];
  /** More diff lines existed than were kept. */
  truncated: boolean;
  /** The changed region was too large to diff and is shown as replaced. */
  approximate?: boolean;
  /** The line-ending style (CRLF/LF, final newline) differs between the versions. */
  eolChanged?: boolean;
}

export interface DiffOptions {
  context?: number;
  maxLines?: number;
  maxLineChars?: number;
  /** Largest (old lines × new lines) of the changed region that is diffed exactly. */
  maxCells?: number;
}

/** An edit script as runs: equal (both advance), del (old advances), ins (new advances). */
type Op = 0 | 1 | 2;
const EQ: Op = 0, DEL: Op = 1, INS: Op = 2;

/** Splits text into lines without terminators; a final newline ends the last line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Whether two texts use different line endings (CRLF/LF where both have any; final newline). */
function eolDiffers(a: string, b: string): boolean {
  const kind = (s: string) => {
    const crlf = (s.match(/\r\n/g) ?? []).length;
    const lf = (s.match(/\n/g) ?? []).length - crlf;
    return crlf && lf ? "mixed" : crlf ? "crlf" : lf ? "lf" : "none";
  };
  const ka = kind(a), kb = kind(b);
  return a.endsWith("\n") !== b.endsWith("\n") || (ka !== "none" && kb !== "none" && ka !== kb);
}

class Script {
  ops: Op[] = [];
  lens: number[] = [];
  push(op: Op, n: number): void {
    if (n <= 0) return;
    const last = this.ops.length - 1;
    if (last >= 0 && this.ops[last] === op) this.lens[last] += n;
    else {
      this.ops.push(op);
      this.lens.push(n);
    }
  }
}

/**
 * Finds a middle snake of a[aLo..aHi) × b[bLo..bHi): returns [x0, y0, x1, y1] (absolute
 * indices) so that a[x0..x1) equals b[y0..y1) on an optimal edit path.
 */
function middleSnake(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
  vf: Int32Array,
  vb: Int32Array,
): [number, number, number, number] {
  const n = aHi - aLo, m = bHi - bLo;
  const delta = n - m, odd = (delta & 1) !== 0;
  const off = n + m + 1; // diagonal k is stored at index k + off
  const maxD = Math.ceil((n + m) / 2);
  vf[off + 1] = 0;
  vb[off + 1] = 0;
  for (let d = 0; d <= maxD; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && vf[off + k - 1] < vf[off + k + 1])
        ? vf[off + k + 1]
        : vf[off + k - 1] + 1;
      let y = x - k;
      const x0 = x, y0 = y;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) x++, y++;
      vf[off + k] = x;
      const kb = delta - k;
      if (odd && kb >= -(d - 1) && kb <= d - 1 && x + vb[off + kb] >= n) {
        return [aLo + x0, bLo + y0, aLo + x, bLo + y];
      }
    }
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && vb[off + k - 1] < vb[off + k + 1])
        ? vb[off + k + 1]
        : vb[off + k - 1] + 1;
      let y = x - k;
      const x0 = x, y0 = y;
      while (x < n && y < m && a[aHi - 1 - x] === b[bHi - 1 - y]) x++, y++;
      vb[off + k] = x;
      const kf = delta - k;
      if (!odd && kf >= -d && kf <= d && x + vf[off + kf] >= n) {
        return [aHi - x, bHi - y, aHi - x0, bHi - y0];
      }
    }
  }
  throw new Error("diff: no middle snake (unreachable)");
}

function diffRange(
  a: Int32Array,
  aLo: number,
  aHi: number,
  b: Int32Array,
  bLo: number,
  bHi: number,
  out: Script,
  vf: Int32Array,
  vb: Int32Array,
): void {
  let pre = 0;
  while (aLo + pre < aHi && bLo + pre < bHi && a[aLo + pre] === b[bLo + pre]) pre++;
  out.push(EQ, pre);
  aLo += pre, bLo += pre;
  let suf = 0;
  while (aHi - suf > aLo && bHi - suf > bLo && a[aHi - 1 - suf] === b[bHi - 1 - suf]) suf++;
  aHi -= suf, bHi -= suf;
  if (aLo === aHi || bLo === bHi) {
    out.push(DEL, aHi - aLo);
    out.push(INS, bHi - bLo);
  } else {
    const [x0, y0, x1, y1] = middleSnake(a, aLo, aHi, b, bLo, bHi, vf, vb);
    if ((x0 === aLo && y0 === bLo && x1 === aLo) || (x0 === aHi && y0 === bHi)) {
      // Cannot split further (guard against a non-shrinking step): replace the region.
      out.push(DEL, aHi - aLo);
      out.push(INS, bHi - bLo);
    } else {
      diffRange(a, aLo, x0, b, bLo, y0, out, vf, vb);
      out.push(EQ, x1 - x0);
      diffRange(a, x1, aHi, b, y1, bHi, out, vf, vb);
    }
  }
  out.push(EQ, suf);
}

/**
 * How many leading (`pre`) and trailing (`suf`) items two sequences share, the suffix
 * not overlapping the prefix (also the UI's edit preview).
 */
export function commonEnds<T>(
  a: ArrayLike<T>,
  b: ArrayLike<T>,
): { pre: number; suf: number } {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (
    suf < a.length - pre && suf < b.length - pre &&
    a[a.length - 1 - suf] === b[b.length - 1 - suf]
  ) suf++;
  return { pre, suf };
}

/** The edit script between two line arrays; `approximate` when the cap applied. */
export function editScript(
  oldLines: string[],
  newLines: string[],
  maxCells = 16_000_000,
): { ops: Op[]; lens: number[]; approximate: boolean } {
  const ids = new Map<string, number>();
  const intern = (lines: string[]) => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      let id = ids.get(lines[i]);
      if (id === undefined) ids.set(lines[i], id = ids.size);
      out[i] = id;
    }
    return out;
  };
  const a = intern(oldLines), b = intern(newLines);
  const script = new Script();
  const { pre, suf } = commonEnds(a, b);
  const n = a.length - pre - suf, m = b.length - pre - suf;
  const approximate = n * m > maxCells;
  script.push(EQ, pre);
  if (approximate || n === 0 || m === 0) {
    script.push(DEL, n);
    script.push(INS, m);
  } else {
    const size = 2 * (n + m) + 3;
    diffRange(
      a,
      pre,
      pre + n,
      b,
      pre,
      pre + m,
      script,
      new Int32Array(size),
      new Int32Array(size),
    );
  }
  script.push(EQ, suf);
  // Between two equal runs, show every removed line before the added ones.
  const out = new Script();
  let del = 0, ins = 0;
  script.ops.forEach((op, r) => {
    if (op === DEL) del += script.lens[r];
    else if (op === INS) ins += script.lens[r];
    else {
      out.push(DEL, del), out.push(INS, ins), out.push(EQ, script.lens[r]);
      del = ins = 0;
    }
  });
  out.push(DEL, del), out.push(INS, ins);
  return { ops: out.ops, lens: out.lens, approximate };
}

/** Diff of two texts as statistics and hunks (see the module documentation). */
export function lineDiff(before: string, after: string, opts: DiffOptions = {}): LineDiff {
  const context = opts.context ?? 3;
  const maxLines = opts.maxLines ?? 500;
  const maxChars = opts.maxLineChars ?? 400;
  const oldLines = splitLines(before), newLines = splitLines(after);
  const { ops, lens, approximate } = editScript(oldLines, newLines, opts.maxCells);
  const cut = (s: string) => s.length > maxChars ? s.slice(0, maxChars - 1) + "…" : s;

  let added = 0, removed = 0, kept = 0, truncated = false;
  const hunks: Hunk[] = [];
  let hunk: Hunk | null = null;
  const emit = (t: DiffLine["t"], text: string) => {
    if (kept >= maxLines) {
      truncated = true;
      return;
    }
    hunk!.lines.push({ t, text: cut(text) });
    kept++;
  };
  let i = 0, j = 0; // positions in old / new
  for (let r = 0; r < ops.length; r++) {
    const op = ops[r], len = lens[r];
    if (op === EQ) {
      const last = r === ops.length - 1;
      if (hunk) {
        // Trailing context of the open hunk; it stays open when the gap is small.
        const keepOpen = !last && len <= 2 * context;
        const take = keepOpen ? len : Math.min(len, context);
        for (let q = 0; q < take; q++) emit(" ", oldLines[i + q]);
        if (!keepOpen) hunk = null;
      }
      i += len, j += len;
      continue;
    }
    if (!hunk) {
      // A new hunk starts with up to `context` lines before the change.
      const lead = Math.min(context, r > 0 && ops[r - 1] === EQ ? lens[r - 1] : 0);
      hunk = { oldStart: i - lead + 1, newStart: j - lead + 1, lines: [] };
      if (kept < maxLines) hunks.push(hunk);
      for (let q = lead; q > 0; q--) emit(" ", oldLines[i - q]);
    }
    if (op === DEL) {
      for (let q = 0; q < len; q++) emit("-", oldLines[i + q]);
      removed += len, i += len;
    } else {
      for (let q = 0; q < len; q++) emit("+", newLines[j + q]);
      added += len, j += len;
    }
  }
  const out: LineDiff = { added, removed, hunks, truncated };
  if (approximate) out.approximate = true;
  // Equal lines but different text: only terminators changed. Otherwise compare styles.
  const eolOnly = added === 0 && removed === 0 && before !== after;
  if (eolOnly || (before && after && eolDiffers(before, after))) out.eolChanged = true;
  return out;
}
