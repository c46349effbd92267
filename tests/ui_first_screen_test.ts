/**
 * The first screen carries only what it uses: the build keeps in `app.js` the English
 * strings the first screen's code names (the others are the `en_more` chunk) and links
 * `first.css`, the rules whose classes that code names; the whole stylesheet is the
 * service worker's too and follows with the first view loaded on demand.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { ASSETS, SHELL_URLS } from "../server/http/assets.ts";
import { BUILD, CHUNKS } from "../ui/dist/chunks.ts";
import {
  classUsed,
  classWords,
  firstScreenKeys,
  firstScreenStrings,
  readDict,
  staticGraph,
  stringsOf,
} from "../scripts/build/first_screen.ts";
import {
  firstScreenCss,
  parseRules,
  requiredClasses,
  splitSelectors,
} from "../scripts/build/css_split.ts";

const ROOT = new URL("../", import.meta.url);
const text = (path: string) => new TextDecoder().decode(ASSETS[path].body);

Deno.test("first screen css: rules whose classes the first screen never names are left out", () => {
  const css = `
    /* a comment with a brace } and .lazy */
    :root { --x: 1; }
    .app, .lazy-only > .app { color: red; }
    .lazy-only { content: "}"; }
    .app:not(.lazy-only) { margin: 0; }
    .tool-read { padding: 0; }
    @media (max-width: 600px) { .lazy-only { top: 0; } .app { top: 1px; } }
    @media print { .lazy-only { top: 0; } }
    @keyframes spin { from { transform: rotate(0); } to { transform: rotate(1turn); } }
    a[href$=".lazy-only"] { color: blue; }
  `;
  const used = classUsed(classWords(["app", "tool-"]));
  const out = firstScreenCss(css, used);
  assertEquals(out.split("\n"), [
    ":root{--x: 1;}",
    ".app{color: red;}",
    ".app:not(.lazy-only){margin: 0;}",
    ".tool-read{padding: 0;}",
    "@media (max-width: 600px){.app{top: 1px;}}",
    "@keyframes spin{ from { transform: rotate(0); } to { transform: rotate(1turn); } }",
    'a[href$=".lazy-only"]{color: blue;}',
  ]);
  assertEquals(splitSelectors('.a, :is(.b, .c), [x=","]'), [".a", ":is(.b, .c)", '[x=","]']);
  assertEquals(requiredClasses(".a .b:not(.c) > :is(.d) [e='.f']"), ["a", "b"]);
  assertEquals(parseRules("@import url(x.css);\n.a{b:c}").map((r) => r.body), [null, "b:c"]);
});

Deno.test("first screen strings: keys named whole, in the singular, or under a literal prefix", () => {
  const strings = new Set(["a.b", "n.count", "task.state."]);
  const keys = ["a.b", "a.c", "n.count", "n.count.one", "task.state.done", "tasks.x"];
  assertEquals([...firstScreenKeys(keys, strings)], [
    "a.b",
    "n.count",
    "n.count.one",
    "task.state.done",
  ]);
  assertEquals(stringsOf('t(`x.${y}.z`); f("q")'), ["x.", ".z", "q"]);
});

Deno.test("first screen: app.js holds the strings its code names; the rest is a chunk", async () => {
  const graph = await staticGraph(ROOT);
  assert(graph.includes("ui/components/Composer.js"), "the composer is on the first screen");
  assert(!graph.includes("ui/components/settings/SettingsView.js"), "Settings is not");
  const en = await readDict(new URL("ui/i18n/en.js", ROOT));
  const first = firstScreenKeys(Object.keys(en), await firstScreenStrings(ROOT));
  assert(first.has("composer.label") && first.has("lazy.failed"), "the first screen's keys");
  assert(!first.has("settings.title"), "a key only Settings uses");
  assert(first.size < Object.keys(en).length / 2, `${first.size} of ${Object.keys(en).length}`);

  const app = text("/assets/app.js");
  const moreName = Object.keys(CHUNKS).find((n) => n.startsWith("en_more-"));
  assert(moreName, "the rest of English is a chunk");
  assert(app.includes(`import("./${BUILD}/${moreName}")`), "loaded on demand");
  const more = CHUNKS[moreName];
  // The JSON escapes of the bundles' ASCII output: compare the keys, which are ASCII.
  for (const k of Object.keys(en)) {
    assertEquals(more.includes(JSON.stringify(k)), !first.has(k), k);
  }
  assert(!app.includes('"settings.title"'), "app.js leaves out a key the first screen never uses");
  assert(app.includes('"composer.label"'), "app.js keeps one it uses");
});

Deno.test("first screen: the page links first.css; app.css is named for later and cached", () => {
  const page = text("/");
  const first = SHELL_URLS.find((u) => u.startsWith("/assets/first.css?v="));
  const all = SHELL_URLS.find((u) => u.startsWith("/assets/app.css?v="));
  assert(first && all, SHELL_URLS.join(" "));
  assert(page.includes(`<link rel="stylesheet" href="${first}">`), "the first screen's sheet");
  assert(page.includes(`<meta name="reinagent-styles" content="${all}">`), "the whole sheet");
  assert(!page.includes(`href="${all}"`), "not linked up front");
  const firstCss = text("/assets/first.css");
  const appCss = text("/assets/app.css");
  assert(firstCss.length < appCss.length / 2, `${firstCss.length} of ${appCss.length}`);
  assert(firstCss.includes(".composer-input"), "the composer's rules");
  assert(!firstCss.includes(".xterm") && appCss.includes(".xterm"), "the terminal's are later");
  const sw = text("/sw.js");
  assert(sw.includes(first) && sw.includes(all), "the service worker keeps both");
});
