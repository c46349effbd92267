/**
 * The right panel and Settings → About / message theme in a
 * real (headless) Chromium against the real server and the mock LLM: a run reads and
 * edits a file; the read card's file chip opens the preview (line numbers,
 * highlighting); the edit card opens its diff (lines ↔ patch, copy); the panel resizes
 * by dragging and by keys (width remembered after a reload), maximises and closes; on
 * a phone it is a full-screen sheet with a back button. Screenshots:
 * desktop-panel-*.png, phone-panel-*.png, desktop-settings-about.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { clickNewTask, noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { bigTargets, card, DESKTOP, PHONE } from "./approval_helpers.ts";

const tid = (id: string) => `[data-testid=${id}]`;

const APP = [
  "// The app's entry point.",
  'import { serve } from "./server.ts";',
  "",
  "const x = 1;",
  ...Array.from({ length: 56 }, (_, i) => `export function f${i}() { return ${i} * x; }`),
  "serve(x);",
  "",
].join("\n");

function startPanelMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("panel", {
    turns: [
      { toolCalls: [{ id: "r1", name: "read_file", args: { path: "src/app.ts" } }] },
      {
        toolCalls: [{
          id: "e1",
          name: "edit_file",
          args: { path: "src/app.ts", old_string: "const x = 1;", new_string: "const x = 2;" },
        }],
      },
      { text: "Changed x to 2." },
    ],
    repeatLast: true,
  });
  mock.register("panel-bin", {
    turns: [
      {
        toolCalls: [
          { id: "b1", name: "read_file", args: { path: "logo.png" } },
          { id: "b2", name: "read_file", args: { path: "gone.txt" } },
        ],
      },
      { text: "Looked." },
    ],
    repeatLast: true,
  });
  return mock;
}

async function seedHome(base: string): Promise<string> {
  const home = await homeWithMockProvider(base, ["panel", "panel-bin"], {});
  await Deno.mkdir(`${home}/DefaultProject/src`, { recursive: true });
  await Deno.writeFile(
    `${home}/DefaultProject/logo.png`,
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]),
  );
  await Deno.writeTextFile(`${home}/DefaultProject/src/app.ts`, APP);
  return home;
}

async function runPanel(page: Page, url: string): Promise<void> {
  await openApp(page, url);
  await pickModel(page, "mock/panel", "panel");
  await send(page, "Read src/app.ts and set x to 2");
  await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({ timeout: 20_000 });
  await lastTurn(page).locator("[data-testid=turn-status] button").click();
  await card(page, "edit_file").waitFor();
}

const panel = (page: Page) => page.locator(tid("right-panel"));
const panelWidth = async (page: Page) => (await panel(page).boundingBox())!.width;

async function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const mock = startPanelMock();
  const home = await seedHome(mock.base);
  try {
    await fn(home);
  } finally {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test(
  "right panel (desktop 1280×800): preview, diff, patch, resize, maximise",
  () =>
    withHome((home) =>
      withPage(DESKTOP, async (page, server) => {
        await runPanel(page, server.url);
        assertEquals(await panel(page).count(), 0, "closed at first");

        // The read card's chip opens the file preview beside the conversation.
        const chip = card(page, "read_file").locator(tid("file-chip"));
        assertEquals(await chip.getAttribute("role"), "link");
        await chip.click();
        await panel(page).waitFor();
        assertEquals(
          await card(page, "read_file").locator(".tool-head").getAttribute("aria-expanded"),
          "false",
          "the chip's click does not fold/unfold the card",
        );
        assertEquals(await panel(page).getAttribute("data-kind"), "file");
        assertEquals(await page.locator(tid("panel-path")).innerText(), "src/app.ts");
        await page.locator(tid("code-view")).waitFor();
        assertEquals(await page.locator(tid("code-view")).getAttribute("data-lang"), "typescript");
        const numbers = await page.locator(tid("line-numbers")).innerText();
        assertEquals(numbers.split("\n").slice(0, 3), ["1", "2", "3"]);
        assertEquals(numbers.trim().split("\n").length, APP.split("\n").length - 1);
        const code = page.locator(`${tid("code-view")} .code-text`);
        assertMatch(await code.innerText(), /const x = 2;/, "the file as it is now (edited)");
        assert(await code.locator(".tk-k").count() > 10, "keywords highlighted");
        assert(await code.locator(".tk-c").count() >= 1, "comment highlighted");
        assertMatch(await page.locator(tid("panel-meta")).innerText(), /61 lines/);
        // Beside the conversation: both visible, side by side.
        const main = (await page.locator("main.main").boundingBox())!;
        const box = (await panel(page).boundingBox())!;
        assert(main.width > 300 && Math.abs(main.x + main.width - box.x) < 2, "side by side");
        await noHorizontalScroll(page, DESKTOP.width);
        await screenshot(page, "desktop-panel-file");

        // The edit card's diff: "Open in panel" shows the line diff; toggle to the patch.
        await card(page, "edit_file").locator(".tool-head").click();
        await card(page, "edit_file").locator(tid("open-diff-panel")).click();
        await page.waitForSelector(`${tid("right-panel")}[data-kind=diff]`);
        const rows = panel(page).locator("[data-testid=diff] [data-sign]");
        assertEquals(await panel(page).locator("[data-sign='-'] .dt").innerText(), "const x = 1;");
        assertEquals(await panel(page).locator("[data-sign='+'] .dt").innerText(), "const x = 2;");
        assert(await rows.count() >= 3, "context lines around the change");
        assertEquals(await panel(page).locator(tid("diff-stats")).innerText(), "+1 −1");
        await screenshot(page, "desktop-panel-diff");
        await page.click(tid("diff-mode-patch"));
        const patch = await page.locator(tid("patch-text")).innerText();
        assertMatch(patch, /^--- a\/src\/app\.ts\n\+\+\+ b\/src\/app\.ts\n@@ -1,7 \+1,7 @@\n/);
        assertMatch(patch, /\n-const x = 1;\n\+const x = 2;\n/);
        assertEquals(await page.locator(`${tid("patch-text")} .tk-add`).count(), 1);
        assertEquals(
          await page.locator(tid("diff-mode-patch")).getAttribute("aria-pressed"),
          "true",
        );
        await page.click(tid("copy-patch"));
        await page.waitForSelector(`${tid("copy-patch")} >> text=Copied`);
        await screenshot(page, "desktop-panel-patch");
        // "Open file" goes from the diff to the file.
        await page.click(tid("panel-open-file"));
        await page.waitForSelector(`${tid("right-panel")}[data-kind=file] ${tid("code-view")}`);
        // The edit card's chip opens its diff directly.
        await card(page, "edit_file").locator(tid("file-chip")).click();
        await page.waitForSelector(`${tid("right-panel")}[data-kind=diff] [data-testid=diff]`);

        // Resize by dragging the handle 120 px to the left.
        const w0 = await panelWidth(page);
        const h = (await page.locator(tid("panel-resize")).boundingBox())!;
        await page.mouse.move(h.x + h.width / 2, h.y + 200);
        await page.mouse.down();
        await page.mouse.move(h.x + h.width / 2 - 60, h.y + 200, { steps: 4 });
        await page.mouse.move(h.x + h.width / 2 - 120, h.y + 200, { steps: 4 });
        await page.mouse.up();
        const w1 = await panelWidth(page);
        assert(Math.abs(w1 - (w0 + 120)) <= 2, `dragged width ${w1}, expected ${w0 + 120}`);
        // And by keys on the focused handle.
        await page.focus(tid("panel-resize"));
        await page.keyboard.press("ArrowRight");
        const w2 = await panelWidth(page);
        assert(Math.abs(w2 - (w1 - 32)) <= 2, `key width ${w2}, expected ${w1 - 32}`);
        assertEquals(
          Number(await page.locator(tid("panel-resize")).getAttribute("aria-valuenow")),
          Math.round(w2),
        );
        // It cannot squeeze the conversation away.
        for (let i = 0; i < 30; i++) await page.keyboard.press("ArrowLeft");
        const mainW = (await page.locator("main.main").boundingBox())!.width;
        assert(mainW >= 300, `conversation kept ${mainW} px`);
        for (let i = 0; i < 30; i++) await page.keyboard.press("ArrowRight");
        assertEquals(Math.round(await panelWidth(page)), 300, "minimum width");
        await page.keyboard.press("ArrowLeft");
        await page.keyboard.press("ArrowLeft");
        const remembered = await panelWidth(page);

        // Maximise fills the main area; restore brings the conversation back.
        await page.click(tid("panel-max"));
        assertEquals(await panel(page).getAttribute("data-max"), "true");
        assert(!(await page.locator("main.main").isVisible()), "conversation hidden");
        const sidebarW = (await page.locator(tid("sidebar")).boundingBox())!.width;
        assert(
          Math.abs(await panelWidth(page) - (DESKTOP.width - sidebarW)) <= 2,
          "fills the main area",
        );
        await screenshot(page, "desktop-panel-max");
        await page.click(tid("panel-max"));
        assert(await page.locator("main.main").isVisible());
        assert(Math.abs(await panelWidth(page) - remembered) <= 1);

        // Reload picks up changes made on disk since.
        await page.click(tid("panel-open-file"));
        await page.locator(tid("code-view")).waitFor();
        await Deno.writeTextFile(`${home}/DefaultProject/src/app.ts`, "let y = 3;\n");
        await page.click(tid("panel-reload"));
        await page.waitForSelector(`${tid("code-view")} >> text=let y = 3;`);
        assertEquals(await page.locator(tid("line-numbers")).innerText(), "1");

        // Escape closes it.
        await page.keyboard.press("Escape");
        await panel(page).waitFor({ state: "detached" });

        // The width is remembered after a reload.
        await page.reload();
        await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor();
        await lastTurn(page).locator("[data-testid=turn-status] button").click();
        await card(page, "read_file").locator(tid("file-chip")).click();
        await page.locator(tid("code-view")).waitFor();
        assert(
          Math.abs(await panelWidth(page) - remembered) <= 1,
          `width after reload ${await panelWidth(page)}, expected ${remembered}`,
        );
        await page.click(tid("panel-close"));
        await panel(page).waitFor({ state: "detached" });
        // Keyboard: the chip opens with Enter.
        await card(page, "read_file").locator(tid("file-chip")).focus();
        await page.keyboard.press("Enter");
        await panel(page).waitFor();

        // A binary file shows its size and type; a missing one a clear error.
        await page.click(tid("panel-close"));
        await clickNewTask(page);
        await pickModel(page, "mock/panel-bin", "panel-bin");
        await send(page, "Look at the logo");
        await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
          timeout: 20_000,
        });
        await lastTurn(page).locator("[data-testid=turn-status] button").click();
        const reads = lastTurn(page).locator("[data-testid=tool-card][data-tool=read_file]");
        await reads.first().locator(tid("file-chip")).click();
        await page.locator(tid("panel-binary")).waitFor();
        assertMatch(await page.locator(tid("panel-binary")).innerText(), /14 B · image\/png/);
        await reads.nth(1).locator(tid("file-chip")).click();
        await page.locator(tid("panel-error")).waitFor();
        assertMatch(
          await page.locator(tid("panel-error")).innerText(),
          /gone\.txt does not exist in the workspace/,
        );
        await screenshot(page, "desktop-panel-error");
      }, { home })
    ),
);

Deno.test(
  "right panel (phone 390×844): a full-screen sheet with a back button",
  () =>
    withHome((home) =>
      withPage(PHONE, async (page, server) => {
        await runPanel(page, server.url);
        await card(page, "read_file").locator(tid("file-chip")).click();
        await page.locator(tid("code-view")).waitFor();
        const box = (await panel(page).boundingBox())!;
        assertEquals([box.x, box.y, box.width, box.height], [0, 0, PHONE.width, PHONE.height]);
        assert(await page.locator(tid("panel-back")).isVisible());
        assert(!(await page.locator(tid("panel-resize")).isVisible()), "no drag handle");
        assert(!(await page.locator(tid("panel-max")).isVisible()), "no maximise");
        await bigTargets(page.locator(tid("panel-back")));
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-panel-file");
        // Back returns to the conversation.
        await page.click(tid("panel-back"));
        await panel(page).waitFor({ state: "detached" });
        assert(await card(page, "read_file").isVisible());

        // The diff and the patch on the phone.
        await card(page, "edit_file").locator(tid("file-chip")).click();
        await page.waitForSelector(`${tid("right-panel")}[data-kind=diff] [data-testid=diff]`);
        await bigTargets(page.locator(`${tid("right-panel")} .rpanel-bar button`));
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-panel-diff");
        await page.click(tid("diff-mode-patch"));
        await page.locator(tid("patch-text")).waitFor();
        await screenshot(page, "phone-panel-patch");
        await page.click(tid("panel-back"));
        await panel(page).waitFor({ state: "detached" });
        await noHorizontalScroll(page, PHONE.width);
      }, { home })
    ),
);

Deno.test(
  "settings: About shows version, data dir, sandbox; message theme and appearance",
  () =>
    withHome((home) =>
      withPage(DESKTOP, async (page, server) => {
        await runPanel(page, server.url);
        const timeline = page.locator(".timeline");
        const before = {
          font: await timeline.evaluate((el) => getComputedStyle(el).fontFamily),
          bg: await page.locator("main.main").evaluate((el) =>
            getComputedStyle(el).backgroundColor
          ),
        };
        await page.click(tid("open-settings"));
        await page.click(tid("settings-tab-about"));
        await page.locator(tid("about-settings")).waitFor();
        assertMatch(await page.locator(tid("about-version")).innerText(), /\d+\.\d+\.\d+/);
        assert((await page.locator(tid("about-home")).innerText()).includes(home));
        assertMatch(
          await page.locator(tid("about-database")).innerText(),
          /reinagent\.db — healthy/,
        );
        const shell = await page.locator(tid("about-shell")).innerText();
        assertMatch(shell, /bubblewrap sandbox \(bubblewrap \d|none — commands run unsandboxed/);
        assertMatch(await page.locator(tid("about-files")).innerText(), /Deno permission workers/);
        assertMatch(
          await page.locator(tid("about-checkpoints")).innerText(),
          /Rewind checkpoints\s+[\d.]+ (B|KB|MB) of 2048\.0 MB \(\d+ stored versions/,
        );
        assertMatch(await page.locator(tid("about-process")).innerText(), /pid \d+ · 1 connected/);
        // Live server memory: a number now and the peak since start.
        assertMatch(
          await page.locator(tid("about-memory")).innerText(),
          /\d+(\.\d)? MB resident now · peak \d+(\.\d)? MB since start/,
        );
        await screenshot(page, "desktop-settings-about");

        // General: appearance group with language, theme, text size and message theme.
        await page.click(tid("settings-tab-general"));
        for (const id of ["pref-lang", "pref-theme", "pref-font", "default-effort"]) {
          await page.locator(tid(id)).waitFor();
        }
        await screenshot(page, "desktop-settings-general");
        await page.selectOption(tid("pref-theme"), "dark");
        assertEquals(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
        await page.selectOption(tid("pref-message-theme"), "opencode");
        assertEquals(
          await page.evaluate(() => document.documentElement.dataset.messageTheme),
          "opencode",
        );
        await page.click(tid("close-settings"));
        await timeline.waitFor();
        const after = {
          font: await timeline.evaluate((el) => getComputedStyle(el).fontFamily),
          bg: await page.locator("main.main").evaluate((el) =>
            getComputedStyle(el).backgroundColor
          ),
        };
        assert(after.font !== before.font && /mono/i.test(after.font), `font ${after.font}`);
        assertEquals(after.bg, "rgb(10, 10, 10)");
        await screenshot(page, "desktop-panel-message-theme");
        // Remembered across a reload; back to default restores the look.
        await page.reload();
        await timeline.waitFor();
        assertEquals(
          await page.evaluate(() => document.documentElement.dataset.messageTheme),
          "opencode",
        );
        await page.click(tid("open-settings"));
        await page.click(tid("settings-tab-general"));
        await page.selectOption(tid("pref-message-theme"), "default");
        await page.selectOption(tid("pref-lang"), "zh-CN");
        assertEquals(await page.evaluate(() => document.documentElement.lang), "zh-CN");
        // The Chinese strings arrive on demand: the tab says so once they are in.
        await page.locator(tid("settings-tab-about")).filter({ hasText: "关于" }).waitFor();
      }, { home })
    ),
);
