/**
 * Command palette, shortcuts, conversation navigator and trajectory in a real
 * (headless) Chromium against the real server, at desktop 1280×800 and phone
 * 390×844, on a seeded long task (virtualised timeline, older entries paged):
 * Ctrl+Shift+P opens the palette, a fuzzy query runs an action (the Git panel, the
 * theme), `?` shows the shortcuts, Alt+↑/↓ and the rail / the questions list jump
 * between questions (also into turns that were virtualised away, and after loading
 * earlier entries), and the trajectory lists the stored steps. On the phone the
 * palette opens from the sidebar drawer. Screenshots: desktop-palette-*.png,
 * phone-palette-*.png.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { seedLongTask } from "../../scripts/bench_ui_seed.ts";
import {
  drawerShown,
  noHorizontalScroll,
  openApp,
  screenshot,
  watchErrors,
  withBrowserServer,
} from "./browser.ts";
import { DESKTOP, PHONE } from "./approval_helpers.ts";
import {
  lastTurn,
  pickModel,
  RICH_GATE,
  send,
  startMock as startRichMock,
  strip,
  WORKSPACE,
} from "./run_helpers.ts";

const LONG = 645; // 107 turns of 6 entries + compactions; 500 entries load first

async function withSetup(fn: (browser: Browser, url: string) => Promise<void>): Promise<void> {
  const mock = startMockLlm({ quiet: true });
  const home = await homeWithProvider(mock.base, ["chat"]);
  seedLongTask(home, { id: "t-long", title: "Long task", count: LONG, compactEvery: 40 });
  await withBrowserServer({ home }, (browser, server) => fn(browser, server.url), async () => {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  });
}

/** The question number (from the seed's text) whose turn crosses the timeline's middle. */
function questionInView(p: Page): Promise<number | null> {
  return p.evaluate(() => {
    const tl = document.querySelector("[data-testid=timeline]")!;
    const box = tl.getBoundingClientRect();
    const mid = box.top + box.height / 2;
    for (const el of tl.querySelectorAll<HTMLElement>("[data-testid=turn]")) {
      if (el.getBoundingClientRect().bottom < mid) continue;
      const m = /Question (\d+):/.exec(el.innerText);
      return m ? Number(m[1]) : null;
    }
    return null;
  });
}

async function until(p: Page, cond: () => Promise<boolean>, why: string) {
  for (let i = 0; i < 150; i++) {
    if (await cond()) return;
    await p.waitForTimeout(40);
  }
  throw new Error(why);
}

/** Opens the palette with Ctrl+Shift+P and types `query` once its input has focus. */
async function palette(p: Page, query: string) {
  await p.keyboard.press("Control+Shift+P");
  await p.locator("[data-testid=palette]").waitFor();
  await p.waitForFunction(() =>
    document.activeElement?.getAttribute("data-testid") === "palette-input"
  );
  await p.keyboard.type(query);
}

async function openLong(p: Page, url: string) {
  await openApp(p, `${url}#/t/t-long`);
  await p.locator("[data-testid=turn]").first().waitFor();
  await p.waitForFunction(() => {
    const el = document.querySelector("[data-testid=timeline]")!;
    return el.scrollHeight - el.scrollTop - el.clientHeight < 2;
  });
}

async function desktop(p: Page, url: string) {
  await openLong(p, url);
  // The rail: one tick per loaded question, the last one in view.
  const ticks = p.locator("[data-testid=question-tick]");
  const loadedQuestions = await ticks.count();
  assert(loadedQuestions > 70, `ticks: ${loadedQuestions}`);
  await until(
    p,
    async () => (await ticks.last().getAttribute("data-here")) === "true",
    "the last tick is not marked as in view",
  );
  // …and shown: the rail scrolls to it.
  assert(
    await p.evaluate(() => {
      const box = document.querySelector(".q-rail-ticks")!.getBoundingClientRect();
      const r = document.querySelector("[data-testid=question-tick][data-here=true]")!
        .getBoundingClientRect();
      return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    }),
    "the marked tick is scrolled out of the rail",
  );
  await screenshot(p, "desktop-palette-rail");

  // The palette from the composer (the shortcut works while typing), fuzzy "gitp".
  await p.click("[data-testid=composer-input]");
  await p.keyboard.press("Control+Shift+P");
  await p.locator("[data-testid=palette]").waitFor();
  assert(
    await p.locator("[data-testid=palette-input]").evaluate((el) => el === document.activeElement),
  );
  const all = await p.locator("[data-testid=palette-item]").count();
  assert(all >= 16, `actions: ${all}`);
  // The shortcuts are shown next to their actions.
  assertMatch(
    await p.locator("[data-testid=palette-item][data-action=search]").innerText(),
    /Ctrl\s*K/,
  );
  await p.keyboard.type("gitp");
  await until(
    p,
    async () =>
      (await p.locator("[data-testid=palette-item]").first().getAttribute("data-action")) ===
        "panel:git",
    "gitp does not rank the Git panel first",
  );
  await screenshot(p, "desktop-palette-open");
  await p.keyboard.press("Enter");
  await p.locator("[data-testid=palette]").waitFor({ state: "detached" });
  await p.locator("[data-testid=right-panel]").waitFor();
  await p.keyboard.press("Escape");
  // Nothing typed into the composer by the shortcut or the query.
  assertEquals(await p.locator("[data-testid=composer-input]").inputValue(), "");

  // One overlay at a time: Ctrl+K from the palette leaves only the search, and back.
  await p.keyboard.press("Control+Shift+P");
  await p.locator("[data-testid=palette]").waitFor();
  await p.keyboard.press("Control+K");
  await p.locator("[data-testid=search-dialog]").waitFor();
  await p.locator("[data-testid=palette]").waitFor({ state: "detached" });
  await p.keyboard.press("Control+Shift+P");
  await p.locator("[data-testid=palette]").waitFor();
  assertEquals(await p.locator("[data-testid=search-dialog]").count(), 0);
  await p.keyboard.press("Escape");
  await p.locator("[data-testid=palette]").waitFor({ state: "detached" });

  // ↑ / ↓ wrap in the palette; Escape closes it.
  await p.keyboard.press("Control+Shift+P");
  await p.locator("[data-testid=palette]").waitFor();
  await p.keyboard.press("ArrowUp");
  assertEquals(
    await p.locator("[data-testid=palette-item][aria-selected=true]").getAttribute("data-action"),
    await p.locator("[data-testid=palette-item]").last().getAttribute("data-action"),
  );
  await p.keyboard.press("Escape");
  await p.locator("[data-testid=palette]").waitFor({ state: "detached" });

  // `?` outside a text field opens the shortcut list (typed in the composer it is text).
  await p.locator("[data-testid=timeline]").click({ position: { x: 5, y: 5 } });
  await p.keyboard.press("Shift+Slash");
  await p.locator("[data-testid=shortcuts]").waitFor();
  assert((await p.locator("[data-testid=shortcut-row]").count()) >= 6);
  await screenshot(p, "desktop-palette-shortcuts");
  // Rebinding: a clash is refused with the reason; a free chord replaces the old one.
  const row = (id: string) => p.locator(`[data-testid=shortcut-row][data-shortcut=${id}]`);
  await row("prevQuestion").locator("[data-testid=bind-change]").click();
  await row("prevQuestion").locator("[data-testid=bind-recording]").waitFor();
  await p.keyboard.press("Alt+ArrowDown");
  assertMatch(
    await row("prevQuestion").locator("[data-testid=bind-error]").innerText(),
    /already used by “Next question”/,
  );
  await row("palette").locator("[data-testid=bind-change]").click();
  await row("palette").locator("[data-testid=bind-recording]").waitFor();
  await p.keyboard.press("Escape"); // cancels the recording, the dialog stays
  assertEquals(await row("palette").locator("[data-testid=bind-recording]").count(), 0);
  await row("palette").locator("[data-testid=bind-change]").click();
  await row("palette").locator("[data-testid=bind-recording]").waitFor();
  await p.keyboard.press("Control+Shift+L");
  assertEquals(
    (await row("palette").locator(".pal-keys").innerText()).replace(/\s+/g, " "),
    "Ctrl Shift L",
  );
  await screenshot(p, "desktop-palette-rebind");
  await p.keyboard.press("Escape");
  await p.locator("[data-testid=shortcuts]").waitFor({ state: "detached" });
  await p.keyboard.press("Control+Shift+P");
  await p.waitForTimeout(150);
  assertEquals(await p.locator("[data-testid=palette]").count(), 0, "the old chord is free");
  await p.keyboard.press("Control+Shift+L");
  await p.locator("[data-testid=palette]").waitFor();
  await p.keyboard.press("Escape");
  // Kept over a reload; then reset.
  await p.reload();
  await p.locator("[data-testid=turn]").first().waitFor();
  await p.locator("[data-testid=timeline]").click({ position: { x: 5, y: 5 } });
  await p.keyboard.press("Shift+Slash");
  await p.locator("[data-testid=shortcuts]").waitFor();
  assertEquals(
    (await row("palette").locator(".pal-keys").innerText()).replace(/\s+/g, " "),
    "Ctrl Shift L",
  );
  await p.click("[data-testid=bind-reset]");
  assertEquals(
    (await row("palette").locator(".pal-keys").innerText()).replace(/\s+/g, " "),
    "Ctrl Shift P",
  );
  await p.keyboard.press("Escape");
  await p.locator("[data-testid=shortcuts]").waitFor({ state: "detached" });
  await p.waitForFunction(() => {
    const el = document.querySelector("[data-testid=timeline]")!;
    return el.scrollHeight - el.scrollTop - el.clientHeight < 2;
  });

  // Alt+↑ / Alt+↓ step between questions (the turns are virtualised).
  const last = await questionInView(p);
  assert(last !== null && last > 100, `question in view: ${last}`);
  await p.locator("[data-testid=timeline]").click({ position: { x: 5, y: 5 } });
  // Deep in the last (long) turn, Alt+↑ first goes to its own question.
  await p.keyboard.press("Alt+ArrowUp");
  await until(p, async () => {
    const top = await p.evaluate(
      (id) =>
        document.querySelector(`[data-turn-id="${id}"] [data-entry-id="${id}"]`)
          ?.getBoundingClientRect().top ?? -1,
      `t-long-${String(last).padStart(6, "0")}0`,
    );
    return top > 200;
  }, "Alt+↑ did not go to the start of the last turn");
  assertEquals(await questionInView(p), last);
  await p.keyboard.press("Alt+ArrowUp");
  await until(p, async () => (await questionInView(p)) === last - 1, "Alt+↑ did not go back one");
  await p.keyboard.press("Alt+ArrowUp");
  await until(p, async () => (await questionInView(p)) === last - 2, "Alt+↑ again");
  await p.keyboard.press("Alt+ArrowDown");
  await until(p, async () => (await questionInView(p)) === last - 1, "Alt+↓ did not go forward");

  // A tick far away jumps into a turn that was not rendered.
  const first = ticks.first();
  const firstQ = Number(
    /: Question (\d+):/.exec((await first.getAttribute("aria-label")) ?? "")?.[1],
  );
  assert(firstQ > 0, "the first loaded question is numbered");
  await first.hover();
  await screenshot(p, "desktop-palette-tick-preview");
  await first.click();
  await until(p, async () => (await questionInView(p)) === firstQ, "the tick did not jump");

  // The questions list: ↑/↓ + Enter; "load earlier" brings the older questions in.
  await palette(p, "questions");
  await p.keyboard.press("Enter");
  const list = p.locator("[data-testid=questions]");
  await list.waitFor();
  assertEquals(await p.locator("[data-testid=question-item]").count(), loadedQuestions);
  await p.click("[data-testid=questions-load-earlier]");
  await until(
    p,
    async () => (await p.locator("[data-testid=question-item]").count()) > loadedQuestions,
    "load earlier did not add questions",
  );
  assertEquals(await p.locator("[data-testid=questions-load-earlier]").count(), 0);
  await p.locator("[data-testid=questions-list]").focus();
  await p.keyboard.press("Home");
  await p.keyboard.press("ArrowDown");
  await p.keyboard.press("ArrowDown");
  await screenshot(p, "desktop-palette-questions");
  await p.keyboard.press("Enter");
  await list.waitFor({ state: "detached" });
  await until(p, async () => (await questionInView(p)) === 2, "Enter did not jump to question 2");

  // The trajectory: every turn's steps, from the stored entries.
  await palette(p, "traj");
  await p.keyboard.press("Enter");
  await p.locator("[data-testid=trajectory]").waitFor();
  const turns = await p.locator("[data-testid=traj-turn]").count();
  assert(turns > 100, `trajectory turns: ${turns}`);
  const firstTurn = p.locator("[data-testid=traj-turn]").first();
  assertEquals(
    await firstTurn.locator("[data-testid=traj-step]").evaluateAll((els) =>
      els.map((e) =>
        `${(e as HTMLElement).dataset.kind}:${(e as HTMLElement).dataset.outcome ?? ""}`
      )
    ),
    ["model:", "tool:ok", "model:", "tool:ok", "model:", "compaction:"],
  );
  assertMatch(
    await p.locator("[data-testid=traj-totals]").innerText(),
    /model calls · \d+ tool calls \(0 failed, 0 refused\) · 3 compactions/,
  );
  await screenshot(p, "desktop-palette-trajectory");
  // A step opens its place in the conversation.
  await firstTurn.locator("[data-testid=traj-step]").nth(1).click();
  await p.locator("[data-testid=trajectory]").waitFor({ state: "detached" });
  await until(p, async () => (await questionInView(p)) === 0, "the step did not jump to turn 0");

  // The task menu (⋯) opens the questions list too.
  await p.click("[data-testid=task-menu]");
  await p.click("[data-testid=menu-questions]");
  await p.locator("[data-testid=questions]").waitFor();
  await p.keyboard.press("Escape");
  await p.locator("[data-testid=questions]").waitFor({ state: "detached" });

  // Settings from the palette, and the palette still works there.
  await palette(p, "settings usage");
  await p.keyboard.press("Enter");
  await p.locator("[data-testid=settings-tab-usage][aria-selected=true]").waitFor();
  await palette(p, "long task");
  assertEquals(
    await p.locator("[data-testid=palette-item]").count(),
    0,
    "the shown task is not offered",
  );
  await p.keyboard.press("Escape");
}

async function phone(p: Page, url: string) {
  await openLong(p, url);
  assertEquals(await p.locator("[data-testid=question-rail]").isVisible(), false, "no rail");
  // From the drawer: the palette button.
  await p.click("[data-testid=open-drawer]");
  await drawerShown(p);
  await p.click("[data-testid=open-palette]");
  await p.locator("[data-testid=palette]").waitFor();
  await noHorizontalScroll(p, PHONE.width);
  await screenshot(p, "phone-palette-open");
  const before = await p.evaluate(() => document.documentElement.dataset.theme);
  await p.fill("[data-testid=palette-input]", "theme");
  await p.locator("[data-testid=palette-item][data-action=theme]").click();
  await p.locator("[data-testid=palette]").waitFor({ state: "detached" });
  await until(
    p,
    async () =>
      (await p.evaluate(() => document.documentElement.dataset.theme)) !== before ||
      (await p.evaluate(() => document.documentElement.dataset.themePref)) !== "system",
    "the theme action did nothing",
  );

  // Questions list by tap.
  await p.click("[data-testid=open-drawer]");
  await drawerShown(p);
  await p.click("[data-testid=open-palette]");
  await p.fill("[data-testid=palette-input]", "questions");
  await p.keyboard.press("Enter");
  await p.locator("[data-testid=questions]").waitFor();
  await noHorizontalScroll(p, PHONE.width);
  await screenshot(p, "phone-palette-questions");
  const items = p.locator("[data-testid=question-item]");
  const target = items.nth(5);
  const q = Number(/Question (\d+):/.exec(await target.innerText())?.[1]);
  await target.click();
  await until(p, async () => (await questionInView(p)) === q, "the tap did not jump");

  // The shortcut list on the phone (from the palette: there is no `?` key).
  await p.click("[data-testid=open-drawer]");
  await drawerShown(p);
  await p.click("[data-testid=open-palette]");
  await p.fill("[data-testid=palette-input]", "keyboard shortcuts");
  await p.keyboard.press("Enter");
  await p.locator("[data-testid=shortcuts]").waitFor();
  await noHorizontalScroll(p, PHONE.width);
  await screenshot(p, "phone-palette-shortcuts");
  await p.click("[data-testid=shortcuts-close]");
  await p.locator("[data-testid=shortcuts]").waitFor({ state: "detached" });

  // Trajectory on the phone, from the header's Workbench sheet.
  await p.click("[data-testid=open-workbench]");
  await p.locator("[data-testid=open-workbench-menu]").waitFor();
  await screenshot(p, "phone-palette-workbench-menu");
  await p.click("[data-testid=menu-trajectory]");
  await p.locator("[data-testid=trajectory]").waitFor();
  await noHorizontalScroll(p, PHONE.width);
  await screenshot(p, "phone-palette-trajectory");
  await p.click("[data-testid=trajectory-close]");
  await p.locator("[data-testid=trajectory]").waitFor({ state: "detached" });
  await noHorizontalScroll(p, PHONE.width);
}

Deno.test("palette, navigator, trajectory: desktop 1280×800 and phone 390×844", async () => {
  await withSetup(async (browser, url) => {
    for (const [size, run] of [[DESKTOP, desktop], [PHONE, phone]] as const) {
      const context = await browser.newContext({ viewport: size, locale: "en-US" });
      const page = await context.newPage();
      const errors = watchErrors(page);
      try {
        await run(page, url);
      } catch (e) {
        await screenshot(page, `FAILED-palette-${size.width}`);
        throw e;
      }
      assertEquals(errors, [], "the page logged errors");
      await context.close();
    }
  });
});

Deno.test("trajectory of a real run; the palette from inside the terminal", async () => {
  const mock = startRichMock();
  const home = await homeWithProvider(mock.base, ["rich"], { workspaceFiles: WORKSPACE });
  await withBrowserServer({ home }, async (browser, server) => {
    const context = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
    const p = await context.newPage();
    const errors = watchErrors(p);
    await openApp(p, server.url);
    await p.waitForSelector("[data-testid=empty-state]");
    await pickModel(p, "mock/rich", "rich");
    mock.release(RICH_GATE); // the run is not looked at while it goes
    await send(p, "What is in this folder?");
    await strip(lastTurn(p)).and(p.locator("[data-state=done]")).waitFor({ timeout: 15_000 });

    await palette(p, "trajectory");
    await p.keyboard.press("Enter");
    await p.locator("[data-testid=trajectory]").waitFor();
    const steps = p.locator("[data-testid=traj-step]");
    assertEquals(
      await steps.evaluateAll((els) =>
        els.map((e) =>
          `${(e as HTMLElement).dataset.kind}:${(e as HTMLElement).dataset.outcome ?? ""}`
        )
      ),
      ["model:", "tool:ok", "tool:failed", "model:"],
      "list_dir ran, read_file of a missing file failed",
    );
    const model = await steps.first().innerText();
    assertMatch(model, /mock\/rich/);
    assertMatch(model, /\d+ in \/ \d+ out · thought \d+(ms|\.\ds) · 2 tool calls/);
    assertMatch(model, /\d+(ms|\.\ds)$/, "the stored duration");
    assertMatch(await steps.nth(1).innerText(), /list_dir \.[\s\S]*done[\s\S]*\d+(ms|\.\ds)$/);
    assertMatch(await steps.nth(2).innerText(), /read_file missing\.md[\s\S]*failed/);
    assertMatch(
      await p.locator("[data-testid=traj-totals]").innerText(),
      /^2 model calls · 2 tool calls \(1 failed, 0 refused\) · 0 compactions · 0 sub-agents · \d+ in \/ \d+ out$/,
    );
    await screenshot(p, "desktop-palette-trajectory-run");
    await p.keyboard.press("Escape");
    await p.locator("[data-testid=trajectory]").waitFor({ state: "detached" });

    // The terminal from the palette; inside it Ctrl+Shift+P still opens the palette
    // (xterm leaves it to the page) and plain keys stay the shell's.
    await palette(p, "open the terminal");
    await p.keyboard.press("Enter");
    await p.locator("[data-testid=terminal-view] .xterm").waitFor();
    await p.locator("[data-testid=terminal-view] .xterm").click();
    await p.keyboard.type("?");
    assertEquals(await p.locator("[data-testid=shortcuts]").count(), 0, "? is typed in the shell");
    await p.keyboard.press("Control+Shift+P");
    await p.locator("[data-testid=palette]").waitFor();
    await p.keyboard.press("Escape");
    assertEquals(errors, [], "the page logged errors");
    await context.close();
  }, async () => {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  });
});
