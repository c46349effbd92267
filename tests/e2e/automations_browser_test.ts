/**
 * The Automations page in a real (headless) Chromium against the real server and the
 * mock LLM: the missed-runs note, creating an automation with a preset (weekdays at a
 * time, a model), Run now creating a task that runs to Done, the run history's link to
 * that task, a custom rule, delete; desktop 1280×800 and phone 390×844 without
 * horizontal scroll. Screenshots: desktop-automations.png, desktop-automation-form.png,
 * phone-automations.png, phone-automation-form.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import {
  drawerShown,
  noHorizontalScroll,
  openApp,
  screenshot,
  withBrowserServer,
} from "./browser.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";

/** The sidebar's footer (with the Automations entry) holds its buttons and version. */
async function footFits(page: import("playwright-core").Page): Promise<void> {
  const [scroll, client] = await page.evaluate(() => {
    const f = document.querySelector(".sidebar-foot")!;
    return [f.scrollWidth, f.clientWidth];
  });
  assert(scroll <= client, `the sidebar footer overflows: ${scroll} > ${client}`);
}

Deno.test(
  "Automations page: create, run now into a task, history link, custom rule (desktop and phone)",
  async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("auto-e2e", { turns: [{ text: "Automation ran fine." }], repeatLast: true });
    const home = await homeWithProvider(mock.base, ["auto-e2e"]);
    await withBrowserServer({ home }, async (browser, server) => {
      const { page, errors } = await newPage(browser, DESKTOP);
      await openApp(page, server.url);
      await footFits(page);
      await page.click("[data-testid=open-automations]");
      await page.locator("[data-testid=automations-pane]").waitFor();
      assertMatch(
        await page.locator("[data-testid=automations-missed-note]").innerText(),
        /missed while it was down .* are not replayed/,
      );
      await page.locator("[data-testid=automations-empty]").waitFor();

      // Create: weekdays at 08:30 with the mock model; approval stays "edit".
      await page.click("[data-testid=automation-add]");
      await page.fill("[data-testid=automation-name]", "Morning check");
      await page.fill("[data-testid=automation-prompt]", "Check the workspace");
      await page.click("[data-testid=automation-preset-weekdays]");
      await page.fill("[data-testid=automation-time]", "08:30");
      await page.selectOption("[data-testid=automation-model]", { label: "Mock · auto-e2e" });
      assertEquals(await page.locator("[data-testid=automation-approval]").inputValue(), "edit");
      assertMatch(
        await page.locator("[data-testid=automation-summary]").innerText(),
        /Weekdays at 08:30/,
      );
      await page.click("[data-testid=automation-save]");
      const row = page.locator("[data-testid=automation-row]");
      await row.waitFor();
      assertEquals(
        await row.locator("[data-testid=automation-rule]").innerText(),
        "Weekdays at 08:30",
      );
      assertMatch(await row.locator("[data-testid=automation-next]").innerText(), /^Next: /);

      // Run now: a task is created and runs against the mock model to Done.
      await row.locator("[data-testid=automation-run-now]").click();
      const run = page.locator("[data-testid=automation-run]").first();
      await run.and(page.locator("[data-status=done]")).waitFor({ timeout: 30_000 });
      assertEquals(await run.locator("[data-testid=automation-run-status]").innerText(), "Done");
      assertEquals(await row.locator("[data-testid=automation-count]").innerText(), "1 run");
      await screenshot(page, "desktop-automations");

      await run.locator("[data-testid=automation-run-task]").click();
      await page.locator("[data-testid=settings-view]").waitFor({ state: "detached" });
      await page.locator("[data-testid=entry][data-role=user]", { hasText: "Check the workspace" })
        .waitFor();
      await page.getByText("Automation ran fine.").waitFor();
      assert(mock.requests("auto-e2e").length >= 1, "the mock model was asked");

      // A custom rule: every 2 weeks on Monday and Friday.
      await page.click("[data-testid=open-automations]");
      await page.click("[data-testid=automation-add]");
      await page.fill("[data-testid=automation-name]", "Biweekly review");
      await page.fill("[data-testid=automation-prompt]", "Review open branches");
      await page.click("[data-testid=automation-preset-custom]");
      await page.selectOption("[data-testid=automation-unit]", "weekly");
      await page.fill("[data-testid=automation-interval]", "2");
      await page.click("[data-testid=automation-weekdays] [data-value='5']");
      await page.fill("[data-testid=automation-time]", "17:00");
      assertMatch(
        await page.locator("[data-testid=automation-summary]").innerText(),
        /Every 2 weeks on Mon, Fri at 17:00/,
      );
      await screenshot(page, "desktop-automation-form");
      await page.click("[data-testid=automation-save]");
      await page.locator("[data-testid=automation-row]").nth(1).waitFor();
      assertEquals(errors, [], "the page logged errors");

      // Phone: the same page from the drawer, nothing wider than the screen.
      const phone = await newPage(browser, PHONE);
      await openApp(phone.page, server.url);
      await phone.page.click("[data-testid=open-drawer]");
      await drawerShown(phone.page);
      await footFits(phone.page);
      await phone.page.click("[data-testid=open-automations]");
      await phone.page.locator("[data-testid=automation-row]").nth(1).waitFor();
      await phone.page.locator("[data-testid=automation-run]").first().waitFor();
      // The drawer has slid away (the screenshot shows the page alone).
      await phone.page.waitForFunction(() =>
        document.querySelector("[data-testid=sidebar]")!.getBoundingClientRect().right <= 0
      );
      await noHorizontalScroll(phone.page, PHONE.width);
      await screenshot(phone.page, "phone-automations");
      await phone.page.locator("[data-testid=automation-edit]").nth(1).click();
      await phone.page.locator("[data-testid=automation-form]").waitFor();
      assertEquals(await phone.page.locator("[data-testid=automation-interval]").inputValue(), "2");
      await noHorizontalScroll(phone.page, PHONE.width);
      await screenshot(phone.page, "phone-automation-form");
      await phone.page.click("[data-testid=automation-cancel]");
      // Two-step delete.
      await phone.page.locator("[data-testid=automation-delete]").nth(1).click();
      await phone.page.click("[data-testid=automation-delete-confirm]");
      await phone.page.locator("[data-testid=automation-row]").nth(1).waitFor({
        state: "detached",
      });
      assertEquals(phone.errors, [], "the phone page logged errors");
    }, () => mock.close());
  },
);
