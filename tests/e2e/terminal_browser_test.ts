/**
 * The terminal in a real (headless) Chromium against the real server: the "Terminal"
 * button opens the dock (desktop) or the full-screen sheet with extra keys (phone); a
 * typed command runs in the task's shell and its output shows; a second page sees the
 * same screen; a tab with a running program asks before closing. Screenshots go to
 * test-output/screenshots/terminal-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { RUN_FLAGS } from "../helpers/server.ts";
import { openApp, screenshot, withPage } from "./browser.ts";

const opts = { ignore: Deno.build.os !== "linux" };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The visible text of the shown terminal (xterm's DOM rows). */
const screenText = (page: Page) =>
  page.locator("[data-testid=terminal-view] .xterm-rows").innerText();

async function waitForScreen(page: Page, re: RegExp, what: string) {
  const deadline = Date.now() + 10_000;
  let text = "";
  while (Date.now() < deadline) {
    text = await screenText(page).catch(() => "");
    if (re.test(text)) return text;
    await page.waitForTimeout(100);
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
}

async function openTerminal(page: Page) {
  await page.getByRole("button", { name: "Terminal", exact: true }).click();
  await page.locator("[data-testid=terminal-view] .xterm").waitFor();
  await waitForScreen(page, /[$#][\s\u00a0]*$/, "the shell prompt");
}

async function typeLine(page: Page, text: string) {
  await page.locator("[data-testid=terminal-view] textarea").focus();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

Deno.test(
  "terminal (desktop): open from the header, run a command, second page, close",
  opts,
  async () => {
    await withPage(DESKTOP, async (page, server, browser) => {
      await openApp(page, server.url);
      const before = await page.evaluate(() =>
        performance.getEntriesByType("resource").some((e) => e.name.includes("terminal.js"))
      );
      assertEquals(before, false, "xterm.js is loaded only when a terminal is shown");
      await openTerminal(page);
      const dock = await page.locator("[data-testid=terminal-dock]").boundingBox();
      assert(
        dock && dock.y > 300 && dock.y + dock.height <= DESKTOP.height + 1,
        "docked at the bottom",
      );
      assert(
        (await page.locator("[data-testid=terminal-note]").innerText()).includes("not sandboxed"),
        "labelled as the user's own, unsandboxed shell",
      );
      // Ctrl+K / Ctrl+F in the shell are the shell's (kill line, forward), not the page's.
      await page.locator("[data-testid=terminal-view] textarea").focus();
      await page.keyboard.type("echo not-this");
      await page.keyboard.press("Control+A");
      await page.keyboard.press("Control+K");
      await page.keyboard.press("Control+F");
      assertEquals(await page.locator("[data-testid=search-dialog]").count(), 0);
      assertEquals(await page.locator("[data-testid=find-bar]").count(), 0);
      await typeLine(page, "echo hello-$((6*7)); tty; pwd");
      const text = await waitForScreen(page, /hello-42/, "the command's output");
      assert(/\/dev\/pts\/\d+/.test(text), `tty shown: ${text}`);
      assert(text.includes("DefaultProject"), `cwd is the workspace: ${text}`);
      await screenshot(page, "terminal-desktop");

      // A second client (another page) sees the same screen and live output.
      const other = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await openApp(other, server.url);
      await other.getByRole("button", { name: "Terminal", exact: true }).click();
      await waitForScreen(other, /hello-42/, "the replayed screen on the second page");
      await typeLine(page, "echo live-$((2+3))");
      await waitForScreen(other, /live-5/, "live output on the second page");

      // `yes` for 5 s: output flows only as fast as xterm parses it (acknowledged), so the
      // page keeps running its timers; measured in the page, against an idle baseline
      // (the machine may be busy with other work).
      const gaps = (ms: number) =>
        page.evaluate((ms) =>
          new Promise<number>((resolve) => {
            let last = performance.now(), worst = 0;
            const iv = setInterval(() => {
              const now = performance.now();
              worst = Math.max(worst, now - last);
              last = now;
            }, 20);
            setTimeout(() => {
              clearInterval(iv);
              resolve(Math.round(worst));
            }, ms);
          }), ms);
      const idle = await gaps(2000);
      await typeLine(page, "yes");
      const busy = await gaps(5000);
      console.log(`longest timer gap: idle ${idle} ms, during yes ${busy} ms`);
      assert(busy < Math.max(2000, 6 * idle), `the page stalled for ${busy} ms during yes`);
      const lines = await page.evaluate(() =>
        document.querySelectorAll("[data-testid=terminal-view] .xterm-rows > div").length
      );
      assert(lines > 5, "the terminal still renders");
      // No backlog queued in the page: Ctrl-C shows the prompt again at once.
      const c0 = Date.now();
      await page.keyboard.press("Control+C");
      await typeLine(page, "clear; echo after-yes-$((3*3))");
      await waitForScreen(page, /after-yes-9/, "the shell after yes and Ctrl-C");
      const stopMs = Date.now() - c0;
      console.log(`Ctrl-C to the next command's output: ${stopMs} ms`);
      assert(stopMs < 4000, `the output backlog took ${stopMs} ms to drain`);

      // Something runs: closing the tab asks first.
      await typeLine(page, "sleep 60");
      await page.waitForTimeout(400);
      await page.locator("[data-testid=terminal-tab-close]").click();
      await page.locator("[data-testid=terminal-close-ask]").waitFor();
      await screenshot(page, "terminal-desktop-close-ask");
      await page.locator("[data-testid=terminal-close-confirm]").click();
      await page.locator("[data-testid=terminal-tab]").waitFor({ state: "detached" });
      await other.locator("[data-testid=terminal-tab]").waitFor({ state: "detached" });

      // A new tab opens with the + button.
      await page.locator("[data-testid=terminal-new]").click();
      await page.locator("[data-testid=terminal-tab]").waitFor();
      await waitForScreen(page, /[$#][\s\u00a0]*$/, "the new shell's prompt");

      // Drag the second tab before the first: the order changes here and on the other page.
      await page.locator("[data-testid=terminal-new]").click();
      await page.locator(".term-tab").nth(1).waitFor();
      const order = (p: Page) =>
        p.locator(".term-tab").evaluateAll((els) =>
          els.map((e) => e.getAttribute("data-terminal-id"))
        );
      const [first, second] = await order(page);
      await page.locator(".term-tab").nth(1).dragTo(page.locator(".term-tab").nth(0));
      await page.waitForFunction(
        (id) => document.querySelector(".term-tab")?.getAttribute("data-terminal-id") === id,
        second,
      );
      assertEquals(await order(page), [second, first]);
      await other.waitForFunction(
        (id) => document.querySelector(".term-tab")?.getAttribute("data-terminal-id") === id,
        second,
      );
    });
  },
);

Deno.test("terminal (phone): full-screen sheet, extra keys, run a command", opts, async () => {
  await withPage(PHONE, async (page, server) => {
    await openApp(page, server.url);
    await openTerminal(page);
    const sheet = await page.locator("[data-testid=terminal-dock]").boundingBox();
    assert(sheet && sheet.y <= 1 && sheet.height >= PHONE.height - 1, "a full-screen sheet");
    const keys = page.locator(".term-keys button");
    assertEquals(
      await keys.allInnerTexts(),
      ["Esc", "Tab", "Ctrl", "←", "↑", "↓", "→", "|", "~"],
    );
    const esc = await page.locator("[data-testid=terminal-key-esc]").boundingBox();
    assert(esc && esc.height >= 44, "touch-sized keys");
    // Typed through the extra keys: `echo a | tr a b` with | from the row, then Ctrl+U clears.
    await page.locator("[data-testid=terminal-view] textarea").focus();
    await page.keyboard.type("echo piped-x ");
    await page.locator("[data-testid=terminal-key-pipe]").click();
    await page.keyboard.type(" tr x y");
    await page.keyboard.press("Enter");
    await waitForScreen(page, /piped-y/, "output of the piped command");
    await page.waitForTimeout(300); // the prompt is back: nothing is typed ahead
    await page.keyboard.type("garbage");
    await page.locator("[data-testid=terminal-key-ctrl]").click();
    await page.keyboard.type("u");
    await page.keyboard.type("echo cleared-$((1+1))");
    await page.keyboard.press("Enter");
    const text = await waitForScreen(page, /cleared-2/, "Ctrl+U then a command");
    assert(!/garbageecho/.test(text), `Ctrl+U cleared the line: ${text}`);
    await screenshot(page, "terminal-phone");
    await page.locator("[data-testid=terminal-back]").click();
    await page.locator("[data-testid=terminal-dock]").waitFor({ state: "detached" });
  });
});

Deno.test("terminal (phone): without --allow-ffi the sheet says it is unavailable and why", async () => {
  await withPage(PHONE, async (page, server) => {
    await openApp(page, server.url);
    await page.getByRole("button", { name: "Terminal", exact: true }).click();
    const note = page.locator("[data-testid=terminal-unavailable]");
    await note.waitFor();
    const text = await note.innerText();
    assert(/unavailable/.test(text) && /allow-ffi|not supported/.test(text), text);
    assertEquals(await page.locator("[data-testid=terminal-new]").isDisabled(), true);
    await screenshot(page, "terminal-phone-unavailable");
  }, { runFlags: RUN_FLAGS.filter((f) => f !== "--allow-ffi") });
});

Deno.test(
  "terminal (desktop): a shell slow to start shows that it is starting, then its prompt",
  opts,
  async () => {
    const home = await Deno.makeTempDir({ prefix: "ra-slow-rc-" });
    // The start-up file waits for a file the test creates: the hint must be seen first.
    const gate = `${home}/go`;
    await Deno.writeTextFile(
      `${home}/.bashrc`,
      `while [ ! -e ${gate} ]; do sleep 0.05; done\nPS1='ready$ '\n`,
    );
    try {
      await withPage(DESKTOP, async (page, server) => {
        await openApp(page, server.url);
        await page.getByRole("button", { name: "Terminal", exact: true }).click();
        const hint = page.locator("[data-testid=terminal-starting]");
        await hint.waitFor();
        assertEquals(await hint.innerText(), "Starting the shell…");
        await screenshot(page, "desktop-terminal-starting");
        await Deno.writeTextFile(gate, "");
        await waitForScreen(page, /ready\$[\s\u00a0]*$/, "the prompt");
        await hint.waitFor({ state: "detached" });
      }, { env: { HOME: home, SHELL: "/bin/bash" } });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);
