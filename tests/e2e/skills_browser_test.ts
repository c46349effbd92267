/**
 * The Skills page and the composer's ✨ in a real (headless) Chromium against the real
 * server and the mock LLM: skills of ReinAgent's folder (on) and ~/.claude (off) listed,
 * a link into the data dir refused, search, a switch written to skills.json, the SKILL.md
 * preview rendered, a zip with `..` refused and a good zip installed; then a draft
 * rewritten by the model and Undo restoring the exact text. Desktop and phone.
 * Screenshots: desktop-skills-page.png, desktop-skill-preview.png, desktop-enhance.png,
 * phone-skills-page.png, phone-enhance.png.
 */
import { join } from "node:path";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { makeZip, skillMd } from "../helpers/zip.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import {
  drawerShown,
  noHorizontalScroll,
  openApp,
  screenshot,
  withBrowserServer,
} from "./browser.ts";
import { newDraft, pickModel } from "./run_helpers.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";

const REWRITTEN = "Fix the login bug: find the cause, fix it, and run the tests to confirm.";
const DRAFT = "fix  that login thing\n(see the error)  ";

async function seed() {
  const mock = startMockLlm({ quiet: true });
  mock.register("enhancer", { turns: [{ text: `Enhanced: ${REWRITTEN}` }], repeatLast: true });
  mock.register("broken", {
    turns: [{ fail: { status: 400, message: "the model is unavailable" } }],
    repeatLast: true,
  });
  const home = await homeWithProvider(mock.base, ["enhancer", "broken"]);
  const user = await Deno.makeTempDir({ prefix: "ra-skills-user-" });
  const put = async (dir: string, text: string) => {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(join(dir, "SKILL.md"), text);
  };
  await put(
    join(home, "skills", "release-notes"),
    skillMd(
      "release-notes",
      "Writes release notes from the git log",
      "## Steps\n\n1. Read `git log`\n2. Group by **feature**\n\n```sh\ngit log --oneline\n```",
    ),
  );
  await put(join(user, ".claude", "skills", "pdf"), skillMd("pdf", "Fill and read PDF forms"));
  await put(join(user, ".codex", "skills", "sheets"), skillMd("sheets", "Edit spreadsheets"));
  await Deno.symlink(home, join(user, ".claude", "skills", "sneaky"));
  const cleanup = async () => {
    await mock.close();
    await Deno.remove(user, { recursive: true });
  };
  return { mock, home, user, cleanup };
}

const row = (page: Page, key: string) => page.locator(`[data-testid=skill-row][data-key="${key}"]`);

async function checkPage(page: Page, home: string, phone: boolean) {
  await page.locator("[data-testid=skills-pane]").waitFor();
  await row(page, "reinagent:release-notes").waitFor();
  assertEquals(await row(page, "reinagent:release-notes").getAttribute("data-enabled"), "true");
  assertEquals(await row(page, "claude:pdf").getAttribute("data-enabled"), "false");
  assertMatch(
    await row(page, "claude:pdf").innerText(),
    /Claude Code[\s\S]*Fill and read PDF forms/,
  );
  assertEquals(await page.locator("[data-testid=skill-row][data-key*=sneaky]").count(), 0);
  assertMatch(
    await page.locator("[data-testid=skills-problems]").innerText(),
    /1 folders? (was|were) not used/,
  );

  // Search by description.
  await page.fill("[data-testid=skills-search]", "spreadsheet");
  await page.waitForFunction(() =>
    document.querySelectorAll("[data-testid=skill-row]").length === 1
  );
  await row(page, "codex:sheets").waitFor();
  await page.fill("[data-testid=skills-search]", "");
  await page.waitForFunction(() =>
    document.querySelectorAll("[data-testid=skill-row]").length === 3
  );

  if (!phone) {
    // Turning pdf on is written to skills.json.
    await row(page, "claude:pdf").locator("[data-testid=skill-enable]").click();
    await page.locator('[data-testid=skill-row][data-key="claude:pdf"][data-enabled=true]')
      .waitFor();
    const sw = JSON.parse(await Deno.readTextFile(join(home, "skills.json")));
    assertEquals(sw.enabled, ["claude:pdf"]);
    await page.locator("[data-testid=skills-count]", { hasText: "2 of 3 on" }).waitFor();
  }
  await screenshot(page, `${phone ? "phone" : "desktop"}-skills-page`);
  if (phone) await noHorizontalScroll(page, PHONE.width);

  // The preview renders SKILL.md as Markdown (no frontmatter).
  await row(page, "reinagent:release-notes").locator("[data-testid=skill-preview-open]").click();
  const dialog = page.locator("[data-testid=skill-preview]");
  await dialog.locator("h2", { hasText: "Steps" }).waitFor();
  assertEquals(await dialog.locator("strong", { hasText: "feature" }).count(), 1);
  assertEquals(await dialog.locator("pre").count() >= 1, true);
  assert(!(await dialog.innerText()).includes("description:"), "frontmatter is not shown");
  if (!phone) await screenshot(page, "desktop-skill-preview");
  await page.click("[data-testid=skill-preview-close]");
  await dialog.waitFor({ state: "detached" });
}

async function checkInstall(page: Page, home: string) {
  await page.click("[data-testid=skill-install-open]");
  const evil = makeZip([
    { name: "SKILL.md", data: skillMd("evil", "Writes outside") },
    { name: "../../escape.txt", data: "x" },
  ]);
  await page.setInputFiles("[data-testid=skill-zip-input]", {
    name: "evil.zip",
    mimeType: "application/zip",
    buffer: Buffer.from(evil),
  });
  const err = page.locator("[data-testid=skill-install-error]");
  await err.waitFor();
  assertMatch(await err.innerText(), /zip refused: .*leads outside/);
  assert(!(await Deno.stat(join(home, "escape.txt")).catch(() => null)), "nothing written outside");
  const good = makeZip([
    { name: "changelog/SKILL.md", data: skillMd("changelog", "Keeps CHANGELOG.md tidy") },
  ]);
  await page.setInputFiles("[data-testid=skill-zip-input]", {
    name: "changelog.zip",
    mimeType: "application/zip",
    buffer: Buffer.from(good),
  });
  await page.locator("[data-testid=skill-install-done]", { hasText: "changelog" }).waitFor();
  await page.locator('[data-testid=skill-row][data-key="reinagent:changelog"][data-enabled=true]')
    .waitFor();
}

async function checkEnhance(page: Page, name: string) {
  await newDraft(page);
  await pickModel(page, "mock/enhancer", "enhancer");
  const input = page.locator("[data-testid=composer-input]");
  const button = page.locator("[data-testid=enhance]");
  assert(await button.isDisabled(), "nothing to improve in an empty draft");
  await input.fill("/help");
  assert(await button.isDisabled(), "a slash command is not rewritten");
  await input.fill(DRAFT);
  await button.click();
  await page.waitForFunction(
    (want) =>
      (document.querySelector("[data-testid=composer-input]") as HTMLTextAreaElement).value ===
        want,
    REWRITTEN,
  );
  await page.locator("[data-testid=enhance-undo]").waitFor();
  // The toolbar still fits: its last control ends before Send starts.
  const toolsEnd = await page.locator(".composer-tools").evaluate((el) =>
    Math.max(
      ...[...el.children].filter((c) => (c as HTMLElement).offsetWidth > 0)
        .map((c) => c.getBoundingClientRect().right),
    )
  );
  const sendBox = await page.locator("[data-testid=send]").boundingBox();
  assert(
    sendBox && toolsEnd <= sendBox.x + 1,
    "toolbar overlaps Send",
  );
  await screenshot(page, name);
  await page.click("[data-testid=enhance-undo]");
  assertEquals(await input.inputValue(), DRAFT, "undo puts back the exact text");
  await page.locator("[data-testid=enhance-undo]").waitFor({ state: "detached" });
}

Deno.test("Skills page and prompt enhancement (desktop)", async () => {
  const s = await seed();
  await withBrowserServer({ home: s.home, env: { HOME: s.user } }, async (browser, server) => {
    const { page, errors } = await newPage(browser, DESKTOP);
    await openApp(page, server.url);
    await page.click("[data-testid=open-skills]");
    await checkPage(page, s.home, false);
    await checkInstall(page, s.home);
    await page.click("[data-testid=close-settings]");
    await checkEnhance(page, "desktop-enhance");
    // A failing model: the error under the composer, the draft as it was.
    await pickModel(page, "mock/broken", "broken");
    await page.fill("[data-testid=composer-input]", DRAFT);
    await page.click("[data-testid=enhance]");
    const err = page.locator("[data-testid=enhance-error]");
    await err.waitFor();
    assertMatch(await err.innerText(), /Could not improve the prompt: .*the model is unavailable/);
    assertEquals(await page.locator("[data-testid=composer-input]").inputValue(), DRAFT);
    assertEquals(await page.locator("[data-testid=enhance-undo]").count(), 0);
    // The model got the draft inside the template, and no tools.
    const req = s.mock.requests("enhancer")[0].body as { messages: { content: string }[] };
    assertMatch(
      req.messages[1].content,
      /<draft>\nfix {2}that login thing\n\(see the error\) {2}\n<\/draft>/,
    );
    assertEquals(errors, []);
  }, s.cleanup);
});

Deno.test("Skills page and prompt enhancement (phone)", async () => {
  const s = await seed();
  await withBrowserServer({ home: s.home, env: { HOME: s.user } }, async (browser, server) => {
    const { page, errors } = await newPage(browser, PHONE);
    await openApp(page, server.url);
    await page.click("[data-testid=open-drawer]");
    await drawerShown(page);
    await screenshot(page, "phone-skills-drawer");
    await noHorizontalScroll(page, PHONE.width);
    await page.click("[data-testid=open-skills]");
    await checkPage(page, s.home, true);
    await page.click("[data-testid=close-settings]");
    await checkEnhance(page, "phone-enhance");
    await noHorizontalScroll(page, PHONE.width);
    // In a task (the context ring shown too) the toolbar with ✨ still fits.
    await page.locator("[data-testid=composer-input]").press("Enter");
    await page.locator("[data-testid=turn-status][data-state=done]").waitFor({ timeout: 30_000 });
    await page.locator("[data-testid=composer-input]").fill("one more thing");
    await screenshot(page, "phone-enhance-task");
    // The toolbar (the ring in it, scrolled into view on a crowded bar) ends before Send.
    const toolsBox = await page.locator(".composer-tools").boundingBox();
    const sendBox = await page.locator("[data-testid=send]").boundingBox();
    assert(
      toolsBox && sendBox && toolsBox.x + toolsBox.width <= sendBox.x + 1,
      "toolbar overlaps Send",
    );
    await screenshot(page, "phone-enhance-task");
    assertEquals(errors, []);
  }, s.cleanup);
});
