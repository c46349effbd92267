/**
 * Turns a code-split UI build into one file for the first screen plus chunks for the rest.
 *
 * With code splitting the bundler puts every set of modules that the entry shares with
 * some lazily imported view into a chunk of its own: the entry then imports a few dozen
 * small files before it can run, and over HTTP/1.1 (six connections) at a phone's round
 * trip each wave of them costs ~150 ms. This step bundles the entry and everything it
 * imports statically into one file (`app.js`), which re-exports what the lazy chunks use;
 * each of those shared chunks is replaced by a two-line module that re-exports it from
 * `app.js?v=<hash>` — the very URL the page loaded, so the lazy views get the same module
 * instances (one Preact, one set of signals), not a copy.
 *
 * The chunks live in a folder named after the build, so a page of an older build never
 * gets a newer chunk (whose shims would load a second, newer app into it): it gets a 404,
 * and says the app was updated.
 */
import { parse } from "acorn";

// deno-lint-ignore no-explicit-any
type Node = { type: string; [key: string]: any };

/** Specifiers of the static imports in a bundled file (`from"./x.js"`, `import"./x.js"`). */
export function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([\w.-]+\.js)"/g)) out.push(m[1]);
  return out;
}

/** The names a module exports (the bundler's chunks export with one `export {…}`). */
export function exportNames(code: string): string[] {
  const ast = parse(code, { ecmaVersion: "latest", sourceType: "module" }) as unknown as Node;
  const names: string[] = [];
  for (const n of ast.body as Node[]) {
    if (n.type !== "ExportNamedDeclaration") continue;
    if (n.source) throw new Error("a chunk re-exports from another module");
    for (const s of n.specifiers as Node[]) names.push(s.exported.name ?? s.exported.value);
    const d = n.declaration as Node | null;
    if (d?.declarations) { for (const v of d.declarations as Node[]) names.push(v.id.name); }
    else if (d?.id) names.push(d.id.name);
  }
  return names;
}

/** Marks the lazy chunks' specifiers external for the second pass ({@link LAZY}). */
export const LAZY = "lazy-chunk:";

/** `import("./x.js")` → `import("lazy-chunk:x.js")`, which the bundle keeps as it is. */
export const hideDynamicImports = (code: string) =>
  code.replace(/\bimport\("\.\/([\w.-]+\.js)"\)/g, `import("${LAZY}$1")`);

/** The bundled `app.js` with its lazy imports pointing into the folder `dir`. */
export const restoreDynamicImports = (code: string, dir: string) =>
  code.replaceAll(`import("${LAZY}`, `import("./${dir}/`);

/** The chunks the entry needs before it runs: its static imports, transitively. */
export function eagerSet(entry: string, chunks: ReadonlyMap<string, string>): Set<string> {
  const seen = new Set<string>();
  const visit = (code: string) => {
    for (const n of staticImports(code)) {
      if (seen.has(n) || !chunks.has(n)) continue;
      seen.add(n);
      visit(chunks.get(n)!);
    }
  };
  visit(entry);
  return seen;
}

const exportedAs = (chunk: string, name: string) =>
  `${chunk.replace(/\.js$/, "").replace(/\W/g, "_")}$${name}`;

/**
 * The module to bundle as `app.js`: runs the entry, then re-exports every eager chunk's
 * exports under names that cannot collide.
 */
export function eagerEntry(entryFile: string, eager: ReadonlyMap<string, string[]>): string {
  const lines = [`import "./${entryFile}";`];
  for (const [chunk, names] of eager) {
    if (!names.length) continue;
    const list = names.map((n) => `${n} as ${exportedAs(chunk, n)}`).join(", ");
    lines.push(`export { ${list} } from "./${chunk}";`);
  }
  return lines.join("\n") + "\n";
}

/** What replaces an eager chunk: its exports, taken from the loaded `app.js`. */
export function shim(chunk: string, names: string[], appUrl: string): string {
  if (!names.length) return `import ${JSON.stringify(appUrl)};\n`;
  const list = names.map((n) => `${exportedAs(chunk, n)} as ${n}`).join(", ");
  return `export { ${list} } from ${JSON.stringify(appUrl)};\n`;
}
