/**
 * The part of a stylesheet the first screen needs: every rule but those whose selectors
 * all name a class the first screen's code never names. At-rules that hold rules
 * (`@media`, `@supports`, `@container`, `@layer`) are split the same way inside; the
 * others (`@keyframes`, `@font-face`, …) are kept whole. Comments are dropped.
 *
 * The whole stylesheet is loaded after it when a view is shown on demand, and repeats
 * these rules in their order, so the cascade is always that of the whole stylesheet.
 */

/** A rule as written: its prelude (selectors or at-rule) and its block, or none. */
interface Rule {
  prelude: string;
  body: string | null;
}

/** Index just past the comment or string starting at `i`, or `i` when there is none. */
function skipOpaque(css: string, i: number): number {
  if (css.startsWith("/*", i)) {
    const end = css.indexOf("*/", i + 2);
    return end < 0 ? css.length : end + 2;
  }
  const q = css[i];
  if (q !== '"' && q !== "'") return i;
  for (let j = i + 1; j < css.length; j++) {
    if (css[j] === "\\") j++;
    else if (css[j] === q) return j + 1;
  }
  return css.length;
}

/** The top-level rules of a stylesheet (or of an at-rule's block). */
export function parseRules(css: string): Rule[] {
  const rules: Rule[] = [];
  let prelude = "";
  let i = 0;
  while (i < css.length) {
    const next = skipOpaque(css, i);
    if (next !== i) {
      if (!css.startsWith("/*", i)) prelude += css.slice(i, next);
      i = next;
      continue;
    }
    const c = css[i];
    if (c === ";") {
      if (prelude.trim()) rules.push({ prelude: prelude.trim(), body: null });
      prelude = "";
      i++;
    } else if (c === "{") {
      let depth = 1;
      let j = i + 1;
      while (j < css.length && depth > 0) {
        const k = skipOpaque(css, j);
        if (k !== j) {
          j = k;
          continue;
        }
        if (css[j] === "{") depth++;
        else if (css[j] === "}") depth--;
        j++;
      }
      if (depth > 0) throw new Error(`unclosed block after "${prelude.trim().slice(0, 60)}"`);
      rules.push({ prelude: prelude.trim(), body: css.slice(i + 1, j - 1) });
      prelude = "";
      i = j;
    } else if (c === "}") {
      throw new Error(`unexpected "}" after "${prelude.trim().slice(0, 60)}"`);
    } else {
      prelude += c;
      i++;
    }
  }
  if (prelude.trim()) rules.push({ prelude: prelude.trim(), body: null });
  return rules;
}

/** Splits on the commas outside parentheses and brackets. */
export function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const next = skipOpaque(list, i);
    if (next !== i) {
      i = next - 1;
      continue;
    }
    const c = list[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter(Boolean);
}

/**
 * The classes an element must carry for `selector` to match anything: those outside
 * brackets and parentheses (`:not(.x)` requires no class; `:is(.a, .b)` is counted as
 * requiring none, which keeps more rather than less).
 */
export function requiredClasses(selector: string): string[] {
  let flat = "";
  let depth = 0;
  for (let i = 0; i < selector.length; i++) {
    const next = skipOpaque(selector, i);
    if (next !== i) {
      i = next - 1;
      continue;
    }
    const c = selector[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth === 0) flat += c;
  }
  return [...flat.matchAll(/\.(-?[A-Za-z_][\w-]*)/g)].map((m) => m[1]);
}

/** At-rules whose blocks hold rules that are split like the top level. */
const GROUPING = /^@(media|supports|container|layer)\b/i;

/** The rules of `css` the first screen may use (`used` tells a class it names). */
export function firstScreenCss(css: string, used: (cls: string) => boolean): string {
  const out: string[] = [];
  for (const r of parseRules(css)) {
    if (r.body === null) {
      out.push(`${r.prelude};`);
    } else if (r.prelude.startsWith("@")) {
      if (!GROUPING.test(r.prelude)) out.push(`${r.prelude}{${r.body}}`);
      else {
        const inner = firstScreenCss(r.body, used);
        if (inner) out.push(`${r.prelude}{${inner}}`);
      }
    } else {
      const kept = splitSelectors(r.prelude).filter((s) => requiredClasses(s).every(used));
      if (kept.length) out.push(`${kept.join(",")}{${r.body.trim()}}`);
    }
  }
  return out.join("\n");
}
