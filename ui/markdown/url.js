/**
 * URL and entity helpers for the Markdown renderer. Only absolute http(s) and mailto
 * URLs become links; everything else (javascript:, data:, vbscript:, file:, relative
 * paths) is shown as plain text.
 */

const NAMED = /** @type {Record<string, string>} */ ({
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "©",
  reg: "®",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  larr: "←",
  rarr: "→",
  times: "×",
});

/**
 * Decodes HTML entities (a common named subset and all numeric ones).
 * @param {string} s
 */
export function decodeEntities(s) {
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (m, body) => {
    if (body[0] !== "#") return NAMED[body] ?? NAMED[body.toLowerCase()] ?? m;
    const code = body[1] === "x" || body[1] === "X"
      ? parseInt(body.slice(2), 16)
      : parseInt(body.slice(1), 10);
    if (!code || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
    return String.fromCodePoint(code);
  });
}

const ALLOWED = new Set(["http", "https", "mailto"]);

/**
 * The URL to put in an `href`, or null when it must not be a link.
 * @param {string} raw destination as written in the Markdown source
 * @returns {string|null}
 */
export function safeUrl(raw) {
  const url = decodeEntities(String(raw)).trim();
  // Browsers ignore control characters and whitespace while reading a scheme
  // ("java\tscript:"), so check the scheme with them removed.
  // deno-lint-ignore no-control-regex
  const probe = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, "").toLowerCase();
  const m = /^([a-z][a-z0-9+.-]*):/.exec(probe);
  if (!m || !ALLOWED.has(m[1])) return null;
  if (m[1] !== "mailto" && !/^https?:\/\/[^/\s]/.test(probe)) return null;
  // deno-lint-ignore no-control-regex
  return url.replace(/[\u0000-\u001f\u007f]/g, "").replace(/\s/g, "%20");
}
