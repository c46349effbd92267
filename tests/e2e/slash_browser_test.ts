/**
 * Slash commands and @ mentions in a real (headless) Chromium against the real server
 * and the mock LLM, on desktop (1280×800) and phone (390×844): the `/` menu's keyboard
 * flow (↑↓, Enter fills, Esc closes, a custom command listed), `/plan <task>` switching
 * the mode and its plan approved from the plan card, the `@` picker (keyboard on desktop, tap on the phone) and its chip in the
 * composer and in the sent message, the file's content in the model request, the goal
 * chip (set, pause, clear), `/help` and `/clear` with its confirmation. Screenshots:
 * test-output/screenshots/{desktop,phone}-slash-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { pickModel } from "./run_helpers.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const tid = (id: string) => `[data-testid=${id}]`;
const input = (page: Page) => page.locator(tid("composer-input"));

const FILES = {
  "src/main.ts": "export function main() { return 'mentioned body'; }\n",
  "src/util.ts": "export const x = 1;\n",
  "README.md": "# Demo\n",
};

async function seed(base: string): Promise<string> {
  const home = await homeWithMockProvider(base, ["echo"], { "README.md": FILES["README.md"] });
  const ws = `${home}/DefaultProject`;
  await Deno.mkdir(`${ws}/src`, { recursive: true });
  await Deno.mkdir(`${ws}/.reinagent/commands`, { recursive: true });
  for (const [p, text] of Object.entries(FILES)) await Deno.writeTextFile(`${ws}/${p}`, text);
  await Deno.writeTextFile(
    `${ws}/.reinagent/commands/review.md`,
    "---\ndescription: Review a file carefully\nargument-hint: <file>\n---\nReview $1.",
  );
  return home;
}

/** Heights of the visible elements matching `sel` (touch targets). */
const heights = (page: Page, sel: string) =>
  page.locator(sel).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));

async function typeSlow(page: Page, text: string): Promise<void> {
  await input(page).pressSequentially(text, { delay: 15 });
}

async function flow(
  page: Page,
  url: string,
  mock: ReturnType<typeof startMockLlm>,
  prefix: string,
) {
  const phone = prefix === "phone";
  await openApp(page, url);
  await page.waitForSelector(tid("empty-state"));
  await pickModel(page, "mock/echo", "echo");

  // ---- the / menu: built-ins and the workspace's custom command ----
  await input(page).click();
  await typeSlow(page, "/");
  const menu = page.locator(tid("slash-menu"));
  await menu.waitFor();
  await page.locator(`${tid("slash-item")}[data-name=review]`).waitFor();
  const names = await page.locator(tid("slash-item")).evaluateAll((els) =>
    els.map((e) => e.getAttribute("data-name"))
  );
  assertEquals(names, [
    "clear",
    "compact",
    "init",
    "plan",
    "goal",
    "cost",
    "model",
    "resume",
    "undo",
    "help",
    "review",
  ]);
  if (phone) {
    for (const h of await heights(page, tid("slash-item"))) assert(h >= 44, `row ${h}px`);
  }
  await noHorizontalScroll(page, (await page.viewportSize())!.width);
  await screenshot(page, `${prefix}-slash-menu`);

  // ↑↓ move (wrapping), Enter fills the input and closes the menu; nothing is sent.
  const active = () =>
    page.locator(`${tid("slash-item")}[data-active=true]`).getAttribute("data-name");
  assertEquals(await active(), "clear");
  await input(page).press("ArrowDown");
  assertEquals(await active(), "compact");
  await input(page).press("ArrowUp");
  await input(page).press("ArrowUp");
  assertEquals(await active(), "review", "↑ on the first row wraps to the last");
  await typeSlow(page, "pl");
  assertEquals(await active(), "plan", "a new query starts at its first row");
  await input(page).press("Enter");
  assertEquals(await input(page).inputValue(), "/plan ");
  await menu.waitFor({ state: "detached" });
  assertEquals(await page.locator(tid("entry")).count(), 0, "choosing does not send");
  // Esc closes the menu and keeps the text.
  await input(page).fill("");
  await typeSlow(page, "/g");
  await menu.waitFor();
  await input(page).press("Escape");
  await menu.waitFor({ state: "detached" });
  assertEquals(await input(page).inputValue(), "/g");

  // ---- /plan <task>: the new task is in plan mode and gets the task as its message ----
  await input(page).fill("/plan write the docs");
  await input(page).press("Enter");
  await page.locator(`${tid("entry")}[data-role=user]`, { hasText: "write the docs" }).waitFor();
  // (phones show the short label; the long one is in the DOM either way)
  await page.locator(tid("approval-label"), { hasText: "Plan" }).waitFor({ state: "attached" });
  await page.locator(tid("command-notice"), { hasText: "Plan mode" }).waitFor();
  // The plan comes back as a card to approve; approving leaves plan mode.
  const planCard = page.locator(tid("plan-card"));
  await planCard.waitFor();
  assertEquals(await planCard.locator(`${tid("plan-text")} li`).innerText(), "Write the docs");
  await screenshot(page, `${prefix}-slash-plan-card`);
  await planCard.locator(tid("plan-approve")).click();
  await page.locator(tid("approval-label"), { hasText: "Ask" }).waitFor({ state: "attached" });
  await page.locator(tid("final-answer")).first().waitFor();

  // ---- @ picker: fuzzy results, chosen by keyboard (desktop) or tap (phone) ----
  await input(page).click();
  await typeSlow(page, "Explain @src/ma");
  const picker = page.locator(tid("mention-menu"));
  await picker.waitFor();
  await page.locator(`${tid("mention-item")}[data-path="src/main.ts"]`).waitFor();
  assertEquals(
    await page.locator(tid("mention-item")).first().getAttribute("data-path"),
    "src/main.ts",
  );
  await noHorizontalScroll(page, (await page.viewportSize())!.width);
  await screenshot(page, `${prefix}-slash-mention-picker`);
  if (phone) {
    for (const h of await heights(page, tid("mention-item"))) assert(h >= 44, `row ${h}px`);
    await page.locator(`${tid("mention-item")}[data-path="src/main.ts"]`).click();
  } else await input(page).press("Enter");
  assertEquals(await input(page).inputValue(), "Explain @src/main.ts ");
  await picker.waitFor({ state: "detached" });
  await page.locator(tid("mention-chip"), { hasText: "src/main.ts" }).waitFor();
  await typeSlow(page, "briefly");
  await screenshot(page, `${prefix}-slash-mention-chip`);
  await input(page).press("Enter");
  const sent = page.locator(`${tid("entry")}[data-role=user]`).nth(1);
  await sent.locator(`${tid("message-mention")}[data-path="src/main.ts"]`).waitFor();
  assertMatch(await sent.innerText(), /Explain\s*@src\/main\.ts\s*briefly/);
  await page.locator(tid("final-answer")).nth(1).waitFor();
  const body = JSON.stringify(mock.requests("echo").map((r) => r.body));
  assert(body.includes("mentioned body"), "the file's content reached the model");
  assert(body.includes('<file path=\\"src/main.ts\\">'), "as a <file> block");

  // ---- goal chip: set with /goal, pause, clear ----
  await input(page).fill("/goal Ship the docs site");
  await input(page).press("Enter");
  const chip = page.locator(tid("goal-chip"));
  await chip.waitFor();
  assertEquals(await chip.locator(tid("goal-text")).innerText(), "Ship the docs site");
  if (phone) {
    for (const h of await heights(page, `${tid("goal-chip")} button`)) {
      assert(h >= 44, `btn ${h}px`);
    }
  }
  await noHorizontalScroll(page, (await page.viewportSize())!.width);
  await screenshot(page, `${prefix}-slash-goal-chip`);
  await page.click(tid("goal-pause"));
  await page.locator(`${tid("goal-chip")}[data-paused=true]`).waitFor();
  await screenshot(page, `${prefix}-slash-goal-paused`);
  await page.click(tid("goal-clear"));
  await chip.waitFor({ state: "detached" });

  // ---- /help: a dialog, answered without the model ----
  const asked = mock.requests("echo").length;
  await input(page).fill("/help");
  await input(page).press("Enter");
  const help = page.locator(tid("help-dialog"));
  await help.waitFor();
  assert((await help.locator(tid("help-command")).count()) >= 6);
  await screenshot(page, `${prefix}-slash-help`);
  await page.keyboard.press("Escape");
  await help.waitFor({ state: "detached" });

  // ---- /clear asks first, then a band marks where the model starts afresh ----
  await input(page).fill("/clear");
  await input(page).press("Enter");
  await page.locator(tid("clear-dialog")).waitFor();
  await page.click(tid("clear-confirm"));
  await page.locator(tid("clear-band")).waitFor();
  assertEquals(mock.requests("echo").length, asked, "no local command called the model");
  await screenshot(page, `${prefix}-slash-cleared`);
}

for (const [prefix, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  Deno.test(`slash commands and @ mentions (${prefix})`, async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("echo", {
      turns: [{ text: "Understood." }],
      repeatLast: true,
      // The task sent with /plan gets a plan to approve (the answer after it: "Understood.").
      match: [{
        lastIncludes: "write the docs",
        turn: {
          text: "Here is my plan.",
          toolCalls: [{ name: "exit_plan_mode", args: { plan: "## Plan\n\n1. Write the docs" } }],
        },
      }],
    });
    try {
      const home = await seed(mock.base);
      await withPage(viewport, (page, server) => flow(page, server.url, mock, prefix), { home });
    } finally {
      await mock.close();
    }
  });
}
