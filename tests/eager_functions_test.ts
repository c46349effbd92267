/**
 * The bundle's eager-function rewrite (scripts/build/eager_functions.ts): the same
 * program, its top-level functions and its classes' methods in the form V8 compiles with the
 * module (and so keeps in Deno's code cache), chunks that import each other in a cycle left
 * alone.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { eagerChunks, eagerFunctions, inCycles } from "../scripts/build/eager_functions.ts";

const SOURCE = `
import { join } from "node:path";
// Called above its declaration: hoisting must survive the rewrite.
const early = double(21);
function double(n) { return n * 2; }
export function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }
async function later() { return "async"; }
function* twice() { yield 1; yield 2; }
var named = function () { return "expr"; };
const table = { pick: function (x) { return x + 1; }, short(x) { return x - 1; }, get g() { return 7; },
  "op.name"(x) { return x; }, async later() { return "later"; } };
const proto = { hi() { return "hi"; } };
const child = { __proto__: proto, hi() { return "child+" + super.hi(); } };
class Base { hello() { return "base"; } }
class Box extends Base {
  constructor(v) { super(); this.v = v; }
  open() { function inner() { return "inner"; } return inner() + this.v; }
  hello() { return "box+" + super.hello(); }
  static make(v) { return new this(v); }
  async later() { return this.v; }
  *items() { yield this.v; }
  delete() { return "reserved"; }
  get size() { return this.v.length; }
}
// Its static field runs a method while the class is defined: the class stays as it is.
class Early { static first = Early.one(); static one() { return 1; } two() { return 2; } }
// The inner name is seen only inside the class body: that method stays in it.
const Outer = class Inner { self() { return Inner === Outer; } other() { return "other"; } };
const arrow = (x) => x * 3;
export async function result() {
  const box = Box.make("!");
  return [early, fact(5), await later(), [...twice()], named(), named.name, table.pick(1),
    table.short(1), table.g, box.open(), arrow(2), join("a", "b"), double.name, box.hello(),
    await box.later(), [...box.items()], box.delete(), box.size, Object.keys(Box.prototype),
    box.open.name, Early.first, new Early().two(), new Outer().self(), new Outer().other(),
    table.short.name, table["op.name"].name, await table.later(), child.hi(), Object.keys(table)];
}
`;

async function run(text: string): Promise<unknown> {
  const file = await Deno.makeTempFile({ suffix: ".js" });
  try {
    await Deno.writeTextFile(file, text);
    return await (await import(`file://${file}`)).result();
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("eagerFunctions: the program does the same", async () => {
  const { text, count } = eagerFunctions(SOURCE);
  // 5 top-level declarations (2 exported), 3 top-level expressions, 6 class methods moved
  // out, 4 object literal methods (not `child.hi`: it uses super).
  assertEquals(count, 18);
  assertEquals(await run(text), await run(SOURCE));
  assertEquals(await run(text), [
    42,
    120,
    "async",
    [1, 2],
    "expr",
    "named",
    2,
    0,
    7,
    "inner!",
    6,
    "a/b",
    "double",
    "box+base",
    "!",
    ["!"],
    "reserved",
    1,
    [],
    "open",
    1,
    2,
    true,
    "other",
    "short",
    "op.name",
    "later",
    "child+hi",
    ["pick", "short", "g", "op.name", "later"],
  ]);
});

Deno.test("eagerFunctions: top-level functions in parentheses, methods and inner ones as they were", () => {
  const { text } = eagerFunctions(SOURCE);
  assert(text.startsWith("var double = (function double(n)"), text.slice(0, 80));
  assert(text.includes("export var fact = (function fact(n)"), "exported declaration");
  assert(text.includes("var later = (async function later()"), "async declaration");
  assert(text.includes("var twice = (function* twice()"), "generator declaration");
  assert(text.includes("var named = (function () {"), "top-level expression");
  assert(text.includes("pick: (function (x)"), "property holding an expression");
  assert(text.includes("const arrow = ((x) => x * 3);"), "top-level arrow");
  assert(text.includes("short: (function (x) { return x - 1; })"), "object literal method");
  assert(text.includes('"op.name": (function (x)'), "method with a string key");
  assert(text.includes('hi() { return "child+" + super.hi(); }'), "object method using super");
  assert(text.includes("get g() { return 7; }"), "getter untouched");
  assert(text.includes("{ function inner() {"), "declaration inside a function untouched");
  // Methods: defined after their class as functions in parentheses, not enumerable …
  assert(
    text.includes(
      'Object.defineProperty(Box.prototype, "open", { value: (function open() { function inner',
    ),
    "method moved out",
  );
  assert(text.includes('Object.defineProperty(Box, "make", { value: (function make(v)'), "static");
  assert(text.includes('"later", { value: (async function later()'), "async method");
  assert(text.includes('"items", { value: (function* items()'), "generator method");
  // … but not one using super, a reserved name, the constructor, a getter, a class with
  // static code, or a method naming the class's inner name.
  assert(text.includes('hello() { return "box+" + super.hello(); }'), "super kept");
  assert(text.includes('delete() { return "reserved"; }'), "reserved name kept");
  assert(text.includes("two() { return 2; }"), "class with a static field kept");
  assert(text.includes("self() { return Inner === Outer; }"), "inner name kept");
  assert(text.includes('Object.defineProperty(Outer.prototype, "other"'), "its other method");
  // Each declaration moved, not copied.
  assertEquals(text.match(/function double\(/g)?.length, 1);
  // A name assigned elsewhere keeps its declaration: in an expression the function's own
  // name would mean the original, not what replaced it.
  assert(eagerFunctions(WRAPPED).text.includes("\nfunction fib(n) {"), "declaration kept");
  // Already in parentheses: left as it is (no double wrapping).
  assertEquals(eagerFunctions("var f = (function () {});\n").text, "var f = (function () {});\n");
});

const WRAPPED =
  "let calls = 0;\nfunction fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n" +
  "const inner = fib;\nfib = (n) => { calls++; return inner(n); };\n" +
  "export const result = () => [fib(5), calls];\n";

Deno.test("eagerFunctions: a function whose name is assigned elsewhere still recurses through it", async () => {
  // Every recursive call goes through the replacement: 15 calls for fib(5).
  assertEquals(await run(WRAPPED), [5, 15]);
  assertEquals(await run(eagerFunctions(WRAPPED).text), [5, 15]);
});

Deno.test("inCycles: files that reach themselves through their imports", () => {
  const imports = new Map([
    ["a.js", ["b.js"]],
    ["b.js", ["c.js"]],
    ["c.js", ["a.js"]],
    ["d.js", ["a.js"]],
    ["e.js", []],
  ]);
  assertEquals([...inCycles(imports)].sort(), ["a.js", "b.js", "c.js"]);
});

Deno.test("eagerChunks: chunks in an import cycle stay as they are", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const a = `import { b } from "./b.js";\nexport function a() { return b(); }\n`;
    const b = `import { a } from "./a.js";\nexport function b() { return 1; }\n`;
    const c = `export function c() { return 2; }\n`;
    await Deno.writeTextFile(`${dir}/a.js`, a);
    await Deno.writeTextFile(`${dir}/b.js`, b);
    await Deno.writeTextFile(`${dir}/c.js`, c);
    assertEquals(await eagerChunks(dir), 1);
    assertEquals(await Deno.readTextFile(`${dir}/a.js`), a);
    assertEquals(await Deno.readTextFile(`${dir}/b.js`), b);
    assertEquals(
      await Deno.readTextFile(`${dir}/c.js`),
      "export var c = (function c() { return 2; });\n\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
