/**
 * About's "Update available" line in a real (headless) Chromium: the server reads a
 * local release manifest (REINAGENT_UPDATE_MANIFEST) offering a newer version. Desktop and
 * phone. Screenshots: {desktop,phone}-about-update.png.
 */
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { drawerShown, noHorizontalScroll, screenshot, withBrowserServer } from "./browser.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import { platformKey } from "../../server/update/manifest.ts";

async function scenario(viewport: typeof DESKTOP, name: "desktop" | "phone") {
  const manifest = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      Response.json({
        version: "9.9.9",
        platforms: { [platformKey()]: { url: "/bin", sha256: "a".repeat(64), size: 10 } },
      }),
  );
  const url = `http://127.0.0.1:${manifest.addr.port}/manifest.json`;
  await withBrowserServer({ env: { REINAGENT_UPDATE_MANIFEST: url } }, async (browser, server) => {
    const { page, errors } = await newPage(browser, viewport);
    await page.goto(server.url);
    if (name === "phone") {
      await page.click("[data-testid=open-drawer]");
      await drawerShown(page);
    }
    await page.click("[data-testid=open-settings] >> visible=true");
    await page.click("[data-testid=settings-tab-about]");
    const line = page.locator("[data-testid=update-line]");
    await line.waitFor();
    assertEquals(await line.getAttribute("data-state"), "available");
    assertMatch(
      await line.innerText(),
      /Update available: 9\.9\.9\.\s+Install it with reinagent update/,
    );
    await noHorizontalScroll(page, viewport.width);
    await screenshot(page, `${name}-about-update`);
    assertEquals(errors, [], "the page logged errors");
  }, async () => await manifest.shutdown());
}

Deno.test(
  "update: About says an update is available (desktop)",
  () => scenario(DESKTOP, "desktop"),
);
Deno.test(
  "update: About says an update is available (phone)",
  () => scenario(PHONE, "phone"),
);
