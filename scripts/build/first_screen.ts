/**
 * What the first screen uses, read from the sources: the modules `ui/main.js` reaches
 * through static imports (what the build merges into `app.js`; every `import()` is a
 * chunk) and the string literals they hold. From those the build keeps in the first
 * screen's script only the English strings it names, and in its stylesheet only the rules
 * whose classes it names (scripts/build/css_split.ts); the rest load with the first view
 * shown on demand.
 *
 * The scan errs on the side of keeping: a key or class the code builds at run time from
 * a literal prefix (`t(\`task.state.${s}\`)`, `"tool-" + kind`) keeps every key or class
 * with that prefix. What it cannot see (a name made up without a literal prefix) is
 * fetched with the rest, and `t()` asks for the rest itself when a key is missing.
 */
import { parse } from "acorn";

// deno-lint-ignore no-explicit-any
type Node = { type: string; [key: string]: any };

const parseJs = (src: string) =>
  parse(src, { ecmaVersion: "latest", sourceType: "module" }) as unknown as Node;

function walk(node: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(node)) {
    for (const x of node) walk(x, visit);
  } else if (node && typeof node === "object" && typeof (node as Node).type === "string") {
    visit(node as Node);
    for (const [k, v] of Object.entries(node)) {
      if (k !== "type" && v && typeof v === "object") walk(v, visit);
    }
  }
}

const sourceOf = (n: Node): string | undefined =>
  n.type === "ImportDeclaration" || n.type === "ExportAllDeclaration" ||
    n.type === "ExportNamedDeclaration"
    ? n.source?.value
    : undefined;

/**
 * Paths (relative to `root`) of the modules `entry` reaches through static imports of
 * relative specifiers; `.ts` files are listed but not followed (the protocol's shapes).
 */
export async function staticGraph(root: URL, entry = "ui/main.js"): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (rel: string) => {
    if (seen.has(rel)) return;
    seen.add(rel);
    if (!rel.endsWith(".js")) return;
    const at = new URL(rel, root);
    for (const n of parseJs(await Deno.readTextFile(at)).body as Node[]) {
      const from = sourceOf(n);
      if (typeof from !== "string" || !from.startsWith(".")) continue;
      await visit(new URL(from, at).pathname.slice(root.pathname.length));
    }
  };
  await visit(entry);
  return [...seen].sort();
}

/** Every string literal and template piece of a JS source. */
export function stringsOf(src: string): string[] {
  const out: string[] = [];
  walk(parseJs(src), (n) => {
    if (n.type === "Literal" && typeof n.value === "string") out.push(n.value);
    else if (n.type === "TemplateElement") out.push(n.value.cooked ?? n.value.raw);
  });
  return out;
}

/**
 * The string literals of the first screen's UI code (the dictionaries left out: they
 * name every key).
 */
export async function firstScreenStrings(root: URL): Promise<Set<string>> {
  const out = new Set<string>();
  for (const rel of await staticGraph(root)) {
    if (!rel.endsWith(".js") || rel.startsWith("ui/i18n/")) continue;
    for (const s of stringsOf(await Deno.readTextFile(new URL(rel, root)))) out.add(s);
  }
  return out;
}

/**
 * The keys of `keys` the first screen may ask for: named whole, as the base of a
 * singular form (`tn("x", n)` reads `x.one`), or under a literal prefix ending in a dot.
 */
export function firstScreenKeys(keys: Iterable<string>, strings: ReadonlySet<string>): Set<string> {
  const prefixes = [...strings].filter((s) => /^[\w-][\w.-]*\.$/.test(s));
  const used = (k: string) =>
    strings.has(k) || (k.endsWith(".one") && strings.has(k.slice(0, -4))) ||
    prefixes.some((p) => k.startsWith(p));
  return new Set([...keys].filter(used));
}

/**
 * The words of the first screen's strings that may be class names, and the prefixes a
 * class is built from at run time (a word ending in `-` or `_`: `"tool-" + kind`).
 */
export function classWords(strings: Iterable<string>): { words: Set<string>; prefixes: string[] } {
  const words = new Set<string>();
  const prefixes = new Set<string>();
  for (const s of strings) {
    for (const w of s.match(/-?[A-Za-z_][\w-]*/g) ?? []) {
      words.add(w);
      if (/[-_]$/.test(w) && w.length >= 3) prefixes.add(w);
    }
  }
  return { words, prefixes: [...prefixes] };
}

/** Whether a class of the stylesheet may be on the first screen. */
export function classUsed(words: { words: Set<string>; prefixes: string[] }) {
  return (name: string) => words.words.has(name) || words.prefixes.some((p) => name.startsWith(p));
}

/**
 * The dictionary a module like ui/i18n/en.js exports by default: an object of string
 * literals and spreads of other such modules' default exports, read without running it
 * (a build that imports it would keep the first version for good in `--watch`).
 */
export async function readDict(file: URL): Promise<Record<string, string>> {
  const ast = parseJs(await Deno.readTextFile(file));
  const imports = new Map<string, URL>();
  let obj: Node | undefined;
  for (const n of ast.body as Node[]) {
    if (n.type === "ImportDeclaration") {
      const def = (n.specifiers as Node[]).find((s) => s.type === "ImportDefaultSpecifier");
      if (def) imports.set(def.local.name, new URL(n.source.value, file));
    } else if (n.type === "ExportDefaultDeclaration") obj = n.declaration;
  }
  if (obj?.type !== "ObjectExpression") throw new Error(`${file}: no default export object`);
  const out: Record<string, string> = {};
  for (const p of obj.properties as Node[]) {
    if (p.type === "SpreadElement" && p.argument.type === "Identifier") {
      const from = imports.get(p.argument.name);
      if (!from) throw new Error(`${file}: ...${p.argument.name} is not a default import`);
      Object.assign(out, await readDict(from));
      continue;
    }
    const key = p.key?.type === "Literal" ? p.key.value : p.key?.name;
    const v = p.value;
    const text = v?.type === "Literal" && typeof v.value === "string"
      ? v.value
      : v?.type === "TemplateLiteral" && v.expressions.length === 0
      ? v.quasis[0].value.cooked
      : undefined;
    if (p.type !== "Property" || p.computed || typeof key !== "string" || text === undefined) {
      throw new Error(`${file}: an entry that is not "key": "text" (at ${p.start})`);
    }
    out[key] = text;
  }
  return out;
}

/** `dict` split into the keys in `first` and the others, each as a module's source. */
export function splitDict(
  dict: Record<string, string>,
  first: ReadonlySet<string>,
): { first: string; more: string } {
  const pick = (keep: boolean) =>
    `export default ${
      JSON.stringify(
        Object.fromEntries(Object.entries(dict).filter(([k]) => first.has(k) === keep)),
      )
    };\n`;
  return { first: pick(true), more: pick(false) };
}
