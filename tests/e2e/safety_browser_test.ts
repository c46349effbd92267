/**
 * Command safety in the browser (desktop 1280×800 and phone 390×844): Settings shows
 * what commands can see (withheld variables, allow-list, hidden paths); a safety
 * change made by another client shows as a notice naming it; with the sandbox off the
 * approval menu says so and full mode asks once per task before the first command.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { TestClient } from "../helpers/ws_client.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import {
  noHorizontalScroll,
  openApp,
  screenshot,
  watchErrors,
  withBrowserServer,
} from "./browser.ts";
import { newDraft, pickModel } from "./run_helpers.ts";

const tid = (id: string) => `[data-testid=${id}]`;

async function openGeneral(page: Page) {
  await page.click(`${tid("open-settings")} >> visible=true`);
  await page.waitForSelector(tid("settings-view"));
  await page.click(tid("settings-tab-general"));
  await page.waitForSelector(tid("command-safety"));
}

for (
  const [label, viewport] of [["desktop", { width: 1280, height: 800 }], ["phone", {
    width: 390,
    height: 844,
  }]] as const
) {
  Deno.test(
    `safety (${label}): what commands see, notices of lowered safety, unsandboxed ask`,
    async () => {
      const mock = startMockLlm({ quiet: true });
      mock.register("cmd", {
        turns: [
          { toolCalls: [{ name: "exec_command", args: { command: "echo first" } }] },
          { toolCalls: [{ name: "exec_command", args: { command: "echo second" } }] },
          { text: "Both commands ran." },
        ],
      });
      const home = await homeWithProvider(mock.base, ["cmd"]);
      try {
        await withBrowserServer({
          home,
          env: { E2E_SECRET_TOKEN: "t0ps3cr3t-value", GH_TOKEN: "ghp_e2e" },
        }, async (browser, server) => {
          const context = await browser.newContext({ viewport, locale: "en-US" });
          const page = await context.newPage();
          const errors = watchErrors(page);
          await openApp(page, server.url);
          if (label === "phone") {
            const menu = page.locator(tid("open-drawer"));
            if (await menu.isVisible()) await menu.click();
          }
          await openGeneral(page);
          const safety = page.locator(tid("command-safety"));
          await page.waitForSelector(`${tid("safety-withheld")} >> text=E2E_SECRET_TOKEN`);
          assert(!(await safety.innerText()).includes("t0ps3cr3t"), "values never reach the UI");
          assertMatch(await page.locator(tid("safety-sandbox")).innerText(), /bubblewrap/);
          // Allow-list: a bad name is refused on the page; GH_TOKEN is let through.
          await page.fill(tid("safety-allow"), "GH_TOKEN 9bad");
          await page.click(tid("safety-allow-save"));
          await page.waitForSelector(`${tid("command-safety")} >> text=Not a variable name: 9bad`);
          await page.fill(tid("safety-allow"), "GH_TOKEN");
          await page.click(tid("safety-allow-save"));
          await page.waitForSelector(`${tid("safety-allow-save")} >> text=Saved`);
          await page.waitForFunction(() =>
            !document.querySelector("[data-testid=safety-withheld]")?.textContent?.includes(
              "GH_TOKEN",
            )
          );
          // Our own lowering shows as a notice too (with who did it).
          await page.waitForSelector(
            `${tid("safety-notice")} >> text=Commands may now see GH_TOKEN`,
          );
          const hidden = (await page.locator(tid("safety-hidden")).inputValue()).split("\n");
          assert(hidden.includes("~/.ssh") && hidden.includes("~/.aws"), JSON.stringify(hidden));
          await page.locator(tid("safety-allow")).scrollIntoViewIfNeeded();
          await screenshot(page, `${label}-settings-command-safety`);
          if (label === "phone") await noHorizontalScroll(page, viewport.width);

          // Another client turns the sandbox off: this page is told who did it.
          const other = await TestClient.connect(server.base, server.token);
          await other.request("settings.set", { sandboxLevel: "off", defaultApproval: "full" });
          const notice = page.locator(tid("safety-notice")).last();
          await notice.locator("text=Shell sandbox: workspace write → off").waitFor();
          assertMatch(await notice.innerText(), /Safety lowered by Command line from 127\.0\.0\.1/);
          await page.waitForSelector(`${tid("safety-sandbox")} >> text=The shell sandbox is off`);
          await screenshot(page, `${label}-safety-notice`);
          await other.close();

          // The approval menu says commands run unsandboxed; full mode asks once.
          await page.goBack();
          await newDraft(page);
          await pickModel(page, "mock/cmd", "cmd");
          await page.click(tid("approval-select"));
          await page.waitForSelector(
            `${tid("approval-unsandboxed-note")} >> text=Shell sandbox is off`,
          );
          await screenshot(page, `${label}-approval-menu-unsandboxed`);
          await page.keyboard.press("Escape");
          const input = page.locator(tid("composer-input"));
          await input.fill("run two commands");
          await input.press("Enter");
          const card = page.locator(`${tid("approval-card")}[data-kind=unsandboxed]`);
          await card.waitFor();
          assertMatch(await card.innerText(), /run unsandboxed, as you/);
          assertMatch(await card.innerText(), /\$ echo first/);
          await screenshot(page, `${label}-approval-unsandboxed`);
          await card.locator(tid("approval-allow")).click();
          await page.waitForSelector("text=Both commands ran.");
          assertEquals(await page.locator(tid("approval-card")).count(), 0, "asked only once");
          assertEquals(errors, [], "the page logged errors");
          await context.close();
        });
      } finally {
        await mock.close();
      }
    },
  );
}
