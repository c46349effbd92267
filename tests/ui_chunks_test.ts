/**
 * The UI's first screen is one script: the views it does not show (settings, the panel,
 * the palette, the terminal dock, Chinese strings) are chunks fetched on demand, in a
 * folder named after the build. Shared code lives in app.js only; the chunks reach it
 * through modules that re-export from the very URL the page loads.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ASSETS, gzipped, SHELL_URLS } from "../server/http/assets.ts";
import { BUILD, CHUNKS } from "../ui/dist/chunks.ts";
import { eagerEntry, exportNames, shim, staticImports } from "../scripts/build/merge_eager.ts";

Deno.test("ui chunks: app.js is the first screen; views load from the build's folder", async () => {
  const app = ASSETS["/assets/app.js"];
  const appUrl = SHELL_URLS.find((u) => u.startsWith("/assets/app.js?v="))!;
  const text = new TextDecoder().decode(app.body);
  assertEquals(staticImports(text), [], "app.js imports nothing before it runs");
  for (const view of ["SettingsView", "RightPanel", "CommandPalette", "TerminalDock", "zh"]) {
    const name = Object.keys(CHUNKS).find((n) => n.startsWith(`${view}-`));
    assert(name, `${view} is a chunk of its own`);
    assert(text.includes(`import("./${BUILD}/${name}")`), `app.js loads ${view} on demand`);
    assert(ASSETS[`/assets/${BUILD}/${name}`]?.immutable, `${view} is served, cached for good`);
  }
  for (const [name, code] of Object.entries(CHUNKS)) {
    for (const dep of staticImports(code)) assert(dep in CHUNKS, `${name} → ${dep} is served`);
    const from = code.match(/from "\.\.\/(app\.js\?v=\w+)"/)?.[1];
    if (from) assertEquals(`/assets/${from}`, appUrl, `${name} re-exports the loaded app.js`);
  }
  // Well below the single bundle of before (745 KB raw, 206 KB gzip).
  assert(app.body.length < 400_000, `app.js ${app.body.length} bytes`);
  assert((await gzipped(app)).length < 120_000, "app.js gzipped");
});

Deno.test("ui chunks: the eager entry re-exports under names that cannot collide", () => {
  const names = exportNames("var a=1,b=2;function c(){}export{a,b as x,c as default};");
  assertEquals(names, ["a", "x", "default"]);
  const entry = eagerEntry("main.js", new Map([["chunk-AB.js", ["x"]], ["chunk-CD.js", ["x"]]]));
  assertMatch(entry, /^import "\.\/main\.js";\n/);
  assertMatch(entry, /export \{ x as chunk_AB\$x \} from "\.\/chunk-AB\.js";/);
  assertMatch(entry, /export \{ x as chunk_CD\$x \} from "\.\/chunk-CD\.js";/);
  assertEquals(
    shim("chunk-AB.js", ["x", "default"], "../app.js?v=1"),
    'export { chunk_AB$x as x, chunk_AB$default as default } from "../app.js?v=1";\n',
  );
});
