/**
 * Puts the bundle's functions into Deno's code cache. Deno writes a module's V8 code cache
 * when it compiles the module, before the module runs, and V8 compiles a function lazily, on
 * its first call: every function a process calls is parsed and compiled again in every
 * process (V8's function log of a headless run: several hundred of the bundle's functions).
 * A function expression in parentheses is one V8 takes as "called soon" and compiles with
 * its module, so its bytecode is in the cache: loading it is several times cheaper than
 * compiling it.
 *
 * The rewrite, per chunk, at its top level: each function or arrow expression gets its
 * parentheses; each function declaration becomes `var name = (function name(…) {…});` moved
 * to the chunk's start, where its hoisting put it before: every statement of the chunk still
 * finds it; and a class's plain methods are defined right after it, as
 * `Object.defineProperty(C.prototype, "m", { value: (function m(…) {…}), … })` — not
 * enumerable, as a method — unless a method uses `super`, a private name or the class's
 * inner name (only its body sees those), or the class runs code while it is defined (static
 * blocks and fields); an object literal's plain method becomes `key: (function (…) {…})`
 * (named after its key all the same) unless it uses `super`. Getters, setters and
 * constructors stay lazy.
 * What another chunk sees is the same as long as chunks do not import each other in a cycle
 * (a module in a cycle may run before its functions exist): {@link eagerChunks} leaves
 * chunks in a cycle as they are. Functions inside functions stay lazy (a callback may never
 * run: compiling it would be paid for nothing). Measured (issue #15, 40 runs each, against
 * the bundle without the rewrite): a headless run's first model call −2.5 ms, the overhead
 * per turn 5.7 → 5.3 ms, +2 MB RSS.
 */
import { parse } from "acorn";

// deno-lint-ignore no-explicit-any
type Node = { type: string; start: number; end: number; [key: string]: any };

/** `src` with its functions made eager; `count`: how many were changed. */
export function eagerFunctions(src: string): { text: string; count: number } {
  const program = parse(src, {
    ecmaVersion: "latest",
    sourceType: "module",
    preserveParens: true,
  }) as unknown as Node;
  const opens: number[] = [];
  const closes: number[] = [];
  // Names assigned anywhere (`f = wrap(f)`): inside a function expression its own name
  // would keep meaning the function itself, so such a declaration stays as it is.
  const assigned = new Set<string>();
  // Methods of object literals, as `key: (function (…) {…})` (see objectMethod).
  const objectMethods: Node[] = [];
  visit(program, null, 0, (node, parent, depth) => {
    if (depth === 0 && node.type === "Property" && objectMethod(node)) objectMethods.push(node);
    if (node.type === "AssignmentExpression" && node.left.type === "Identifier") {
      assigned.add(node.left.name);
    }
    if (node.type === "UpdateExpression" && node.argument.type === "Identifier") {
      assigned.add(node.argument.name);
    }
    const literal = node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression";
    if (!literal || parent?.type === "ParenthesizedExpression") return;
    if (depth > 0) return;
    // A method's function (class or object literal, getters and setters too) has no
    // expression to wrap.
    if (parent?.type === "MethodDefinition") return;
    if (parent?.type === "Property" && (parent.method || parent.kind !== "init")) return;
    opens.push(node.start);
    closes.push(node.end);
  });
  // The text of [from, to) with the parentheses that fall inside it.
  const inserts = [
    ...opens.map((p) => ({ p, t: "(" })),
    ...closes.map((p) => ({ p, t: ")" })),
  ].sort((a, b) => a.p - b.p || (a.t === ")" ? -1 : 1));
  const slice = (from: number, to: number) => {
    let out = "";
    let at = from;
    for (const { p, t } of inserts) {
      if (p < from || p > to || (p === from && t === ")") || (p === to && t === "(")) continue;
      out += src.slice(at, p) + t;
      at = p;
    }
    return out + src.slice(at, to);
  };
  // Text cut out, and text added at a position (both in the original's offsets).
  const cuts: [number, number][] = [];
  const adds: [number, string][] = [];
  const hoisted: string[] = [];
  for (const stmt of program.body as Node[]) {
    const exported = stmt.type === "ExportNamedDeclaration";
    const decl = exported ? stmt.declaration : stmt;
    const cls = classOf(decl);
    if (cls) {
      const defs = cls.methods.map((m) => {
        cuts.push([m.start, m.end]);
        return methodDefinition(src, cls.name, m);
      });
      if (defs.length) adds.push([stmt.end, `\n${defs.join("\n")}`]);
    }
    if (decl?.type !== "FunctionDeclaration" || !decl.id || assigned.has(decl.id.name)) continue;
    hoisted.push(
      `${exported ? "export " : ""}var ${decl.id.name} = (${slice(decl.start, decl.end)});`,
    );
    cuts.push([stmt.start, stmt.end]);
  }
  for (const m of objectMethods) {
    cuts.push([m.start, m.end]);
    adds.push([m.start, objectMethodText(src, m)]);
  }
  // At the very start: imports are bound before any statement runs, wherever they stand.
  if (hoisted.length) adds.push([0, `${hoisted.join("\n")}\n`]);
  const events = [
    ...adds.map(([p, t]) => ({ p, end: p, t })),
    ...cuts.map(([p, end]) => ({ p, end, t: "" })),
  ].sort((a, b) => a.p - b.p || a.end - b.end);
  let text = "";
  let at = 0;
  for (const e of events) {
    text += slice(at, e.p) + e.t;
    at = e.end;
  }
  text += slice(at, src.length);
  return { text, count: opens.length + cuts.length };
}

/** Words that name a method but cannot name a function. */
const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends " +
    "false finally for function if import in instanceof new null return super switch this " +
    "throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await arguments eval").split(" "),
);

/**
 * A class at a chunk's top level and the methods that can be defined after it: plain named
 * methods that use neither `super`, private names nor the class's inner name (which only
 * code in its body sees). None for a class with static blocks or static fields set by code:
 * that code runs while the class is defined, before the methods would exist.
 */
function classOf(decl: Node | undefined): { name: string; methods: Node[] } | null {
  let name = "";
  let cls: Node | null = null;
  if (decl?.type === "ClassDeclaration" && decl.id) {
    cls = decl;
    name = decl.id.name;
  } else if (
    decl?.type === "VariableDeclaration" && decl.declarations.length === 1 &&
    decl.declarations[0].init?.type === "ClassExpression" &&
    decl.declarations[0].id.type === "Identifier"
  ) {
    cls = decl.declarations[0].init;
    name = decl.declarations[0].id.name;
  }
  if (!cls) return null;
  const members = cls.body.body as Node[];
  if (
    members.some((m) =>
      m.type === "StaticBlock" || (m.static && m.value && m.type !== "MethodDefinition")
    )
  ) {
    return null;
  }
  const inner = cls.id && cls.id.name !== name ? cls.id.name : null;
  const methods = members.filter((m) =>
    m.type === "MethodDefinition" && m.kind === "method" && !m.computed &&
    m.key.type === "Identifier" && !RESERVED.has(m.key.name) &&
    !contains(m.value, (n) =>
      n.type === "Super" || n.type === "PrivateIdentifier" ||
      (inner !== null && n.type === "Identifier" && n.name === inner))
  );
  return { name, methods };
}

/** `Object.defineProperty(…)` giving the class the method as a function in parentheses. */
function methodDefinition(src: string, cls: string, m: Node): string {
  const fn = m.value;
  const head = `${fn.async ? "async " : ""}function${fn.generator ? "*" : ""} ${m.key.name}`;
  // A method is not enumerable; writable and configurable like one.
  return `Object.defineProperty(${cls}${m.static ? "" : ".prototype"}, "${m.key.name}", ` +
    `{ value: (${head}${src.slice(fn.start, fn.end)}), writable: true, configurable: true });`;
}

/**
 * Whether an object literal's property is a plain method that can be a property holding a
 * function expression instead: the same but for `super` (which only a method has).
 */
function objectMethod(p: Node): boolean {
  return p.method && p.kind === "init" && !p.computed &&
    (p.key.type === "Identifier" || p.key.type === "Literal") &&
    !contains(p.value, (n) => n.type === "Super");
}

/** `key: (function (…) {…})`: the function is named after its key, as the method was. */
function objectMethodText(src: string, p: Node): string {
  const fn = p.value;
  const head = `${fn.async ? "async " : ""}function${fn.generator ? "*" : ""} `;
  return `${src.slice(p.key.start, p.key.end)}: (${head}${src.slice(fn.start, fn.end)})`;
}

/** Whether any node below `node` passes `test`. */
function contains(node: Node, test: (n: Node) => boolean): boolean {
  let found = false;
  visit(node, null, 0, (n) => {
    found ||= test(n);
  });
  return found;
}

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/**
 * Calls `fn` on every node below `node` (depth first) with its parent and how many
 * functions enclose it.
 */
function visit(
  node: Node,
  parent: Node | null,
  depth: number,
  fn: (n: Node, p: Node | null, depth: number) => void,
): void {
  fn(node, parent, depth);
  const inner = FUNCTIONS.has(node.type) ? depth + 1 : depth;
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (Array.isArray(value)) {
      for (const v of value) if (v && typeof v.type === "string") visit(v, node, inner, fn);
    } else if (value && typeof value === "object" && typeof value.type === "string") {
      visit(value, node, inner, fn);
    }
  }
}

/** The static imports of one chunk by another (`import … from "./x.js"`). */
const CHUNK_IMPORT =
  /^(?:import|export)[^;]*?from\s*"\.\/([^"]+\.js)"|^import\s*"\.\/([^"]+\.js)"/gm;

/**
 * Rewrites every `.js` file in `dir` (a bundle's chunks) but those that import each other
 * in a cycle; returns how many functions were made eager.
 */
export async function eagerChunks(dir: string): Promise<number> {
  const texts = new Map<string, string>();
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".js")) {
      texts.set(e.name, await Deno.readTextFile(`${dir}/${e.name}`));
    }
  }
  const imports = new Map(
    [...texts].map(([name, text]) => [
      name,
      [...text.matchAll(CHUNK_IMPORT)].map((m) => m[1] ?? m[2]).filter((f) => texts.has(f)),
    ]),
  );
  const cyclic = inCycles(imports);
  let count = 0;
  for (const [name, text] of texts) {
    if (cyclic.has(name)) continue;
    const out = eagerFunctions(text);
    if (out.count === 0) continue;
    await Deno.writeTextFile(`${dir}/${name}`, out.text);
    count += out.count;
  }
  return count;
}

/** The files that reach themselves through `imports`. */
export function inCycles(imports: Map<string, string[]>): Set<string> {
  const out = new Set<string>();
  for (const start of imports.keys()) {
    const seen = new Set<string>();
    const todo = [...(imports.get(start) ?? [])];
    while (todo.length) {
      const f = todo.pop()!;
      if (f === start) {
        out.add(start);
        break;
      }
      if (seen.has(f)) continue;
      seen.add(f);
      todo.push(...(imports.get(f) ?? []));
    }
  }
  return out;
}
