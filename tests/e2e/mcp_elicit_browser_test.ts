/**
 * An MCP server's question (elicitation) in a real (headless) Chromium: during a turn
 * the agent calls the server's tool, the server asks a form, the page shows it (a
 * dialog on desktop, a bottom sheet on the phone) with the server's text as text; the
 * answer reaches the server, which the tool's result shows. Decline on the phone.
 * Screenshots: desktop-mcp-elicit.png, phone-mcp-elicit.png.
 */
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import {
  clickNewTask,
  noHorizontalScroll,
  openApp,
  screenshot,
  withBrowserServer,
} from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { card, DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import { saveServers } from "../../server/mcp/config.ts";
import { startElicitServer } from "../helpers/mcp_elicit_server.ts";

for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  Deno.test(`MCP question form (${name})`, async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("asks", {
      turns: [
        { text: "Asking.", toolCalls: [{ id: "q1", name: "mcp__asker__ask", args: {} }] },
        { text: "Thanks." },
      ],
    });
    const srv = startElicitServer();
    const home = await homeWithProvider(mock.base, ["asks"], { defaultApproval: "full" });
    await saveServers(home, [
      { id: "asker", enabled: true, transport: "http", command: "", args: [], url: srv.url },
    ]);
    await withBrowserServer({ home }, async (browser, server) => {
      const { page, errors } = await newPage(browser, viewport);
      await openApp(page, server.url);
      if (name === "phone") await clickNewTask(page);
      await pickModel(page, "mock/asks", "asks");
      await send(page, "Ask me");
      const dialog = page.locator("[data-testid=elicit-dialog]");
      await dialog.waitFor({ timeout: 30_000 });
      assertEquals(
        await dialog.locator("[data-testid=elicit-message]").innerText(),
        "Who <b>are</b> you?",
      );
      await dialog.locator("#elicit-name").fill("Ada");
      await dialog.locator("#elicit-team").selectOption("blue");
      if (name === "phone") await noHorizontalScroll(page, PHONE.width);
      await screenshot(page, `${name}-mcp-elicit`);
      if (name === "desktop") await dialog.locator("[data-testid=elicit-accept]").click();
      else await dialog.locator("[data-testid=elicit-decline]").click();
      await dialog.waitFor({ state: "detached" });
      await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
        timeout: 60_000,
      });
      await lastTurn(page).locator("[data-testid=turn-status] button").click();
      const c = card(page, "mcp__asker__ask");
      await c.locator(".tool-head").click();
      const out = await c.locator("[data-testid=tool-output]").innerText();
      if (name === "desktop") assertMatch(out, /"action":"accept".*"name":"Ada","team":"blue"/s);
      else assertMatch(out, /"action":"decline"/);
      assertEquals(errors, []);
    }, async () => {
      await srv.close();
      await mock.close();
    });
  });
}
