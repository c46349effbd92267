/**
 * "Add project" with the desktop window's folder picker: where the page runs in the
 * native window (`window.reinagentNative`, stood in for here as the window's injected
 * script provides it), the folder browser has a "system dialog" button; the folder it
 * returns is opened in the browser (listed and checked by the server) and added from
 * there. A cancelled pick changes nothing; in a plain browser there is no button.
 * Desktop 1280×800 and phone 390×844. The real GTK picker is tested in
 * tests/window_native_test.ts.
 */
import type { Page } from "playwright-core";
import { assertEquals } from "../helpers/assert.ts";
import { drawerShown, noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";

/** The native window's bridge, answering with what `window.__picks` holds next. */
const NATIVE_STUB = `
  window.__picks = [];
  window.__asked = [];
  Object.defineProperty(window, "reinagentNative", {
    value: { pickFolder: (title) => { window.__asked.push(title); return Promise.resolve(window.__picks.shift() ?? null); } },
  });
`;

async function openDrawer(page: Page) {
  await page.click("[data-testid=open-drawer]");
  await drawerShown(page);
}

const pathValue = (page: Page) => page.locator("[data-testid=folder-path]").inputValue();

async function openBrowserDialog(page: Page, home: string) {
  await page.click("[data-testid=add-project]");
  await page.locator("[data-testid=folder-browser]").waitFor();
  await page.waitForFunction(
    (home) =>
      (document.querySelector("[data-testid=folder-path]") as HTMLInputElement)?.value === home,
    home,
  );
}

for (
  const [label, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const
) {
  Deno.test(
    `folder picker (${label}): the native window's system dialog picks the folder; cancel keeps the browser; no button in a browser`,
    async () => {
      const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-e2e-home-" }));
      await Deno.mkdir(`${home}/code/picked-one`, { recursive: true });
      await withPage(viewport, async (page, server) => {
        await openApp(page, server.url);
        if (label === "phone") await openDrawer(page);
        await openBrowserDialog(page, home);
        assertEquals(await page.locator("[data-testid=folder-native-pick]").count(), 0);
        await page.click("[data-testid=folder-cancel]");

        await page.addInitScript(NATIVE_STUB);
        await openApp(page, server.url);
        if (label === "phone") await openDrawer(page);
        await openBrowserDialog(page, home);
        const pick = page.locator("[data-testid=folder-native-pick]");
        // Cancelled: nothing changes.
        await pick.click();
        assertEquals(
          await page.evaluate(() => (window as unknown as { __asked: string[] }).__asked),
          [
            "Add a project folder",
          ],
        );
        assertEquals(await pathValue(page), home);
        // Picked: the browser opens there, then it is added as any folder.
        const want = `${home}/code/picked-one`;
        await page.evaluate(
          (p) => (window as unknown as { __picks: string[] }).__picks.push(p),
          want,
        );
        await pick.click();
        await page.waitForFunction(
          (want) =>
            (document.querySelector("[data-testid=folder-path]") as HTMLInputElement)?.value ===
              want,
          want,
        );
        await page.locator("[data-testid=folder-list]").waitFor();
        await screenshot(page, `${label}-folder-native-pick`);
        if (label === "phone") await noHorizontalScroll(page, viewport.width);
        await page.click("[data-testid=folder-choose]");
        await page.locator("[data-testid=folder-browser]").waitFor({ state: "detached" });
        await page.locator(`[data-testid=project][data-path="${want}"]`).waitFor({
          state: "attached",
        });
      }, { env: { HOME: home } });
    },
  );
}
