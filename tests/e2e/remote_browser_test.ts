/**
 * Remote access in real (headless) Chromium against the real server bound to every
 * interface: a phone-viewport browser pairs through the token URL on the machine's
 * network address (not loopback, so lockout applies), a reload keeps the session, the
 * desktop's Settings → Remote access lists it, a token reset disconnects it (it shows
 * the pair-again screen and pairs with the new link), five bad tokens lock its address
 * out. Plus the service worker: shell cached, no API data, and the offline page when
 * the server is gone. Screenshots of the page on desktop and phone.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser, openApp, screenshot, watchErrors, withPage } from "./browser.ts";

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const PHONE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const tid = (id: string) => `[data-testid=${id}]`;

const LAN = Deno.networkInterfaces().find((i) =>
  i.family === "IPv4" && !i.address.startsWith("127.")
)?.address;

async function phoneContext(browser: Browser): Promise<BrowserContext> {
  return await browser.newContext({
    viewport: PHONE,
    userAgent: PHONE_UA,
    isMobile: true,
    hasTouch: true,
    locale: "en-US",
  });
}

/** Polls a page-side check every 100 ms for up to 15 s. */
async function until(page: Page, check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 15_000;
  while (!(await page.evaluate(check).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function openRemoteAccess(page: Page, phone: boolean) {
  if (phone) await page.click(tid("open-drawer"));
  await page.click(tid("open-settings"));
  await page.click(tid("settings-tab-remote"));
  await page.waitForSelector(tid("remote-qr"));
}

Deno.test(
  "remote access: a phone pairs, stays paired, is dropped by a reset, locked out",
  async () => {
    if (!LAN) throw new Error("this machine has no non-loopback IPv4 address to test from");
    const browser = await launchBrowser();
    if (!browser) return;
    const server = await startTestServer({ args: ["--host", "0.0.0.0"] });
    const port = new URL(server.base).port;
    const lanBase = `http://${LAN}:${port}`;
    try {
      const desk = await (await browser.newContext({ viewport: DESKTOP, locale: "en-US" }))
        .newPage();
      const deskErrors = watchErrors(desk);
      await openApp(desk, server.url);

      // The phone pairs through the token URL on the network address.
      const phoneCtx = await phoneContext(browser);
      const phone = await phoneCtx.newPage();
      await openApp(phone, `${lanBase}/?token=${encodeURIComponent(server.token)}`);
      assertEquals(phone.url(), `${lanBase}/`, "the token left the address bar");
      const cookies = await phoneCtx.cookies();
      assert(cookies.some((c) => c.name === `reinagent_${port}` && c.httpOnly), "HttpOnly cookie");
      await phone.reload();
      await phone.waitForSelector("[data-testid=sidebar] .task-section, [data-testid=no-tasks]", {
        state: "attached",
      });
      assertEquals(phone.url(), `${lanBase}/`, "reload keeps the session");

      // The desktop sees it: URL per address, QR code, the phone with its address.
      await openRemoteAccess(desk, false);
      const urls = desk.locator(tid("remote-url"));
      assert(await urls.count() >= 2, "this computer + the network address");
      assertMatch(
        await desk.locator(`${tid("remote-url")}[data-kind=network]`).first().innerText(),
        new RegExp(`${LAN.replaceAll(".", "\\.")}:${port}/\\?token=`),
      );
      assertMatch(
        await desk.locator(tid("remote-qr-for")).innerText(),
        new RegExp(LAN.replaceAll(".", "\\.")),
      );
      const phoneRow = desk.locator(`${tid("remote-client")}[data-kind=phone]`);
      await phoneRow.waitFor({ timeout: 8000 });
      assertMatch(
        await phoneRow.innerText(),
        new RegExp(`Chrome, Android[\\s\\S]*${LAN.replaceAll(".", "\\.")}`),
      );
      await screenshot(desk, "remote-access-desktop");
      await desk.locator(tid("remote-guide-proxy")).locator("summary").click();
      await screenshot(desk, "remote-access-desktop-guide");

      await openRemoteAccess(phone, true);
      await phone.locator(`${tid("remote-client")}[data-kind=phone]`).waitFor();
      await screenshot(phone, "remote-access-phone");
      await phone.locator(tid("remote-reset")).scrollIntoViewIfNeeded();
      await screenshot(phone, "remote-access-phone-clients");
      const scrollW = await phone.evaluate(() => document.documentElement.scrollWidth);
      assert(scrollW <= PHONE.width, `no horizontal scroll on the phone (${scrollW})`);

      // Token reset on the desktop: the phone is dropped and told to pair again.
      const qrBefore = await desk.locator(`${tid("remote-qr")} path`).getAttribute("d");
      await desk.click(tid("remote-reset"));
      await desk.click(tid("remote-reset-confirm"));
      await phone.waitForSelector(tid("access-revoked"), { timeout: 5000 });
      await desk.waitForFunction(() =>
        document.querySelector("[data-testid=remote-qr-for]")?.textContent?.includes("reset")
      );
      const qrAfter = await desk.locator(`${tid("remote-qr")} path`).getAttribute("d");
      assert(qrBefore !== qrAfter, "the new QR code is shown");
      const newToken = (await Deno.readTextFile(`${server.home}/token`)).trim();
      assert(newToken !== server.token);
      await screenshot(phone, "remote-access-phone-revoked");
      // The desktop that reset re-paired: a reload still opens the app.
      await openApp(desk, `${server.base}/`);

      // The phone pairs again by pasting the new link.
      await phone.fill(tid("revoked-link"), `${lanBase}/?token=${newToken}`);
      await phone.click(tid("revoked-open"));
      await phone.waitForSelector("[data-testid=sidebar] .task-section, [data-testid=no-tasks]", {
        state: "attached",
      });

      // Five bad tokens from the phone's address lock it out (even with the right one).
      const stranger = await (await phoneContext(browser)).newPage();
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        statuses.push(
          (await stranger.goto(`${lanBase}/?token=guess-${i}-aaaaaaaaaaaaaaaa`))!.status(),
        );
      }
      assertEquals(statuses, [401, 401, 401, 401, 429]);
      const locked = await stranger.goto(`${lanBase}/?token=${newToken}`);
      assertEquals(locked!.status(), 429);
      assertMatch(await stranger.locator("body").innerText(), /Too many failed attempts/);
      await screenshot(stranger, "remote-access-locked-out");
      // Loopback is never locked out: the desktop still works.
      await openApp(desk, `${server.base}/`);
      assertEquals(deskErrors, [], "the desktop page logged errors");
    } catch (e) {
      console.error(server.output());
      throw e;
    } finally {
      await browser.close();
      await server.stop();
    }
  },
);

Deno.test(
  "service worker: caches the shell, never API data; offline page when the server is gone",
  async () => {
    const browser = await launchBrowser();
    if (!browser) return;
    const server = await startTestServer();
    let stopped = false;
    try {
      const ctx = await browser.newContext({ viewport: PHONE, locale: "en-US" });
      const page = await ctx.newPage();
      await openApp(page, server.url);
      await until(
        page,
        () =>
          navigator.serviceWorker.getRegistration().then((r) => r?.active?.state === "activated"),
        "the service worker is activated",
      );
      // A page loaded before the worker took over is claimed; a reload is controlled for sure.
      await page.reload();
      await until(
        page,
        () => Promise.resolve(navigator.serviceWorker.controller !== null),
        "the page is controlled",
      );
      const cached: string[] = await page.evaluate(async () => {
        const out: string[] = [];
        for (const k of await caches.keys()) {
          for (const r of await (await caches.open(k)).keys()) out.push(new URL(r.url).pathname);
        }
        return out;
      });
      assert(
        cached.includes("/assets/app.js") && cached.includes("/manifest.webmanifest"),
        `${cached}`,
      );
      assert(cached.every((p) => !p.startsWith("/api/") && p !== "/"), `no data cached: ${cached}`);
      const scope = await page.evaluate(async () =>
        (await navigator.serviceWorker.getRegistration())!.scope
      );
      assertEquals(scope, `${server.base}/`);
      // Pairing through the token URL still works under the worker (its 302 sets the cookie).
      await openApp(page, server.url);
      assertEquals(page.url(), `${server.base}/`);

      await server.stop();
      stopped = true;
      await page.reload();
      await page.waitForSelector(tid("offline-page"));
      assertMatch(await page.locator("h1").innerText(), /Offline — reconnecting/);
      await screenshot(page, "pwa-offline");
      // The server comes back on the same address: the offline page reloads into the app.
      const again = await startTestServer({
        home: server.home,
        args: ["--port", new URL(server.base).port],
      });
      try {
        await page.waitForSelector("[data-testid=sidebar] .task-section, [data-testid=no-tasks]", {
          state: "attached",
          timeout: 15_000,
        });
      } finally {
        await again.stop();
      }
    } catch (e) {
      console.error(server.output());
      throw e;
    } finally {
      await browser.close();
      if (!stopped) await server.stop();
    }
  },
);

Deno.test(
  "remote access on a loopback-only server: no QR code a phone could not open, and why",
  async () => {
    await withPage(DESKTOP, async (page, server) => {
      await openApp(page, server.url);
      await page.click(tid("open-settings"));
      await page.click(tid("settings-tab-remote"));
      await page.waitForSelector(tid("remote-settings"));
      assertEquals(await page.locator(tid("remote-qr")).count(), 0);
      assertMatch(
        await page.locator(tid("remote-qr-for")).innerText(),
        /No QR code: a phone cannot open this computer's own address \(127\.0\.0\.1\)/,
      );
      assertEquals(await page.locator(tid("remote-show-qr")).count(), 0);
      await screenshot(page, "remote-access-loopback");
      // The terminal says the same instead of printing a QR code of 127.0.0.1.
      assert(!/Scan to open on a phone/.test(server.output()), server.output());
      assertMatch(server.output(), /Only this computer can connect\. For a phone on your network/);
    });
  },
);
