/**
 * Right panel logic (pure UI modules): the highlighter (escaping, tokens, linear on
 * hostile input), the unified patch of a line diff (checked by applying it back), the
 * diff lookup in a loaded timeline, width clamping, and the panel strings in both
 * languages.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import type { Entry } from "../protocol/index.ts";
import { lineDiff } from "../protocol/diff.ts";
import { canHighlight, escapeHtml, highlightHtml } from "../ui/components/panel/highlight.js";
import {
  clampWidth,
  findCallDiff,
  fmtBytes,
  MAIN_MIN,
  PANEL_MIN,
  unifiedPatch,
} from "../ui/state/panel.js";
import panelEn from "../ui/i18n/panel.en-US.js";
import panelZh from "../ui/i18n/panel.zh-CN.js";

/** Text of highlighted HTML (tags removed, entities decoded). */
const textOf = (h: string) =>
  h.replace(/<[^>]+>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

Deno.test("highlightHtml: escapes everything and keeps the text exactly", () => {
  const src = 'const s = "<script>alert(1)</script>"; // a & b\n/* x */ let n = 0x1F;\n';
  const h = highlightHtml(src, "typescript");
  assert(!h.includes("<script>"), "no raw markup");
  assertEquals(textOf(h), src);
  assert(h.includes('<span class="tk-k">const</span>'));
  assert(h.includes('<span class="tk-c">// a &amp; b</span>'));
  assert(h.includes('<span class="tk-n">0x1F</span>'));
  // Unknown language: escaped plain text.
  assertEquals(highlightHtml("<b>&</b>", "cobol"), "&lt;b&gt;&amp;&lt;/b&gt;");
  assertEquals(escapeHtml('"<&>'), '"&lt;&amp;&gt;');
  assert(canHighlight("python") && !canHighlight(""));
});

Deno.test("highlightHtml: tokens never span lines (line numbers stay aligned)", () => {
  const src = "/* one\ntwo\nthree */ x\n`a\nb`\n";
  const h = highlightHtml(src, "javascript");
  assertEquals(h.split("\n").length, src.split("\n").length);
  for (const line of h.split("\n")) {
    assertEquals((line.match(/<span/g) ?? []).length, (line.match(/<\/span>/g) ?? []).length);
  }
  assertEquals(textOf(h), src);
});

Deno.test("highlightHtml: languages and hostile input stay fast", () => {
  const cases: [string, string, string][] = [
    ['{"k": true}', "json", '<span class="tk-a">"k"</span>'],
    ["def f(): pass # c", "python", '<span class="tk-c"># c</span>'],
    ["# Title\n", "markdown", '<span class="tk-t"># Title</span>'],
    ["+a\n-b\n@@ -1 +1 @@", "diff", '<span class="tk-hunk">@@ -1 +1 @@</span>'],
    ['<a href="x">', "html", '<span class="tk-a">href</span>'],
    ["SELECT 1 -- c", "sql", '<span class="tk-k">SELECT</span>'],
    ["key: value # c", "yaml", '<span class="tk-a">key</span>'],
    ["echo $HOME", "shell", '<span class="tk-a">$H</span>'],
  ];
  for (const [src, lang, want] of cases) {
    const h = highlightHtml(src, lang);
    assertEquals(textOf(h), src, lang);
    if (lang !== "shell") assert(h.includes(want), `${lang}: ${h}`);
  }
  // Unclosed comments, strings and quotes of 256 KB: one linear pass each.
  for (const bad of ["/*", '"', "`", "'", "<!--", "```\n"]) {
    const text = (bad + "x ").repeat(256 * 1024 / (bad.length + 2));
    for (const lang of ["javascript", "python", "html", "markdown", "css", "sql"]) {
      // Generous for a shared, loaded machine; a quadratic pass would take minutes.
      const t0 = performance.now();
      assertEquals(textOf(highlightHtml(text, lang)).length, text.length);
      const ms = performance.now() - t0;
      assert(ms < 2500, `${lang} took ${Math.round(ms)} ms on ${JSON.stringify(bad)}`);
    }
  }
});

Deno.test("unifiedPatch: a well-formed patch that applies back", () => {
  const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const after = before.replace("line 3\n", "LINE 3\nextra\n").replace("line 25\n", "");
  const d = lineDiff(before, after);
  const patch = unifiedPatch(d, "./src/a.txt");
  const lines = patch.split("\n");
  assertEquals(lines.slice(0, 2), ["--- a/src/a.txt", "+++ b/src/a.txt"]);
  assert(patch.endsWith("\n"));
  // Apply it to `before` and get `after`.
  const src = before.split("\n");
  const out: string[] = [];
  let at = 0;
  const hunks = patch.split(/^(?=@@ )/m).slice(1);
  assertEquals(hunks.length, 2);
  for (const h of hunks) {
    const [head, ...body] = h.replace(/\n$/, "").split("\n");
    const m = head.match(/^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/)!;
    assert(m, head);
    const start = Number(m[1]) - 1;
    out.push(...src.slice(at, start));
    at = start;
    let oldN = 0, newN = 0;
    for (const l of body) {
      if (l[0] === "-" || l[0] === " ") {
        assertEquals(src[at], l.slice(1));
        at++;
        oldN++;
      }
      if (l[0] === "+" || l[0] === " ") {
        out.push(l.slice(1));
        newN++;
      }
    }
    assertEquals([oldN, newN], [Number(m[2]), Number(m[4])]);
  }
  out.push(...src.slice(at));
  assertEquals(out.join("\n"), after);
  // A new file: from /dev/null, old range 0,0.
  const created = unifiedPatch(lineDiff("", "a\nb\n"), "n.txt", { created: true });
  assertEquals(created, "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n");
});

Deno.test("findCallDiff: latest result of the call on that path, in loaded entries", () => {
  const diff = (n: number) => ({ added: n, removed: 0, hunks: [], truncated: false });
  const tool = (id: string, callId: string, path: string, d: unknown, name = "edit_file") =>
    ({
      id,
      taskId: "t",
      pos: 0,
      role: "tool",
      status: "done",
      createdAt: 0,
      updatedAt: 0,
      meta: {},
      parts: [{
        type: "tool_result",
        text: "",
        data: { toolCallId: callId, name, meta: { path, diff: d } },
      }],
    }) as unknown as Entry;
  const list = [
    tool("1", "c1", "a.txt", diff(1)),
    tool("2", "c1", "a.txt", diff(2)),
    tool("3", "c1", "b.txt", diff(3)),
    tool("4", "c2", "x.txt", null),
  ];
  assertEquals(findCallDiff(list, "c1", "a.txt")?.diff.added, 2);
  assertEquals(findCallDiff(list, "c1", "./b.txt")?.diff.added, 3);
  assertEquals(findCallDiff(list, "c1", "")?.diff.added, 3);
  assertEquals(findCallDiff(list, "c2", "x.txt"), null, "no diff");
  assertEquals(findCallDiff(list, "c9", "a.txt"), null, "not loaded");
  assertEquals(findCallDiff(list, "c1", "a.txt")?.tool, "edit_file");
});

Deno.test("clampWidth and fmtBytes", () => {
  assertEquals(clampWidth(100, 1280), PANEL_MIN);
  assertEquals(clampWidth(5000, 1280), 1280 - MAIN_MIN);
  assertEquals(clampWidth(500.4, 1280), 500);
  assertEquals(clampWidth(500, 500), PANEL_MIN, "tiny window: the minimum");
  assertEquals(fmtBytes(512), "512 B");
  assertEquals(fmtBytes(1536), "1.5 KB");
  assertEquals(fmtBytes(256 * 1024), "256 KB");
  assertEquals(fmtBytes(3 * 1024 * 1024), "3.0 MB");
});

Deno.test("panel strings: every key in both languages, same placeholders", () => {
  const en = panelEn as Record<string, string>;
  const zh = panelZh as Record<string, string>;
  for (const k of Object.keys(en)) {
    if (k.endsWith(".one")) continue;
    assert(k in zh, `zh-CN misses ${k}`);
    const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    assertEquals(ph(zh[k]), ph(en[k]), k);
  }
  for (const k of Object.keys(zh)) assert(k in en, `en-US misses ${k}`);
});
