/**
 * Pure logic of the conversation navigator, no DOM: the user's questions
 * of the loaded timeline with their first line, stepping to the previous / next one,
 * and when the rail of ticks is shown.
 *
 * @typedef {import("../../protocol/index.ts").Entry} Entry
 * @typedef {{id: string, n: number, line: string, at: number}} Question
 */

/** Characters of a question's first line shown in the list and the tick's preview. */
export const LINE_MAX = 90;
/** The rail needs at least this many questions… */
export const RAIL_MIN_ITEMS = 2;
/** …and a conversation at least this wide (px). */
export const RAIL_MIN_WIDTH = 864;

/** Characters of a message searched for its first line. */
const HEAD_MAX = 4000;
/** First lines by entry object (entries are immutable: a change is a new object). */
const lines = new WeakMap();

/**
 * The first non-empty line of a user message's own text (not the attached mention
 * blocks), collapsed and cut at `max` characters.
 * @param {Entry} e
 * @param {number} [max]
 */
export function firstLine(e, max = LINE_MAX) {
  const cached = max === LINE_MAX ? lines.get(e) : undefined;
  if (cached !== undefined) return cached;
  let out = "";
  for (const p of e.parts) {
    if (p.type !== "text" || p.data?.mention || !p.text) continue;
    // Only the head of a long (pasted) message is looked at.
    const line = p.text.slice(0, HEAD_MAX).split("\n").map((l) => l.replace(/\s+/g, " ").trim())
      .find(Boolean);
    if (line) {
      out = line.length > max ? line.slice(0, max - 1) + "…" : line;
      break;
    }
  }
  if (max === LINE_MAX) lines.set(e, out);
  return out;
}

/**
 * The user messages of `entries` in order, numbered from `first` (1 + the number of
 * questions before the loaded page, when known; else 1).
 * @param {Entry[]} entries
 * @param {number} [first]
 * @returns {Question[]}
 */
export function questionsOf(entries, first = 1) {
  /** @type {Question[]} */
  const out = [];
  for (const e of entries) {
    if (e.role !== "user") continue;
    out.push({ id: e.id, n: first + out.length, line: firstLine(e), at: e.createdAt });
  }
  return out;
}

/**
 * The question to jump to from `currentId` (the question whose turn is at the top of
 * the view; null = none known) in direction `dir`: -1 previous, +1 next. Stays at
 * the first / last one; null when there are none.
 * @param {Question[]} qs
 * @param {string|null} currentId
 * @param {-1|1} dir
 */
export function stepQuestion(qs, currentId, dir) {
  if (qs.length === 0) return null;
  const i = currentId === null ? -1 : qs.findIndex((q) => q.id === currentId);
  if (i < 0) return dir < 0 ? qs[qs.length - 1].id : qs[0].id;
  return qs[Math.max(0, Math.min(qs.length - 1, i + dir))].id;
}

/**
 * Whether the rail of ticks beside the conversation is shown.
 * @param {number} count questions
 * @param {number} width of the conversation, px
 */
export function showRail(count, width) {
  return count >= RAIL_MIN_ITEMS && width >= RAIL_MIN_WIDTH;
}

/** The rail's target height (px) and the bounds of one tick's slot. */
export const RAIL_HEIGHT = 240;
export const SLOT_MIN = 10;
export const SLOT_MAX = 24;

/**
 * Height of one tick's slot: the rail's height shared by the ticks, at least 10 px
 * (then the rail scrolls) and at most 24 px (few questions stay compact).
 * @param {number} count
 */
export function railSlot(count) {
  if (count <= 0) return SLOT_MAX;
  return Math.max(SLOT_MIN, Math.min(SLOT_MAX, Math.floor(RAIL_HEIGHT / count)));
}
