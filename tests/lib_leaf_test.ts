/** `lib/` holds leaf helpers: they import nothing of the project but other `lib/` files. */
import { assertEquals } from "./helpers/assert.ts";

const LIB = new URL("../lib/", import.meta.url);
const RELATIVE = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

Deno.test("lib/ modules import only lib/ modules (and no npm package)", () => {
  const bad: string[] = [];
  for (const e of Deno.readDirSync(LIB)) {
    if (!e.isFile || !e.name.endsWith(".ts")) continue;
    const src = Deno.readTextFileSync(new URL(e.name, LIB));
    for (const m of src.matchAll(RELATIVE)) {
      if (!new URL(m[1], new URL(e.name, LIB)).href.startsWith(LIB.href)) {
        bad.push(`${e.name}: ${m[1]}`);
      }
    }
    for (const m of src.matchAll(/["'](npm:|jsr:|https?:)[^"']+["']/g)) {
      bad.push(`${e.name}: ${m[0]}`);
    }
  }
  assertEquals(bad, []);
});
