/**
 * The editor's Markdown shortcuts as pure edits: wrap the selection (bold, italic,
 * code) or prefix the selected lines (headings, list, to-do). Each returns the new text
 * and the new selection, so the editor can put the caret back where it belongs.
 *
 * @typedef {{text: string, start: number, end: number}} Edit
 * @typedef {"h2"|"h3"|"bold"|"italic"|"code"|"list"|"todo"} FormatKind
 */

/** @type {Record<FormatKind, {wrap?: string, prefix?: string}>} */
const KINDS = {
  h2: { prefix: "## " },
  h3: { prefix: "### " },
  bold: { wrap: "**" },
  italic: { wrap: "_" },
  code: { wrap: "`" },
  list: { prefix: "- " },
  todo: { prefix: "- [ ] " },
};

export const FORMAT_KINDS = /** @type {FormatKind[]} */ (Object.keys(KINDS));

/**
 * @param {Edit} e the text and its selection
 * @param {FormatKind} kind
 * @returns {Edit}
 */
export function applyFormat(e, kind) {
  const { wrap, prefix } = KINDS[kind];
  const { text, start, end } = e;
  if (wrap) {
    const inner = text.slice(start, end);
    return {
      text: text.slice(0, start) + wrap + inner + wrap + text.slice(end),
      start: start + wrap.length,
      end: end + wrap.length,
    };
  }
  const p = /** @type {string} */ (prefix);
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const block = text.slice(lineStart, end);
  // A heading replaces another heading's marks instead of stacking them.
  const lines = block.split("\n").map((l) =>
    p + (p.startsWith("#") ? l.replace(/^#{1,6}\s+/, "") : l)
  );
  const out = lines.join("\n");
  const next = text.slice(0, lineStart) + out + text.slice(end);
  // A caret moves with its line's new marks; a selection covers the lines as changed.
  if (start === end) {
    const caret = end + out.length - block.length;
    return { text: next, start: caret, end: caret };
  }
  return { text: next, start: lineStart, end: lineStart + out.length };
}
