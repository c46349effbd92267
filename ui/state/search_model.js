/**
 * Pure helpers of the search dialog.
 *
 * @typedef {import("../../protocol/index.ts").SearchResult} SearchResult
 * @typedef {{taskId: string, entryId: string|null, key: string}} SearchItem
 */

/**
 * Rows that can be chosen, in display order: a task, then its snippets.
 * @param {SearchResult|null} r
 * @returns {SearchItem[]}
 */
export function itemsOf(r) {
  if (!r) return [];
  /** @type {SearchItem[]} */
  const out = [];
  for (const t of r.tasks) {
    out.push({ taskId: t.taskId, entryId: null, key: `t:${t.taskId}` });
    for (const s of t.snippets) {
      out.push({ taskId: t.taskId, entryId: s.entryId, key: `e:${s.entryId}` });
    }
  }
  return out;
}

/**
 * Which shortcut a keydown is, if any: Ctrl/Cmd+K search, Ctrl/Cmd+F find.
 * @param {{key: string, ctrlKey: boolean, metaKey: boolean, altKey: boolean, shiftKey: boolean}} e
 * @returns {"search"|"find"|null}
 */
export function shortcutOf(e) {
  if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return null;
  const k = e.key.toLowerCase();
  return k === "k" ? "search" : k === "f" ? "find" : null;
}

/**
 * Share of each context category in the estimate, in percent (0 when nothing is
 * estimated).
 * @param {{tokens: number}[]} cats
 */
export function shares(cats) {
  const total = cats.reduce((s, c) => s + c.tokens, 0);
  return cats.map((c) => (total > 0 ? (c.tokens / total) * 100 : 0));
}
