/**
 * Rules by pattern in Settings (desktop 1280×800 and phone 390×844): the global and
 * project lists load, a rule is added, a bad one is refused on the page, and Save
 * stores it where the gate reads it.
 */
import type { Page } from "playwright-core";
import { assertEquals } from "../helpers/assert.ts";
import { TestClient } from "../helpers/ws_client.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";

const tid = (id: string) => `[data-testid=${id}]`;

async function openRules(page: Page) {
  const menu = page.locator(tid("open-drawer"));
  if (await menu.isVisible()) await menu.click();
  await page.click(`${tid("open-settings")} >> visible=true`);
  await page.waitForSelector(tid("settings-view"));
  await page.click(tid("settings-tab-general"));
  await page.waitForSelector(`${tid("permission-rules")}[data-state=ready]`);
}

for (
  const [label, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const
) {
  Deno.test(`rules (${label}): listed, added, refused when malformed, saved`, async () => {
    const project = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-rules-proj-" }));
    await withPage(viewport, async (page, server) => {
      const c = await TestClient.connect(server.base, server.token);
      try {
        await c.request("projects.add", { path: project });
        await c.request("rules.set", {
          scope: "global",
          rules: [
            { rule: "exec_command(git push *)", policy: "deny" },
            { rule: "webfetch(domain:docs.deno.com)", policy: "allow" },
          ],
        });
        await c.request("rules.set", {
          scope: "project",
          projectPath: project,
          rules: [{ rule: "write_file(src/**)", policy: "allow" }],
        });
        await openApp(page, server.url);
        await openRules(page);
        const global = page.locator(tid("rules-global"));
        assertEquals(await global.locator(tid("rule-row")).count(), 2);
        await global.locator(tid("rule-add")).click();
        const fresh = global.locator(tid("rule-text")).nth(2);
        await fresh.fill("npm test *");
        await page.waitForSelector(`${tid("rules-global")} >> text=Not a rule: npm test *`);
        await fresh.fill("exec_command(npm test *)");
        await global.locator(tid("rule-save")).click();
        await page.waitForSelector(`${tid("rules-global")} >> text=Saved.`);
        const view = await c.request("rules.get", {}) as { global: { rule: string }[] };
        assertEquals(view.global.map((r) => r.rule), [
          "exec_command(git push *)",
          "webfetch(domain:docs.deno.com)",
          "exec_command(npm test *)",
        ]);
        await page.locator(tid("permission-rules")).scrollIntoViewIfNeeded();
        await noHorizontalScroll(page, viewport.width);
        await screenshot(page, `rules-settings-${label}`);
      } finally {
        await c.close();
      }
    });
  });
}
