/**
 * MCP OAuth sign-in in a real (headless) Chromium against the real server, a local
 * authorization server and the MCP server it protects: the row says the server needs a
 * sign-in; Sign in opens the authorization page in a new window, which comes back to
 * our callback route (without the app's cookie) and says so; the row then shows the
 * token masked — never in full — and Sign out revokes it at the server. Desktop and
 * phone. Screenshots: desktop-mcp-oauth.png, phone-mcp-oauth.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { noHorizontalScroll, openApp, screenshot, withBrowserServer } from "./browser.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import { saveServers } from "../../server/mcp/config.ts";
import { startOAuthPair } from "../helpers/mcp_oauth_server.ts";

const row = (page: import("playwright-core").Page) =>
  page.locator(`[data-testid=mcp-row][data-server=guarded]`);

for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  Deno.test(`MCP OAuth sign-in from the MCP page (${name})`, async () => {
    const pair = startOAuthPair();
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    await saveServers(home, [{
      id: "guarded",
      description: "An MCP server behind OAuth",
      enabled: true,
      transport: "http",
      command: "",
      args: [],
      url: pair.mcpUrl,
    }]);
    await withBrowserServer({ home }, async (browser, server) => {
      const { page, errors } = await newPage(browser, viewport);
      await openApp(page, server.url);
      if (name === "phone") await page.click("[data-testid=open-drawer]");
      await page.click("[data-testid=open-mcp]");
      await page.locator("[data-testid=mcp-pane]").waitFor();
      await row(page).locator("[data-testid=mcp-restart]").click();
      await row(page).locator("[data-testid=mcp-signin]").waitFor();

      const popup = page.waitForEvent("popup");
      await row(page).locator("[data-testid=mcp-signin]").click();
      const signIn = await popup;
      await signIn.waitForLoadState();
      assertMatch(await signIn.locator("[data-result]").innerText(), /Signed in to the MCP server/);
      assertEquals(await signIn.locator("[data-result]").getAttribute("data-result"), "ok");
      await signIn.close();

      const line = row(page).locator("[data-testid=mcp-oauth][data-signed-in=true]");
      await line.waitFor();
      const shown = await line.locator("[data-testid=mcp-oauth-token]").innerText();
      const [token] = [...pair.access.keys()];
      assert(shown.startsWith("••••"), shown);
      assert(!(await page.content()).includes(token), "the full token is never on the page");
      await row(page).locator("[data-testid=mcp-restart]").click();
      await row(page).locator("[data-testid=mcp-state]", { hasText: "Connected" }).waitFor();
      if (name === "phone") await noHorizontalScroll(page, PHONE.width);
      await row(page).scrollIntoViewIfNeeded();
      await screenshot(page, `${name}-mcp-oauth`);

      await row(page).locator("[data-testid=mcp-signout]").click();
      await row(page).locator("[data-testid=mcp-oauth][data-signed-in=true]").waitFor({
        state: "detached",
      });
      assert(pair.access.get(token)!.revoked, "revoked at the authorization server");
      assertEquals(errors, []);
    }, () => pair.close());
  });
}
