/**
 * A folder too wide for an agent (here the file system's root) in the folder browser:
 * the server's reason is shown with "Add anyway", and only that adds it. Desktop and phone.
 */
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { drawerShown, openApp, screenshot, withPage } from "./browser.ts";

for (
  const [name, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const
) {
  Deno.test(`wide folder (${name}): the root is added only with "Add anyway"`, async () => {
    await withPage(viewport, async (page, server) => {
      await openApp(page, server.url);
      if (name === "phone") {
        await page.click("[data-testid=open-drawer]");
        await drawerShown(page);
      }
      await page.click("[data-testid=add-project]");
      const dialog = page.locator("[data-testid=folder-browser]");
      await dialog.waitFor();
      const path = dialog.locator("[data-testid=folder-path]");
      await path.fill("/");
      await page.click("[data-testid=folder-choose]");
      const error = dialog.locator("[data-testid=folder-error]");
      await error.waitFor();
      assertMatch(await error.innerText(), /\/ is the root of the file system/);
      const anyway = dialog.locator("[data-testid=folder-add-anyway]");
      await anyway.waitFor();
      await screenshot(page, `${name}-wide-folder`);
      // Another path typed meanwhile: the button is for the folder it was shown for only.
      await path.fill("/tmp");
      assertEquals(await anyway.count(), 0);
      await path.fill("/");
      await page.click("[data-testid=folder-choose]");
      await anyway.click();
      await dialog.waitFor({ state: "detached" });
      await page.locator('[data-testid=project][data-path="/"]').waitFor();
    });
  });
}
