/** Pure keyboard rules of the composer (unit-tested without a DOM). */

/**
 * Whether ↑/↓ should walk the prompt history: a plain arrow (no IME, no selection)
 * with the caret on the first line (↑, -1) or the last line (↓, 1); 0 = leave the
 * key to the text box.
 * @param {KeyboardEvent} e
 * @param {HTMLTextAreaElement} el
 * @returns {-1 | 1 | 0}
 */
export function historyKey(e, el) {
  if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return 0;
  if (e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || e.isComposing || e.keyCode === 229) {
    return 0;
  }
  const { selectionStart: a, selectionEnd: b, value } = el;
  if (a !== b) return 0;
  if (e.key === "ArrowUp") return value.lastIndexOf("\n", a - 1) === -1 ? -1 : 0;
  return value.indexOf("\n", b) === -1 ? 1 : 0;
}
