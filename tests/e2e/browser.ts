/**
 * Headless Chromium for end-to-end tests, driven by playwright-core (no browser
 * download: it uses the system's Chromium). Without a Chromium binary the browser
 * tests skip loudly, unless REINAGENT_REQUIRE_BROWSER=1 (CI), which makes it a failure.
 */
import { type Browser, chromium, type Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** Path of the Chromium binary to use: $CHROMIUM_PATH, else the first one installed. */
export function findChromium(): string | null {
  const fromEnv = Deno.env.get("CHROMIUM_PATH");
  const list = fromEnv ? [fromEnv] : CANDIDATES;
  for (const p of list) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch {
      // not there; try the next
    }
  }
  return null;
}

/**
 * Launches headless Chromium, or returns null (after a loud notice) when there is none
 * and REINAGENT_REQUIRE_BROWSER is not "1".
 */
export async function launchBrowser(): Promise<Browser | null> {
  const executablePath = findChromium();
  if (!executablePath) {
    const msg = "no Chromium binary found (set CHROMIUM_PATH or install chromium)";
    if (Deno.env.get("REINAGENT_REQUIRE_BROWSER") === "1") {
      throw new Error(`REINAGENT_REQUIRE_BROWSER=1 but ${msg}`);
    }
    console.warn(`\n${"!".repeat(72)}\n!! SKIPPED: no Chromium — ${msg}\n${"!".repeat(72)}\n`);
    return null;
  }
  return await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

/** The test file's Chromium and its process id (its process group's). */
let shared: { browser: Browser; pid: number } | null = null;

/**
 * The Chromium of this test file: launched by the first test that needs it and kept for
 * the others, as launching and closing one took half a second or more of the machine's
 * two cores for each of a hundred-odd tests. Tests stay apart by using browser contexts
 * of their own (cookies, storage, permissions, service workers), which
 * {@link closeContexts} closes when the test ends. Deno runs a test file's `unload` event
 * before it starts the next file; nothing asynchronous can run there, so the browser is
 * killed then by its process group. Where that process cannot be found (no /proc), every
 * test gets a browser of its own as before.
 */
async function testFileBrowser(): Promise<{ browser: Browser; own: boolean } | null> {
  if (shared?.browser.isConnected()) return { browser: shared.browser, own: false };
  if (shared) killBrowser(shared.pid); // it crashed: what is left of it goes
  shared = null;
  const before = browserChildren();
  const browser = await launchBrowser();
  if (!browser) return null;
  const pid = browserChildren()?.find((p) => !before?.includes(p));
  if (before === null || pid === undefined) return { browser, own: true };
  if (!unloadHooked) {
    unloadHooked = true;
    globalThis.addEventListener("unload", () => {
      if (shared) killBrowser(shared.pid);
      shared = null;
    });
  }
  shared = { browser, pid };
  return { browser, own: false };
}

let unloadHooked = false;

/** Ids of this process's children that are Chromiums driven by Playwright; null without /proc. */
function browserChildren(): number[] | null {
  const out: number[] = [];
  try {
    for (const e of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      try {
        const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (ppid !== Deno.pid) continue;
        const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`);
        if (cmd.includes("--remote-debugging-pipe")) out.push(Number(e.name));
      } catch { /* ended meanwhile */ }
    }
  } catch {
    return null;
  }
  return out;
}

/** Kills a browser's process group at once and removes the profile Playwright made for it. */
function killBrowser(pid: number): void {
  const profile = (() => {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0")
        .find((a) => a.startsWith("--user-data-dir="))?.slice("--user-data-dir=".length);
    } catch {
      return undefined;
    }
  })();
  try {
    Deno.kill(-pid, "SIGKILL"); // Playwright starts it as the leader of its own group
  } catch { /* already gone */ }
  // The profile goes once nothing of the group runs any more (a dying helper may still
  // write into it); this runs in `unload`, so the wait is a synchronous one.
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < 200 && groupAlive(pid); i++) Atomics.wait(tick, 0, 0, 10);
  if (profile?.startsWith(Deno.env.get("TMPDIR") ?? "/tmp")) {
    try {
      Deno.removeSync(profile, { recursive: true });
    } catch { /* still in use after 2 s: the OS cleans /tmp */ }
  }
}

/** Whether a process of group `pgid` still runs (a zombie waiting to be reaped does not). */
function groupAlive(pgid: number): boolean {
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z") return true;
    } catch { /* ended meanwhile */ }
  }
  return false;
}

/** Closes the contexts a test opened in the browser (the browser, when it is the test's own). */
async function closeContexts(b: { browser: Browser; own: boolean }): Promise<void> {
  if (b.own || !b.browser.isConnected()) return await b.browser.close();
  await Promise.all(b.browser.contexts().map((c) => c.close()));
}

export const SCREENSHOT_DIR = new URL("../../test-output/screenshots/", import.meta.url);

/** Saves a full-page PNG as test-output/screenshots/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await Deno.mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = new URL(`${name}.png`, SCREENSHOT_DIR).pathname;
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** Collects page errors and console errors so a test can assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/**
 * Runs `fn` with the test file's browser and a server started with `serverOpts`; prints
 * the server's output when `fn` fails; always closes the contexts `fn` opened and the
 * server, then runs `cleanup` (also when there is no browser and the test is skipped).
 */
export async function withBrowserServer(
  serverOpts: Parameters<typeof startTestServer>[0],
  fn: (browser: Browser, server: TestServer) => Promise<void>,
  cleanup: () => Promise<void> = async () => {},
): Promise<void> {
  const b = await testFileBrowser();
  if (!b) return await cleanup();
  const server = await startTestServer(serverOpts);
  try {
    await fn(b.browser, server);
  } catch (e) {
    console.error(server.output());
    throw e;
  } finally {
    await closeContexts(b);
    await server.stop();
    await cleanup();
  }
}

/**
 * Opens the new-task draft with whichever New task button is visible: the sidebar's
 * (desktop), the header's (phone, in a task) or the phone task home's.
 */
export async function clickNewTask(page: Page): Promise<void> {
  await page.click(
    "[data-testid=new-task], [data-testid=header-new-task], [data-testid=home-new-task] >> visible=true",
  );
}

/**
 * Runs `fn` with a fresh server and a page in a fresh context of the test file's browser;
 * always cleans up.
 */
export async function withPage(
  viewport: { width: number; height: number },
  fn: (page: Page, server: TestServer, browser: Browser) => Promise<void>,
  serverOpts: Parameters<typeof startTestServer>[0] = {},
): Promise<void> {
  const b = await testFileBrowser();
  if (!b) return; // launchBrowser printed the loud SKIPPED notice
  const server = await startTestServer(serverOpts);
  let page: Page | undefined;
  try {
    const context = await b.browser.newContext({ viewport, locale: "en-US" });
    page = await context.newPage();
    const errors = watchErrors(page);
    await fn(page, server, b.browser);
    assertEquals(errors, [], "the page logged errors");
  } catch (e) {
    console.error(server.output());
    if (page) await reportFailedPage(page);
    throw e;
  } finally {
    await closeContexts(b);
    await server.stop();
  }
}

/** What the page showed when a test failed: a screenshot and the text of dialogs and alerts. */
async function reportFailedPage(page: Page): Promise<void> {
  try {
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll("[role=dialog], [role=alert], .toast")]
        .map((e) => (e as HTMLElement).innerText.slice(0, 500)).join("\n---\n")
    );
    console.error(`page at failure (${page.url()}):\n${shown || "(no dialog or alert)"}`);
    await screenshot(page, `FAILED-${Date.now()}`);
  } catch (e) {
    console.error("could not report the failed page:", e);
  }
}

/** Opens the app and waits until it is connected and the task list is loaded. */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector("[data-testid=sidebar] .task-section, [data-testid=no-tasks]", {
    state: "attached",
  });
}

/** Polls `cond` every 20 ms for up to 5 s. */
export async function until(cond: () => boolean, why: () => string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until the drawer finished sliding in. */
export async function drawerShown(page: Page): Promise<void> {
  await page.locator("[data-testid=sidebar]").waitFor({ state: "visible" });
  await page.waitForFunction(() =>
    document.querySelector("[data-testid=sidebar]")!.getBoundingClientRect().left >= 0
  );
}

export async function noHorizontalScroll(page: Page, width: number): Promise<void> {
  const sw = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(sw <= width, `horizontal scroll: scrollWidth ${sw} > ${width}`);
}
