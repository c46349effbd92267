/**
 * Cost in money in a real (headless) Chromium against the real server, on a data dir
 * seeded with replies of known usage and cost (one model without a price): the Usage
 * page's cost card, cost per day, per task and per model equal the stored costs, with
 * "price unknown" for the unpriced replies (never $0); a task shows its cost in the
 * stats line and each turn's cost on its strip; a model's price typed in Settings is
 * shown on its row. Desktop 1280×800 and phone 390×844. Screenshots: desktop-cost-usage,
 * desktop-cost-usage-lists, desktop-cost-task, desktop-cost-model-price, desktop-azure-form,
 * phone-cost-usage, phone-cost-task, phone-cost-model-form. The Azure preset's form (resource URL, API version) too.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expected, REPLIES, seededCost, seedUsage } from "../helpers/usage_seed.ts";
import { TestClient } from "../helpers/ws_client.ts";
import {
  drawerShown,
  noHorizontalScroll,
  openApp,
  screenshot,
  withBrowserServer,
} from "./browser.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import { formatMoney } from "../../protocol/index.ts";

const usd = (nanos: number) => formatMoney(nanos, "USD", "en-US");
const tid = (id: string) => `[data-testid=${id}]`;

/** The cost of the seeded replies matching `pick`, in nano-dollars. */
const costOf = (pick: (r: typeof REPLIES[number]) => boolean) =>
  REPLIES.filter(pick).reduce((s, r) => s + (seededCost(r)?.total ?? 0), 0);

Deno.test(
  "cost: the Usage page, a task's stats and turns, a model's price (desktop and phone)",
  async () => {
    const home = await Deno.makeTempDir({ prefix: "ra-cost-e2e-" });
    seedUsage(home);
    await withBrowserServer({ home }, async (browser, server) => {
      const want = expected(REPLIES, 30);
      assert(
        want.cost.length === 1 && want.unpriced > 0,
        "the seed has priced and unpriced replies",
      );
      const { page, errors } = await newPage(browser, DESKTOP);
      await openApp(page, server.url);
      await page.click(tid("open-settings"));
      await page.click(tid("settings-tab-usage"));
      await page.locator(tid("usage-totals")).waitFor();
      // 30 days: the total of the priced replies, and how many have no price.
      await page.click(tid("usage-range-30d"));
      await page.locator(`${tid("usage-cost-value")}`, { hasText: usd(want.cost[0].nanos) })
        .waitFor();
      assertMatch(
        await page.locator(tid("usage-cost")).innerText(),
        new RegExp(`\\+ ${want.unpriced} replies with price unknown`),
      );
      // Per day: today's replies (two of alpha, one of beta without a price).
      const today = costOf((r) => r.daysAgo === 0);
      const days = page.locator(`${tid("usage-cost-days")} li`);
      assertEquals(await days.first().locator(tid("usage-cost-day")).innerText(), usd(today));
      assertEquals(
        await days.first().locator(".usage-cost-sub").innerText(),
        "+ 1 reply with price unknown",
      );
      // Yesterday only beta replied: unknown, not $0.
      assertEquals(await days.nth(1).locator(tid("usage-cost-day")).innerText(), "price unknown");
      // Per task: the costliest first, sub-agents' replies included.
      const tasks = page.locator(`${tid("usage-cost-tasks")} li`);
      const docs = costOf((r) => r.task === "Write docs");
      assertEquals(await tasks.first().innerText(), `Write docs\n${usd(docs)}\n1 reply`);
      assertEquals(
        await tasks.nth(1).innerText(),
        `Refactor parser\n${usd(today)}\n3 replies · 1 with price unknown`,
      );
      // Per model: beta has no price.
      const beta = page.locator(`${tid("usage-models")} li[data-model="mock/beta"]`);
      assertEquals(await beta.locator(tid("usage-model-cost")).innerText(), "price unknown");
      await screenshot(page, "desktop-cost-usage");
      await page.locator(tid("usage-cost-days")).scrollIntoViewIfNeeded();
      await screenshot(page, "desktop-cost-usage-lists");
      // zh-CN: the same cost lists in Chinese, the money still with its currency.
      await page.click(tid("lang-toggle"));
      await page.locator(`${tid("usage-cost-days")} li`, { hasText: "价格未知" }).first().waitFor();
      await page.locator(tid("usage-cost-days")).scrollIntoViewIfNeeded();
      await screenshot(page, "desktop-cost-usage-lists-zh");
      await page.click(tid("lang-toggle"));

      // A model's price typed in Settings → Providers shows on its row.
      const ws = await TestClient.connect(server.base, server.token);
      await ws.request("providers.add", {
        id: "acme",
        name: "Acme",
        baseUrl: "http://127.0.0.1:9",
        models: ["acme-large"],
      });
      await page.click(tid("settings-tab-providers"));
      await page.click(`${tid("provider-item")}[data-provider-id=acme]`);
      const row = page.locator(`${tid("model-row")}[data-model-id=acme-large]`);
      assertEquals(await row.locator(tid("meta-price")).innerText(), "price unknown");
      await row.locator(tid("model-edit")).click();
      await page.locator(tid("price-input")).fill("3");
      await page.locator(tid("price-output")).fill("15");
      await page.locator(tid("price-cacheRead")).fill("0.30");
      await page.click(tid("model-form-save"));
      await row.locator(tid("meta-price"), { hasText: "$3.00 in · $15.00 out / 1M" }).waitFor();
      const { providers } = await ws.request("providers.list");
      // deno-lint-ignore no-explicit-any
      const acme = providers.find((p: any) => p.id === "acme").models[0];
      assertEquals(acme.price, {
        currency: "USD",
        input: 3_000_000,
        output: 15_000_000,
        cacheRead: 300_000,
        cacheWrite: null,
        source: "manual",
      });
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, "desktop-cost-model-price");

      // The Azure preset asks for the resource URL and an API version, stored as an option.
      await page.click(tid("add-from-preset"));
      await page.click(tid("preset-azure"));
      assertEquals(await page.locator(tid("provider-form-base-url")).inputValue(), "");
      assertEquals(
        await page.locator(tid("provider-form-base-url")).getAttribute("placeholder"),
        "https://YOUR-RESOURCE.openai.azure.com",
      );
      const apiVersion = page.locator(tid("provider-form-api-version"));
      assertEquals(await apiVersion.inputValue(), "2024-10-21");
      await page.locator(tid("provider-form-base-url")).fill("https://contoso.openai.azure.com");
      await apiVersion.fill("2025-04-01-preview");
      await page.locator(tid("provider-form-key")).fill("azure-key-0123456789abcdef");
      await screenshot(page, "desktop-azure-form");
      await page.click(tid("provider-form-save"));
      await page.locator(tid("provider-api-version")).waitFor();
      assertEquals(
        await page.locator(tid("provider-api-version")).inputValue(),
        "2025-04-01-preview",
      );
      const { providers: after } = await ws.request("providers.list");
      // deno-lint-ignore no-explicit-any
      const azure = after.find((p: any) => p.preset === "azure");
      assertEquals([azure.baseUrl, azure.options], ["https://contoso.openai.azure.com", {
        apiVersion: "2025-04-01-preview",
      }]);
      assert(!JSON.stringify(after).includes("azure-key-0123456789abcdef"), "the key is masked");

      // A task: the stats line sums its replies; the turn's strip shows what it cost.
      await page.goto(`${server.url}#/t/tseed0`);
      const stat = page.locator(`${tid("stats-line")} [data-stat=cost]`);
      await stat.waitFor();
      const task = costOf((r) => r.task === "Refactor parser" && !r.subagent);
      assertEquals(await stat.innerText(), `cost ${usd(task)}`);
      assertEquals(await page.locator(tid("turn-cost")).first().innerText(), usd(task));
      await screenshot(page, "desktop-cost-task");
      // A task whose model has no price says so.
      await page.goto(`${server.url}#/t/tseed1`);
      await page.locator(`${tid("stats-line")} [data-stat=cost]`, { hasText: "price unknown" })
        .waitFor();
      assertEquals(await page.locator(tid("turn-cost")).first().innerText(), "price unknown");
      assertEquals(errors, [], "the page logged errors");

      // Phone: the Usage page's cost and a task's cost, nothing wider than the screen.
      const phone = await newPage(browser, PHONE);
      await openApp(phone.page, server.url);
      await phone.page.click(tid("open-drawer"));
      await drawerShown(phone.page);
      await phone.page.click(tid("open-settings"));
      await phone.page.click(tid("settings-tab-usage"));
      await phone.page.locator(tid("usage-cost-value")).waitFor();
      await phone.page.waitForFunction(() =>
        document.querySelector("[data-testid=sidebar]")!.getBoundingClientRect().right <= 0
      );
      await noHorizontalScroll(phone.page, PHONE.width);
      await screenshot(phone.page, "phone-cost-usage");
      await phone.page.goto(`${server.url}#/t/tseed0`);
      await phone.page.locator(tid("turn-cost")).first().waitFor();
      await noHorizontalScroll(phone.page, PHONE.width);
      await screenshot(phone.page, "phone-cost-task");
      // The model form's price fields fit the phone.
      await phone.page.click(tid("open-drawer"));
      await drawerShown(phone.page);
      await phone.page.click(tid("open-settings"));
      await phone.page.click(`${tid("provider-item")}[data-provider-id=acme]`);
      const phoneRow = phone.page.locator(`${tid("model-row")}[data-model-id=acme-large]`);
      await phoneRow.locator(tid("model-edit")).click();
      await phone.page.locator(tid("price-input")).scrollIntoViewIfNeeded();
      assertEquals(await phone.page.locator(tid("price-input")).inputValue(), "3");
      assertEquals(await phone.page.locator(tid("price-cacheRead")).inputValue(), "0.3");
      await noHorizontalScroll(phone.page, PHONE.width);
      await screenshot(phone.page, "phone-cost-model-form");
      assertEquals(phone.errors, [], "the phone page logged errors");
      await ws.close();
    });
  },
);
