/**
 * The "files changed" card is the turn's NET change, in a real (headless) Chromium
 * against the real server and the mock LLM: the agent creates notes.md with 4 lines,
 * reads it and edits one line; the card says "new +4 −0" (not "+5 −1") and its row
 * opens the net diff — four added lines, no removed one — in the right panel (desktop)
 * and the full-screen sheet (phone), while the edit's own card keeps its "+1 −1".
 * Screenshots: desktop-net-change-card.png, desktop-net-change-diff.png,
 * phone-net-change-diff.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withBrowserServer } from "./browser.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import { startTask } from "./interact_helpers.ts";
import { lastTurn, strip } from "./run_helpers.ts";

const NOTES = "# Notes\n- one\n- two\n- three\n";

/** The +/− lines of the diff shown in the right panel. */
const panelLines = (page: Page) =>
  page.locator("[data-testid=right-panel] [data-testid=diff] .dl:not(.dl-gap)").evaluateAll((els) =>
    els.map((e) => `${(e as HTMLElement).dataset.sign}${e.querySelector(".dt")?.textContent}`)
  );

Deno.test(
  "files changed: a new file edited in the same turn is 'new +4 −0' and opens the net diff",
  async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("netter", {
      turns: [
        {
          text: "Writing the notes.",
          toolCalls: [{ name: "write_file", args: { path: "notes.md", content: NOTES } }],
        },
        { toolCalls: [{ name: "read_file", args: { path: "notes.md" } }] },
        {
          toolCalls: [{
            name: "edit_file",
            args: { path: "notes.md", old_string: "- two", new_string: "- TWO" },
          }],
        },
        { text: "notes.md is written." },
      ],
    });
    const home = await homeWithProvider(mock.base, ["netter"]);
    await withBrowserServer(
      { home },
      async (browser, server) => {
        const desk = await newPage(browser, DESKTOP);
        const d = desk.page;
        await openApp(d, server.url);
        await startTask(d, "netter", "full", "Full access", "Write notes.md");
        await strip(lastTurn(d)).and(d.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
        const cardEl = lastTurn(d).locator("[data-testid=file-changes]");
        await cardEl.waitFor();
        assertEquals(
          await cardEl.locator("[data-testid=file-changes-title]").innerText(),
          "1 file changed",
        );
        const row = cardEl.locator("[data-testid=file-change][data-path='notes.md']");
        assertEquals(await row.locator(".fc-new").innerText(), "new");
        assertEquals(await row.locator("[data-testid=diff-stats]").innerText(), "+4 −0");
        assertEquals(
          await cardEl.locator(".fc-head [data-testid=diff-stats]").innerText(),
          "+4 −0",
        );
        assertEquals(await cardEl.getAttribute("data-net"), "true");
        await screenshot(d, "desktop-net-change-card");

        // The row opens the net diff: the file as the turn left it, every line added.
        await row.click();
        const panel = d.locator("[data-testid=right-panel]");
        await panel.locator("[data-testid=diff]").waitFor();
        assertEquals(await panelLines(d), ["+# Notes", "+- one", "+- TWO", "+- three"]);
        assertEquals(
          await panel.locator("[data-testid=diff-net-note]").innerText(),
          "The whole turn's change: a new file, as the turn left it.",
        );
        assertEquals(await panel.locator(".rpanel-kind").innerText(), "Changes in this turn");
        assertEquals(await row.getAttribute("aria-pressed"), "true");
        await d.locator("[data-testid=diff-mode-patch]").click();
        const patch = await d.locator("[data-testid=patch-text]").innerText();
        assert(patch.startsWith("--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1,4 @@"), patch);
        await d.locator("[data-testid=diff-mode-lines]").click();
        await screenshot(d, "desktop-net-change-diff");

        // The edit's own card still shows that edit alone.
        await lastTurn(d).locator("[data-testid=turn-status] button").click();
        const editCard = lastTurn(d).locator("[data-testid=tool-card][data-tool=edit_file]");
        await editCard.waitFor();
        assertEquals(
          await editCard.locator("[data-testid=diff-stats]").first().innerText(),
          "+1 −1",
        );

        // The phone: the same card and the net diff in the full-screen sheet.
        const phone = await newPage(browser, PHONE);
        const p = phone.page;
        await openApp(p, d.url().replace(/^.*#/, `${server.url}#`));
        const prow = lastTurn(p).locator("[data-testid=file-change][data-path='notes.md']");
        await prow.waitFor();
        assertEquals(await prow.locator("[data-testid=diff-stats]").innerText(), "+4 −0");
        await prow.click();
        await p.locator("[data-testid=right-panel] [data-testid=diff]").waitFor();
        assertEquals(await panelLines(p), ["+# Notes", "+- one", "+- TWO", "+- three"]);
        await noHorizontalScroll(p, PHONE.width);
        await screenshot(p, "phone-net-change-diff");
        assertEquals(desk.errors, [], "desktop page errors");
        assertEquals(phone.errors, [], "phone page errors");
      },
      async () => {
        await mock.close();
        await Deno.remove(home, { recursive: true });
      },
    );
  },
);
