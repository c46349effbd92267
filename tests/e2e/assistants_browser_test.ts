/**
 * Assistants in a real (headless) Chromium against the real server and the mock LLM:
 * the Assistants page (built-ins read-only, a broken file reported, create with a
 * bound model, set as default, duplicate, delete), the header chip (the draft starts
 * with the default and its bound model; a task switches), the persona in the system
 * prompt the mock received, the bound model applied once. Desktop and phone.
 * Screenshots: desktop-assistants-page.png, desktop-assistants-form.png,
 * desktop-assistant-chip.png, phone-assistants-page.png, phone-assistant-composer.png,
 * phone-assistant-chip.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import {
  drawerShown,
  noHorizontalScroll,
  openApp,
  screenshot,
  withBrowserServer,
} from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import type { Page } from "playwright-core";

function startAssistantMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("plain-model", { turns: [{ text: "Plain answer." }], repeatLast: true });
  mock.register("bound-model", { turns: [{ text: "Bound answer." }], repeatLast: true });
  return mock;
}

async function seed(base: string): Promise<string> {
  const home = await homeWithProvider(base, ["plain-model", "bound-model"], {
    defaultApproval: "full",
  });
  await Deno.mkdir(`${home}/assistants`);
  await Deno.writeTextFile(
    `${home}/assistants/broken.md`,
    "---\nname: Broken\neffort: turbo\n---\nx\n",
  );
  return home;
}

/** The system prompts the mock received for a model (title requests left out). */
const systems = (mock: ReturnType<typeof startMockLlm>, model: string) =>
  mock.requests(model).filter((r) => !JSON.stringify(r.body).includes("short titles"))
    .map((r) => String((r.body.messages as { content: string }[])[0].content));

const row = (page: Page, id: string) =>
  page.locator(`[data-testid=assistant-row][data-assistant="${id}"]`);

async function waitDone(page: Page) {
  await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({ timeout: 30_000 });
}

Deno.test("Assistants page and chip (desktop)", async () => {
  const mock = startAssistantMock();
  const home = await seed(mock.base);
  await withBrowserServer({ home }, async (browser, server) => {
    const { page, errors } = await newPage(browser, DESKTOP);
    await openApp(page, server.url);
    await page.locator("[data-testid=assistant-chip-name]", { hasText: "General" }).waitFor();

    // The page: four read-only built-ins, the broken file reported.
    await page.click("[data-testid=open-assistants]");
    await page.locator("[data-testid=assistants-pane]").waitFor();
    assertEquals(await page.locator("[data-testid=assistant-row]").count(), 4);
    assertEquals(await row(page, "coder").locator("[data-testid=assistant-edit]").count(), 0);
    assertEquals(await row(page, "coder").locator("[data-testid=assistant-delete]").count(), 0);
    assertMatch(
      await page.locator("[data-testid=assistant-problems]").innerText(),
      /broken\.md: effort "turbo" is not one of/,
    );
    assertEquals(await row(page, "general").getAttribute("data-default"), "true");

    // Create one with a bound model and effort.
    await page.click("[data-testid=assistant-add]");
    const form = page.locator("[data-testid=assistant-form]");
    await form.locator("[data-testid=assistant-form-name]").fill("Reviewer");
    await form.locator("[data-testid=assistant-form-icon]").fill("★");
    await form.locator("[data-testid=assistant-form-id]").fill("Bad Id");
    assertMatch(
      await form.locator("[data-testid=assistant-form-id-help]").innerText(),
      /lowercase/,
    );
    assert(await form.locator("[data-testid=assistant-form-save]").isDisabled());
    await form.locator("[data-testid=assistant-form-id]").fill("reviewer");
    await form.locator("[data-testid=assistant-form-description]").fill("Finds bugs");
    await form.locator("[data-testid=assistant-form-persona]").fill(
      "You are PERSONA-E2E, a strict reviewer. List risks before anything else.",
    );
    await form.locator("[data-testid=assistant-form-model]").selectOption("mock\nbound-model");
    await form.locator("[data-testid=assistant-form-effort]").selectOption("high");
    await form.locator("[data-testid=assistant-form-skills]").fill("pdf, docx");
    await screenshot(page, "desktop-assistants-form");
    await form.locator("[data-testid=assistant-form-save]").click();
    await form.waitFor({ state: "detached" });
    await row(page, "reviewer").waitFor();
    assertMatch(
      await row(page, "reviewer").locator("[data-testid=assistant-bound]").innerText(),
      /mock \/ bound-model · High · Skills: pdf, docx/,
    );
    const file = await Deno.readTextFile(`${home}/assistants/reviewer.md`);
    assertMatch(file, /^---\nname: Reviewer\n/);
    assertMatch(file, /model: mock\/bound-model\neffort: high\n/);
    await row(page, "reviewer").locator("[data-testid=assistant-set-default]").click();
    await page.locator("[data-testid=assistant-row][data-assistant=reviewer][data-default=true]")
      .waitFor();

    // Edit it: the id is fixed, the file is replaced.
    await row(page, "reviewer").locator("[data-testid=assistant-edit]").click();
    assert(await form.locator("[data-testid=assistant-form-id]").isDisabled());
    await form.locator("[data-testid=assistant-form-description]").fill("Finds bugs first");
    await form.locator("[data-testid=assistant-form-save]").click();
    await form.waitFor({ state: "detached" });
    assertMatch(
      await Deno.readTextFile(`${home}/assistants/reviewer.md`),
      /description: Finds bugs first\n/,
    );

    // Duplicate a built-in, then delete the copy (two steps).
    await row(page, "coder").locator("[data-testid=assistant-duplicate]").click();
    assertEquals(await form.locator("[data-testid=assistant-form-id]").inputValue(), "coder-copy");
    await form.locator("[data-testid=assistant-form-save]").click();
    await row(page, "coder-copy").waitFor();
    await row(page, "coder-copy").locator("[data-testid=assistant-delete]").click();
    await row(page, "coder-copy").locator("[data-testid=assistant-delete-confirm]").click();
    await row(page, "coder-copy").waitFor({ state: "detached" });
    await page.locator("[data-testid=assistant-problems]").scrollIntoViewIfNeeded();
    await screenshot(page, "desktop-assistants-page");

    // The draft starts with the default and its bound model (shown in the composer).
    await page.click("[data-testid=close-settings]");
    await page.locator("[data-testid=assistant-chip-name]", { hasText: "Reviewer" }).waitFor();
    assertEquals(await page.locator("[data-testid=model-label]").innerText(), "bound-model");
    await send(page, "Review my change");
    await waitDone(page);
    const bound = systems(mock, "bound-model");
    assertEquals(bound.length, 1);
    assertMatch(
      bound[0],
      /^# Assistant persona: Reviewer\nFinds bugs first\n\nYou are PERSONA-E2E/,
    );
    // The user's model choice afterwards wins; the persona stays.
    await pickModel(page, "mock/plain-model", "plain-model");
    await send(page, "And this one");
    await waitDone(page);
    assertEquals(systems(mock, "bound-model").length, 1, "the bound model was applied once");
    assertMatch(systems(mock, "plain-model")[0], /PERSONA-E2E/);

    // The chip switches the task's assistant.
    await page.click("[data-testid=assistant-chip]");
    const menu = page.locator("[data-testid=assistant-chip-menu]");
    await menu.waitFor();
    assertEquals(await menu.locator("[data-testid=assistant-option]").count(), 5);
    await menu.locator(
      "[data-testid=assistant-option][data-value=reviewer] [data-testid=assistant-default-badge]",
    )
      .waitFor();
    await screenshot(page, "desktop-assistant-chip");
    await menu.locator("[data-testid=assistant-option][data-value=writer]").click();
    await page.locator("[data-testid=assistant-chip-name]", { hasText: "Writer" }).waitFor();
    await send(page, "Write it up");
    await waitDone(page);
    assertMatch(systems(mock, "plain-model").at(-1)!, /^# Assistant persona: Writer\n/);
    assertEquals(errors, []);
  }, () => mock.close());
});

Deno.test("Assistants page and chip (phone)", async () => {
  const mock = startAssistantMock();
  const home = await seed(mock.base);
  await withBrowserServer({ home }, async (browser, server) => {
    const { page, errors } = await newPage(browser, PHONE);
    await openApp(page, server.url);
    await page.click("[data-testid=open-drawer] >> visible=true");
    await drawerShown(page);
    await page.click("[data-testid=open-assistants]");
    await page.locator("[data-testid=assistants-pane]").waitFor();
    await row(page, "translator").waitFor();
    await row(page, "translator").locator("[data-testid=assistant-set-default]").click();
    await page.locator("[data-testid=assistant-row][data-assistant=translator][data-default=true]")
      .waitFor();
    await noHorizontalScroll(page, PHONE.width);
    await screenshot(page, "phone-assistants-page");
    await page.click("[data-testid=assistant-add]");
    await page.locator("[data-testid=assistant-form]").waitFor();
    await noHorizontalScroll(page, PHONE.width);
    await page.click("[data-testid=assistant-form-cancel]");

    // A new task from the draft on the phone: the chip names the default.
    await page.click("[data-testid=close-settings]");
    await page.click("[data-testid=home-new-task], [data-testid=header-new-task] >> visible=true");
    const chip = page.locator("[data-testid=assistant-chip]");
    await chip.waitFor();
    assertEquals(await chip.getAttribute("aria-label"), "Assistant: Translator");
    await pickModel(page, "mock/plain-model", "plain-model");
    await send(page, "Bonjour");
    await waitDone(page);
    assertMatch(systems(mock, "plain-model")[0] ?? "", /^# Assistant persona: Translator/);
    // On phones the chip is in the composer's toolbar (the header has no room for it).
    assertEquals(
      await page.locator("[data-testid=composer-tools] [data-testid=assistant-chip]").count(),
      1,
    );
    assertEquals(await page.locator("header [data-testid=assistant-chip]").count(), 0);
    const box = (await chip.boundingBox())!;
    assert(box.width >= 44 && box.height >= 44, `touch target: ${JSON.stringify(box)}`);
    await noHorizontalScroll(page, PHONE.width);
    await screenshot(page, "phone-assistant-composer");
    await chip.click();
    await page.locator("[data-testid=assistant-chip-menu]").waitFor();
    await noHorizontalScroll(page, PHONE.width);
    await screenshot(page, "phone-assistant-chip");
    await page.locator("[data-testid=assistant-option][data-value=coder]").click();
    await page.locator("[data-testid=assistant-chip-menu]").waitFor({ state: "detached" });
    // The chip changes when the server has answered the choice (not at the click).
    await page.locator('[data-testid=assistant-chip][aria-label="Assistant: Coder"]').waitFor();
    assertEquals(await chip.getAttribute("aria-label"), "Assistant: Coder");
    assertEquals(errors, []);
  }, () => mock.close());
});
