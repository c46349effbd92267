/**
 * The first screen in Chromium, from `app.js`, `first.css` and nothing else: with tasks
 * in the list, on a desktop (sidebar and the new-task draft) and on a phone (the task
 * home), it fetches no chunk, no whole stylesheet and no more strings; every element
 * looks exactly as it does once the whole stylesheet is added, and no string key shows
 * in place of its text. A view shown on demand then brings the rest; a whole stylesheet
 * that cannot be fetched says so with a reload button, like a missing chunk.
 * Screenshots: test-output/screenshots/first-screen-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { TestClient } from "../helpers/ws_client.ts";
import type { TestServer } from "../helpers/server.ts";
import { readDict } from "../../scripts/build/first_screen.ts";
import { openApp, screenshot, withBrowserServer } from "./browser.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const tid = (id: string) => `[data-testid=${id}]`;
/** What the first screen must not fetch: chunks, the whole stylesheet. */
const later = (url: string) => /\/assets\/(?:[0-9a-f]+\/[\w.-]+\.js|app\.css)(?:\?|$)/.test(url);

const KEYS = Object.keys(await readDict(new URL("../../ui/i18n/en.js", import.meta.url)))
  .filter((k) => k.includes("."));

async function seed(server: TestServer): Promise<void> {
  const folder = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-first-proj-" }));
  const c = await TestClient.connect(server.base, server.token);
  try {
    await c.request("projects.add", { path: folder });
    await c.request("tasks.create", { title: "Write the release notes" });
    await c.request("tasks.create", { title: "Fix the login bug", projectPath: folder });
    const { task } = await c.request<{ task: { id: string } }>("tasks.create", {
      title: "Pinned research notes",
    });
    await c.request("tasks.pin", { id: task.id, pinned: true });
  } finally {
    await c.close();
  }
}

/** Every element's computed style (animations stopped, so two looks compare). */
function looks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll("body *")) {
      const cs = getComputedStyle(el);
      const props: string[] = [];
      for (let i = 0; i < cs.length; i++) props.push(`${cs[i]}:${cs.getPropertyValue(cs[i])}`);
      const id = el.getAttribute("data-testid") ?? el.className.toString();
      out.push(`${el.tagName.toLowerCase()}[${id}] ${props.join(";")}`);
    }
    return out;
  });
}

/** The texts a person sees or hears: shown text, labels, titles, placeholders. */
function shownTexts(page: Page): Promise<string> {
  return page.evaluate(() =>
    [
      document.body.innerText,
      ...[...document.querySelectorAll("[aria-label], [title], [placeholder]")].flatMap((e) =>
        ["aria-label", "title", "placeholder"].map((a) => e.getAttribute(a) ?? "")
      ),
      document.title,
    ].join("\n")
  );
}

async function checkFirstScreen(
  page: Page,
  url: string,
  name: string,
  ready: string,
): Promise<void> {
  const fetched: string[] = [];
  page.on("request", (r) => later(r.url()) && fetched.push(new URL(r.url()).pathname));
  await page.addInitScript(() => {
    const stop = () => {
      const s = document.createElement("style");
      s.textContent = "*,*::before,*::after{animation:none!important;transition:none!important}";
      document.head.append(s);
    };
    if (document.head) stop();
    else document.addEventListener("DOMContentLoaded", stop);
  });
  await openApp(page, url);
  await page.locator(ready).first().waitFor();
  await page.locator(tid("composer-input")).or(page.locator(tid("task-home"))).first().waitFor();
  await screenshot(page, `first-screen-${name}`);
  assertEquals(fetched, [], "the first screen fetched no chunk and not the whole stylesheet");

  const texts = await shownTexts(page);
  const keysShown = KEYS.filter((k) => texts.includes(k));
  assertEquals(keysShown, [], "a string key shows in place of its text");

  const before = await looks(page);
  await page.evaluate(() =>
    new Promise<void>((resolve, reject) => {
      const href = document.querySelector("meta[name=reinagent-styles]")!.getAttribute("content")!;
      const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
      link.id = "test-whole-sheet";
      link.onload = () => resolve();
      link.onerror = () => reject(new Error(`could not load ${href}`));
      document.head.append(link);
    })
  );
  const after = await looks(page);
  assertEquals(after.length, before.length, "the same elements");
  const changed = after.filter((l, i) => l !== before[i]).map((l) => l.slice(0, 200));
  assertEquals(changed, [], "the whole stylesheet changes nothing on the first screen");
  await page.evaluate(() => document.getElementById("test-whole-sheet")!.remove());
}

/** Whether the app itself added the whole stylesheet. */
const wholeSheetAdded = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("link[rel=stylesheet]")].some((l) =>
      l.getAttribute("href")!.startsWith("/assets/app.css?v=")
    )
  );

Deno.test("first screen (desktop 1280×800): only app.js and first.css; Settings brings the rest", async () => {
  await withBrowserServer({}, async (browser, server) => {
    await seed(server);
    const context = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await checkFirstScreen(page, server.url, "desktop", tid("task-row"));

    const loaded: string[] = [];
    page.on("request", (r) => later(r.url()) && loaded.push(new URL(r.url()).pathname));
    await page.click(tid("open-settings"));
    await page.locator(tid("settings-view")).waitFor();
    assert(await wholeSheetAdded(page), "the whole stylesheet came with Settings");
    assert(loaded.some((p) => /\/en_more-\w+\.js$/.test(p)), loaded.join(", "));
    const texts = await shownTexts(page);
    assertEquals(KEYS.filter((k) => texts.includes(k)), [], "Settings shows texts, not keys");
    await screenshot(page, "first-screen-desktop-settings");
    assertEquals(errors, [], "no page errors");
  });
});

Deno.test("first screen (phone 390×844): the task home alone; search brings the rest", async () => {
  await withBrowserServer({}, async (browser, server) => {
    await seed(server);
    const context = await browser.newContext({ viewport: PHONE, locale: "en-US" });
    const page = await context.newPage();
    await checkFirstScreen(page, server.url, "phone", tid("home-row"));
    await page.click(tid("home-search"));
    await page.locator(tid("search-dialog")).waitFor();
    assert(await wholeSheetAdded(page), "the whole stylesheet came with the search");
    await screenshot(page, "first-screen-phone-search");
  });
});

Deno.test("first screen: a whole stylesheet that cannot be fetched says so", async () => {
  await withBrowserServer({}, async (browser, server) => {
    const context = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
    await context.route(
      (url) => url.pathname === "/assets/app.css",
      (route) => route.fulfill({ status: 404 }),
    );
    const page = await context.newPage();
    await openApp(page, server.url);
    await page.click(tid("open-settings"));
    await page.locator(tid("lazy-failed")).waitFor();
    await page.locator(`${tid("lazy-failed")} button`).waitFor();
    assertEquals(await page.locator(tid("settings-view")).count(), 0, "no half-styled view");
  });
});
