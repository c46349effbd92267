/**
 * Block-level Markdown (GFM subset) to a small AST: paragraphs, ATX and setext
 * headings, fenced and indented code, thematic breaks, block quotes, bullet/ordered
 * lists with task items, and tables. Inline text is kept raw (see inline.js) so a
 * block can be parsed once and rendered lazily. Pure: no DOM, no HTML.
 *
 * Each block carries `src`, its source text, so a renderer can skip blocks that did
 * not change while a message streams.
 *
 * @typedef {{t: "p", text: string, src: string}
 *   | {t: "h", level: number, text: string, src: string}
 *   | {t: "code", lang: string, text: string, closed: boolean, src: string}
 *   | {t: "hr", src: string}
 *   | {t: "quote", children: Block[], src: string}
 *   | {t: "list", ordered: boolean, start: number, loose: boolean, items: ListItem[], src: string}
 *   | {t: "table", align: ("left"|"center"|"right"|null)[], head: string[], rows: string[][],
 *      src: string}} Block
 * @typedef {{task: boolean|null, children: Block[]}} ListItem
 */

const FENCE = /^( {0,3})(`{3,}|~{3,})[ \t]*(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST = /^( {0,3})([-*+]|(\d{1,9})[.)])([ \t]+|$)/;
const DELIM = /^ *\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

/** @param {string} l */
const blank = (l) => l.trim() === "";
/** @param {string} l */
const indentOf = (l) => l.length - l.trimStart().length;

/**
 * Whether a line starts a block that interrupts a paragraph.
 * @param {string} l
 */
function interrupts(l) {
  if (FENCE.test(l) || ATX.test(l) || HR.test(l) || QUOTE.test(l)) return true;
  const m = LIST.exec(l);
  return !!m && !blank(l.slice(m[0].length)) && (!m[3] || m[3] === "1");
}

/**
 * Splits a table row into cells at unescaped pipes.
 * @param {string} line
 */
export function cells(line) {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  const out = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\" && s[i + 1] === "|") {
      cur += "|";
      i++;
    } else if (s[i] === "|") {
      out.push(cur.trim());
      cur = "";
    } else cur += s[i];
  }
  out.push(cur.trim());
  return out;
}

/** @param {string} d */
function alignOf(d) {
  const l = d.startsWith(":"), r = d.endsWith(":");
  return l && r ? "center" : r ? "right" : l ? "left" : null;
}

/**
 * Parses Markdown source into blocks.
 * @param {string} src
 * @returns {Block[]}
 */
export function parseBlocks(src) {
  const lines = src.replace(/\r\n?/g, "\n").split("\n")
    .map((l) => l.replace(/^\t+/, (m) => "    ".repeat(m.length)));
  return parseLines(lines);
}

/**
 * @param {string[]} lines
 * @returns {Block[]}
 */
function parseLines(lines) {
  /** @type {Block[]} */
  const out = [];
  let i = 0;
  const n = lines.length;
  while (i < n) {
    const line = lines[i];
    if (blank(line)) {
      i++;
      continue;
    }
    const start = i;
    const src = () => lines.slice(start, i).join("\n");
    let m;
    if ((m = FENCE.exec(line)) && !(m[2][0] === "`" && m[3].includes("`"))) {
      const pad = m[1].length, fence = m[2];
      const body = [];
      let closed = false;
      for (i++; i < n; i++) {
        const c = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines[i]);
        if (c && c[1][0] === fence[0] && c[1].length >= fence.length) {
          closed = true;
          i++;
          break;
        }
        body.push(lines[i].replace(new RegExp(`^ {0,${pad}}`), ""));
      }
      out.push({
        t: "code",
        lang: m[3].trim().split(/\s+/)[0] ?? "",
        text: body.join("\n"),
        closed,
        src: src(),
      });
    } else if ((m = ATX.exec(line))) {
      i++;
      out.push({ t: "h", level: m[1].length, text: (m[2] ?? "").trim(), src: src() });
    } else if (HR.test(line)) {
      i++;
      out.push({ t: "hr", src: src() });
    } else if (QUOTE.test(line)) {
      const inner = [];
      while (i < n && !blank(lines[i])) {
        if (QUOTE.test(lines[i])) inner.push(lines[i].replace(QUOTE, ""));
        else if (!interrupts(lines[i]) && inner.length) inner.push(lines[i]);
        else break;
        i++;
      }
      out.push({ t: "quote", children: parseLines(inner), src: src() });
    } else if ((m = LIST.exec(line))) {
      i = parseList(lines, i, out);
    } else if (
      line.includes("|") && i + 1 < n && DELIM.test(lines[i + 1]) && lines[i + 1].includes("-") &&
      cells(line).length === cells(lines[i + 1]).length
    ) {
      const head = cells(line);
      const align = cells(lines[i + 1]).map(alignOf);
      const rows = [];
      for (
        i += 2;
        i < n && !blank(lines[i]) && lines[i].includes("|") && !interrupts(lines[i]);
        i++
      ) {
        const r = cells(lines[i]);
        rows.push(head.map((_, k) => r[k] ?? ""));
      }
      out.push({ t: "table", align, head, rows, src: src() });
    } else if (indentOf(line) >= 4) {
      const body = [];
      while (i < n && (blank(lines[i]) || indentOf(lines[i]) >= 4)) body.push(lines[i++].slice(4));
      while (body.length && blank(body[body.length - 1])) body.pop();
      out.push({ t: "code", lang: "", text: body.join("\n"), closed: true, src: src() });
    } else {
      const text = [line.trimStart()];
      let level = 0;
      for (i++; i < n && !blank(lines[i]); i++) {
        const s = SETEXT.exec(lines[i]);
        if (s) {
          level = s[1][0] === "=" ? 1 : 2;
          i++;
          break;
        }
        if (interrupts(lines[i])) break;
        text.push(lines[i].trimStart());
      }
      const joined = text.join("\n").replace(/[ \t]+$/, "");
      out.push(
        level ? { t: "h", level, text: joined, src: src() } : { t: "p", text: joined, src: src() },
      );
    }
  }
  return out;
}

/**
 * Parses a list starting at line `i`; appends it to `out`; returns the next line.
 * @param {string[]} lines
 * @param {number} i
 * @param {Block[]} out
 */
function parseList(lines, i, out) {
  const n = lines.length;
  const start = i;
  const first = /** @type {RegExpExecArray} */ (LIST.exec(lines[i]));
  const ordered = !!first[3];
  const kind = ordered ? first[2].slice(-1) : first[2];
  /** @type {ListItem[]} */
  const items = [];
  let loose = false;
  while (i < n) {
    const m = LIST.exec(lines[i]);
    if (
      !m || HR.test(lines[i]) || !!m[3] !== ordered || (ordered ? m[2].slice(-1) : m[2]) !== kind
    ) break;
    const markerIndent = m[1].length;
    const spaces = m[4].length;
    const w = markerIndent + m[2].length + (spaces === 0 || spaces > 4 ? 1 : spaces);
    const body = [lines[i].slice(Math.min(w, m[0].length))];
    let prevBlank = false;
    for (i++; i < n; i++) {
      const l = lines[i];
      if (blank(l)) {
        body.push("");
        prevBlank = true;
        continue;
      }
      const ind = indentOf(l);
      if (ind >= w) body.push(l.slice(w));
      else if (LIST.test(l) && ind > markerIndent) body.push(l.slice(ind));
      else if (!prevBlank && !interrupts(l) && !LIST.test(l)) body.push(l.trimStart());
      else break;
      prevBlank = false;
    }
    let trailing = 0;
    while (body.length && blank(body[body.length - 1])) {
      body.pop();
      trailing++;
    }
    if (body.some(blank)) loose = true;
    let task = null;
    const tm = /^\[([ xX])\](?:[ \t]+|$)/.exec(body[0]);
    if (tm) {
      task = tm[1] !== " ";
      body[0] = body[0].slice(tm[0].length);
    }
    items.push({ task, children: parseLines(body) });
    if (trailing && i < n) {
      const next = LIST.exec(lines[i]);
      if (next && !!next[3] === ordered) loose = true;
    }
  }
  while (i > start && blank(lines[i - 1])) i--;
  out.push({
    t: "list",
    ordered,
    start: ordered ? parseInt(first[3], 10) : 1,
    loose,
    items,
    src: lines.slice(start, i).join("\n"),
  });
  return i;
}
