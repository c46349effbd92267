/**
 * An MCP server's resources in the composer's `@` picker, in a real (headless) Chromium
 * against the real server, a real stdio MCP server process and the mock LLM, on desktop
 * (1280×800) and phone (390×844): typing `@dai` lists the workspace's matching file,
 * then the server's "Daily notes" under "MCP resources" with the server's name; picking it (keyboard on desktop, tap on the
 * phone) makes the `@notes:notes://daily` token and a chip; a template is picked and
 * completed; a URI the server does not know is refused with its reason and the text
 * stays in the composer; the sent message shows the resource as a chip and the mock
 * LLM receives its content in the user turn. Screenshots:
 * test-output/screenshots/{desktop,phone}-mcp-mention-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { saveServers } from "../../server/mcp/config.ts";
import {
  clickNewTask,
  noHorizontalScroll,
  openApp,
  screenshot,
  withBrowserServer,
} from "./browser.ts";
import { pickModel } from "./run_helpers.ts";
import { newPage } from "./approval_helpers.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const ROOT = new URL("../..", import.meta.url).pathname;
const tid = (id: string) => `[data-testid=${id}]`;
const input = (page: Page) => page.locator(tid("composer-input"));
const item = (page: Page, path: string) =>
  page.locator(`${tid("mention-item")}[data-path="${path}"]`);

async function typeSlow(page: Page, text: string): Promise<void> {
  await input(page).pressSequentially(text, { delay: 15 });
}

async function flow(page: Page, url: string, phone: boolean, requests: () => unknown[]) {
  const prefix = phone ? "phone" : "desktop";
  await openApp(page, url);
  if (phone) await clickNewTask(page);
  await pickModel(page, "mock/echo", "echo");

  // ---- a URI the server does not know: refused with its reason, the text kept ----
  await input(page).click();
  await input(page).fill("Read @notes:notes://nope please");
  await input(page).press("Enter");
  const notice = page.locator(tid("error-notice"), { hasText: "could not read it" });
  await notice.waitFor({ timeout: 60_000 });
  assertMatch(await notice.innerText(), /Resource not found: notes:\/\/nope/);
  assertEquals(await input(page).inputValue(), "Read @notes:notes://nope please");
  await screenshot(page, `${prefix}-mcp-mention-error`);
  await notice.locator("button").first().click();
  await input(page).fill("");

  // ---- the picker: the server's resources under their own heading ----
  await typeSlow(page, "Summarise @dai");
  const picker = page.locator(tid("mention-menu"));
  await picker.waitFor();
  // The server connected when the first message was sent; its list comes with the query.
  await item(page, "notes:notes://daily").waitFor({ timeout: 30_000 });
  const row = item(page, "notes:notes://daily");
  assertMatch(await row.innerText(), /Daily notes/);
  assertEquals(await row.locator(tid("mention-server")).innerText(), "notes");
  assertMatch(
    await picker.locator(".suggest-head").innerText(),
    /Files, folders and MCP resources/,
  );
  // The workspace's file comes first, the resources under their own heading.
  await item(page, "daily-report.md").waitFor();
  assert(await picker.locator(".suggest-group", { hasText: "MCP resources" }).isVisible());
  await noHorizontalScroll(page, (await page.viewportSize())!.width);
  await screenshot(page, `${prefix}-mcp-mention-picker`);
  if (phone) {
    const h = await row.evaluate((e) => e.getBoundingClientRect().height);
    assert(h >= 44, `row ${h}px`);
    await row.click();
  } else {
    await input(page).press("ArrowDown");
    assertEquals(
      await page.locator(`${tid("mention-item")}[data-active=true]`).getAttribute("data-path"),
      "notes:notes://daily",
    );
    await input(page).press("Enter");
  }
  assertEquals(await input(page).inputValue(), "Summarise @notes:notes://daily ");
  await picker.waitFor({ state: "detached" });
  const chip = page.locator(`${tid("mention-chip")}[data-kind=resource]`);
  await chip.waitFor();
  assertMatch(await chip.innerText(), /Daily notes\s*notes/);

  // ---- a template: its fixed part is inserted, the rest typed ----
  await typeSlow(page, "and @day");
  await item(page, "notes:notes://day/{date}").waitFor();
  await item(page, "notes:notes://day/{date}").click();
  assertEquals(
    await input(page).inputValue(),
    "Summarise @notes:notes://daily and @notes:notes://day/",
  );
  await typeSlow(page, "2024-05-01 ");
  await page.locator(tid("mention-chip"), { hasText: "notes://day/2024-05-01" }).waitFor();
  await noHorizontalScroll(page, (await page.viewportSize())!.width);
  await screenshot(page, `${prefix}-mcp-mention-chip`);

  // ---- sent: a chip in the timeline, the content in the model's user turn ----
  await input(page).press("Enter");
  const sent = page.locator(`${tid("entry")}[data-role=user]`).last();
  await sent.locator(
    `${tid("message-mention")}[data-kind=resource][data-path="notes:notes://daily"]`,
  )
    .waitFor();
  await sent.locator(`${tid("message-mention")}[data-path="notes:notes://day/2024-05-01"]`)
    .waitFor();
  await page.locator(tid("final-answer")).last().waitFor();
  const body = JSON.stringify(requests());
  assert(body.includes('<resource server=\\"notes\\" uri=\\"notes://daily\\"'), "a resource block");
  assert(body.includes("Buy milk. MARKER-DAILY-7"), "the resource's text reached the model");
  assert(body.includes("Notes of 2024-05-01"), "the template's resource too");
  await noHorizontalScroll(page, (await page.viewportSize())!.width);
  await screenshot(page, `${prefix}-mcp-mention-sent`);
}

for (const [prefix, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  Deno.test(`MCP resources attached with @ (${prefix})`, async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("echo", { turns: [{ text: "Read it." }], repeatLast: true });
    const home = await homeWithProvider(mock.base, ["echo"], {
      workspaceFiles: { "daily-report.md": "# Report\n" },
    });
    await saveServers(home, [{
      id: "notes",
      enabled: true,
      transport: "stdio",
      command: Deno.execPath(),
      args: [
        "run",
        "-A",
        "--quiet",
        "--config",
        `${ROOT}deno.json`,
        `${ROOT}tests/fixtures/mcp_resource_server.ts`,
      ],
      timeoutMs: 60_000,
    }]);
    await withBrowserServer({ home }, async (browser, server) => {
      const { page, errors } = await newPage(browser, viewport);
      await flow(page, server.url, prefix === "phone", () => mock.requests("echo"));
      // The refused send is logged once (with the server's reason); nothing else.
      assertEquals(errors.length, 1, errors.join("\n"));
      assertMatch(errors[0], /error\.create: .*could not read it: Resource not found/);
    }, async () => {
      await mock.close();
      await Deno.remove(home, { recursive: true });
    });
  });
}
