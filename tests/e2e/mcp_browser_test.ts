/**
 * The MCP page and the MCP tool card in a real (headless) Chromium against the real
 * server, the mock LLM and a real server-everything child: rows with state, tool
 * count and the phase badge of a server that cannot start; test, add, import, delete;
 * a turn calling two MCP tools (text and an image) with the failing server announced;
 * desktop and phone. Screenshots: desktop-mcp-page.png, desktop-mcp-card.png,
 * phone-mcp-page.png, phone-mcp-card.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import {
  clickNewTask,
  drawerShown,
  noHorizontalScroll,
  openApp,
  screenshot,
  withBrowserServer,
} from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { card, DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import { everythingStdio, mcpPackagesAvailable } from "../helpers/mcp_servers.ts";
import { saveServers } from "../../server/mcp/config.ts";
import { TestClient } from "../helpers/ws_client.ts";

const available = await mcpPackagesAvailable();
const opts = { ignore: !available };

function startMcpMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("mcp-tools", {
    turns: [
      {
        text: "Using the MCP server.",
        toolCalls: [
          { id: "m1", name: "mcp__everything__echo", args: { message: "hello from MCP" } },
          { id: "m2", name: "mcp__everything__get-tiny-image", args: {} },
        ],
      },
      { text: "Both MCP tools answered." },
    ],
    repeatLast: true,
  });
  return mock;
}

async function seed(base: string): Promise<string> {
  const home = await homeWithProvider(base, ["mcp-tools"], { defaultApproval: "full" });
  await saveServers(home, [
    everythingStdio(),
    { id: "broken", enabled: true, transport: "stdio", command: "/no/such/mcp-server", args: [] },
  ]);
  return home;
}

async function until(cond: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const row = (page: import("playwright-core").Page, id: string) =>
  page.locator(`[data-testid=mcp-row][data-server=${id}]`);

Deno.test("MCP page and tool card (desktop)", opts, async () => {
  const mock = startMcpMock();
  const home = await seed(mock.base);
  await withBrowserServer({ home }, async (browser, server) => {
    const { page, errors } = await newPage(browser, DESKTOP);
    await openApp(page, server.url);

    // A turn with MCP tools: the broken server is announced, the turn still runs.
    await pickModel(page, "mock/mcp-tools", "mcp-tools");
    await send(page, "Use the MCP tools");
    await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({ timeout: 60_000 });
    const toast = page.locator("[data-testid=error-notice]", { hasText: "MCP server broken" });
    await toast.waitFor();
    assertMatch(await toast.innerText(), /command not found: \/no\/such\/mcp-server/);
    await toast.locator("button").click();
    await lastTurn(page).locator("[data-testid=turn-status] button").click();
    const echo = card(page, "mcp__everything__echo");
    await echo.waitFor();
    assertEquals(await echo.getAttribute("data-status"), "done");
    assertEquals(await echo.locator(".tool-name").innerText(), "echo");
    assertEquals(
      await echo.locator("[data-testid=mcp-card-server]").innerText(),
      "MCP · everything",
    );
    await echo.locator(".tool-head").click();
    assertMatch(await echo.locator("[data-testid=mcp-card-args]").innerText(), /hello from MCP/);
    assertEquals(
      await echo.locator("[data-testid=tool-output]").innerText(),
      "Echo: hello from MCP",
    );
    const image = card(page, "mcp__everything__get-tiny-image");
    await image.locator(".tool-head").click();
    await image.locator("[data-testid=mcp-card-image]").waitFor();
    const w = await image.locator("[data-testid=mcp-card-image]").evaluate((el) =>
      (el as HTMLImageElement).naturalWidth
    );
    assert(w > 0, "the image decoded");
    await echo.scrollIntoViewIfNeeded();
    await screenshot(page, "desktop-mcp-card");

    // The MCP page from the sidebar: the rows, the failing one marked.
    await page.click("[data-testid=open-mcp]");
    await page.locator("[data-testid=mcp-pane]").waitFor();
    await row(page, "everything").locator("[data-testid=mcp-state]", { hasText: "Connected" })
      .waitFor();
    assertEquals(
      await row(page, "everything").locator("[data-testid=mcp-tool-count]").innerText(),
      "14 tools", // with trigger-elicitation-request: ReinAgent offers elicitation
    );
    assertEquals(await row(page, "broken").getAttribute("data-state"), "failed");
    assertEquals(
      await row(page, "broken").locator("[data-testid=mcp-error-badge]").innerText(),
      "Could not start",
    );
    await page.locator("[data-testid=mcp-failing-dot]").waitFor();
    // The running server's stderr tail is kept and can be read.
    const tail = row(page, "everything").locator("[data-testid=mcp-stderr-tail]");
    await tail.locator("summary").click();
    assertMatch(await tail.locator("pre").innerText(), /Starting default \(STDIO\) server/);
    await row(page, "broken").locator("[data-testid=mcp-test]").click();
    const failed = row(page, "broken").locator("[data-testid=mcp-test-result][data-ok=false]");
    await failed.waitFor();
    assertMatch(await failed.innerText(), /Failed: Could not start/);
    await row(page, "everything").locator("[data-testid=mcp-test]").click();
    const okLine = row(page, "everything").locator("[data-testid=mcp-test-result][data-ok=true]");
    await okLine.waitFor({ timeout: 30_000 });
    assertMatch(await okLine.innerText(), /Connected · 14 tools · \d+ ms/);
    await screenshot(page, "desktop-mcp-page");

    // Per-tool approval from the tool list of a connected server.
    await row(page, "everything").locator("[data-testid=mcp-tool-count]").click();
    const echoTool = row(page, "everything").locator("[data-testid=mcp-tool][data-tool=echo]");
    assertEquals(await echoTool.locator(".mcp-id").getAttribute("title"), "mcp__everything__echo");
    await echoTool.locator("[data-testid=mcp-tool-policy]").selectOption("deny");
    await until(async () => {
      const f = JSON.parse(await Deno.readTextFile(`${home}/mcp_servers.json`));
      return f[0].toolPolicies?.echo === "deny";
    }, "the tool policy saved");
    await screenshot(page, "desktop-mcp-tools");
    await row(page, "everything").locator("[data-testid=mcp-tool-count]").click();

    // Add through the form (bad input first), then delete in two steps.
    await page.click("[data-testid=mcp-add]");
    await page.fill("[data-testid=mcp-form-id]", "bad id");
    await page.click("[data-testid=mcp-form-save]");
    await page.locator("[data-testid=mcp-form-id-error]").waitFor();
    await page.fill("[data-testid=mcp-form-id]", "added");
    await page.fill("[data-testid=mcp-form-command]", "/bin/true");
    await page.fill("[data-testid=mcp-form-args]", "one\ntwo words");
    await page.fill("[data-testid=mcp-form-env]", "MODE=test");
    await page.click("[data-testid=mcp-form-save]");
    await row(page, "added").waitFor();
    assertEquals(
      await row(page, "added").locator(".mcp-target").innerText(),
      '/bin/true one "two words"',
    );
    await row(page, "added").locator("[data-testid=mcp-delete]").click();
    await row(page, "added").locator("[data-testid=mcp-delete-confirm]").click();
    await row(page, "added").waitFor({ state: "detached" });

    // Import pasted JSON: the command string is split; a taken id is renamed.
    await page.click("[data-testid=mcp-import-open]");
    await page.fill(
      "[data-testid=mcp-import-text]",
      JSON.stringify({
        mcpServers: { "from json": { command: "npx -y some-server --root 'a b'" } },
      }),
    );
    await page.click("[data-testid=mcp-import-parse]");
    await page.locator("[data-testid=mcp-candidate]").waitFor();
    await page.click("[data-testid=mcp-import-run]");
    await row(page, "from-json").waitFor();
    assertEquals(
      await row(page, "from-json").locator(".mcp-target").innerText(),
      'npx -y some-server --root "a b"',
    );
    const file = JSON.parse(await Deno.readTextFile(`${home}/mcp_servers.json`));
    assertEquals(file.map((s: { id: string }) => s.id), ["everything", "broken", "from-json"]);

    // A task in a project with a .mcp.json: offered once, nothing runs before Import.
    const project = await Deno.makeTempDir({ prefix: "ra-mcp-project-" });
    await Deno.writeTextFile(
      `${project}/.mcp.json`,
      JSON.stringify({ mcpServers: { "project-tools": { command: "/bin/true", args: ["x"] } } }),
    );
    const ws = await TestClient.connect(server.base, server.token);
    const { task } = await ws.request("tasks.create", {
      title: "In a project",
      projectPath: project,
    });
    await ws.close();
    await page.goto(`${server.url}#/t/${task.id}`);
    const offer = page.locator("[data-testid=mcp-workspace-offer]");
    await offer.waitFor();
    assertMatch(
      await offer.innerText(),
      /\.mcp\.json defines 1 MCP server\(s\)[\s\S]*project-tools \/bin\/true x/,
    );
    await screenshot(page, "desktop-mcp-offer");
    await offer.locator("[data-testid=mcp-offer-import]").click();
    await offer.waitFor({ state: "detached" });
    const after = JSON.parse(await Deno.readTextFile(`${home}/mcp_servers.json`));
    assertEquals(after.at(-1).id, "project-tools");
    await page.reload();
    await page.locator("[data-testid=composer-input]").waitFor();
    assertEquals(await offer.count(), 0, "answered: not offered again");
    assertEquals(errors, [], "the page logged errors");
  }, () => mock.close());
});

Deno.test("MCP page and tool card (phone)", opts, async () => {
  const mock = startMcpMock();
  const home = await seed(mock.base);
  await withBrowserServer({ home }, async (browser, server) => {
    const { page, errors } = await newPage(browser, PHONE);
    await openApp(page, server.url);
    await clickNewTask(page);
    await pickModel(page, "mock/mcp-tools", "mcp-tools");
    await send(page, "Use the MCP tools");
    await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({ timeout: 60_000 });
    await lastTurn(page).locator("[data-testid=turn-status] button").click();
    const echo = card(page, "mcp__everything__echo");
    await echo.locator(".tool-head").click();
    await echo.locator("[data-testid=tool-output]").waitFor();
    await noHorizontalScroll(page, PHONE.width);
    await echo.scrollIntoViewIfNeeded();
    await screenshot(page, "phone-mcp-card");

    await page.click("[data-testid=open-drawer]");
    await drawerShown(page);
    await page.click("[data-testid=open-mcp]");
    await page.locator("[data-testid=mcp-pane]").waitFor();
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=sidebar]")!.getBoundingClientRect().right <= 0
    );
    await row(page, "broken").locator("[data-testid=mcp-error-badge]").waitFor();
    await noHorizontalScroll(page, PHONE.width);
    const test = row(page, "everything").locator("[data-testid=mcp-test]");
    const box = await test.boundingBox();
    assert(box && box.height >= 44, `touch target ${box?.height}`);
    await screenshot(page, "phone-mcp-page");
    assertEquals(errors, [], "the page logged errors");
  }, () => mock.close());
});
