/**
 * The Usage page in a real (headless) Chromium against the real server, on a data dir
 * seeded with replies of known usage (and one without): the page's totals equal the
 * stored usage and the `usage.stats` op, for 30 days and All; the 53-week heatmap; the
 * reset point zeroes the statistics while the tasks stay; desktop 1280×800 and phone
 * 390×844 without horizontal scroll. Screenshots: desktop-usage.png, phone-usage.png.
 */
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { expected, REPLIES, seedUsage } from "../helpers/usage_seed.ts";
import { TestClient } from "../helpers/ws_client.ts";
import {
  drawerShown,
  noHorizontalScroll,
  openApp,
  screenshot,
  withBrowserServer,
} from "./browser.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import type { UsageSnapshot } from "../../protocol/index.ts";

const fmt = (n: number) => n.toLocaleString("en-US");

Deno.test(
  "Usage page: totals equal the stored usage and the op; heatmap; reset keeps tasks (desktop and phone)",
  async () => {
    const home = await Deno.makeTempDir({ prefix: "ra-usage-e2e-" });
    seedUsage(home);
    await withBrowserServer({ home }, async (browser, server) => {
      const ws = await TestClient.connect(server.base, server.token);
      const offset = -new Date().getTimezoneOffset();
      const op = await ws.request<UsageSnapshot>("usage.stats", {
        range: "30d",
        utcOffsetMin: offset,
      });
      const want = expected(REPLIES, 30);
      assertEquals(op.totals, want, "the op sums the stored usage");

      const { page, errors } = await newPage(browser, DESKTOP);
      await openApp(page, server.url);
      await page.click("[data-testid=open-settings]");
      await page.click("[data-testid=settings-tab-usage]");
      await page.locator("[data-testid=usage-totals]").waitFor();
      const value = (id: string) => page.locator(`[data-testid=${id}-value]`).innerText();
      assertEquals(await value("usage-total"), fmt(want.total));
      assertEquals(await value("usage-requests"), fmt(want.requests));
      assertMatch(
        await page.locator("[data-testid=usage-requests]").innerText(),
        new RegExp(`\\+ ${want.unknownRequests} without usage`),
      );
      assertEquals(await value("usage-cache"), fmt(want.cacheRead));
      assertEquals(await value("usage-tasks"), String(want.tasks));
      assertEquals(await value("usage-streak"), "2 days");
      assertEquals(await page.locator("[data-testid=usage-heatmap] .usage-cell").count(), 53 * 7);
      assertEquals(await page.locator("[data-testid=usage-models] li").count(), op.models.length);
      await screenshot(page, "desktop-usage");
      await page.locator("[data-testid=usage-longest]").scrollIntoViewIfNeeded();
      await screenshot(page, "desktop-usage-charts");

      // All: the reply from 40 days ago counts too.
      await page.click("[data-testid=usage-range-all]");
      const all = expected(REPLIES, null);
      await page.locator("[data-testid=usage-total-value]", { hasText: fmt(all.total) }).waitFor();
      const opAll = await ws.request<UsageSnapshot>("usage.stats", {
        range: "all",
        utcOffsetMin: offset,
      });
      assertEquals(opAll.totals.total, all.total);
      // zh-CN: the same page in Chinese.
      await page.click("[data-testid=lang-toggle]");
      await page.locator("#usage-title", { hasText: "用量" }).waitFor();
      await page.click("[data-testid=settings-tab-automations]");
      await page.locator("[data-testid=automations-missed-note]", { hasText: "不会补跑" })
        .waitFor();
      await screenshot(page, "desktop-automations-zh");
      await page.click("[data-testid=settings-tab-usage]");
      await page.locator("[data-testid=usage-totals]").waitFor();
      await screenshot(page, "desktop-usage-zh");
      await page.click("[data-testid=lang-toggle]");
      assertEquals(errors, [], "the page logged errors");

      // Phone: from the drawer, nothing wider than the screen (the heatmap scrolls in its card).
      const phone = await newPage(browser, PHONE);
      await openApp(phone.page, server.url);
      await phone.page.click("[data-testid=open-drawer]");
      await drawerShown(phone.page);
      await phone.page.click("[data-testid=open-settings]");
      await phone.page.click("[data-testid=settings-tab-usage]");
      await phone.page.locator("[data-testid=usage-totals]").waitFor();
      // The drawer has slid away (the screenshot shows the page alone).
      await phone.page.waitForFunction(() =>
        document.querySelector("[data-testid=sidebar]")!.getBoundingClientRect().right <= 0
      );
      await noHorizontalScroll(phone.page, PHONE.width);
      await screenshot(phone.page, "phone-usage");
      await phone.page.locator("[data-testid=usage-reset]").scrollIntoViewIfNeeded();
      await screenshot(phone.page, "phone-usage-charts");

      // Reset: a reset point, the statistics start over, the tasks stay.
      const before = (await ws.request("tasks.list")).tasks.length;
      await phone.page.click("[data-testid=usage-reset]");
      await phone.page.click("[data-testid=usage-reset-confirm]");
      await phone.page.locator("[data-testid=usage-total-value]", { hasText: /^0$/ }).waitFor();
      assertMatch(
        await phone.page.locator("[data-testid=usage-reset-note]").innerText(),
        /Counting since/,
      );
      assertEquals((await ws.request("tasks.list")).tasks.length, before, "no task was deleted");
      assertEquals(phone.errors, [], "the phone page logged errors");
      await ws.close();
    });
  },
);
