/**
 * From nothing to an answer through the UI only: add a provider pointing at
 * the mock LLM in Settings, fetch and enable a model, pick it in the composer, run a
 * turn with thinking + answer. Desktop and phone. Screenshots: *-settings-run.png.
 */
import type { Page } from "playwright-core";
import { assertMatch } from "../helpers/assert.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, send, strip } from "./run_helpers.ts";

const tid = (id: string) => `[data-testid=${id}]`;

async function configure(page: Page, base: string): Promise<void> {
  // On a phone the gear lives in the sidebar drawer.
  if ((page.viewportSize()?.width ?? 1280) < 768) await page.click(tid("open-drawer"));
  await page.click(tid("open-settings"));
  await page.waitForSelector(tid("settings-view"));
  await page.click(tid("add-provider"));
  await page.fill(tid("provider-form-name"), "Mock LLM");
  await page.fill(tid("provider-form-base-url"), base);
  await page.fill(tid("provider-form-key"), "sk-settings-run");
  await page.click(tid("provider-form-save"));
  await page.waitForSelector(`${tid("provider-title")} >> text=Mock LLM`);
  await page.click(tid("fetch-models"));
  await page.waitForSelector(tid("fetch-status"));
  const echo = page.locator(`${tid("model-row")}[data-model-id="mock-echo"]`);
  await echo.locator(tid("model-enabled")).check();
  await page.waitForFunction(() =>
    (document.querySelector(
      '[data-model-id="mock-echo"] [data-testid=model-enabled]',
    ) as HTMLInputElement)?.checked
  );
  await page.click(tid("close-settings"));
  await page.waitForSelector(tid("settings-view"), { state: "detached" });
}

for (
  const [label, viewport] of [["desktop", { width: 1280, height: 800 }], ["phone", {
    width: 390,
    height: 844,
  }]] as const
) {
  Deno.test(`settings → composer → answer (${label})`, async () => {
    const mock = startMockLlm({ quiet: true });
    try {
      await withPage(viewport, async (page, server) => {
        await openApp(page, server.url);
        await configure(page, mock.base);
        await page.click(tid("model-select"));
        await page.click(`${tid("model-option")}[data-value$="/mock-echo"]`);
        await send(page, "Say hello please");
        await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
          timeout: 20_000,
        });
        const final = lastTurn(page).locator(tid("final-answer"));
        assertMatch(await final.innerText(), /Hello from the mock model\./);
        await lastTurn(page).locator(`${tid("turn-status")} button`).click();
        assertMatch(
          await lastTurn(page).locator(tid("thinking")).first().innerText(),
          /Thought for/,
        );
        if (label === "phone") await noHorizontalScroll(page, viewport.width);
        await screenshot(page, `${label}-settings-run`);
      });
    } finally {
      await mock.close();
    }
  });
}
