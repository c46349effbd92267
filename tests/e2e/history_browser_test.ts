/**
 * Timeline history in a real (headless) Chromium against the real server and the mock
 * LLM, at desktop 1280×800 and phone 390×844: a seeded long task is virtualised (few
 * turns in the DOM), follows the bottom, freezes on scroll-up with a "back to bottom"
 * button, and "Load earlier (N left)" pages older entries keeping the view still;
 * then in a live task: copy a message and an answer, the file-changes card opening
 * the diff panel, edit & resend (Esc cancels), retry with its inline confirmation and
 * branch into a new task. Screenshots: desktop-history-*.png, phone-history-*.png.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { seedLongTask } from "../../scripts/bench_ui_seed.ts";
import {
  clickNewTask,
  noHorizontalScroll,
  openApp,
  screenshot,
  watchErrors,
  withBrowserServer,
} from "./browser.ts";
import { bigTargets, DESKTOP, PHONE } from "./approval_helpers.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";

const LONG = 645; // 107 whole turns (6 entries each) + 3 compactions

function startMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("chat", {
    turns: [
      {
        text: "Writing notes.",
        toolCalls: [{ name: "write_file", args: { path: "notes.txt", content: "a\nb\nc\n" } }],
      },
      { text: "Wrote **notes.txt** with three lines." },
      { text: "Answer to the *second* question.", chunk: 6, delayMs: 10 },
    ],
    repeatLast: true,
  });
  return mock;
}

async function withSetup(
  fn: (browser: Browser, url: string) => Promise<void>,
): Promise<void> {
  const mock = startMock();
  const home = await homeWithProvider(mock.base, ["chat"]);
  seedLongTask(home, { id: "t-long", title: "Long task", count: LONG, compactEvery: 40 });
  await withBrowserServer({ home }, (browser, server) => fn(browser, server.url), async () => {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  });
}

const tl = (p: Page) => p.locator("[data-testid=timeline]");

/** Top of turn `id` relative to the timeline (null when not rendered). */
function topOf(p: Page, id: string) {
  return tl(p).evaluate((el, id) => {
    const t = el.querySelector(`[data-turn-id="${id}"]`);
    return t ? t.getBoundingClientRect().top - el.getBoundingClientRect().top : null;
  }, id);
}

/** Top of the first turn in view, relative to the timeline, and its id. */
function firstVisible(p: Page) {
  return tl(p).evaluate((el) => {
    const box = el.getBoundingClientRect();
    for (const t of el.querySelectorAll<HTMLElement>("[data-testid=turn]")) {
      const r = t.getBoundingClientRect();
      if (r.bottom > box.top + 1) return { id: t.dataset.turnId!, top: r.top - box.top };
    }
    return null;
  });
}

async function longTask(p: Page, name: string, phone: boolean) {
  await openApp(p, `${p.url().split("#")[0]}#/t/t-long`);
  await p.locator("[data-testid=turn]").first().waitFor();
  await p.waitForFunction(() => {
    const el = document.querySelector("[data-testid=timeline]")!;
    return el.scrollHeight - el.scrollTop - el.clientHeight < 2;
  });
  const turnsTotal = Number(
    await p.locator("[data-testid=timeline-list]").getAttribute("data-turns"),
  );
  const rendered = await p.locator("[data-testid=turn]").count();
  assert(turnsTotal > 70, `turns loaded: ${turnsTotal}`);
  assert(rendered < 25, `virtualised: ${rendered} of ${turnsTotal} turns in the DOM`);
  assertEquals(await tl(p).getAttribute("data-following"), "true");
  assertEquals(await p.locator("[data-testid=back-to-bottom]").count(), 0);
  // The latest turn's file-changes card and its diff row.
  const fc = lastTurn(p).locator("[data-testid=file-changes]");
  assertMatch(await fc.locator("[data-testid=file-changes-title]").innerText(), /^1 file changed$/);
  assertEquals(await fc.locator("[data-testid=diff-stats]").first().innerText(), "+3 −2");
  await screenshot(p, `${name}-history-long`);

  // Scrolling up freezes following and offers "back to bottom".
  if (phone) await tl(p).evaluate((el) => el.scrollBy(0, -700));
  else {
    await tl(p).hover();
    await p.mouse.wheel(0, -700);
  }
  await p.locator("[data-testid=back-to-bottom]").waitFor();
  assertEquals(await tl(p).getAttribute("data-following"), "false");
  if (phone) await bigTargets(p.locator("[data-testid=back-to-bottom]"));
  await screenshot(p, `${name}-history-back-to-bottom`);
  await p.click("[data-testid=back-to-bottom]");
  await p.locator("[data-testid=back-to-bottom]").waitFor({ state: "detached" });
  await p.waitForFunction(() => {
    const el = document.querySelector("[data-testid=timeline]")!;
    return el.scrollHeight - el.scrollTop - el.clientHeight < 2;
  });
  assertEquals(await tl(p).getAttribute("data-following"), "true");

  // To the top (rendering stays small), then Load earlier keeps the view still.
  for (let i = 0; i < 60; i++) {
    const top = await tl(p).evaluate((el) => {
      el.scrollTop = 0;
      return el.scrollTop;
    });
    await p.waitForTimeout(30);
    if (top === 0 && (await tl(p).evaluate((el) => el.scrollTop)) === 0) break;
  }
  const more = p.locator("[data-testid=load-earlier]");
  await more.waitFor();
  assertEquals(await more.innerText(), `Load earlier (${LONG - 500} left)`);
  assert((await p.locator("[data-testid=turn]").count()) < 25, "still virtualised at the top");
  const before = await firstVisible(p);
  await screenshot(p, `${name}-history-load-earlier`);
  await more.click();
  await more.waitFor({ state: "detached" });
  await p.waitForTimeout(100);
  assert(before, "a turn in view");
  const after = await topOf(p, before!.id);
  assert(after !== null, "the turn is still rendered");
  assert(Math.abs(after! - before!.top) < 3, `moved ${before!.top} → ${after}`);
  assert((await firstVisible(p))!.id !== before!.id, "older turns now above it");
  const total = Number(await p.locator("[data-testid=timeline-list]").getAttribute("data-turns"));
  assert(total > turnsTotal, "older turns were added");
  await screenshot(p, `${name}-history-loaded`);
  // The loaded page reaches the task's start, where the first compaction shows as a band.
  await tl(p).evaluate((el) => el.scrollTop = 0);
  await p.locator("[data-testid=compact-band][data-entry-id=t-long-c000000]").waitFor();

  if (!phone) {
    // A far-away entry asked for by the find bar (`scrollTarget`) is rendered and shown.
    await p.click("[data-testid=back-to-bottom]");
    await p.locator("[data-testid=back-to-bottom]").waitFor({ state: "detached" });
    await p.keyboard.press("Control+f");
    await p.locator("[data-testid=find-input]").fill("Question 3:");
    const hit = p.locator("[data-testid=entry][data-role=user]", { hasText: "Question 3:" });
    await hit.waitFor();
    await p.waitForFunction(() => {
      const el = [...document.querySelectorAll("[data-testid=entry][data-role=user]")]
        .find((e) => e.textContent!.includes("Question 3:"));
      const box = document.querySelector("[data-testid=timeline]")!.getBoundingClientRect();
      const r = el?.getBoundingClientRect();
      return !!r && r.top >= box.top && r.bottom <= box.bottom;
    });
    assertEquals(await tl(p).getAttribute("data-following"), "false");
    await screenshot(p, `${name}-history-find`);
    await p.keyboard.press("Escape");
  }

  // Scrolled up, the user sends a message: the view follows the bottom again.
  await tl(p).evaluate((el) => el.scrollBy(0, -700));
  await p.locator("[data-testid=back-to-bottom]").waitFor();
  await send(p, "And now?");
  await p.locator("[data-testid=back-to-bottom]").waitFor({ state: "detached" });
  assertEquals(await tl(p).getAttribute("data-following"), "true");
  await p.waitForFunction(() => {
    const el = document.querySelector("[data-testid=timeline]")!;
    return el.scrollHeight - el.scrollTop - el.clientHeight < 2;
  });
  await lastTurn(p).locator("[data-testid=entry][data-role=user]", { hasText: "And now?" })
    .waitFor();
}

async function liveTask(p: Page, name: string, phone: boolean) {
  await clickNewTask(p);
  await p.waitForSelector("[data-testid=empty-state]");
  await pickModel(p, "mock/chat", "chat");
  const input = p.locator("[data-testid=composer-input]");
  await input.fill("first question");
  await input.press("Enter");
  await p.waitForURL(/#\/t\/[A-Za-z0-9_-]+$/);
  const taskId = p.url().split("#/t/")[1];
  const done = () =>
    strip(lastTurn(p)).and(p.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
  await done();
  await send(p, "second question");
  await done();
  const user = (n: number) => p.locator("[data-testid=entry][data-role=user]").nth(n);
  const answers = p.locator("[data-testid=final]");
  await answers.nth(1).waitFor();

  // File changes of turn 1 → the diff panel request.
  const row = p.locator("[data-testid=turn]").first().locator("[data-testid=file-change]");
  assertEquals(await row.getAttribute("data-path"), "notes.txt");
  assertEquals(await row.locator("[data-testid=diff-stats]").innerText(), "+3 −0");
  if (phone) await bigTargets(row);
  await row.click();
  assertEquals(await row.getAttribute("aria-pressed"), "true");
  const panel = p.locator("[data-testid=right-panel]");
  await panel.waitFor();
  assertEquals(await panel.locator("[data-testid=panel-path]").innerText(), "notes.txt");
  if (phone) {
    await screenshot(p, `${name}-history-diff-panel`);
    await panel.locator("[data-testid=panel-back]").click();
    await panel.waitFor({ state: "detached" });
  }

  // Copy a message and an answer.
  if (phone) {
    await user(1).locator("[data-testid=msg-menu]").click();
    await p.click("[data-testid=copy-message-item]");
  } else {
    await user(1).hover();
    await user(1).locator("[data-testid=copy-message]").click();
    await user(1).locator("[data-testid=copy-message][data-copied=ok]").waitFor();
  }
  assertEquals(await p.evaluate(() => navigator.clipboard.readText()), "second question");
  await answers.nth(1).locator("[data-testid=copy-answer]").click();
  await answers.nth(1).locator("[data-testid=copy-answer][data-copied=ok]").waitFor();
  assertEquals(
    await p.evaluate(() => navigator.clipboard.readText()),
    "Answer to the *second* question.",
  );
  assertMatch(await answers.nth(1).locator("[data-testid=answer-time]").innerText(), /\d/);
  if (phone) await bigTargets(answers.nth(1).locator(".hist-act"));

  // Edit & resend: Esc cancels; Resend cuts after the message and runs again.
  const openEditor = async () => {
    if (phone) {
      await user(1).locator("[data-testid=msg-menu]").click();
      await p.click("[data-testid=edit-message-item]");
    } else {
      await user(1).hover();
      await user(1).locator("[data-testid=edit-message]").click();
    }
    await p.locator("[data-testid=msg-editor]").waitFor();
    // The editor focuses itself once mounted: keys sent before that would go elsewhere.
    await p.waitForFunction(() =>
      document.activeElement?.getAttribute("data-testid") === "msg-editor-input"
    );
  };
  await openEditor();
  await p.keyboard.type(" (typo)");
  await p.keyboard.press("Escape");
  await p.locator("[data-testid=msg-editor]").waitFor({ state: "detached" });
  assertEquals(await user(1).locator(".part-text").innerText(), "second question");
  await openEditor();
  const editor = p.locator("[data-testid=msg-editor-input]");
  assertEquals(await editor.inputValue(), "second question");
  await editor.fill("second question, edited");
  await screenshot(p, `${name}-history-edit`);
  const answerId = (n: number) =>
    answers.nth(n).locator("[data-testid=final-answer]").getAttribute("data-entry-id");
  const oldAnswerId = await answerId(1);
  await p.click("[data-testid=msg-editor-send]");
  await p.locator("[data-testid=msg-editor]").waitFor({ state: "detached" });
  // The op answers before its events arrive: wait for the edit and the new answer.
  await user(1).locator(".part-text", { hasText: "second question, edited" }).waitFor();
  await p.waitForFunction(
    (old) => {
      const a = document.querySelectorAll("[data-testid=final-answer]");
      return a.length === 2 && a[1].getAttribute("data-entry-id") !== old;
    },
    oldAnswerId,
    { timeout: 15_000 },
  );
  await done();
  assertEquals(await user(1).locator(".part-text").innerText(), "second question, edited");
  assertEquals(await p.locator("[data-testid=turn]").count(), 2);
  const newAnswerId = await answerId(1);
  assert(newAnswerId && newAnswerId !== oldAnswerId, "a new answer");

  // Retry with its inline confirmation (Cancel first).
  await answers.nth(1).locator("[data-testid=retry-answer]").click();
  const confirmRow = answers.nth(1).locator("[data-testid=retry-confirm]");
  await confirmRow.waitFor();
  if (phone) await bigTargets(confirmRow.locator("button"));
  await screenshot(p, `${name}-history-retry-confirm`);
  await confirmRow.locator("[data-testid=confirm-cancel]").click();
  await confirmRow.waitFor({ state: "detached" });
  await answers.nth(1).locator("[data-testid=retry-answer]").click();
  await answers.nth(1).locator("[data-testid=confirm-ok]").click();
  await p.waitForFunction(
    (old) => {
      const a = document.querySelectorAll("[data-testid=final-answer]");
      return a.length === 2 && a[1].getAttribute("data-entry-id") !== old;
    },
    newAnswerId,
    { timeout: 15_000 },
  );
  await done();
  assertEquals(await p.locator("[data-testid=turn]").count(), 2);
  await screenshot(p, `${name}-history-answer`);

  // Branch at the first answer: opens the new task with the first turn only.
  await answers.nth(0).locator("[data-testid=branch-answer]").click();
  await answers.nth(0).locator("[data-testid=branch-confirm]").waitFor();
  await answers.nth(0).locator("[data-testid=confirm-ok]").click();
  await p.waitForFunction((id) => !location.hash.endsWith(id), taskId);
  await p.locator("[data-testid=final]").first().waitFor();
  assertEquals(await p.locator("[data-testid=turn]").count(), 1);
  assertEquals(
    await p.locator("[data-testid=entry][data-role=user] .part-text").innerText(),
    "first question",
  );
  assertMatch(await p.locator("[data-testid=header-title]").innerText(), /^Branch: /);
  await screenshot(p, `${name}-history-branch`);
  if (phone) await noHorizontalScroll(p, PHONE.width);
}

for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  Deno.test(
    `history (${name}): virtualised long task, back to bottom, load earlier, copy, edit, retry, branch`,
    async () => {
      await withSetup(async (browser, url) => {
        const context = await browser.newContext({ viewport, locale: "en-US" });
        await context.grantPermissions(["clipboard-read", "clipboard-write"], {
          origin: new URL(url).origin,
        });
        const p = await context.newPage();
        const errors = watchErrors(p);
        await openApp(p, url);
        await longTask(p, name, name === "phone");
        await liveTask(p, name, name === "phone");
        assertEquals(errors, [], "page errors");
      });
    },
  );
}
