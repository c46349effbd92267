/**
 * The background-work badge in a real (headless) Chromium on desktop
 * (1280×800) and phone (390×844): a background command the agent started shows in the
 * composer's badge with its output tail and duration, live, and Stop ends it (the badge
 * goes). Screenshots: test-output/screenshots/{desktop,phone}-background-badge.png.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { openApp, screenshot, withPage } from "./browser.ts";
import { pickModel, send } from "./run_helpers.ts";

const tid = (id: string) => `[data-testid=${id}]`;

for (
  const [prefix, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const
) {
  Deno.test(`background badge: a running command, its output, Stop (${prefix})`, async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("bg", {
      turns: [
        {
          toolCalls: [{
            name: "background_bash",
            args: { command: "echo dev-server-listening; sleep 120" },
          }],
        },
        { text: "The dev server runs in the background." },
      ],
    });
    try {
      const home = await homeWithProvider(mock.base, ["bg"], { defaultApproval: "full" });
      await withPage(viewport, async (page, server) => {
        await openApp(page, server.url);
        await pickModel(page, "mock/bg", "bg");
        await send(page, "start the dev server");
        await page.locator(`${tid("turn-status")}[data-state=done]`).waitFor({ timeout: 15_000 });
        const badge = page.locator(tid("bg-badge"));
        await badge.waitFor();
        assertEquals(await page.locator(tid("bg-badge-count")).innerText(), "1");
        await badge.click();
        const row = page.locator(tid("bg-job"));
        await row.waitFor();
        assert((await row.innerText()).includes("echo dev-server-listening; sleep 120"));
        await page.locator(`${tid("bg-job-tail")}:has-text("dev-server-listening")`).waitFor();
        await screenshot(page, `${prefix}-background-badge`);
        await row.locator(tid("bg-job-stop")).click();
        await badge.waitFor({ state: "detached", timeout: 5000 });
      }, { home });
    } finally {
      await mock.close();
    }
  });
}
