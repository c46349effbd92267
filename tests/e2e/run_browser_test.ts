/**
 * The live agent run in a real (headless) Chromium against the real server and the
 * mock LLM: model selection in the composer, turns with thinking, tool cards and a
 * Markdown final answer, Working → Worked, Stop, an auth error with Retry, the Demo
 * model, per-task effort/approval menus — on desktop and on a phone viewport.
 * Screenshots go to test-output/screenshots/ (desktop-run-*.png, phone-run-*.png).
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import {
  checkMenuKeyboard,
  checkRichAnswer,
  dangerousHrefs,
  lastTurn,
  newDraft,
  pickModel,
  RICH_GATE,
  send,
  startMock,
  streamed,
  strip,
  WORKSPACE,
} from "./run_helpers.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

Deno.test("run (desktop): stream, tools, Markdown, stop, errors, Demo, options", async () => {
  const mock = startMock();
  const home = await homeWithMockProvider(
    mock.base,
    ["rich", "slow", "unauthorized", "flaky"],
    WORKSPACE,
  );
  try {
    await withPage(DESKTOP, async (page, server) => {
      await openApp(page, server.url);
      await page.waitForSelector("[data-testid=empty-state]");

      // ---- a full turn: thinking, text, list_dir, then a Markdown answer ----
      await pickModel(page, "mock/rich", "rich");
      assertEquals(await page.locator("[data-testid=demo-badge]").count(), 0);
      await send(page, "What is in this folder?");
      const turn = lastTurn(page);
      await strip(turn).and(page.locator("[data-state=working]")).waitFor();
      assertMatch(await strip(turn).innerText(), /^Working \d+s/);
      assert(await page.locator("[data-testid=stop]").isVisible(), "no Stop button while running");
      assertEquals(await page.locator("[data-testid=send]").count(), 0);
      await turn.locator("[data-testid=tool-card][data-tool=list_dir]").waitFor();
      await screenshot(page, "desktop-run-live");
      mock.release(RICH_GATE);
      await strip(turn).and(page.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
      assertMatch(
        await strip(turn).locator(".strip-label").innerText(),
        /^Worked (<1s|\d+s|\d+m \d+s)$/,
      );
      // The mock model has no price: the turn's cost is unknown, not $0.
      assertEquals(await turn.locator("[data-testid=turn-cost]").innerText(), "price unknown");
      await page.locator("[data-testid=send]").waitFor();

      // The final answer is outside the (collapsed) process.
      const final = turn.locator("[data-testid=final-answer]");
      assert(await final.isVisible(), "final answer not visible");
      assertEquals(
        await turn.locator("[data-testid=turn-process] [data-testid=final-answer]").count(),
        0,
      );
      assert(
        !(await turn.locator("[data-testid=turn-process]").isVisible()),
        "process not collapsed",
      );
      await checkRichAnswer(final);
      assertEquals(await dangerousHrefs(page), []);
      assertEquals(await page.locator(".timeline script").count(), 0);
      assert(
        (await final.innerText()).includes("<script>alert(2)</script>"),
        "raw HTML not shown as text",
      );
      await screenshot(page, "desktop-run-done");

      // Expanding the process: thinking blocks, the tool card and its result.
      await strip(turn).locator("button").click();
      await turn.locator("[data-testid=turn-process]").waitFor();
      const thoughts = await turn.locator("[data-testid=thinking]").allInnerTexts();
      assertEquals(thoughts.length, 2);
      for (const th of thoughts) assertMatch(th.trim(), /^Thought for (<1s|\d+s)$/);
      const card = turn.locator("[data-testid=tool-card][data-tool=list_dir]");
      assertEquals(await card.getAttribute("data-status"), "done");
      assertEquals(await card.locator("[data-testid=tool-arg]").innerText(), ".");
      await card.locator("button").click();
      const out = await card.locator("[data-testid=tool-output]").innerText();
      assert(out.includes("notes.md") && out.includes("app.ts"), `list_dir output: ${out}`);
      const failed = turn.locator("[data-testid=tool-card][data-tool=read_file]");
      assertEquals(await failed.getAttribute("data-status"), "failed");
      assertMatch(
        await failed.locator("[data-testid=tool-output]").innerText(),
        /not found: missing\.md/,
      );
      await turn.locator("[data-testid=thinking] button").first().click();
      await turn.locator("[data-testid=thinking-text]").first().waitFor();
      // Production order: thinking, text, tool card, thinking — then the final answer.
      const order = await turn.locator(
        "[data-testid=thinking], [data-testid=tool-card], .part-md, [data-testid=final-answer]",
      ).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.testid ?? "text"));
      assertEquals(order, [
        "thinking",
        "text",
        "tool-card",
        "tool-card",
        "thinking",
        "final-answer",
      ]);
      await screenshot(page, "desktop-run-expanded");

      // ---- Stop: a slow stream is stopped, the strip says Stopped ----
      await newDraft(page);
      await pickModel(page, "mock/slow", "slow");
      await send(page, "Count slowly");
      const slow = lastTurn(page);
      await streamed(page, 60);
      await page.click("[data-testid=stop]");
      await strip(slow).and(page.locator("[data-state=stopped]")).waitFor();
      assertMatch(await strip(slow).innerText(), /^Stopped/);
      await page.locator("[data-testid=send]").waitFor();
      const partial = await slow.locator("[data-testid=final-answer]").innerText();
      assert(
        partial.startsWith("tick tick") && partial.length < 2900,
        `partial: ${partial.length}`,
      );
      await screenshot(page, "desktop-run-stopped");

      // ---- A 401: the error line with the auth badge, details, and Retry ----
      await newDraft(page);
      await pickModel(page, "mock/unauthorized", "unauthorized");
      await send(page, "This will fail");
      const bad = lastTurn(page);
      const line = bad.locator("[data-testid=error-line]");
      await line.waitFor();
      assertEquals(await line.getAttribute("data-category"), "auth");
      assertEquals(await line.locator("[data-testid=error-badge]").innerText(), "Auth");
      assertMatch(await line.locator("[data-testid=error-message]").innerText(), /invalid api key/);
      assertMatch(await line.innerText(), /The API key was rejected/);
      await line.locator("[data-testid=error-details] summary").click();
      const details = await line.locator("[data-testid=error-details]").innerText();
      assert(details.includes("401") && details.includes("/v1/chat/completions"), details);
      await strip(bad).and(page.locator("[data-state=error]")).waitFor();
      await screenshot(page, "desktop-run-error");
      await line.locator("[data-testid=retry]").click();
      await page.waitForFunction(() =>
        document.querySelectorAll("[data-testid=error-line]").length === 2
      );
      await page.locator("[data-testid=send]").waitFor(); // the retried run ended
      await bad.locator("[data-testid=retry]").waitFor();
      assertEquals(await bad.locator("[data-testid=retry]").count(), 1, "on the last error only");

      // ---- Retries: "Reconnecting… n/10 · error" while the provider answers 503 ----
      await newDraft(page);
      await pickModel(page, "mock/flaky", "flaky");
      await send(page, "Try until it works");
      const flaky = lastTurn(page);
      const retry = flaky.locator("[data-testid=reconnect-line]");
      await retry.waitFor();
      assertMatch(await retry.innerText(), /^Reconnecting… \d+\/10 · HTTP 503: overloaded$/);
      await screenshot(page, "desktop-run-reconnecting");
      await strip(flaky).and(page.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
      assertEquals(await flaky.locator("[data-testid=final-answer]").innerText(), "Recovered.");
      assertEquals(await retry.count(), 0);

      // ---- The Demo model: badge, a real list_dir card ----
      await newDraft(page);
      await pickModel(page, "demo/demo", "Demo");
      await page.locator("[data-testid=demo-badge]").waitFor();
      await send(page, "Show me the demo");
      const demo = lastTurn(page);
      await strip(demo).and(page.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
      await strip(demo).locator("button").click();
      const demoCard = demo.locator("[data-testid=tool-card][data-tool=list_dir]");
      assertEquals(await demoCard.getAttribute("data-status"), "done");
      await demoCard.locator("button").click();
      assert(
        (await demoCard.locator("[data-testid=tool-output]").innerText()).includes("notes.md"),
      );
      await page.locator("[data-testid=demo-badge]").waitFor();
      await screenshot(page, "desktop-run-demo");

      // ---- Per-task approval; the draft keeps the system defaults ----
      // The scripted Demo declares only Default; the new install's mode is edit (100 steps).
      await page.click("[data-testid=effort-select]");
      const levels = page.locator("[data-testid=effort-option]");
      assertEquals(
        await levels.evaluateAll((els) => els.map((e) => e.getAttribute("data-value"))),
        ["default"],
      );
      assertEquals([...new Set(await levels.locator(".tbadge").allInnerTexts())], ["100"]);
      await page.keyboard.press("Escape");
      await page.click("[data-testid=approval-select]");
      const modes = page.locator("[data-testid=approval-option]");
      assertEquals(await modes.count(), 4);
      assert(
        (await modes.last().getAttribute("class"))!.includes("mi-warn"),
        "full not in warning tone",
      );
      await screenshot(page, "desktop-run-menu");
      await checkMenuKeyboard(page, "approval-select", "edit", "full");
      await page.click("[data-testid=approval-select]");
      await page.click("[data-testid=approval-option][data-value=full]");
      await page.waitForSelector("[data-testid=approval-label] >> text=Full access");
      assertEquals(await page.locator("[data-testid=steps-badge]").innerText(), "∞");
      const demoUrl = page.url();
      await newDraft(page);
      assertEquals(await page.locator("[data-testid=effort-label]").innerText(), "Default");
      assertEquals(await page.locator("[data-testid=approval-label]").innerText(), "Auto-edit");
      assertEquals(await page.locator("[data-testid=steps-badge]").innerText(), "100");
      await page.goto(demoUrl);
      await page.waitForSelector("[data-testid=approval-label] >> text=Full access");
      assertEquals(await page.locator("[data-testid=steps-badge]").innerText(), "∞");
      assertEquals(await dangerousHrefs(page), []);
    }, { home });
  } finally {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("run (phone 390×844): sheets, send, final answer, stop", async () => {
  const mock = startMock();
  const home = await homeWithMockProvider(mock.base, ["rich", "slow"], WORKSPACE);
  try {
    await withPage(PHONE, async (page, server) => {
      await openApp(page, server.url);
      await page.waitForSelector("[data-testid=empty-state]");
      for (const id of ["model-select", "effort-select", "approval-select", "send"]) {
        const box = await page.locator(`[data-testid=${id}]`).boundingBox();
        assert(box && box.width >= 44 && box.height >= 44, `${id} < 44 px: ${JSON.stringify(box)}`);
      }
      await noHorizontalScroll(page, PHONE.width);

      // The model menu is a bottom sheet with large targets.
      await page.click("[data-testid=model-select]");
      const sheet = page.locator("[data-testid=model-select-menu]");
      await sheet.waitFor();
      const box = (await sheet.boundingBox())!;
      assertEquals([Math.round(box.x), Math.round(box.width)], [0, PHONE.width]);
      assert(
        Math.abs(box.y + box.height - PHONE.height) <= 1,
        `sheet not at the bottom: ${JSON.stringify(box)}`,
      );
      for (const b of await page.locator("[data-testid=model-option]").all()) {
        assert(((await b.boundingBox())?.height ?? 0) >= 44, "menu item < 44 px");
      }
      await screenshot(page, "phone-run-menu");
      await page.click(`[data-testid=model-option][data-value="mock/rich"]`);
      await sheet.waitFor({ state: "detached" });

      await send(page, "What is in this folder?");
      const turn = lastTurn(page);
      await page.locator("[data-testid=stop]").waitFor();
      mock.release(RICH_GATE);
      await strip(turn).and(page.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
      const final = turn.locator("[data-testid=final-answer]");
      await final.locator("table").scrollIntoViewIfNeeded();
      assert(await final.locator("table").isVisible(), "table not visible");
      await noHorizontalScroll(page, PHONE.width);
      await screenshot(page, "phone-run-done");
      assertEquals(await dangerousHrefs(page), []);

      // Approval sheet: Esc closes, a tap on the backdrop closes.
      await page.click("[data-testid=approval-select]");
      await page.locator("[data-testid=approval-select-menu]").waitFor();
      await screenshot(page, "phone-run-approval");
      await page.keyboard.press("Escape");
      await page.locator("[data-testid=approval-select-menu]").waitFor({ state: "detached" });
      await page.click("[data-testid=approval-select]");
      await page.locator("[data-testid=approval-select-menu]").waitFor();
      await page.mouse.click(PHONE.width / 2, 40);
      await page.locator("[data-testid=approval-select-menu]").waitFor({ state: "detached" });

      // Stop from the phone.
      await page.click("[data-testid=header-new-task]");
      await page.waitForSelector("[data-testid=empty-state]");
      await pickModel(page, "mock/slow", "slow");
      await send(page, "Count slowly");
      const stop = page.locator("[data-testid=stop]");
      await stop.waitFor();
      const sb = (await stop.boundingBox())!;
      assert(sb.width >= 44 && sb.height >= 44, `stop < 44 px: ${JSON.stringify(sb)}`);
      await streamed(page, 60);
      await screenshot(page, "phone-run-live");
      await stop.click();
      await strip(lastTurn(page)).and(page.locator("[data-state=stopped]")).waitFor();
      await page.locator("[data-testid=send]").waitFor();
      await noHorizontalScroll(page, PHONE.width);
      await screenshot(page, "phone-run-stopped");
    }, { home });
  } finally {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});
