/**
 * A turn whose answer ended without being complete says so under the turn: the model's
 * refusal (no Continue) and the output limit (with Continue, which resumes the run).
 * Screenshots: test-output/screenshots/desktop-stop-refusal.png, desktop-stop-max-tokens.png.
 */
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, newDraft, pickModel, send } from "./run_helpers.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";

Deno.test("stop notice: refusal and output limit shown on the turn", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("refuses", { turns: [{ text: "", stopReason: "refusal" }], repeatLast: true });
  mock.register("cut", {
    turns: [
      { text: "The list goes on: one, two, three and", stopReason: "max_tokens" },
      { text: " four." },
    ],
    repeatLast: true,
  });
  const home = await homeWithMockProvider(mock.base, ["refuses", "cut"], {});
  try {
    await withPage({ width: 1280, height: 800 }, async (page, server) => {
      await openApp(page, server.url);
      await newDraft(page);
      await pickModel(page, "mock/refuses", "refuses");
      await send(page, "Something the model will not do");
      const refusal = lastTurn(page).locator("[data-testid=refusal]");
      await refusal.waitFor({ timeout: 15_000 });
      assertMatch(await refusal.innerText(), /The model declined to answer/);
      assertEquals(await refusal.locator("[data-testid=continue]").count(), 0);
      await screenshot(page, "desktop-stop-refusal");

      await newDraft(page);
      await pickModel(page, "mock/cut", "cut");
      await send(page, "List the numbers");
      const cut = lastTurn(page).locator("[data-testid=max-tokens]");
      await cut.waitFor({ timeout: 15_000 });
      assertMatch(await cut.innerText(), /The answer hit the output limit/);
      await screenshot(page, "desktop-stop-max-tokens");
      // Continue resumes: the next answer ends normally and the notice goes away.
      await cut.locator("[data-testid=continue]").click();
      await lastTurn(page).locator("[data-testid=max-tokens]").waitFor({ state: "detached" });
    }, { home });
  } finally {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});
