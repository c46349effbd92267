/**
 * Markdown → the text a reader sees, for search snippets: emphasis,
 * inline code, links, images, headings, quotes, list and task markers, table pipes
 * and fences go; their words stay. Deliberately small and forgiving (a snippet is a
 * window of text, not a document): `snake_case` and `2 * 3` are left alone.
 *
 * @example
 * plainMarkdown("## Fix **the** `parser` — see [docs](https://x.dev)");
 * // "Fix the parser — see docs"
 */

const LINE_RULES: [RegExp, string][] = [
  [/^\s{0,3}(`{3,}|~{3,}).*$/, ""], // code fence lines (the code inside stays)
  [/^\s{0,3}#{1,6}\s+/, ""], // headings
  [/^\s{0,3}(?:>\s?)+/, ""], // block quotes
  [/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, ""], // list items, task boxes
  [/^\s{0,3}(?:[-*_]\s*){3,}$/, ""], // thematic breaks
  [/^\s*\|?(?:\s*:?-{2,}:?\s*\|)+\s*:?-{0,}:?\s*\|?\s*$/, ""], // table delimiter rows
];

const INLINE_RULES: [RegExp, string][] = [
  [/!\[([^\]]*)\]\([^)]*\)/g, "$1"], // images → alt text
  [/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, "$1"], // links → their text
  [/<(https?:\/\/[^>\s]+)>/g, "$1"], // autolinks
  [/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?>/g, ""], // inline HTML tags
  [/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, "$2"], // inline code
  [/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2"], // strong
  [/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, "$1$2"], // *em*
  [/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, "$1$2"], // _em_ (not snake_case)
  [/~~(?=\S)([\s\S]*?\S)~~/g, "$1"], // strikethrough
  [/\\([\\`*_{}[\]()#+\-.!|~>])/g, "$1"], // backslash escapes
];

/** The visible text of a Markdown string (line breaks kept). */
export function plainMarkdown(md: string): string {
  return md.split("\n").map((line) => {
    let s = line;
    for (const [re, to] of LINE_RULES) s = s.replace(re, to);
    if (/^\s*\|.*\|\s*$/.test(s)) s = s.replace(/^\s*\||\|\s*$/g, "").replace(/\s*\|\s*/g, "  ");
    for (const [re, to] of INLINE_RULES) s = s.replace(re, to);
    return s;
  }).join("\n");
}
