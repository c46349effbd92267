/**
 * A small, dependency-free syntax highlighter for the file preview (and any code view):
 * one pass of one combined regular expression per language family, producing escaped
 * HTML with `<span class="tk-…">` tokens. Linear in the text (an unclosed comment or
 * string runs to the end instead of being retried), so 256 KB stay fast.
 *
 * Classes: tk-c comment, tk-s string, tk-n number, tk-k keyword, tk-l literal,
 * tk-t tag/type/heading, tk-a attribute/property/key, tk-add / tk-del / tk-hunk /
 * tk-meta (diffs).
 *
 * @example
 * highlightHtml('const a = "x"; // hi', "javascript");
 * // '<span class="tk-k">const</span> a = <span class="tk-s">"x"</span>; <span class="tk-c">// hi</span>'
 */

/** Escapes text for element content (not attributes). @param {string} s */
export function escapeHtml(s) {
  if (!/[&<>]/.test(s)) return s;
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const END = "(?:$(?![\\s\\S]))"; // the very end of the text
const words = (/** @type {string} */ list) => `\\b(?:${list.trim().split(/\s+/).join("|")})\\b`;

const DQ = `"(?:[^"\\\\\\n]|\\\\.)*(?:"|$)`;
const SQ = `'(?:[^'\\\\\\n]|\\\\.)*(?:'|$)`;
const BQ = `\`(?:[^\`\\\\]|\\\\[\\s\\S])*(?:\`|${END})`;
const NUM =
  "\\b(?:0[xX][\\da-fA-F_]+|0[bB][01_]+|\\d[\\d_]*(?:\\.\\d[\\d_]*)?(?:[eE][+-]?\\d+)?)n?\\b";
const SLASH_COMMENTS = `//[^\\n]*|/\\*[\\s\\S]*?(?:\\*/|${END})`;
const HASH_COMMENT = "#[^\\n]*";

const JS_KW = words(`
  break case catch class const continue debugger default delete do else export extends
  finally for from function if import in instanceof let new of return static super switch
  this throw try typeof var void while with yield async await as interface type enum
  implements private protected public readonly declare namespace abstract keyof satisfies`);
const C_KW = words(`
  auto break case catch char class const continue default delete do double else enum extern
  float for goto if inline int long namespace new private protected public register return
  short signed sizeof static struct switch template this throw try typedef union unsigned
  using virtual void volatile while bool override final package import extends implements
  interface throws var val fun fn let mut pub impl trait match mod use crate self Self where
  go func chan defer select map range struct type string byte rune async await in out ref
  internal sealed object when is as loop move dyn unsafe static_cast nullptr`);
const PY_KW = words(`
  and as assert async await break class continue def del elif else except finally for from
  global if import in is lambda nonlocal not or pass raise return try while with yield match
  case self print`);
const SH_KW = words(`
  if then else elif fi case esac for while until do done in function return local export
  echo exit set unset source alias readonly shift trap cd`);
const SQL_KW = words(`
  select from where and or not insert into values update set delete create table index drop
  alter join left right inner outer on group by order having limit offset as distinct union
  all primary key foreign references null default is in like between case when then else end
  begin commit rollback with returning exists view trigger integer text real blob`);
const LIT = words("true false null undefined None True False nil NaN Infinity");

/**
 * @typedef {{re: RegExp, cls: string[]}} Grammar
 * @param {[string, string][]} rules [class, regex source]; first match wins
 * @param {string} [flags]
 * @returns {Grammar}
 */
function grammar(rules, flags = "") {
  return {
    re: new RegExp(rules.map(([, src]) => `(${src})`).join("|"), `g${flags}`),
    cls: rules.map(([c]) => c),
  };
}

const C_LIKE = (/** @type {string} */ kw) =>
  grammar([
    ["tk-c", SLASH_COMMENTS],
    ["tk-s", `${DQ}|${SQ}|${BQ}`],
    ["tk-l", LIT],
    ["tk-k", kw],
    ["tk-t", "\\b[A-Z][A-Za-z0-9_]*\\b"],
    ["tk-n", NUM],
  ]);

/** @type {Record<string, () => Grammar>} */
const FAMILIES = {
  javascript: () => C_LIKE(JS_KW),
  c: () => C_LIKE(C_KW),
  python: () =>
    grammar([
      ["tk-c", HASH_COMMENT],
      ["tk-s", `"""[\\s\\S]*?(?:"""|${END})|'''[\\s\\S]*?(?:'''|${END})|${DQ}|${SQ}`],
      ["tk-l", LIT],
      ["tk-k", PY_KW],
      ["tk-t", "@[\\w.]+|\\b[A-Z][A-Za-z0-9_]*\\b"],
      ["tk-n", NUM],
    ]),
  shell: () =>
    grammar([
      ["tk-c", "(?:^|(?<=\\s))#[^\\n]*"],
      ["tk-s", `${DQ}|'[^']*(?:'|${END})`],
      ["tk-a", "\\$\\{[^}\\n]*\\}|\\$[\\w@#?*$!-]"],
      ["tk-k", SH_KW],
      ["tk-n", NUM],
    ]),
  conf: () =>
    grammar([
      ["tk-c", "(?:^|(?<=\\s))[#;][^\\n]*"],
      ["tk-t", "^[ \\t]*\\[[^\\]\\n]*\\]"],
      ["tk-a", "^[ \\t]*-?[ \\t]*[\\w.\"'-]+(?=[ \\t]*[:=])"],
      ["tk-s", `${DQ}|${SQ}`],
      ["tk-l", words("true false null yes no on off ~")],
      ["tk-n", NUM],
    ], "m"),
  json: () =>
    grammar([
      ["tk-c", SLASH_COMMENTS],
      ["tk-a", `${DQ}(?=\\s*:)`],
      ["tk-s", DQ],
      ["tk-l", words("true false null")],
      ["tk-n", "-?" + NUM],
    ]),
  markup: () =>
    grammar([
      ["tk-c", `<!--[\\s\\S]*?(?:-->|${END})`],
      ["tk-t", "</?[A-Za-z][\\w:.-]*|/?>|<!DOCTYPE[^>\\n]*>?"],
      ["tk-s", `"[^"\\n]*"|'[^'\\n]*'`],
      ["tk-a", "\\b[\\w:-]+(?==)"],
      ["tk-l", "&[#\\w]+;"],
    ]),
  css: () =>
    grammar([
      ["tk-c", `/\\*[\\s\\S]*?(?:\\*/|${END})`],
      ["tk-s", `${DQ}|${SQ}`],
      ["tk-k", "@[\\w-]+|!important"],
      ["tk-a", "[\\w-]+(?=\\s*:(?!:))"],
      ["tk-n", "#[\\da-fA-F]{3,8}\\b|-?\\b\\d+(?:\\.\\d+)?(?:%|[a-z]+)?"],
    ]),
  markdown: () =>
    grammar([
      ["tk-s", "^```[^\\n]*\\n[\\s\\S]*?(?:^```[^\\n]*|" + END + ")|`[^`\\n]+`"],
      ["tk-t", "^#{1,6}[ \\t][^\\n]*"],
      ["tk-k", "\\*\\*[^*\\n]+\\*\\*|__[^_\\n]+__"],
      ["tk-a", "\\[[^\\]\\n]*\\]\\([^)\\n]*\\)"],
      ["tk-c", "^>[^\\n]*"],
      ["tk-l", "^[ \\t]*(?:[-*+]|\\d+\\.)[ \\t]"],
    ], "m"),
  sql: () =>
    grammar([
      ["tk-c", `--[^\\n]*|/\\*[\\s\\S]*?(?:\\*/|${END})`],
      ["tk-s", `'(?:[^']|'')*(?:'|${END})`],
      ["tk-k", SQL_KW],
      ["tk-n", NUM],
    ], "i"),
  diff: () =>
    grammar([
      ["tk-meta", "^(?:diff |index |--- |\\+\\+\\+ )[^\\n]*"],
      ["tk-hunk", "^@@[^\\n]*"],
      ["tk-add", "^\\+[^\\n]*"],
      ["tk-del", "^-[^\\n]*"],
    ], "m"),
};

/** @type {Record<string, string>} language → family */
const ALIASES = {
  javascript: "javascript",
  typescript: "javascript",
  c: "c",
  cpp: "c",
  csharp: "c",
  java: "c",
  kotlin: "c",
  go: "c",
  rust: "c",
  swift: "c",
  php: "c",
  python: "python",
  ruby: "python",
  shell: "shell",
  powershell: "shell",
  dockerfile: "shell",
  makefile: "shell",
  batch: "shell",
  yaml: "conf",
  toml: "conf",
  ini: "conf",
  json: "json",
  html: "markup",
  xml: "markup",
  css: "css",
  markdown: "markdown",
  sql: "sql",
  lua: "sql",
  diff: "diff",
};

/** @type {Map<string, Grammar>} */
const cache = new Map();

/** Whether a language gets highlighting. @param {string} lang */
export const canHighlight = (lang) => Object.hasOwn(ALIASES, lang);

/**
 * Escaped HTML of `text` with token spans (plain escaped text for an unknown language).
 * @param {string} text
 * @param {string} lang
 */
export function highlightHtml(text, lang) {
  const fam = ALIASES[lang];
  if (!fam) return escapeHtml(text);
  let g = cache.get(fam);
  if (!g) cache.set(fam, g = FAMILIES[fam]());
  const { re, cls } = g;
  re.lastIndex = 0;
  let out = "";
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0] === "") {
      re.lastIndex++;
      continue;
    }
    let k = 1;
    while (m[k] === undefined) k++;
    out += escapeHtml(text.slice(at, m.index));
    // A token spanning lines is closed and reopened per line, so lines stay whole.
    out += m[0].split("\n").map((part) =>
      part ? `<span class="${cls[k - 1]}">${escapeHtml(part)}</span>` : ""
    ).join("\n");
    at = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(at));
}
