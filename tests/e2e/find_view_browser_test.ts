/**
 * The conversation view tells the truth about where you are, in a
 * real (headless) Chromium: Ctrl/Cmd+F's bar never covers the current match (each one
 * is brought below the bar, above the composer), and "Back to bottom" shows only when
 * the view is not at the bottom — not after a find in a task that fits on screen, nor
 * after a jump that already lands at the end. Desktop 1280×800 and phone 390×844.
 * Screenshots: test-output/screenshots/{desktop,phone}-find-*.png.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { Store } from "../../store/store.ts";
import { openApp, screenshot, watchErrors, withPage } from "./browser.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const tid = (id: string) => `[data-testid=${id}]`;

const FILLER = "Filler words that make this paragraph long enough to wrap over lines.";

/** A long task whose answers hold "kumquat" at varied places, and a short one. */
async function seedHome(): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "ra-find-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  const store = new Store(`${home}/reinagent.db`);
  const r = store.repos!;
  r.tasks.create({ id: "tlong", title: "Long", projectPath: null });
  for (let i = 1; i <= 8; i++) {
    r.entries.append({
      id: `u${i}`,
      taskId: "tlong",
      role: "user",
      status: "done",
      parts: [{ type: "text", text: `Question ${i}?` }],
    });
    const paras = Array.from(
      { length: 7 },
      (_, k) => `${FILLER} ${FILLER}${k === i % 7 ? " The kumquat is here." : ""} ${FILLER}`,
    );
    r.entries.append({
      id: `a${i}`,
      taskId: "tlong",
      role: "assistant",
      status: "done",
      parts: [{ type: "text", text: paras.join("\n\n") }],
      meta: { startedAt: 1, endedAt: 2 },
    });
  }
  // One tall answer with a match on every line: some line always lands near the bar.
  r.tasks.create({ id: "tlist", title: "List", projectPath: null });
  r.entries.append({
    id: "lu1",
    taskId: "tlist",
    role: "user",
    status: "done",
    parts: [{ type: "text", text: "List them all." }],
  });
  r.entries.append({
    id: "la1",
    taskId: "tlist",
    role: "assistant",
    status: "done",
    parts: [{
      type: "text",
      text: Array.from({ length: 30 }, (_, k) => `Line ${k + 1} of the list: a ripe kumquat.`)
        .join("\n\n"),
    }],
    meta: { startedAt: 1, endedAt: 2 },
  });
  r.tasks.create({ id: "tshort", title: "Short", projectPath: null });
  for (let i = 1; i <= 2; i++) {
    r.entries.append({
      id: `su${i}`,
      taskId: "tshort",
      role: "user",
      status: "done",
      parts: [{ type: "text", text: `Tell me about the walrus ${i}.` }],
    });
    r.entries.append({
      id: `sa${i}`,
      taskId: "tshort",
      role: "assistant",
      status: "done",
      parts: [{ type: "text", text: `The walrus ${i} is big.` }],
      meta: { startedAt: 1, endedAt: 2 },
    });
  }
  store.close();
  return home;
}

async function openFind(page: Page, phone: boolean): Promise<void> {
  if (phone) await page.click(tid("find-open"));
  else {
    await page.locator(tid("timeline")).click({ position: { x: 20, y: 200 } });
    await page.keyboard.press("Control+f");
  }
  await page.locator(tid("find-input")).waitFor();
}

/** The current match's box and the areas that may cover it. */
const geometry = (page: Page) =>
  page.evaluate(() => {
    const hl = (CSS as unknown as { highlights?: Map<string, Iterable<Range>> }).highlights
      ?.get("reinagent-find-current");
    const range = hl ? [...hl][0] : null;
    const r = range?.getBoundingClientRect() ?? null;
    const bar = document.querySelector("[data-testid=find-bar]")!.getBoundingClientRect();
    const tl = document.querySelector("[data-testid=timeline]")!.getBoundingClientRect();
    return r && {
      match: { top: r.top, bottom: r.bottom, left: r.left, right: r.right },
      bar: { top: bar.top, bottom: bar.bottom, left: bar.left, right: bar.right },
      viewTop: tl.top,
      viewBottom: tl.bottom,
    };
  });

/**
 * Steps through the matches `from`…`to` of `n` and checks that none is covered by the bar
 * or cut off (the ones before `from` are only passed: each step starts from its match's
 * entry brought into view, whatever was shown before).
 */
async function everyMatchVisible(page: Page, n: number, from = 1, to = n): Promise<void> {
  for (let k = 1; k <= to; k++) {
    if (k > 1) await page.locator(tid("find-input")).press("Enter");
    await page.locator(`${tid("find-count")} >> text=${k}/${n}`).waitFor();
    if (k < from) continue;
    // The jump settles (render, scroll, repaint at 0/120/400 ms).
    await page.waitForTimeout(550);
    const g = await geometry(page);
    assert(g, `match ${k}: not painted`);
    // Below the bar (whatever its width), so the bar never hides it.
    assert(g.match.top >= g.bar.bottom, `match ${k} is under the find bar: ${JSON.stringify(g)}`);
    assert(
      g.match.top >= g.viewTop && g.match.bottom <= g.viewBottom,
      `match ${k} is outside the view: ${JSON.stringify(g)}`,
    );
  }
}

/** A task that fits on screen, then the long one: every match is shown below the bar. */
async function checkShortAndLong(page: Page, url: string, phone: boolean): Promise<void> {
  const name = phone ? "phone" : "desktop";
  // A task that fits on screen: a find moves nothing, so no "Back to bottom".
  await openApp(page, `${url}#/t/tshort`);
  await page.locator("[data-entry-id=sa2]").first().waitFor();
  await openFind(page, phone);
  await page.locator(tid("find-input")).fill("walrus");
  await page.locator(`${tid("find-count")} >> text=1/4`).waitFor();
  await page.waitForTimeout(500);
  assertEquals(
    await page.locator(tid("back-to-bottom")).count(),
    0,
    "Back to bottom at the bottom",
  );
  await page.locator(tid("find-input")).press("Escape");

  // A long task: every match is shown below the bar.
  await page.goto(`${url}#/t/tlong`);
  await page.locator("[data-entry-id=a8]").first().waitFor();
  await openFind(page, phone);
  await page.locator(tid("find-input")).fill("kumquat");
  await page.locator(`${tid("find-count")} >> text=1/8`).waitFor();
  await everyMatchVisible(page, 8);
  await screenshot(page, `${name}-find-current`);
  await page.locator(tid("find-input")).press("Escape");
}

/** The tall list answer, matches `from`…`to` of its 30; after the last, Back to bottom. */
async function checkList(
  page: Page,
  url: string,
  phone: boolean,
  from: number,
  to: number,
): Promise<void> {
  const name = phone ? "phone" : "desktop";
  await openApp(page, `${url}#/t/tlist`);
  await page.locator("[data-entry-id=la1]").first().waitFor();
  await openFind(page, phone);
  await page.locator(tid("find-input")).fill("kumquat");
  await page.locator(`${tid("find-count")} >> text=1/30`).waitFor();
  await everyMatchVisible(page, 30, from, to);
  if (to < 30) return;
  await screenshot(page, `${name}-find-list`);
  // The last match is in the last answer: after it, is the view at the bottom?
  const atBottom = await page.locator(tid("timeline")).evaluate((el) =>
    el.scrollHeight - el.scrollTop - el.clientHeight < 2
  );
  assertEquals(
    await page.locator(tid("back-to-bottom")).count(),
    atBottom ? 0 : 1,
    `Back to bottom ${atBottom ? "shown at" : "missing away from"} the bottom`,
  );
  // Scrolled up by the reader: the button; at the bottom again: gone.
  await page.locator(tid("find-input")).press("Escape");
  await page.locator(tid("timeline")).evaluate((el) => el.scrollTo({ top: 0 }));
  await page.locator(tid("back-to-bottom")).waitFor();
  await page.click(tid("back-to-bottom"));
  await page.locator(tid("back-to-bottom")).waitFor({ state: "detached" });
}

/**
 * All the checks, in four pages at once: after each step the bar's repaints (up to
 * 400 ms later) are waited out, and 38 such waits in a row would take most of a minute.
 */
async function checkFind(
  page: Page,
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
): Promise<void> {
  const phone = viewport === PHONE;
  const inNewPage = async (fn: (p: Page) => Promise<void>) => {
    const p = await (await browser.newContext({ viewport, locale: "en-US" })).newPage();
    const errors = watchErrors(p);
    await fn(p);
    assertEquals(errors, [], "the page logged errors");
  };
  await Promise.all([
    checkShortAndLong(page, url, phone),
    inNewPage((p) => checkList(p, url, phone, 1, 10)),
    inNewPage((p) => checkList(p, url, phone, 11, 20)),
    inNewPage((p) => checkList(p, url, phone, 21, 30)),
  ]);
}

Deno.test(
  "find bar (desktop): the current match is never under the bar; Back to bottom only away from it",
  async () => {
    const home = await seedHome();
    try {
      await withPage(DESKTOP, (page, server, b) => checkFind(page, b, server.url, DESKTOP), {
        home,
      });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);

Deno.test(
  "find bar (phone 390×844): the current match is never under the bar; Back to bottom only away from it",
  async () => {
    const home = await seedHome();
    try {
      await withPage(PHONE, (page, server, b) => checkFind(page, b, server.url, PHONE), {
        home,
      });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);
