/** UI Markdown: GFM blocks and inlines, URL sanitising, and the rendered vnodes. */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cells, parseBlocks } from "../ui/markdown/parse.js";
import { parseInline } from "../ui/markdown/inline.js";
import { decodeEntities, safeUrl } from "../ui/markdown/url.js";
import { renderBlock } from "../ui/markdown/render.js";

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("safeUrl allows http(s) and mailto only", () => {
  assertEquals(safeUrl("https://example.com/a?b=1"), "https://example.com/a?b=1");
  assertEquals(safeUrl("http://x.y"), "http://x.y");
  assertEquals(safeUrl("mailto:a@b.c"), "mailto:a@b.c");
  assertEquals(safeUrl("https://a b"), "https://a%20b");
  for (
    const bad of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "&#106;avascript:alert(1)",
      "&#x6A;avascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox",
      "file:///etc/passwd",
      "javascript%3Aalert(1)",
      "/relative/path",
      "//evil.example/x",
      "#anchor",
      "https:",
      "https://",
    ]
  ) {
    assertEquals(safeUrl(bad), null, bad);
  }
});

Deno.test("decodeEntities", () => {
  assertEquals(
    decodeEntities("&lt;b&gt; &amp; &quot;x&quot; &#65;&#x42; &bogus; &#0;"),
    '<b> & "x" AB &bogus; \ufffd',
  );
});

Deno.test("inline: emphasis, code, links, autolinks, breaks, escapes", () => {
  assertEquals(parseInline("a **b** *c* ~~d~~ `e*f`"), [
    { t: "text", v: "a " },
    { t: "strong", c: [{ t: "text", v: "b" }] },
    { t: "text", v: " " },
    { t: "em", c: [{ t: "text", v: "c" }] },
    { t: "text", v: " " },
    { t: "del", c: [{ t: "text", v: "d" }] },
    { t: "text", v: " " },
    { t: "code", v: "e*f" },
  ]);
  assertEquals(parseInline("snake_case_name and 2 * 3 * 4"), [
    { t: "text", v: "snake_case_name and 2 * 3 * 4" },
  ]);
  assertEquals(parseInline("\\*not em\\*"), [
    { t: "text", v: "*" },
    { t: "text", v: "not em" },
    { t: "text", v: "*" },
  ]);
  assertEquals(parseInline("line  \nnext"), [{ t: "text", v: "line" }, { t: "br" }, {
    t: "text",
    v: "next",
  }]);
  assertEquals(parseInline("[go](https://x.dev/a_(b)) [bad](javascript:alert(1))"), [
    { t: "link", href: "https://x.dev/a_(b)", c: [{ t: "text", v: "go" }] },
    { t: "text", v: " " },
    { t: "link", href: null, c: [{ t: "text", v: "bad" }] },
  ]);
  assertEquals(parseInline("see https://a.dev/x. and www.b.org)"), [
    { t: "text", v: "see " },
    { t: "link", href: "https://a.dev/x", c: [{ t: "text", v: "https://a.dev/x" }] },
    { t: "text", v: ". and " },
    { t: "link", href: "https://www.b.org", c: [{ t: "text", v: "www.b.org" }] },
    { t: "text", v: ")" },
  ]);
  assertEquals(parseInline("![logo](data:image/png;base64,xx)"), [
    { t: "link", href: null, c: [{ t: "text", v: "logo" }], image: true },
  ]);
  assertEquals(parseInline("<script>alert(1)</script>"), [
    { t: "text", v: "<script>alert(1)</script>" },
  ]);
  assertEquals(parseInline("***both*** `` a`b ``"), [
    { t: "strong", c: [{ t: "em", c: [{ t: "text", v: "both" }] }] },
    { t: "text", v: " " },
    { t: "code", v: "a`b" },
  ]);
});

Deno.test("inline parsing of pathological input stays fast", () => {
  const t0 = performance.now();
  parseInline("*a ".repeat(5000) + "_b ".repeat(5000) + "[".repeat(2000));
  assert(performance.now() - t0 < 1500, "quadratic blow-up");
});

Deno.test("blocks: headings, paragraphs, code, lists, tasks, tables, quotes", () => {
  const src = [
    "# Title",
    "Para one",
    "continues",
    "",
    "```ts",
    "const a = 1;",
    "```",
    "- [x] done",
    "- [ ] todo",
    "  - nested",
    "",
    "3. three",
    "4. four",
    "",
    "| A | B |",
    "|:-:|--:|",
    "| 1 | 2 \\| 3 |",
    "",
    "> quoted",
    "lazy",
    "",
    "***",
    "Setext",
    "===",
    "    indented code",
  ].join("\n");
  const b = parseBlocks(src) as Any[];
  assertEquals(b.map((x) => x.t), [
    "h",
    "p",
    "code",
    "list",
    "list",
    "table",
    "quote",
    "hr",
    "h",
    "code",
  ]);
  assertEquals([b[0].level, b[0].text], [1, "Title"]);
  assertEquals(b[1].text, "Para one\ncontinues");
  assertEquals([b[2].lang, b[2].text, b[2].closed], ["ts", "const a = 1;", true]);
  assertEquals(b[3].items.map((i: Any) => i.task), [true, false]);
  assertEquals(b[3].items[1].children[1].t, "list");
  assertEquals([b[4].ordered, b[4].start, b[4].items.length], [true, 3, 2]);
  assertEquals(b[5].align, ["center", "right"]);
  assertEquals(b[5].rows, [["1", "2 | 3"]]);
  assertEquals(b[6].children[0].text, "quoted\nlazy");
  assertEquals([b[8].level, b[8].text], [1, "Setext"]);
  assertEquals(b[9].text, "indented code");
  assertEquals(b[0].src, "# Title");
});

Deno.test("blocks: an unclosed fence while streaming; table cells", () => {
  const b = parseBlocks("Text\n\n```js\nlet x") as Any[];
  assertEquals([b[1].t, b[1].text, b[1].closed], ["code", "let x", false]);
  assertEquals(cells("| a | `b` | c |"), ["a", "`b`", "c"]);
  assertEquals(parseBlocks("a | b\n--|--\n1 | 2").map((x: Any) => x.t), ["table"]);
  assertEquals(parseBlocks("not | a table\njust text").map((x: Any) => x.t), ["p"]);
});

/** Collects every prop named `key` in a vnode tree. */
function collect(node: Any, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) node.forEach((n) => collect(n, key, out));
  else if (node && typeof node === "object" && node.props) {
    if (key in node.props) out.push(node.props[key]);
    collect(node.props.children, key, out);
  }
  return out;
}
/** Element types in a vnode tree. */
function types(node: Any, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => types(n, out));
  else if (node && typeof node === "object" && node.props) {
    if (typeof node.type === "string") out.push(node.type);
    types(node.props.children, out);
  }
  return out;
}

Deno.test("render: safe links open in a new tab; no script, no javascript: href", () => {
  const md = [
    "[ok](https://ok.dev) [x](javascript:alert(1)) [y](JAVASCRIPT:alert(2))",
    "<script>alert(3)</script> <img src=x onerror=alert(4)> [z](data:text/html,hi)",
    "",
    "| h |",
    "|---|",
    "| [c](javascript:void(0)) |",
  ].join("\n");
  const vnodes = parseBlocks(md).map((b) => renderBlock(b));
  const hrefs = collect(vnodes, "href");
  assertEquals(hrefs, ["https://ok.dev"]);
  assertEquals(collect(vnodes, "target"), ["_blank"]);
  assertEquals(collect(vnodes, "rel"), ["noopener noreferrer"]);
  const els = types(vnodes);
  assert(!els.includes("script") && !els.includes("img"), `elements: ${els}`);
  assertEquals(collect(vnodes, "dangerouslySetInnerHTML"), []);
  assert(els.includes("table") && els.includes("a"));
});
