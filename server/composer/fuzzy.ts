/**
 * Fuzzy path matching for the `@` picker: the query's characters must appear in the
 * path in order (case-insensitive); matches at the start of the file name or of a
 * path segment, consecutive runs and short paths rank higher.
 *
 * @example
 * fuzzyScore("src/server/app.ts", "sapp"); // > 0
 * fuzzyScore("src/server/app.ts", "zz"); // -1
 */

const SEP = new Set(["/", "_", "-", ".", " "]);

/** A score (higher is better), or -1 when `query` does not match `path`. */
export function fuzzyScore(path: string, query: string): number {
  const q = query.toLowerCase().replace(/\s+/g, "");
  if (!q) return 1;
  const p = path.toLowerCase();
  const nameStart = p.replace(/\/$/, "").lastIndexOf("/") + 1;
  let score = 0;
  let at = 0;
  let run = 0;
  for (const ch of q) {
    const i = p.indexOf(ch, at);
    if (i < 0) return -1;
    const boundary = i === 0 || SEP.has(p[i - 1]);
    run = i === at && at > 0 ? run + 1 : 0;
    score += 1 + (boundary ? 6 : 0) + run * 4 + (i >= nameStart ? 2 : 0);
    score -= Math.min(i - at, 8) * 0.3; // gaps cost a little
    at = i + 1;
  }
  // Whole query inside the file name, or the name starting with it: strong signals.
  const name = p.slice(nameStart);
  if (name.startsWith(q)) score += 30;
  else if (name.includes(q)) score += 18;
  else if (p.includes(q)) score += 10;
  return score - p.length * 0.05;
}

/** The `limit` best matches of `query` among `items`, best first (ties: shorter path). */
export function fuzzyRank<T extends { path: string }>(
  items: readonly T[],
  query: string,
  limit: number,
): { items: T[]; more: boolean } {
  const scored: { item: T; score: number }[] = [];
  for (const item of items) {
    const score = fuzzyScore(item.path, query);
    if (score >= 0) scored.push({ item, score });
  }
  scored.sort((a, b) => b.score - a.score || a.item.path.length - b.item.path.length);
  return { items: scored.slice(0, limit).map((s) => s.item), more: scored.length > limit };
}
