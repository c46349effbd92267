/**
 * No module imports itself through others: every relative import of the project's
 * .ts/.js files (static, dynamic and JSDoc `import("…")` types alike) forms a graph
 * without cycles, so modules load in one order and a layer never reaches back.
 */
import { assertEquals } from "./helpers/assert.ts";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SKIP = new Set([".git", "node_modules", "test-output", "dist"]);
const SPEC = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const e of Deno.readDirSync(dir)) {
    if (SKIP.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory) sources(p, out);
    else if (/\.(ts|js)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Each cycle found by a depth-first walk, as the files along it (first = last). */
function cycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const found: string[][] = [];
  const stack: string[] = [];
  const visit = (u: string) => {
    state.set(u, "open");
    stack.push(u);
    for (const v of graph.get(u) ?? []) {
      if (!graph.has(v)) continue;
      if (state.get(v) === "open") found.push([...stack.slice(stack.indexOf(v)), v]);
      else if (!state.has(v)) visit(v);
    }
    stack.pop();
    state.set(u, "done");
  };
  for (const u of graph.keys()) if (!state.has(u)) visit(u);
  return found;
}

Deno.test("no import cycle among the project's modules", () => {
  const graph = new Map<string, string[]>();
  for (const file of sources(ROOT)) {
    const src = Deno.readTextFileSync(file);
    graph.set(file, [...src.matchAll(SPEC)].map((m) => normalize(join(dirname(file), m[1]))));
  }
  const named = cycles(graph).map((c) => c.map((f) => relative(ROOT, f)).join(" -> "));
  assertEquals(named, []);
});
