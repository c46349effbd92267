/**
 * Inline Markdown (GFM subset) to a small AST: text, code spans, emphasis, strong,
 * strikethrough, links (sanitised), images (as links, never loaded), autolinks and
 * line breaks. Raw HTML stays text. Pure: no DOM.
 *
 * @typedef {{t: "text", v: string}
 *   | {t: "code", v: string}
 *   | {t: "br"}
 *   | {t: "em" | "strong" | "del", c: Inline[]}
 *   | {t: "link", href: string|null, c: Inline[], image?: boolean}} Inline
 */
import { decodeEntities, safeUrl } from "./url.js";

const PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const SPACE = /\s/;
const ALNUM = /[\p{L}\p{N}]/u;
const BARE_URL = /^(?:https?:\/\/|www\.)[^\s<]*[^\s<.,:;"'\])!?*_~]/i;
const ANGLE_URL = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/;
const ANGLE_MAIL = /^<([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)+)>/;

/**
 * @param {string} s
 * @param {number} i index of the first backtick
 * @returns {{end: number, v: string}|null} end = index after the closing run
 */
function codeSpan(s, i) {
  let n = 0;
  while (s[i + n] === "`") n++;
  for (let j = s.indexOf("`", i + n); j !== -1; j = s.indexOf("`", j)) {
    let r = 0;
    while (s[j + r] === "`") r++;
    if (r === n) {
      let v = s.slice(i + n, j).replace(/\n/g, " ");
      if (v.length > 2 && v[0] === " " && v[v.length - 1] === " " && v.trim()) v = v.slice(1, -1);
      return { end: j + r, v };
    }
    j += r;
  }
  return null;
}

/**
 * Index of the `]` closing the `[` at `i`, skipping escapes, code spans and nesting.
 * @param {string} s
 * @param {number} i
 */
function closeBracket(s, i) {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") j++;
    else if (c === "`") {
      const cs = codeSpan(s, j);
      if (cs) j = cs.end - 1;
      else while (s[j + 1] === "`") j++;
    } else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) return j;
  }
  return -1;
}

/**
 * Parses `(dest "title")` starting at the `(` at `i`.
 * @param {string} s
 * @param {number} i
 * @returns {{dest: string, end: number}|null}
 */
function linkTail(s, i) {
  let j = i + 1;
  while (s[j] === " " || s[j] === "\n") j++;
  let dest = "";
  if (s[j] === "<") {
    const k = s.indexOf(">", j);
    if (k < 0 || s.slice(j, k).includes("\n")) return null;
    dest = s.slice(j + 1, k);
    j = k + 1;
  } else {
    let depth = 0;
    const start = j;
    for (; j < s.length; j++) {
      const c = s[j];
      if (c === "\\" && j + 1 < s.length) j++;
      else if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) break;
        depth--;
      } else if (SPACE.test(c)) break;
    }
    dest = s.slice(start, j).replace(/\\([!-/:-@[-`{-~])/g, "$1");
  }
  while (s[j] === " " || s[j] === "\n") j++;
  const q = s[j];
  if (q === '"' || q === "'" || q === "(") {
    const close = q === "(" ? ")" : q;
    const k = s.indexOf(close, j + 1);
    if (k < 0) return null;
    j = k + 1;
    while (s[j] === " " || s[j] === "\n") j++;
  }
  return s[j] === ")" ? { dest, end: j + 1 } : null;
}

/**
 * Finds the closing delimiter run of exactly `n` chars `ch` after `from`.
 * @param {string} s
 * @param {number} from
 * @param {string} ch
 * @param {number} n
 */
function findCloser(s, from, ch, n) {
  for (let j = from; j < s.length; j++) {
    const c = s[j];
    if (c === "\\") {
      j++;
      continue;
    }
    if (c === "`") {
      const cs = codeSpan(s, j);
      if (cs) j = cs.end - 1;
      else while (s[j + 1] === "`") j++;
      continue;
    }
    if (c !== ch) continue;
    let r = 0;
    while (s[j + r] === ch) r++;
    const before = s[j - 1];
    const after = s[j + r];
    const closes = before !== undefined && !SPACE.test(before) &&
      (ch !== "_" || after === undefined || !ALNUM.test(after));
    // An exact run closes; a run of three also closes a single or double opener
    // with its last characters (`*a **b***`).
    if (closes && (r === n || (r === 3 && n < 3))) return j + (r - n);
    j += r - 1;
  }
  return -1;
}

/**
 * @param {string} src
 * @returns {Inline[]}
 */
export function parseInline(src) {
  /** @type {Inline[]} */
  const out = [];
  let buf = "";
  /** Delimiters known to have no closer after the current position. */
  const dead = new Set();
  const flush = () => {
    if (buf) out.push({ t: "text", v: decodeEntities(buf) });
    buf = "";
  };
  const s = src;
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\" && i + 1 < s.length && (PUNCT.includes(s[i + 1]) || s[i + 1] === "\n")) {
      flush();
      out.push(s[i + 1] === "\n" ? { t: "br" } : { t: "text", v: s[i + 1] });
      i += 2;
      continue;
    }
    if (c === "\n") {
      buf = buf.replace(/ +$/, "");
      flush();
      out.push({ t: "br" });
      i++;
      while (s[i] === " ") i++;
      continue;
    }
    if (c === "`") {
      const cs = codeSpan(s, i);
      if (cs) {
        flush();
        out.push({ t: "code", v: cs.v });
        i = cs.end;
      } else {
        while (s[i] === "`") buf += s[i++];
      }
      continue;
    }
    if (c === "[" || (c === "!" && s[i + 1] === "[")) {
      const open = c === "!" ? i + 1 : i;
      const close = closeBracket(s, open);
      const tail = close > 0 && s[close + 1] === "(" ? linkTail(s, close + 1) : null;
      if (tail) {
        flush();
        const text = s.slice(open + 1, close);
        const href = safeUrl(tail.dest);
        const c2 = c === "!"
          ? [{ t: /** @type {const} */ ("text"), v: text || tail.dest }]
          : parseInline(text);
        out.push({ t: "link", href, c: c2, ...(c === "!" ? { image: true } : {}) });
        i = tail.end;
        continue;
      }
      buf += c;
      i++;
      continue;
    }
    if (c === "<") {
      const m = ANGLE_URL.exec(s.slice(i, i + 2100)) ?? ANGLE_MAIL.exec(s.slice(i, i + 400));
      if (m) {
        flush();
        const href = m[1].includes(":") ? safeUrl(m[1]) : safeUrl(`mailto:${m[1]}`);
        out.push({ t: "link", href, c: [{ t: "text", v: m[1] }] });
        i += m[0].length;
        continue;
      }
    }
    if ((c === "h" || c === "w" || c === "H" || c === "W") && !ALNUM.test(s[i - 1] ?? " ")) {
      const m = BARE_URL.exec(s.slice(i, i + 2100));
      if (m) {
        let url = m[0];
        while (
          url.endsWith(")") && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)
        ) {
          url = url.slice(0, -1);
        }
        flush();
        out.push({
          t: "link",
          href: safeUrl(/^www\./i.test(url) ? `https://${url}` : url),
          c: [{ t: "text", v: url }],
        });
        i += url.length;
        continue;
      }
    }
    if (c === "*" || c === "_" || c === "~") {
      let n = 0;
      while (s[i + n] === c) n++;
      const after = s[i + n];
      const before = s[i - 1];
      const opens = after !== undefined && !SPACE.test(after) &&
        (c !== "_" || before === undefined || !ALNUM.test(before));
      const want = c === "~" ? (n <= 2 ? n : 0) : Math.min(n, 3);
      const key = `${c}${want}`;
      if (opens && want && !dead.has(key)) {
        const end = findCloser(s, i + n, c, want);
        if (end > i + n) {
          flush();
          const inner = parseInline(s.slice(i + n, end));
          /** @type {Inline} */
          const node = c === "~"
            ? { t: "del", c: inner }
            : want === 1
            ? { t: "em", c: inner }
            : want === 2
            ? { t: "strong", c: inner }
            : { t: "strong", c: [{ t: "em", c: inner }] };
          // A longer opening run than needed leaves the extra delimiters as text.
          if (n > want && c !== "~") out.push({ t: "text", v: c.repeat(n - want) });
          out.push(node);
          i = end + want;
          continue;
        }
        dead.add(key);
      }
      buf += s.slice(i, i + n);
      i += n;
      continue;
    }
    buf += c;
    i++;
  }
  flush();
  return out;
}
