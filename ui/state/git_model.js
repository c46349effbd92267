/**
 * Pure helpers of the git panel: the status grouped as the panel shows it
 * and the commit graph's drawing (lines between rows, dots) from the server's layout.
 *
 * @typedef {import("../../protocol/index.ts").GitFileStatus} GitFileStatus
 * @typedef {import("../../protocol/index.ts").GitCommit} GitCommit
 */
import { statusGroups } from "../../protocol/index.ts";

/** @typedef {"conflict"|"staged"|"unstaged"|"untracked"} GitGroup */
export const GIT_GROUPS = /** @type {const} */ (["conflict", "staged", "unstaged", "untracked"]);

/**
 * Files by group, in status order; a file staged and changed again is in both.
 * @param {GitFileStatus[]} files
 * @returns {Record<GitGroup, GitFileStatus[]>}
 */
export function groupFiles(files) {
  /** @type {Record<GitGroup, GitFileStatus[]>} */
  const out = { conflict: [], staged: [], unstaged: [], untracked: [] };
  for (const f of files) for (const g of statusGroups(f)) out[g].push(f);
  return out;
}

/** The XY code as shown ("M·", "·M", "??"); the column that matters to a group first. @param {GitFileStatus} f */
export const xyCode = (f) => `${f.x === " " ? "·" : f.x}${f.y === " " ? "·" : f.y}`;

export const LANE_W = 14;
export const ROW_H = 32;

/**
 * The graph as SVG pieces: a path per line (row i lane a → row i+1 lane b) and a dot
 * per commit, in px for rows of {@link ROW_H} and lanes of {@link LANE_W}.
 * @param {Pick<GitCommit, "col"|"lines">[]} commits
 */
export function graphShapes(commits) {
  const x = (/** @type {number} */ lane) => lane * LANE_W + LANE_W / 2;
  const y = (/** @type {number} */ row) => row * ROW_H + ROW_H / 2;
  /** @type {{d: string, lane: number}[]} */
  const paths = [];
  commits.forEach((c, i) => {
    for (const l of c.lines) {
      const x1 = x(l.from), x2 = x(l.to), y1 = y(i), y2 = y(i + 1);
      // Straight down, or down then across in a curve near the next row.
      const d = x1 === x2
        ? `M${x1} ${y1}V${y2}`
        : `M${x1} ${y1}C${x1} ${y2 - ROW_H / 2} ${x2} ${y1 + ROW_H / 2} ${x2} ${y2}`;
      paths.push({ d, lane: Math.max(l.from, l.to) === l.from ? l.from : l.to });
    }
  });
  const dots = commits.map((c, i) => ({ cx: x(c.col), cy: y(i), lane: c.col }));
  return { paths, dots };
}
