/**
 * Approvals across clients in a real (headless) Chromium against the real server and
 * the mock LLM: a desktop page watches while a phone page approves a write (Allow)
 * and an edit (Always allow); the cards show `+N −N` and the diff; the file on disk is
 * right. Then: two tasks waiting → the banner → Allow all; a rejection with feedback;
 * and a server killed while a call waits → the recovery banner → Allow & continue.
 * Screenshots: test-output/screenshots/desktop-approval-*.png, phone-approval-*.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  launchBrowser,
  noHorizontalScroll,
  openApp,
  screenshot,
  withBrowserServer,
} from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import {
  bigTargets,
  card,
  DESKTOP,
  newPage,
  NOTES,
  NOTES_EDITED,
  PHONE,
  pickApproval,
  startApprovalMock,
  startAskTask,
  waitForFile,
} from "./approval_helpers.ts";

const MODELS = ["approve", "write-alpha", "write-beta", "write-gamma"];

Deno.test("approvals: the phone approves, the desktop watches the diffs", async () => {
  const mock = startApprovalMock();
  const home = await homeWithMockProvider(mock.base, MODELS);
  await withBrowserServer({ home }, async (browser, server) => {
    const desk = await newPage(browser, DESKTOP);
    const phone = await newPage(browser, PHONE);
    const d = desk.page, p = phone.page;
    await openApp(d, server.url);
    await pickModel(d, "mock/approve", "approve");
    await send(d, "Hello");
    await strip(lastTurn(d)).and(d.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
    const id = d.url().split("#/t/")[1];
    await openApp(p, `${server.url}#/t/${id}`);
    await p.locator("[data-testid=entry][data-role=user] >> text=Hello").waitFor();

    // Ask mode for this task, chosen in the desktop composer; then send from the desktop.
    await pickApproval(d, "ask", "Ask");
    await send(d, "Write my notes, then fix the second item");

    // The phone shows the Approval card inside the write_file card.
    const approval = p.locator("[data-testid=approval-card]");
    await approval.waitFor({ timeout: 15_000 });
    assertEquals(await card(p, "write_file").getAttribute("data-status"), "waiting");
    const waiting = card(p, "write_file");
    assertEquals(
      await waiting.locator("[data-testid=file-chip]").getAttribute("title"),
      "notes.md",
    );
    assertEquals(await waiting.locator(".tool-badge").innerText(), "5 lines");
    const preview = await approval.locator("[data-testid=approval-preview] .dt").allInnerTexts();
    assertEquals(preview, ["# Notes", "", "- one", "- two", "- three"]);
    await bigTargets(approval.locator("button"));
    await noHorizontalScroll(p, PHONE.width);
    await p.locator("[data-testid=turn-status][data-state=waiting]").waitFor();
    await screenshot(p, "phone-approval-write");
    // The desktop sees the same waiting call, and the sidebar's amber dot.
    await d.locator("[data-testid=approval-card]").waitFor();
    await d.locator(`[data-task-id="${id}"] [data-testid=status-waiting]`).waitFor();
    await screenshot(d, "desktop-approval-waiting");
    await d.emulateMedia({ colorScheme: "dark" });
    await screenshot(d, "desktop-approval-waiting-dark");
    await d.emulateMedia({ colorScheme: "light" });
    assert(
      !(await Deno.stat(`${home}/DefaultProject/notes.md`).catch(() => null)),
      "written early",
    );

    await approval.locator("[data-testid=approval-allow]").click();
    await waitForFile(`${home}/DefaultProject/notes.md`, NOTES);

    // The desktop's write card: done, "created", +5 −0, and the diff when expanded.
    const write = card(d, "write_file");
    await write.and(d.locator("[data-status=done]")).waitFor();
    assertEquals(await write.locator("[data-testid=diff-stats]").innerText(), "+5 −0");
    assertEquals(await write.locator("[data-testid=file-label]").innerText(), "created");
    await write.locator(".tool-head").click();
    await write.locator("[data-testid=diff]").waitFor();
    const rows = write.locator("[data-testid=diff] .dl[data-sign='+']");
    assertEquals(await rows.count(), 5);
    assertEquals(await rows.first().locator(".dn").nth(1).innerText(), "1");
    assertEquals(await rows.nth(3).locator(".dt").innerText(), "- two");

    // The edit waits next (the read needs no approval); the phone says Always allow.
    const editApproval = p.locator("[data-testid=approval-card]");
    await card(p, "edit_file").locator("[data-testid=approval-card]").waitFor();
    const editPreview = editApproval.locator("[data-testid=approval-preview] .dl");
    assertEquals(await editPreview.evaluateAll((els) => els.map((e) => e.textContent)), [
      "-- two",
      "+- TWO",
    ]);
    await screenshot(p, "phone-approval-edit");
    await editApproval.locator("[data-testid=approval-always]").click();
    await waitForFile(`${home}/DefaultProject/notes.md`, NOTES_EDITED);

    // The turn ends and collapses its steps; open them again to look at the edit.
    await strip(lastTurn(d)).and(d.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
    await lastTurn(d).locator("[data-testid=turn-status] button").click();
    const edit = card(d, "edit_file");
    await edit.and(d.locator("[data-status=done]")).waitFor();
    assertEquals(await edit.locator("[data-testid=diff-stats]").innerText(), "+1 −1");
    await edit.locator(".tool-head").click();
    await edit.locator("[data-testid=diff]").waitFor();
    const signs = await edit.locator("[data-testid=diff] .dl").evaluateAll((els) =>
      els.map((e) => `${e.getAttribute("data-sign")}${e.querySelector(".dt")?.textContent}`)
    );
    assertEquals(signs, [" # Notes", " ", " - one", "-- two", "+- TWO", " - three"]);
    const read = card(d, "read_file");
    assertEquals(await read.locator("[data-testid=file-chip]").getAttribute("title"), "notes.md");
    assertEquals(await read.locator("[data-testid=file-label]").innerText(), "5 lines");
    await write.locator("[data-testid=diff]").waitFor();
    await d.evaluate(() => document.querySelector("[data-testid=timeline]")!.scrollTo(0, 1e6));
    await screenshot(d, "desktop-approval-diffs");
    await d.emulateMedia({ colorScheme: "dark" });
    await screenshot(d, "desktop-approval-diffs-dark");
    await strip(lastTurn(p)).and(p.locator("[data-state=done]")).waitFor();
    assertEquals(await p.locator("[data-testid=approval-card]").count(), 0);
    await screenshot(p, "phone-approval-done");
    assertEquals(desk.errors, [], "desktop page errors");
    assertEquals(phone.errors, [], "phone page errors");
  }, async () => {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  });
});

Deno.test(
  "approvals: two tasks waiting → banner → Allow all; reject with feedback",
  async () => {
    const mock = startApprovalMock();
    const home = await homeWithMockProvider(mock.base, MODELS);
    await withBrowserServer({ home }, async (browser, server) => {
      const desk = await newPage(browser, DESKTOP);
      const phone = await newPage(browser, PHONE);
      const d = desk.page, p = phone.page;
      await openApp(d, server.url);
      await openApp(p, server.url);
      const alpha = await startAskTask(d, "write-alpha", "Write alpha");
      await d.locator("[data-testid=approval-card]").waitFor({ timeout: 15_000 });
      // One other task waits: the phone (on the draft) sees it in a banner and can open it.
      const banner = p.locator("[data-testid=approval-banner]");
      await banner.waitFor();
      // (The title comes from the model; the mock answers with its first turn's text.)
      assertMatch(await banner.innerText(), /^“.+” is waiting for your approval\nwrite_file alpha/);
      await screenshot(p, "phone-approval-one-banner");
      const beta = await startAskTask(d, "write-beta", "Write beta");
      assert(alpha !== beta);
      await d.locator("[data-testid=approval-card]").waitFor({ timeout: 15_000 });

      // Two tasks wait: the banner on both pages, with a row per task.
      for (const page of [d, p]) {
        await page.locator("[data-testid=approval-banner-count]").waitFor();
        assertEquals(
          await page.locator("[data-testid=approval-banner-count]").innerText(),
          "2 tasks waiting for your approval",
        );
        assertEquals(await page.locator("[data-testid=approval-banner-task]").count(), 2);
      }
      await bigTargets(p.locator("[data-testid=approval-banner] button"));
      await noHorizontalScroll(p, PHONE.width);
      await screenshot(d, "desktop-approval-banner");
      await screenshot(p, "phone-approval-banner");

      // Allow all asks for an inline confirmation first.
      await p.click("[data-testid=approvals-allow-all]");
      assertMatch(await banner.innerText(), /Allow all 2 waiting calls\?/);
      await screenshot(p, "phone-approval-confirm");
      await p.click("[data-testid=approvals-confirm]");
      await banner.waitFor({ state: "detached" });
      await waitForFile(`${home}/DefaultProject/alpha.txt`, "alpha\n");
      await waitForFile(`${home}/DefaultProject/beta.txt`, "beta\n");
      await strip(lastTurn(d)).and(d.locator("[data-state=done]")).waitFor({ timeout: 15_000 });

      // Reject with feedback from the phone: Enter sends; the card shows the refusal.
      await startAskTask(p, "write-gamma", "Write gamma");
      const approval = p.locator("[data-testid=approval-card]");
      await approval.waitFor({ timeout: 15_000 });
      await approval.locator("[data-testid=approval-reject]").click();
      const feedback = approval.locator("[data-testid=approval-feedback]");
      assert(
        await feedback.evaluate((el) => el === document.activeElement),
        "feedback not focused",
      );
      await feedback.fill("Call it delta instead");
      await screenshot(p, "phone-approval-reject");
      await feedback.press("Enter");
      await strip(lastTurn(p)).and(p.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
      await lastTurn(p).locator("[data-testid=turn-status] button").click();
      const gamma = card(p, "write_file");
      await gamma.and(p.locator("[data-status=refused]")).waitFor();
      assertMatch(
        await gamma.locator("[data-testid=tool-output]").innerText(),
        /rejected this write_file call\. Their feedback: Call it delta instead/,
      );
      assert(!(await Deno.stat(`${home}/DefaultProject/gamma.txt`).catch(() => null)));
      assertEquals(desk.errors, [], "desktop page errors");
      assertEquals(phone.errors, [], "phone page errors");
    }, async () => {
      await mock.close();
      await Deno.remove(home, { recursive: true });
    });
  },
);

Deno.test(
  "approvals: after a restart, the recovery banner's Allow & continue finishes the turn",
  async () => {
    const mock = startApprovalMock();
    const home = await homeWithMockProvider(mock.base, MODELS);
    const browser = await launchBrowser();
    if (!browser) return await mock.close();
    let server = await startTestServer({ home });
    const port = new URL(server.base).port;
    try {
      const { page: p } = await newPage(browser, PHONE);
      await openApp(p, server.url);
      const id = await startAskTask(p, "write-alpha", "Write alpha");
      await p.locator("[data-testid=approval-card]").waitFor({ timeout: 15_000 });

      await server.kill(); // a crash while the call waits
      await p.waitForSelector("[data-testid=reconnecting]");
      server = await startTestServer({ home, args: ["--port", port] });
      const banner = p.locator("[data-testid=recovery-banner]");
      await banner.waitFor({ timeout: 15_000 });
      const title = await p.locator(`[data-task-id="${id}"] [data-testid=task-title]`)
        .textContent();
      assertEquals(await banner.locator("[data-testid=recovery-task]").innerText(), title);
      assertMatch(await banner.innerText(), /^Waiting since before the restart: /);
      assertEquals(
        await banner.locator("[data-testid=recovery-summary]").innerText(),
        "write_file alpha.txt (1 line)",
      );
      assertEquals(await p.locator("[data-testid=approval-card]").count(), 0, "not live any more");
      await strip(lastTurn(p)).and(p.locator("[data-state=stopped]")).waitFor();
      await p.locator(`[data-task-id="${id}"] [data-testid=status-waiting]`).waitFor({
        state: "attached",
      });
      await bigTargets(banner.locator("button:not(.link-btn)"));
      await noHorizontalScroll(p, PHONE.width);
      await screenshot(p, "phone-approval-recovery");

      await banner.locator("[data-testid=recover-allow]").click();
      await banner.waitFor({ state: "detached" });
      await waitForFile(`${home}/DefaultProject/alpha.txt`, "alpha\n");
      await p.locator("[data-testid=final-answer] >> text=Finished alpha.").waitFor({
        timeout: 15_000,
      });
      assertEquals(await card(p, "write_file").getAttribute("data-status"), "done");
      await screenshot(p, "phone-approval-recovered");
    } catch (e) {
      console.error(server.output());
      throw e;
    } finally {
      await browser.close();
      await server.stop();
      await mock.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);
