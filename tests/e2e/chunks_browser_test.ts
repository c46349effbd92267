/**
 * The views loaded on demand, in Chromium: the first screen needs no chunk; Settings
 * arrives as one when opened and shares the app's state (a tab chosen there shows); a
 * chunk that cannot be fetched — the server was updated under an open page, or is gone —
 * says so with a reload button instead of leaving an empty page.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { openApp, screenshot, watchErrors, withBrowserServer } from "./browser.ts";
import { DESKTOP } from "./approval_helpers.ts";

const tid = (id: string) => `[data-testid=${id}]`;
const isChunk = (url: string) => /\/assets\/[0-9a-f]+\/[\w.-]+\.js$/.test(new URL(url).pathname);

Deno.test("chunks: views load on demand; a missing chunk says so", async () => {
  await withBrowserServer({}, async (browser, server) => {
    const context = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const fetched: string[] = [];
    page.on("request", (r) => {
      if (isChunk(r.url())) fetched.push(new URL(r.url()).pathname);
    });
    await openApp(page, server.url);
    await page.locator(tid("composer-input")).waitFor();
    assertEquals(fetched, [], "the first screen fetched no chunk");

    await page.click(tid("open-settings"));
    await page.locator(tid("settings-view")).waitFor();
    assert(fetched.some((p) => /\/SettingsView-\w+\.js$/.test(p)), fetched.join(", "));
    await page.click(tid("settings-tab-about"));
    await page.locator(`${tid("settings-tab-about")}[aria-selected=true]`).waitFor();
    await page.click(tid("close-settings"));

    assertEquals(errors, [], "no errors while the chunks load");

    // As if the server had been updated: this page's chunks are gone (the context's
    // route also sees what the service worker fetches).
    await context.route((url) => isChunk(url.href), (route) => route.fulfill({ status: 404 }));
    await page.click(tid("open-search"));
    await page.locator(tid("lazy-failed")).waitFor();
    await page.locator(`${tid("lazy-failed")} button`).waitFor();
    await screenshot(page, "chunks-load-failed");
  });
});
