/**
 * Pure find-in-conversation logic: occurrences of a query in the text of user and
 * assistant entries, and stepping through them.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {{entryId: string, nth: number}} FindMatch nth = occurrence within the entry
 */

/**
 * The searchable text of an entry, as the model holds it.
 * @param {Entry} e
 */
export function entryText(e) {
  if (e.role !== "user" && e.role !== "assistant") return "";
  return e.parts.filter((p) => p.type === "text" && p.text).map((p) => p.text).join("\n");
}

/**
 * Every occurrence of `q` (case-insensitive) in the entries, in timeline order.
 * @param {Entry[]} list
 * @param {string} q
 * @returns {FindMatch[]}
 */
export function matchesIn(list, q) {
  if (!q) return [];
  const needle = q.toLocaleLowerCase();
  /** @type {FindMatch[]} */
  const out = [];
  for (const e of list) {
    const text = entryText(e).toLocaleLowerCase();
    let at = text.indexOf(needle), nth = 0;
    while (at >= 0) {
      out.push({ entryId: e.id, nth: nth++ });
      at = text.indexOf(needle, at + needle.length);
    }
  }
  return out;
}

/**
 * The next index when stepping `delta` through `count` matches (wraps around).
 * @param {number} index
 * @param {number} count
 * @param {number} delta
 */
export function stepIndex(index, count, delta) {
  if (count === 0) return -1;
  if (index < 0) return delta >= 0 ? 0 : count - 1;
  return (index + delta + count) % count;
}
