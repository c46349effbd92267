/**
 * Every user-visible string exists in both languages: the merged
 * dictionaries have the same keys and placeholders, and every literal key any UI file
 * passes to t()/tn() is translated.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { DICTS, loadLang } from "../ui/i18n/index.js";

// Chinese is loaded on demand in the app; these checks read it.
await loadLang("zh-CN");

const en = DICTS["en-US"];
const zh = DICTS["zh-CN"];
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

Deno.test("i18n: en-US and zh-CN have the same keys and placeholders", () => {
  const base = (d: Record<string, string>) => Object.keys(d).filter((k) => !k.endsWith(".one"));
  const missingZh = base(en).filter((k) => !(k in zh));
  const extraZh = base(zh).filter((k) => !(k in en));
  assertEquals(missingZh, [], "keys missing in zh-CN");
  assertEquals(extraZh, [], "keys only in zh-CN");
  for (const k of base(en)) assertEquals(placeholders(zh[k]), placeholders(en[k]), k);
  for (const k of Object.keys(en).filter((k) => k.endsWith(".one"))) {
    assert(k.slice(0, -4) in en, `${k} has no base form`);
  }
});

async function* uiFiles(dir: URL): AsyncGenerator<URL> {
  for await (const e of Deno.readDir(dir)) {
    if (e.name === "dist" || e.name === "i18n") continue;
    const u = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory) yield* uiFiles(u);
    else if (e.name.endsWith(".js")) yield u;
  }
}

Deno.test("i18n: every literal key used by a UI file is translated", async () => {
  const missing: string[] = [];
  let used = 0;
  for await (const f of uiFiles(new URL("../ui/", import.meta.url))) {
    const src = await Deno.readTextFile(f);
    for (const m of src.matchAll(/\btn?\(\s*"([\w.-]+)"/g)) {
      used++;
      if (!(m[1] in en) || !(m[1] in zh)) missing.push(`${f.pathname.split("/ui/")[1]}: ${m[1]}`);
    }
  }
  assertEquals(missing, []);
  assert(used > 200, `only ${used} keys found: the scan is broken`);
});

Deno.test("styles: colours only in 00-tokens.css (no hard-coded colours elsewhere)", async () => {
  const colour = /#[0-9a-fA-F]{3,8}\b|\b(?:rgb|rgba|hsl|hsla|oklch)\(/;
  const found: string[] = [];
  const dir = new URL("../ui/styles/", import.meta.url);
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".css") || e.name === "00-tokens.css") continue;
    const lines = (await Deno.readTextFile(new URL(e.name, dir))).split("\n");
    lines.forEach((l, i) => colour.test(l) && found.push(`${e.name}:${i + 1}: ${l.trim()}`));
  }
  for await (const f of uiFiles(new URL("../ui/components/", import.meta.url))) {
    const src = await Deno.readTextFile(f);
    if (/style=[^>]*(#[0-9a-fA-F]{3,6}\b|rgba?\()/.test(src)) found.push(f.pathname);
  }
  assertEquals(found, []);
});

Deno.test("i18n: a count of one reads in the singular where the Usage page counts days", () => {
  for (const k of ["usage.days", "usage.activeDays", "usage.longestStreak"]) {
    assert(`${k}.one` in en, `${k} has a singular form`);
    assert(!/\b1 days\b/.test(en[`${k}.one`]), en[`${k}.one`]);
  }
});
