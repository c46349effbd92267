/** protocol/diff.ts: statistics, hunks, line numbers, caps, and optimality against an LCS. */
import { assert, assertEquals } from "./helpers/assert.ts";
import { editScript, type LineDiff, lineDiff, splitLines } from "../protocol/diff.ts";

/** Renders hunks as unified-diff-like text for compact assertions. */
const show = (d: LineDiff) =>
  d.hunks.map((h) =>
    `@@ ${h.oldStart} ${h.newStart}\n` + h.lines.map((l) => l.t + l.text).join("\n")
  )
    .join("\n");

const lines = (n: number, f = (i: number) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";

Deno.test("no change, empty files, creation and deletion of all lines", () => {
  assertEquals(lineDiff("a\nb\n", "a\nb\n"), { added: 0, removed: 0, hunks: [], truncated: false });
  assertEquals(lineDiff("", ""), { added: 0, removed: 0, hunks: [], truncated: false });
  const created = lineDiff("", "x\ny\n");
  assertEquals([created.added, created.removed], [2, 0]);
  assertEquals(show(created), "@@ 1 1\n+x\n+y");
  const emptied = lineDiff("x\ny", "");
  assertEquals([emptied.added, emptied.removed], [0, 2]);
  assertEquals(show(emptied), "@@ 1 1\n-x\n-y");
});

Deno.test("insert, delete and replace with 3 context lines and correct line numbers", () => {
  const base = lines(10);
  const ins = lineDiff(base, base.replace("line 5\n", "line 5\nNEW\n"));
  assertEquals([ins.added, ins.removed], [1, 0]);
  assertEquals(
    show(ins),
    "@@ 3 3\n line 3\n line 4\n line 5\n+NEW\n line 6\n line 7\n line 8",
  );
  const del = lineDiff(base, base.replace("line 1\n", ""));
  assertEquals([del.added, del.removed], [0, 1]);
  assertEquals(show(del), "@@ 1 1\n-line 1\n line 2\n line 3\n line 4");
  const rep = lineDiff(base, base.replace("line 10", "ten"));
  assertEquals([rep.added, rep.removed], [1, 1]);
  assertEquals(show(rep), "@@ 7 7\n line 7\n line 8\n line 9\n-line 10\n+ten");
});

Deno.test("changes close together share a hunk; far apart they split", () => {
  const base = lines(30);
  const near = lineDiff(base, base.replace("line 5\n", "five\n").replace("line 11\n", "eleven\n"));
  assertEquals(near.hunks.length, 1, "gap of 5 ≤ 6 context lines: one hunk");
  const far = lineDiff(base, base.replace("line 5\n", "five\n").replace("line 20\n", "twenty\n"));
  assertEquals(far.hunks.length, 2);
  assertEquals([far.hunks[1].oldStart, far.hunks[1].newStart], [17, 17]);
  assertEquals(far.hunks[1].lines.length, 8);
  // Line numbers diverge after an insertion.
  const shifted = lineDiff(
    base,
    base.replace("line 2\n", "line 2\nA\nB\n").replace("line 25\n", ""),
  );
  assertEquals([shifted.hunks[1].oldStart, shifted.hunks[1].newStart], [22, 24]);
});

Deno.test("line endings: CRLF compares like LF; a style change is flagged", () => {
  const crlf = lineDiff("a\r\nb\r\n", "a\r\nB\r\n");
  assertEquals([crlf.added, crlf.removed, crlf.eolChanged], [1, 1, undefined]);
  assertEquals(show(crlf), "@@ 1 1\n a\n-b\n+B");
  const style = lineDiff("a\r\nb\r\n", "a\nb\n");
  assertEquals([style.added, style.removed, style.hunks.length, style.eolChanged], [0, 0, 0, true]);
  const finalNl = lineDiff("a\nb\n", "a\nb");
  assertEquals([finalNl.added, finalNl.removed, finalNl.eolChanged], [0, 0, true]);
  assertEquals(splitLines("x\r\ny\n"), ["x", "y"]);
  assertEquals(splitLines("\n"), [""]);
});

Deno.test("at most maxLines diff lines are kept; statistics still count everything", () => {
  const d = lineDiff("", lines(1200));
  assertEquals([d.added, d.removed, d.truncated], [1200, 0, true]);
  assertEquals(d.hunks.reduce((n, h) => n + h.lines.length, 0), 500);
  const small = lineDiff("", lines(3), { maxLines: 2 });
  assertEquals([small.truncated, small.hunks[0].lines.length], [true, 2]);
  const long = lineDiff("", "x".repeat(5000));
  assertEquals(long.hunks[0].lines[0].text.length, 400);
  assert(long.hunks[0].lines[0].text.endsWith("…"));
});

Deno.test("beyond the cell cap the changed region is reported as replaced", () => {
  const a = lines(5000, (i) => `a${i}`), b = lines(5000, (i) => `b${i % 7 ? i : "x"}`);
  const t0 = performance.now();
  const d = lineDiff(`head\n${a}tail\n`, `head\n${b}tail\n`);
  assert(performance.now() - t0 < 2000, "fallback is fast");
  assertEquals([d.approximate, d.added, d.removed], [true, 5000, 5000]);
  assertEquals(d.hunks[0].lines[0], { t: " ", text: "head" }, "common prefix kept as context");
  // Large files with a small change are diffed exactly (prefix/suffix trimmed first).
  const big = lines(50_000);
  const one = lineDiff(big, big.replace("line 25000\n", "changed\n"));
  assertEquals([one.approximate, one.added, one.removed], [undefined, 1, 1]);
  assertEquals(one.hunks[0].oldStart, 24997);
});

/** Length of the longest common subsequence by dynamic programming (the oracle). */
function lcs(a: string[], b: string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i][j] = a[i - 1] === b[j - 1]
        ? dp[i - 1][j - 1] + 1
        : Math.max(dp[i - 1][j], dp[i][j - 1]);
    }
  }
  return dp[a.length][b.length];
}

Deno.test("random inputs: the script rebuilds both sides and is minimal (LCS oracle)", () => {
  let seed = 42;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let round = 0; round < 400; round++) {
    const alphabet = 1 + rnd(6);
    const a = Array.from({ length: rnd(25) }, () => "abcdef"[rnd(alphabet)]);
    const b = Array.from({ length: rnd(25) }, () => "abcdef"[rnd(alphabet)]);
    const { ops, lens } = editScript(a, b);
    const oldOut: string[] = [], newOut: string[] = [];
    let i = 0, j = 0, edits = 0;
    ops.forEach((op, r) => {
      for (let q = 0; q < lens[r]; q++) {
        if (op === 0) {
          assertEquals(a[i], b[j], `equal run mismatch in round ${round}`);
          oldOut.push(a[i++]), newOut.push(b[j++]);
        } else if (op === 1) oldOut.push(a[i++]), edits++;
        else newOut.push(b[j++]), edits++;
      }
    });
    assertEquals([oldOut, newOut], [a, b], `round ${round} does not rebuild the inputs`);
    assertEquals(edits, a.length + b.length - 2 * lcs(a, b), `round ${round} is not minimal`);
    const d = lineDiff(a.join("\n"), b.join("\n"));
    assertEquals(d.added + d.removed, edits);
    for (const h of d.hunks) {
      const signs = h.lines.map((l) => l.t).join("");
      assert(!signs.includes("+-"), `round ${round}: an added line before a removed one`);
    }
  }
});
