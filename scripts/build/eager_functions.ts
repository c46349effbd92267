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
 * parentheses (methods, getters and setters cannot and stay lazy), and each function
 * declaration becomes `var name = (function name(…) {…});` moved to the chunk's start,
 * where its hoisting put it before: every statement of the chunk still finds it.
 * What another chunk sees is the same as long as chunks do not import each other in a cycle
 * (a module in a cycle may run before its functions exist): {@link eagerChunks} leaves
 * chunks in a cycle as they are. Functions inside functions stay lazy (a callback may never
 * run: compiling it would be paid for nothing). Measured (issue #15, 40 runs each): a
 * headless run's first model call ~1.5–2 ms sooner; class methods, most of what a turn
 * calls, cannot be written this way.
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
  visit(program, null, 0, (node, parent, depth) => {
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
  const hoisted: string[] = [];
  const moved: [number, number][] = [];
  for (const stmt of program.body as Node[]) {
    const exported = stmt.type === "ExportNamedDeclaration";
    const decl = exported ? stmt.declaration : stmt;
    if (decl?.type !== "FunctionDeclaration" || !decl.id || assigned.has(decl.id.name)) continue;
    hoisted.push(
      `${exported ? "export " : ""}var ${decl.id.name} = (${slice(decl.start, decl.end)});`,
    );
    moved.push([stmt.start, stmt.end]);
  }
  // At the very start: imports are bound before any statement runs, wherever they stand.
  let text = hoisted.length ? `${hoisted.join("\n")}\n` : "";
  let at = 0;
  for (const [start, end] of moved) {
    text += slice(at, start);
    at = end;
  }
  text += slice(at, src.length);
  return { text, count: opens.length + moved.length };
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
