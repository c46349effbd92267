/**
 * Commit-graph layout for the git log: each commit gets a lane (column)
 * and the lines that lead from its row to the next. Pure, so it is tested alone.
 * Input is in `git log --topo-order` order (children before parents). Each hash is
 * expected in at most one lane, so a merge's second parent either opens a lane or
 * joins the lane already waiting for it, and a lane to the right waiting for a
 * commit's first parent bends into the commit's lane (lanes stay to the left).
 */
export interface GraphInput {
  hash: string;
  parents: string[];
}
export interface GraphRow {
  col: number;
  lines: { from: number; to: number }[];
}

export function layoutGraph(commits: GraphInput[]): { rows: GraphRow[]; lanes: number } {
  let lanes: (string | null)[] = [];
  let widest = 0;
  const rows: GraphRow[] = [];
  for (const c of commits) {
    let col = lanes.indexOf(c.hash);
    if (col < 0) {
      col = lanes.indexOf(null);
      if (col < 0) col = lanes.push(null) - 1;
    }
    const next = lanes.slice();
    next[col] = null;
    const lines: { from: number; to: number }[] = [];
    c.parents.forEach((p, i) => {
      const j = next.indexOf(p);
      if (j > col && i === 0) {
        // The lane waiting further right for the same parent bends into this one.
        next[j] = null;
        next[col] = p;
        lines.push({ from: col, to: col }, { from: j, to: col });
        return;
      }
      if (j >= 0) {
        lines.push({ from: col, to: j });
        return;
      }
      // The first parent continues the commit's lane; others open the first free one.
      let k = i === 0 ? col : next.indexOf(null);
      if (k < 0) k = next.push(null) - 1;
      next[k] = p;
      lines.push({ from: col, to: k });
    });
    next.forEach((h, i) => {
      if (h !== null && i !== col && lanes[i] === h) lines.push({ from: i, to: i });
    });
    while (next.length && next[next.length - 1] === null) next.pop();
    widest = Math.max(widest, lanes.length, next.length, col + 1);
    rows.push({ col, lines: lines.sort((a, b) => a.from - b.from || a.to - b.to) });
    lanes = next;
  }
  return { rows, lanes: widest };
}
