/** Pure helpers of the terminal dock (unit-tested in tests/ui_terminal_test.ts). */

/**
 * What Ctrl+key sends: `@`, letters and `[\]^_` become C0 control codes (Ctrl+C →
 * "\x03"); anything else (arrows, several characters) is sent as it is.
 * @param {string} data
 */
export function withCtrl(data) {
  if (data.length !== 1) return data;
  const c = data.toUpperCase().charCodeAt(0);
  return c >= 64 && c <= 95 ? String.fromCharCode(c - 64) : data;
}

/**
 * The tab order after dropping tab `id` onto tab `before` (it takes that place).
 * @param {string[]} ids @param {string} id @param {string} before
 */
export function moveBefore(ids, id, before) {
  const rest = ids.filter((x) => x !== id);
  if (!ids.includes(id)) return ids;
  const at = rest.indexOf(before);
  rest.splice(at < 0 ? rest.length : at, 0, id);
  return rest;
}
