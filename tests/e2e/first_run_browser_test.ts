/**
 * Safe first run in a real (headless) Chromium against the real
 * server: a new install starts in approval mode `edit` with the effort's step budget;
 * the Demo model only lists and reads unless the prompt asks for a file, and a file it
 * is asked for is written without a prompt (edit mode); `full` is in the warning
 * colour and says what it means, on the phone too (a word on the button, the meaning
 * in the sheet). Screenshots: test-output/screenshots/{desktop,phone}-first-run-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, send, strip } from "./run_helpers.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const tid = (id: string) => `[data-testid=${id}]`;

/** A fresh data folder: nothing stored yet (no provider, no settings). */
async function freshHome(files: Record<string, string> = {}): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "ra-first-run-" });
  await Deno.mkdir(`${home}/DefaultProject`, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${home}/DefaultProject/${name}`, text);
  }
  return home;
}

/** The colour `var(--warn-text)` resolves to in the page. */
const warnText = (page: Page) =>
  page.evaluate(() => {
    const probe = document.createElement("span");
    probe.style.color = "var(--warn-text)";
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  });

const toolNames = (page: Page) =>
  lastTurn(page).locator(tid("tool-card")).evaluateAll((els) =>
    els.map((e) => e.getAttribute("data-tool"))
  );

Deno.test(
  "first run (desktop): edit by default, the Demo writes only when asked",
  async () => {
    const home = await freshHome({ "notes.md": "# My notes\n" });
    try {
      await withPage(DESKTOP, async (page, server) => {
        await openApp(page, server.url);
        await page.waitForSelector(tid("empty-state"));
        // The draft: Auto-edit and the Default level's 100 steps (full would show ∞).
        assertEquals(await page.locator(tid("approval-label")).innerText(), "Auto-edit");
        assertEquals(await page.locator(tid("steps-badge")).innerText(), "100");
        const btnTitle = await page.locator(tid("approval-select")).getAttribute("title");
        assertMatch(btnTitle!, /Auto-edit — Changes files .*asks before every command/);

        // A look around: list and read, nothing written, nothing asked.
        await send(page, "hi there, show me around");
        await strip(lastTurn(page)).and(page.locator("[data-state=done]"))
          .waitFor({ timeout: 20_000 });
        await lastTurn(page).locator(`${tid("turn-status")} button`).click();
        assertEquals(await toolNames(page), ["list_dir", "read_file"]);
        assertEquals(
          await Deno.stat(`${home}/DefaultProject/demo-note.md`).catch(() => null),
          null,
        );

        // Asked for a file: written at once (edit mode), no approval card.
        await send(page, "now write a note file");
        await strip(lastTurn(page)).and(page.locator("[data-state=done]"))
          .waitFor({ timeout: 20_000 });
        await lastTurn(page).locator(`${tid("turn-status")} button`).click();
        assert((await toolNames(page)).includes("write_file"), "no write_file card");
        assertEquals(await page.locator(tid("approval-card")).count(), 0);
        assertMatch(await Deno.readTextFile(`${home}/DefaultProject/demo-note.md`), /Demo model/);

        // The menu: full in the warning colour, saying what it means.
        await page.click(tid("approval-select"));
        const full = page.locator(`${tid("approval-option")}[data-value=full]`);
        assertMatch((await full.getAttribute("class"))!, /mi-warn/);
        assertEquals(
          await full.locator(".mi-title").evaluate((e) => getComputedStyle(e).color),
          await warnText(page),
        );
        assertMatch(
          await full.locator(".mi-desc").innerText(),
          /No prompts: commands and file edits run without asking/,
        );
        await screenshot(page, "desktop-first-run-approval");
        await full.click();
        await page.locator(`${tid("approval-label")} >> text=Full access`).waitFor();
        const btn = page.locator(tid("approval-select"));
        assertMatch((await btn.getAttribute("class"))!, /tool-warn/);
        assertMatch((await btn.getAttribute("title"))!, /Full access — No prompts/);
        assertEquals(await page.locator(tid("steps-badge")).innerText(), "∞");
      }, { home });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);

Deno.test(
  "first run (phone 390×844): the approval button says the mode; full in warning colour",
  async () => {
    const home = await freshHome();
    try {
      await withPage(PHONE, async (page, server) => {
        await openApp(page, server.url);
        await page.click(
          `${tid("new-task")}, ${tid("header-new-task")}, ${tid("home-new-task")} >> visible=true`,
        );
        await page.waitForSelector(tid("empty-state"));
        const short = page.locator(tid("approval-short"));
        assert(await short.isVisible(), "the phone shows no word for the approval mode");
        assertEquals(await short.innerText(), "Auto-edit", "the same word as on the desktop");
        assertEquals(await page.locator(tid("steps-badge")).innerText(), "100");

        await page.click(tid("approval-select"));
        const sheet = page.locator(tid("approval-select-menu"));
        await sheet.waitFor();
        const full = sheet.locator(`${tid("approval-option")}[data-value=full]`);
        assert(await full.locator(".mi-desc").isVisible(), "the sheet hides what full means");
        assertMatch(await full.locator(".mi-desc").innerText(), /No prompts/);
        assertEquals(
          await full.locator(".mi-title").evaluate((e) => getComputedStyle(e).color),
          await warnText(page),
        );
        for (const b of await sheet.locator(tid("approval-option")).all()) {
          assert(((await b.boundingBox())?.height ?? 0) >= 44, "sheet item < 44 px");
        }
        await screenshot(page, "phone-first-run-approval");
        await full.click();
        await sheet.waitFor({ state: "detached" });

        // The button: a word, in the warning colour, a 44 px target.
        await page.locator(`${tid("approval-short")} >> text=Full`).waitFor();
        assert(await short.isVisible(), "no word for full on the phone");
        const warn = await warnText(page);
        await page.waitForFunction( // (after the colour transition)
          (c) =>
            getComputedStyle(document.querySelector("[data-testid=approval-short]")!).color === c,
          warn,
          { timeout: 2000 },
        );
        const box = (await page.locator(tid("approval-select")).boundingBox())!;
        assert(
          box.width >= 44 && box.height >= 44,
          `approval button < 44 px: ${JSON.stringify(box)}`,
        );
        assertEquals(await page.locator(tid("steps-badge")).innerText(), "∞");
        await screenshot(page, "phone-first-run-full");
      }, { home });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);
