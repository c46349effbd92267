/**
 * The interactive parts in a real (headless) Chromium against the real server and the
 * mock LLM, on desktop (1280×800) and phone (390×844): plan mode (refuse with
 * feedback, approve → Ask → the write asks → done), two questions answered (one via
 * "Other") and the todo capsule (1/3 → 3/3 → hidden); Rewind is in
 * rewind_browser_test.ts. Screenshots: desktop-interact-*.png, phone-interact-*.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { noHorizontalScroll, openApp, screenshot } from "./browser.ts";
import { bigTargets, card, DESKTOP, newPage, PHONE, waitForFile } from "./approval_helpers.ts";
import { lastTurn, strip } from "./run_helpers.ts";
import { startTask, toolResults, userMsg, withServer } from "./interact_helpers.ts";

Deno.test(
  "plan mode: refuse with feedback, approve → Ask, the write asks, the run finishes",
  async () => {
    await withServer(async ({ browser, server, home, mock }) => {
      const desk = await newPage(browser, DESKTOP);
      const phone = await newPage(browser, PHONE);
      const d = desk.page, p = phone.page;
      await openApp(d, server.url);
      const id = await startTask(d, "planner", "plan", "Plan", "Plan a plan.txt for me");
      await openApp(p, `${server.url}#/t/${id}`);

      // The first plan: reviewed on the phone, refused with feedback.
      const review = p.locator("[data-testid=plan-card]");
      await review.waitFor({ timeout: 15_000 });
      assertEquals(await review.locator("[data-testid=plan-text] h2").innerText(), "Plan");
      assertEquals(await review.locator("[data-testid=plan-text] li").count(), 2);
      await bigTargets(review.locator("button"));
      await noHorizontalScroll(p, PHONE.width);
      await screenshot(p, "phone-interact-plan");
      await review.locator("[data-testid=plan-reject]").click();
      const feedback = review.locator("[data-testid=plan-feedback]");
      assert(
        await feedback.evaluate((el) => el === document.activeElement),
        "feedback not focused",
      );
      await feedback.fill("Add tests first");
      await feedback.press("Enter");

      // The revised plan arrives on the desktop; the refused one says why.
      const plans = lastTurn(d).locator("[data-testid=tool-card][data-tool=exit_plan_mode]");
      await d.locator("[data-testid=plan-card] [data-testid=plan-text] table").waitFor({
        timeout: 15_000,
      });
      assertEquals(
        await plans.first().locator("[data-testid=plan-outcome]").innerText(),
        "Not approved — your feedback: Add tests first",
      );
      assertMatch(
        toolResults(mock, "planner")[0],
        /did not approve the plan\. Their feedback: Add tests first/,
      );
      assertEquals(await d.locator("[data-testid=approval-label]").innerText(), "Plan");
      // The timeline follows the card's growth: the buttons are in view without scrolling.
      await d.waitForFunction(
        () => {
          const tl = document.querySelector("[data-testid=timeline]")!.getBoundingClientRect();
          const b = document.querySelector("[data-testid=plan-approve]")?.getBoundingClientRect();
          return !!b && b.bottom <= tl.bottom && b.top >= tl.top;
        },
        undefined,
        { timeout: 3000 },
      );
      await screenshot(d, "desktop-interact-plan");

      // Approve: the task switches to Ask and the run goes on to a write that asks.
      await d.click("[data-testid=plan-approve]");
      await d.locator("[data-testid=approval-label] >> text=Ask").waitFor();
      const approved = plans.nth(1);
      assertEquals(
        await approved.locator("[data-testid=plan-outcome]").innerText(),
        "Plan approved — mode switched to Ask",
      );
      const write = card(d, "write_file");
      await write.locator("[data-testid=approval-card]").waitFor({ timeout: 15_000 });
      await screenshot(d, "desktop-interact-plan-approved");
      await write.locator("[data-testid=approval-allow]").click();
      await waitForFile(`${home}/DefaultProject/plan.txt`, "planned\n");
      await d.locator("[data-testid=final-answer] >> text=Plan carried out").waitFor({
        timeout: 15_000,
      });
      await p.locator("[data-testid=final-answer] >> text=Plan carried out").waitFor();
      assertEquals(await p.locator("[data-testid=plan-card]").count(), 0);
      assertEquals(desk.errors, [], "desktop page errors");
      assertEquals(phone.errors, [], "phone page errors");
    });
  },
);

Deno.test(
  "ask_user_question: two questions answered from the phone, one via Other",
  async () => {
    await withServer(async ({ browser, server, mock }) => {
      const phone = await newPage(browser, PHONE);
      const desk = await newPage(browser, DESKTOP);
      const p = phone.page, d = desk.page;
      await openApp(p, server.url);
      const id = await startTask(p, "asker", "full", "Full access", "Set up the project");
      const form = p.locator("[data-testid=question-card]");
      await form.waitFor({ timeout: 15_000 });
      // Elsewhere, the banner names the waiting task; with two tasks waiting only on
      // questions, there is nothing Allow all could answer.
      await openApp(d, server.url);
      const banner = d.locator("[data-testid=approval-banner]");
      assertMatch(await banner.innerText(), /is waiting for your approval\n2 questions for you/);
      await startTask(d, "asker", "full", "Full access", "Another project");
      await d.locator("[data-testid=question-card]").waitFor({ timeout: 15_000 });
      await p.locator("[data-testid=approval-banner-count]").waitFor();
      assertEquals(await p.locator("[data-testid=approvals-allow-all]").count(), 0);
      await openApp(d, `${server.url}#/t/${id}`);
      await d.locator("[data-testid=question-card]").waitFor();

      const tabs = form.locator("[data-testid=question-tab]");
      assertEquals(await tabs.allInnerTexts(), ["Database", "Tests"]);
      assertEquals(await form.locator("[data-testid=question-recommended]").count(), 1);
      assertEquals(await form.locator("input[type=radio]").count(), 3, "2 options + Other");
      assert(await form.locator("[data-testid=question-submit]").isDisabled(), "nothing answered");
      await bigTargets(form.locator("[data-testid=question-option], button"));
      await noHorizontalScroll(p, PHONE.width);
      await screenshot(p, "phone-interact-question");
      await screenshot(d, "desktop-interact-question");
      await d.emulateMedia({ colorScheme: "dark" });
      await screenshot(d, "desktop-interact-question-dark");
      await d.emulateMedia({ colorScheme: "light" });

      // A single choice moves on to the next question (checkboxes: multi-select).
      await form.locator("[data-testid=question-option] >> text=SQLite").click();
      assertEquals(await tabs.nth(1).getAttribute("aria-selected"), "true");
      assertEquals(await tabs.nth(0).getAttribute("data-answered"), "true");
      assertEquals(await form.locator("input[type=checkbox]").count(), 4, "3 options + Other");
      await form.locator("[data-testid=question-other]").fill("node:test");
      assertEquals(await form.locator("[data-testid=question-other-toggle]").isChecked(), true);
      assertEquals(
        await form.locator("[data-testid=question-progress]").innerText(),
        "2/2 answered",
      );
      await screenshot(p, "phone-interact-question-answered");
      await form.locator("[data-testid=question-submit]").click();

      await strip(lastTurn(p)).and(p.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
      await lastTurn(p).locator("[data-testid=turn-status] button").click();
      const summary = card(p, "ask_user_question").locator("[data-testid=question-summary]");
      assertEquals(await summary.locator("[data-testid=question-answer]").allInnerTexts(), [
        "SQLite",
        "node:test",
      ]);
      assertEquals(await summary.locator("dt").allInnerTexts(), ["Database", "Tests"]);
      const sent = toolResults(mock, "asker")[0];
      assertMatch(sent, /Q: Which database should the app use\?\nA: SQLite/);
      assertMatch(sent, /Q: Which test runners should I set up\?\nA: node:test/);
      await screenshot(p, "phone-interact-question-done");
      await d.locator("[data-testid=final-answer] >> text=going with your choices").waitFor();
      assertEquals(phone.errors, [], "phone page errors");
      assertEquals(desk.errors, [], "desktop page errors");
    });
  },
);

Deno.test(
  "todo capsule: 1/3 then 3/3 while running, hidden once all done and ended",
  async () => {
    await withServer(async ({ browser, server, mock }) => {
      const desk = await newPage(browser, DESKTOP);
      const d = desk.page;
      await openApp(d, server.url);
      const id = await startTask(d, "todos", "full", "Full access", "Build the feature");
      const capsule = d.locator("[data-testid=todo-capsule]");
      await capsule.locator("[data-testid=todo-count] >> text=1/3").waitFor({ timeout: 15_000 });
      assertEquals(
        await capsule.locator("[data-testid=todo-current]").innerText(),
        "Write the feature",
      );
      // While the task runs, Rewind is not offered.
      await userMsg(d, 0).hover();
      assert(
        await userMsg(d, 0).locator("[data-testid=rewind-turn]").isDisabled(),
        "rewind enabled",
      );
      await capsule.locator("[data-testid=todo-capsule-toggle]").click();
      const items = capsule.locator("[data-testid=todo-list] li");
      assertEquals(await items.allInnerTexts().then((l) => l.map((s) => s.split("\n")[0])), [
        "Read the code",
        "Write the feature",
        "Run the tests",
      ]);
      assertEquals(
        await items.first().locator(".todo-text").evaluate((el) =>
          getComputedStyle(el).textDecorationLine
        ),
        "line-through",
      );
      await screenshot(d, "desktop-interact-todo");
      const phone = await newPage(browser, PHONE);
      await openApp(phone.page, `${server.url}#/t/${id}`);
      await phone.page.locator("[data-testid=todo-capsule]").waitFor();
      await bigTargets(phone.page.locator("[data-testid=todo-capsule-toggle]"));
      await screenshot(phone.page, "phone-interact-todo");

      mock.release("todos-1");
      await capsule.locator("[data-testid=todo-count] >> text=3/3").waitFor({ timeout: 15_000 });
      assertEquals(await strip(lastTurn(d)).getAttribute("data-state"), "working");
      await screenshot(d, "desktop-interact-todo-done");
      mock.release("todos-2");
      await strip(lastTurn(d)).and(d.locator("[data-state=done]")).waitFor({ timeout: 20_000 });
      await capsule.waitFor({ state: "detached" });
      await phone.page.locator("[data-testid=todo-capsule]").waitFor({ state: "detached" });
      assertEquals(desk.errors, [], "desktop page errors");
      assertEquals(phone.errors, [], "phone page errors");
    });
  },
);
