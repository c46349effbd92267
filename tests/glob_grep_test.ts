import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import { compileGlob, glob, GlobError } from "../tools/glob.ts";
import { grep } from "../tools/grep.ts";
import { walk } from "../tools/walk.ts";
import type { ToolResult } from "../tools/types.ts";

const FILES: Record<string, string> = {
  "a.ts": "export function alpha() {}\n",
  "b.js": "function beta(x) { return x }\n",
  ".env": "SECRET=1\n",
  ".hidden/h.ts": "hidden needle\n",
  "README.md": "# Needle title\nsome text\n",
  "src/main.ts": "import { util } from './util.ts';\nfunction main() {\n  util();\n}\n",
  "src/util.ts": "export function util() {\n  return 42;\n}\n",
  "src/lib/deep.ts": "line1\nline2\nneedle here\nline4\nline5\nline6\nneedle again\nline8\n",
  "src/lib/deeper/x.test.ts": "test needle\n",
  "docs/a.md": "docs needle\n",
  "docs/b.txt": "docs NEEDLE upper\n",
  ...Object.fromEntries(["file1.txt", "file2.txt", "fileA.txt", "file10.txt"].map((f) => [f, ""])),
  "crlf.txt": "first\r\nneedle crlf\r\nlast\r\n",
  "node_modules/pkg/index.ts": "needle in node_modules\n",
  ".git/config": "needle in git\n",
  "target/debug/out.ts": "needle in target\n",
  "dist/bundle.js": "needle in dist\n",
};

async function makeWorkspace(): Promise<string> {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-search-" }));
  for (const [rel, text] of Object.entries(FILES)) {
    await Deno.mkdir(join(ws, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(ws, rel), text);
  }
  // binary: a NUL byte early, the needle after it
  await Deno.writeFile(
    join(ws, "bin.dat"),
    new Uint8Array([1, 2, 0, ...new TextEncoder().encode(" needle binary")]),
  );
  // > 2 MB text file containing the needle
  await Deno.writeTextFile(join(ws, "big.log"), "x".repeat(2 * 1024 * 1024) + "\nneedle big\n");
  await Deno.symlink(join(ws, "src"), join(ws, "srclink"));
  return ws;
}

const ws = await makeWorkspace();
globalThis.addEventListener("unload", () => Deno.removeSync(ws, { recursive: true }));
const ctx = () => ({ workspace: ws, signal: new AbortController().signal });
const run = (tool: typeof glob, args: Record<string, unknown>): Promise<ToolResult> =>
  tool.execute(args, ctx());
const paths = (r: ToolResult) =>
  r.content.split("\n").filter((l) => l && !l.startsWith("(") && !l.startsWith("No files"))
    .sort();

Deno.test("glob compiler: segments, classes, braces, escapes", () => {
  const m = (p: string, s: string) => compileGlob(p).regex.test(s);
  assert(m("*.ts", "a.ts") && !m("*.ts", "src/a.ts"), "* does not cross /");
  assert(m("**/*.ts", "a.ts") && m("**/*.ts", "x/y/z.ts"), "**/ at start = zero or more dirs");
  assert(m("src/**/x.ts", "src/x.ts") && m("src/**/x.ts", "src/a/b/x.ts"), "**/ in the middle");
  assert(!m("src/**/x.ts", "srcx.ts") && !m("src/**/x.ts", "lib/src/x.ts"));
  assert(m("src/**", "src/a/b") && m("src/**", "src/a") && !m("src/**", "srcfoo/a"));
  assert(m("?.md", "a.md") && !m("?.md", "ab.md") && !m("a?b", "a/b"), "? is one non-/ char");
  assert(m("[a-c]x", "bx") && !m("[a-c]x", "dx") && m("[!a-c]x", "dx") && !m("[!a-c]x", "/x"));
  assert(m("[]]", "]") && m("[^x]", "y"));
  assert(m("*.{js,ts}", "a.ts") && m("*.{js,ts}", "a.js") && !m("*.{js,ts}", "a.css"));
  assert(m("{src/a,lib}/*.ts", "src/a/x.ts") && m("{src/a,lib}/*.ts", "lib/x.ts"));
  assert(m("a\\*b", "a*b") && !m("a\\*b", "axb"), "escaped *");
  assert(m("*", ".env"), "dotfiles match like any name");
  assert(m("./src/*.ts", "src/a.ts"), "leading ./ is ignored");
  assertEquals(compileGlob("src/lib/**/*.ts").literalPrefix, "src/lib");
  assertEquals(compileGlob("{src/a,src/b}/*.ts").literalPrefix, "src");
  assertEquals(compileGlob("*.ts").literalPrefix, "");
});

Deno.test("glob compiler: unsupported syntax is rejected, naming the construct", () => {
  const err = (p: string) => {
    try {
      compileGlob(p);
    } catch (e) {
      assert(e instanceof GlobError, `${p}: ${e}`);
      return e.message;
    }
    throw new Error(`no error for ${p}`);
  };
  assertMatch(err("+(a|b).ts"), /extglob `\+\(…\)`/);
  assertMatch(err("@(a|b)"), /extglob `@\(…\)`/);
  assertMatch(err("!(a).ts"), /extglob `!\(…\)`/);
  assertMatch(err("{a,{b,c}}"), /nested braces/);
  assertMatch(err("[abc"), /unclosed character class/);
  assertMatch(err("{a,b"), /unclosed brace/);
  assertMatch(err("a}"), /unmatched `}`/);
  assertMatch(err("!*.ts"), /negated patterns/);
  assertMatch(err("../*.ts"), /`\.\.`/);
  assertMatch(err("[z-a]"), /invalid range/);
});

Deno.test("glob: * stays in one directory, ** spans any depth, skipped dirs stay out", async () => {
  const table: [string | Record<string, unknown>, string[]][] = [
    ["*.ts", ["a.ts"]],
    [
      "**/*.ts",
      ".hidden/h.ts a.ts src/lib/deep.ts src/lib/deeper/x.test.ts src/main.ts src/util.ts"
        .split(" "),
    ],
    ["src/**/*.ts", ["src/lib/deep.ts", "src/lib/deeper/x.test.ts", "src/main.ts", "src/util.ts"]],
    ["src/lib/**", ["src/lib/deep.ts", "src/lib/deeper/x.test.ts"]],
    ["file?.txt", ["file1.txt", "file2.txt", "fileA.txt"]],
    ["file[0-9].txt", ["file1.txt", "file2.txt"]],
    ["file[!0-9].txt", ["fileA.txt"]],
    ["{src,docs}/*.{ts,md}", ["docs/a.md", "src/main.ts", "src/util.ts"]],
    [".*", [".env"]],
    // skipped folders are searchable when named explicitly
    [{ pattern: "*.ts", path: "node_modules/pkg" }, ["node_modules/pkg/index.ts"]],
    ["node_modules/**/*.ts", ["node_modules/pkg/index.ts"]],
    // path, and an absolute pattern under the search root
    [{ pattern: "*.ts", path: "src" }, ["src/main.ts", "src/util.ts"]],
    [`${ws}/src/*.ts`, ["src/main.ts", "src/util.ts"]],
  ];
  for (const [args, want] of table) {
    const a = typeof args === "string" ? { pattern: args } : args;
    assertEquals(paths(await run(glob, a)), want, JSON.stringify(a));
  }
  // skipped folders: never entered from above
  const all = paths(await run(glob, { pattern: "**", limit: 2000 }));
  for (const skipped of ["node_modules/", ".git/", "target/", "dist/"]) {
    assert(!all.some((p) => p.startsWith(skipped)), `${skipped} must be skipped`);
  }
  // symlinked directories are listed, not followed
  assert(all.includes("srclink") && !all.some((p) => p.startsWith("srclink/")), all.join(","));
});

Deno.test("glob: newest first, limit and truncation note, bad input", async () => {
  await Deno.utime(join(ws, "src/util.ts"), new Date(), new Date(Date.now() + 60_000));
  await Deno.utime(join(ws, "src/main.ts"), new Date(), new Date(Date.now() - 60_000));
  const r = await run(glob, { pattern: "src/*.ts" });
  assertEquals(r.content.split("\n"), ["src/util.ts", "src/main.ts"]);
  assertEquals(r.meta, { count: 2, shown: 2, truncated: false, unreadableDirs: 0 });

  const t = await run(glob, { pattern: "**", limit: 3 });
  const total = paths(await run(glob, { pattern: "**", limit: 2000 })).length;
  assertEquals(t.content.split("\n").length, 4);
  assertMatch(t.content, new RegExp(`\\(truncated: ${total - 3} more matches not shown`));
  assertEquals(t.meta?.truncated, true);
  assertEquals(t.meta?.count, total);

  const none = await run(glob, { pattern: "**/*.nothing" });
  assert(!none.isError && /No files match/.test(none.content) && none.meta?.count === 0);

  const bad = await run(glob, { pattern: "@(a|b).ts" });
  assert(bad.isError && /extglob `@\(…\)` is not supported/.test(bad.content), bad.content);
  for (const args of [{ pattern: "*", limit: 5000 }, { pattern: "*", limit: 0 }, { pattern: "" }]) {
    assert((await run(glob, args)).isError, JSON.stringify(args));
  }
  assertMatch((await run(glob, { pattern: "*", path: "/etc" })).content, /outside the workspace/);
  assertMatch((await run(glob, { pattern: "*", path: "a.ts" })).content, /not a directory/);
  assertMatch((await run(glob, { pattern: "*", path: "nope" })).content, /not found/);
  await Deno.symlink("/etc", join(ws, "outlink")); // a link leading out of the workspace
  assertMatch((await run(glob, { pattern: "outlink/*" })).content, /outside the workspace/);
  assertMatch((await run(grep, { pattern: "x", path: "outlink" })).content, /outside the work/);
  await Deno.remove(join(ws, "outlink"));
});

Deno.test("walk: deterministic order, symlinks reported, abort stops it", async () => {
  const seen: string[] = [];
  for await (const e of walk(ws, { stat: true })) {
    seen.push(`${e.type}:${e.path}`);
    if (e.type === "file") assert(typeof e.size === "number" && typeof e.mtime === "number");
  }
  assert(seen.includes("symlink:srclink") && !seen.some((s) => s.includes("node_modules")));
  const again: string[] = [];
  for await (const e of walk(ws, { stat: true })) again.push(`${e.type}:${e.path}`);
  assertEquals(again, seen);
  const ac = new AbortController();
  ac.abort();
  let threw = false;
  try {
    for await (const _ of walk(ws, { signal: ac.signal })) { /* nothing */ }
  } catch (e) {
    threw = (e as Error).name === "AbortError";
  }
  assert(threw, "an aborted walk throws AbortError");
});

const lines = (r: ToolResult) => r.content.split("\n");

Deno.test("grep: regex, path:line: text grouped by file, skipped dirs", async () => {
  const r = await run(grep, { pattern: "function \\w+\\(" });
  assertEquals(r.isError, false);
  assertEquals(r.content.split("\n\n").slice(0, 4).sort(), [
    "a.ts:1: export function alpha() {}",
    "b.js:1: function beta(x) { return x }",
    "src/main.ts:2: function main() {",
    "src/util.ts:1: export function util() {",
  ]);
  assertEquals(r.meta?.matches, 4);
  assertEquals(r.meta?.files, 4);
  const n = await run(grep, { pattern: "needle" });
  assert(!/node_modules|\.git\/|target\/|dist\//.test(n.content), n.content);
  assert(n.content.includes("crlf.txt:2: needle crlf\n"), "CR is not shown");
  assert(n.content.includes(".hidden/h.ts:1: hidden needle"));
});

Deno.test("grep: ignore_case, include by name and by path", async () => {
  const cs = await run(grep, { pattern: "NEEDLE", path: "docs" });
  assertEquals(cs.meta?.matches, 1);
  const ci = await run(grep, { pattern: "NEEDLE", path: "docs", ignore_case: true });
  assertEquals(ci.meta?.matches, 2);
  const inline = await run(grep, { pattern: "(?i)NEEDLE", path: "docs" });
  assertEquals(inline.meta?.matches, 2);
  const md = await run(grep, { pattern: "needle", include: "*.md", ignore_case: true });
  assertEquals(lines(md).filter((l) => /^\S+:\d+:/.test(l)).map((l) => l.split(":")[0]).sort(), [
    "README.md",
    "docs/a.md",
  ]);
  const byPath = await run(grep, { pattern: "needle", include: "src/**/*.test.ts" });
  assertEquals(lines(byPath)[0], "src/lib/deeper/x.test.ts:1: test needle");
  assertEquals(byPath.meta?.matches, 1);
  const badInc = await run(grep, { pattern: "x", include: "+(a)" });
  assert(badInc.isError && /extglob/.test(badInc.content));
});

Deno.test("grep: context lines and separators", async () => {
  const r = await run(grep, { pattern: "needle", path: "src/lib/deep.ts", context: 1 });
  assertEquals(
    r.content,
    [
      "src/lib/deep.ts-2- line2",
      "src/lib/deep.ts:3: needle here",
      "src/lib/deep.ts-4- line4",
      "--",
      "src/lib/deep.ts-6- line6",
      "src/lib/deep.ts:7: needle again",
      "src/lib/deep.ts-8- line8",
    ].join("\n"),
  );
  const wide = await run(grep, { pattern: "needle", path: "src/lib/deep.ts", context: 2 });
  assert(!wide.content.includes("--"), "overlapping context merges hunks");
  assert((await run(grep, { pattern: "x", context: 6 })).isError);
});

Deno.test("grep: binary and > 2 MB files are skipped and counted", async () => {
  const r = await run(grep, { pattern: "needle" });
  assert(!r.content.includes("bin.dat:") && !r.content.includes("big.log:"), r.content);
  assertEquals(r.meta?.skippedBinary, 1);
  assertEquals(r.meta?.skippedLarge, 1);
  assertMatch(r.content, /\(skipped 1 binary file and 1 file over 2 MB \(big\.log\)\)/);
});

Deno.test("grep: invalid regex, limit and truncation, long lines, no match", async () => {
  const bad = await run(grep, { pattern: "foo(" });
  assert(bad.isError);
  assertMatch(bad.content, /^Invalid regular expression \/foo\(\/: Unterminated group/);
  assert((await run(grep, { pattern: "" })).isError);
  assert((await run(grep, { pattern: "x", limit: 1001 })).isError);
  assert((await run(grep, { pattern: "x", ignore_case: "yes" })).isError);

  const lim = await run(grep, { pattern: "needle", limit: 2 });
  assertEquals(lim.meta?.matches, 2);
  assertEquals(lim.meta?.truncated, true);
  assertEquals(lines(lim).filter((l) => /^\S+:\d+: /.test(l)).length, 2);
  assertMatch(lim.content, /truncated: stopped after 2 matching lines; more matches exist/);
  const exact = await run(grep, { pattern: "test needle", limit: 1 });
  assertEquals(exact.meta?.truncated, false, "exactly `limit` matches is not truncated");

  await Deno.writeTextFile(
    join(ws, "long.txt"),
    "a".repeat(2000) + "NEEDLE_LONG" + "b".repeat(900),
  );
  const long = await run(grep, { pattern: "NEEDLE_LONG" });
  const l = lines(long)[0];
  assert(l.includes("NEEDLE_LONG") && l.length < 700 && l.includes("[line has 2911 chars]"), l);
  await Deno.remove(join(ws, "long.txt"));

  const none = await run(grep, { pattern: "no-such-text-anywhere" });
  assertEquals(none.isError, false);
  assertMatch(
    none.content,
    /^No matches for \/no-such-text-anywhere\/ in \. \(\d+ files searched\)/,
  );
  assertEquals(none.meta?.matches, 0);
  assertMatch((await run(grep, { pattern: "x", path: "../" })).content, /outside the workspace/);
});

Deno.test("grep: output over 64 KB is cut at a line with a truncation note", async () => {
  await Deno.writeTextFile(join(ws, "many.txt"), `OUTCAP ${"z".repeat(400)}\n`.repeat(1000));
  const r = await run(grep, { pattern: "OUTCAP", path: "many.txt", limit: 1000 });
  await Deno.remove(join(ws, "many.txt"));
  const shown = lines(r).filter((l) => l.startsWith("many.txt:")).length;
  assert(shown > 100 && shown < 1000 && r.meta?.matches === shown, `${shown} ${r.meta?.matches}`);
  assert(r.meta?.truncated && r.content.length < 70_000 && !r.content.includes("No matches"));
  assertMatch(r.content, /\(truncated: output reached 64 KB after \d+ matching lines/);
});

Deno.test("grep: an aborted signal stops the search", async () => {
  const ac = new AbortController();
  ac.abort();
  const r = await grep.execute({ pattern: "needle" }, { workspace: ws, signal: ac.signal });
  assert(r.isError && r.meta?.stopped === true, r.content);
});
