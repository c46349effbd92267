/** A running command's output appears in its card while it runs. */
import { assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, pickModel, send } from "./run_helpers.ts";

Deno.test("exec card: live output while the command runs, then the result", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("slowcmd", {
    turns: [
      {
        toolCalls: [{
          name: "exec_command",
          args: { command: "echo first-line; sleep 2; echo second-line" },
        }],
      },
      { text: "Ran it." },
    ],
  });
  // The card is under test, not the approval gate: commands run without asking.
  const home = await homeWithProvider(mock.base, ["slowcmd"], { defaultApproval: "full" });
  try {
    await withPage({ width: 1280, height: 800 }, async (page, server) => {
      await openApp(page, server.url);
      await pickModel(page, "mock/slowcmd", "slowcmd");
      await send(page, "run the slow command");
      const out = lastTurn(page).locator(
        "[data-testid=tool-card][data-tool=exec_command] [data-testid=exec-output]",
      );
      await out.waitFor({ timeout: 10_000 });
      // Before the command ends, the first line is already shown; the second is not.
      await page.waitForFunction(() => {
        const el = document.querySelector(
          "[data-testid=tool-card][data-tool=exec_command] [data-testid=exec-output]",
        );
        return el?.textContent?.includes("first-line") ?? false;
      });
      const during = await out.innerText();
      assertMatch(during, /first-line/);
      if (/second-line/.test(during)) {
        throw new Error("expected to see the output before the command ended");
      }
      await screenshot(page, "desktop-exec-live");
      // The result replaces the live output (a finished turn collapses: the badge is in the DOM).
      await page.locator("[data-testid=exit-badge]").waitFor({
        state: "attached",
        timeout: 10_000,
      });
    }, { home });
  } finally {
    await mock.close();
  }
});
