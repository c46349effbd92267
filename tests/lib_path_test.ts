/**
 * lib/path.ts gives the same answers as `node:path`'s `posix` (the product's reference
 * before node:path was dropped from its module graph): every function on every
 * short string over a small alphabet, thousands of generated paths and hand-picked edge
 * cases. And no product source imports node:path again.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { posix } from "node:path";
import * as lib from "../lib/path.ts";

const posixOs = Deno.build.os !== "windows";

/** Every string over `alphabet` of length 0..max. */
function allStrings(alphabet: string[], max: number): string[] {
  const out = [""];
  let layer = [""];
  for (let n = 1; n <= max; n++) {
    layer = layer.flatMap((s) => alphabet.map((c) => s + c));
    out.push(...layer);
  }
  return out;
}

/** A small seeded generator, so a failure reproduces. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = [
  "",
  ".",
  "..",
  "...",
  "a",
  "b.c",
  ".bashrc",
  "a.",
  "a..b",
  "x.tar.gz",
  "é",
  "日本語.md",
  "x y",
  "🙂.txt",
  ".a.",
  "..a",
  "node_modules",
];

/** Paths made of random segments and slash runs, absolute or not, some with a trailing slash. */
function generatedPaths(count: number, seed: number): string[] {
  const rand = prng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let p = rand() < 0.4 ? "/".repeat(1 + Math.floor(rand() * 3)) : "";
    const n = Math.floor(rand() * 6);
    for (let j = 0; j < n; j++) {
      if (j > 0) p += "/".repeat(1 + Math.floor(rand() * 3 * rand()));
      p += pick(SEGMENTS);
    }
    if (rand() < 0.25) p += "/".repeat(1 + Math.floor(rand() * 2));
    out.push(p);
  }
  return out;
}

const EDGE = [
  "",
  ".",
  "..",
  "./",
  "../",
  "/",
  "//",
  "///",
  "/.",
  "/..",
  "/../..",
  "a/../../b",
  "../a/../..",
  "a/b/../../..",
  "/a/b/../../..",
  "//a",
  "///a",
  "//a//",
  "/a//b",
  "a//b//",
  ".bashrc",
  "/home/u/.bashrc",
  "a.",
  "a..b",
  "a..",
  "...",
  ".a.",
  "..a",
  "file.tar.gz",
  "dir.d/",
  "dir.d/file",
  "/x/y.z/",
  "日本/語.md",
  "é/../ü.txt",
  "a/./b/./c/.",
];

/** Every short string over "/", ".", "a" plus generated and edge cases: ~6,600 paths. */
const PATHS = [
  ...new Set([
    ...allStrings(["/", ".", "a"], 7),
    ...allStrings(["/", ".", "a", "b"], 4),
    ...generatedPaths(5000, 15),
    ...EDGE,
  ]),
];
/** Pairs need fewer: every string up to length 4 over "/", ".", "a", and some generated. */
const PAIR_PATHS = [
  ...new Set([...allStrings(["/", ".", "a"], 4), ...generatedPaths(60, 7), ...EDGE]),
];

type Case = { args: unknown[]; got: unknown; want: unknown };

/** Runs both implementations on each argument list; returns the first mismatches. */
function compare(
  ours: (...a: never[]) => unknown,
  theirs: (...a: never[]) => unknown,
  argLists: Iterable<unknown[]>,
): { count: number; mismatches: Case[] } {
  const mismatches: Case[] = [];
  let count = 0;
  for (const args of argLists) {
    count++;
    const got = ours(...(args as never[]));
    const want = theirs(...(args as never[]));
    if (got !== want && mismatches.length < 20) mismatches.push({ args, got, want });
  }
  return { count, mismatches };
}

function* singles(): Generator<unknown[]> {
  for (const p of PATHS) yield [p];
}

function* pairs(): Generator<unknown[]> {
  for (const a of PAIR_PATHS) for (const b of PAIR_PATHS) yield [a, b];
}

/** 0..5 arguments, generated, for join and resolve. */
function* argLists(count: number, seed: number): Generator<unknown[]> {
  const rand = prng(seed);
  const pool = [...PAIR_PATHS, ...EDGE];
  yield [];
  for (let i = 0; i < count; i++) {
    const n = Math.floor(rand() * 6);
    yield Array.from({ length: n }, () => pool[Math.floor(rand() * pool.length)]);
  }
}

function assertSame(name: string, r: { count: number; mismatches: Case[] }, min: number) {
  assert(r.count >= min, `${name}: only ${r.count} cases`);
  assertEquals(JSON.stringify(r.mismatches, null, 1), "[]", `${name} differs from node:path posix`);
}

Deno.test({
  name: "lib/path normalize, dirname, basename, extname, isAbsolute match node:path posix",
  ignore: !posixOs,
  fn() {
    assertSame("normalize", compare(lib.normalize, posix.normalize, singles()), 6000);
    assertSame("dirname", compare(lib.dirname, posix.dirname, singles()), 6000);
    assertSame("basename", compare(lib.basename, posix.basename, singles()), 6000);
    assertSame("extname", compare(lib.extname, posix.extname, singles()), 6000);
    assertSame("isAbsolute", compare(lib.isAbsolute, posix.isAbsolute, singles()), 6000);
    assertSame("resolve(p)", compare(lib.resolve, posix.resolve, singles()), 6000);
    assertEquals(lib.sep, posix.sep);
  },
});

Deno.test({
  name: "lib/path basename with a suffix matches node:path posix (suffix = name, = path, longer)",
  ignore: !posixOs,
  fn() {
    const fixed = ["", ".", "a", ".a", "a.a", "/", "a/", ".js", "x.tar.gz", ".gz", "b"];
    function* withSuffixes(): Generator<unknown[]> {
      for (const p of PATHS) {
        // Every suffix of the path (the name, the name plus slashes, the whole path…).
        for (let i = 0; i <= p.length; i++) yield [p, p.slice(i)];
        for (const s of fixed) yield [p, s];
        yield [p, `x${p}`]; // longer than the path
      }
    }
    assertSame("basename(p, ext)", compare(lib.basename, posix.basename, withSuffixes()), 100000);
  },
});

Deno.test({
  name: "lib/path join, resolve, relative match node:path posix on pairs and argument lists",
  ignore: !posixOs,
  fn() {
    assertSame("join(a, b)", compare(lib.join, posix.join, pairs()), 15000);
    assertSame("relative(a, b)", compare(lib.relative, posix.relative, pairs()), 15000);
    assertSame("resolve(a, b)", compare(lib.resolve, posix.resolve, pairs()), 15000);
    assertSame("join(...)", compare(lib.join, posix.join, argLists(5000, 3)), 5000);
    assertSame("resolve(...)", compare(lib.resolve, posix.resolve, argLists(5000, 4)), 5000);
  },
});

Deno.test({
  name: "lib/path hand-picked edge cases give node's answers",
  ignore: !posixOs,
  fn() {
    const cwd = Deno.cwd();
    assertEquals(lib.normalize(""), ".");
    assertEquals(lib.normalize("a/../../b"), "../b");
    assertEquals(lib.normalize("/.."), "/");
    assertEquals(lib.normalize("a/.."), ".");
    assertEquals(lib.normalize("a/../"), "./");
    assertEquals(lib.normalize("//a//b//"), "/a/b/");
    assertEquals(lib.join(), ".");
    assertEquals(lib.join("", ""), ".");
    assertEquals(lib.join("/a", "", "../b/"), "/b/");
    assertEquals(lib.resolve(), cwd);
    assertEquals(lib.resolve(""), cwd);
    assertEquals(lib.resolve("x", "y"), `${cwd === "/" ? "" : cwd}/x/y`);
    assertEquals(lib.resolve("x", "/abs", "y/"), "/abs/y");
    assertEquals(lib.resolve("/a/b", "../../.."), "/");
    assertEquals(lib.dirname("//a"), "//");
    assertEquals(lib.dirname("/a//b"), "/a/");
    assertEquals(lib.dirname("a/"), ".");
    assertEquals(lib.basename("/a/b/"), "b");
    assertEquals(lib.basename("a.js", "a.js"), "");
    assertEquals(lib.basename("/a.js", "a.js"), "a.js");
    assertEquals(lib.basename("a/b/", "ab"), "b/");
    assertEquals(lib.basename("x/file.ts", ".ts"), "file");
    assertEquals(lib.extname(".bashrc"), "");
    assertEquals(lib.extname("a."), ".");
    assertEquals(lib.extname("a..b"), ".b");
    assertEquals(lib.extname(".."), "");
    assertEquals(lib.extname("x.tar.gz/"), ".gz");
    assertEquals(lib.relative("/a/b", "/a/b"), "");
    assertEquals(lib.relative("/a", "/a/b/c"), "b/c");
    assertEquals(lib.relative("/a/b/c", "/a"), "../..");
    assertEquals(lib.relative("/a/b", "/a/bc"), "../bc");
    assertEquals(lib.relative("/x/y", "/p/q"), "../../p/q");
    assertEquals(lib.relative("/", "/"), "");
    assertEquals(lib.isAbsolute(""), false);
    assertEquals(lib.isAbsolute("//x"), true);
  },
});

Deno.test('lib/path rejects a non-string argument like node does (no silent "undefined")', () => {
  const bad = [undefined, null, 3, {}, ["a"]];
  const calls: [string, (v: never) => unknown][] = [
    ["join", (v) => lib.join("a", v)],
    ["resolve", (v) => lib.resolve(v, "a")],
    ["normalize", (v) => lib.normalize(v)],
    ["dirname", (v) => lib.dirname(v)],
    ["basename", (v) => lib.basename(v)],
    ["basename ext", (v) => lib.basename("a", v === undefined ? (1 as never) : v)],
    ["extname", (v) => lib.extname(v)],
    ["isAbsolute", (v) => lib.isAbsolute(v)],
    ["relative", (v) => lib.relative("/a", v)],
  ];
  for (const [name, call] of calls) {
    for (const v of bad) {
      let error: unknown;
      try {
        call(v as never);
      } catch (e) {
        error = e;
      }
      assert(error instanceof TypeError, `${name}(${JSON.stringify(v)}) should throw a TypeError`);
    }
  }
});

Deno.test("lib/path on Windows is node:path itself (Deno.build.os faked in a child process)", async () => {
  // Deno.build.os is read once, at import: a child that reports "windows" before
  // importing must get node:path's very functions (node's win32 rules on a real Windows).
  const code = `
    Object.defineProperty(Deno, "build", { value: { ...Deno.build, os: "windows" } });
    const lib = await import(${JSON.stringify(new URL("../lib/path.ts", import.meta.url).href)});
    const node = await import("node:path");
    const names = ["join", "resolve", "dirname", "basename", "extname", "isAbsolute", "normalize", "relative", "sep"];
    console.log(JSON.stringify(names.filter((n) => lib[n] !== node[n])));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-prompt", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert(out.success, stderr);
  assertEquals(new TextDecoder().decode(out.stdout).trim(), "[]", "not node:path's own");
});

const ROOT = new URL("../", import.meta.url);
/** Any import of node:path (static, dynamic, re-export, the posix/win32 subpaths, bare "path"). */
const NODE_PATH = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](?:node:)?path(?:\/\w+)?["']/;

function productSources(): string[] {
  const out: string[] = ["main.ts"];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(new URL(dir, ROOT))) {
      const rel = `${dir}${e.name}`;
      if (e.isDirectory) walk(`${rel}/`);
      else if (/\.(ts|js|mjs)$/.test(e.name)) out.push(rel);
    }
  };
  for (const dir of ["server/", "tools/", "store/", "protocol/", "lib/"]) walk(dir);
  return out;
}

Deno.test("no product source imports node:path (only lib/path.ts, and only on Windows)", () => {
  const sources = productSources();
  assert(sources.length > 100, `scanned only ${sources.length} files`);
  const offenders = sources.filter((f) =>
    f !== "lib/path.ts" && NODE_PATH.test(Deno.readTextFileSync(new URL(f, ROOT)))
  );
  assertEquals(offenders, [], "use lib/path.ts instead of node:path");
  // The scan itself sees the forms it must catch.
  for (const src of [`import { join } from "node:path";`, `await import("node:path")`]) {
    assert(NODE_PATH.test(src), src);
  }
  // lib/path.ts is a leaf and loads node:path only behind the Windows check.
  const own = Deno.readTextFileSync(new URL("lib/path.ts", ROOT));
  assert(!/^\s*import\s[^(]/m.test(own), "lib/path.ts has no static import");
  assertMatch(own, /Deno\.build\.os === "windows" \? await import\("node:path"\)/);
});
