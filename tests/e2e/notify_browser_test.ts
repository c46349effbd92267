// Page and service-worker globals (window.__notes, registration, NotificationEvent) are untyped here.
// deno-lint-ignore-file no-explicit-any
/**
 * Notifications in the browser, desktop and phone side by side on one server, while a
 * third client (the protocol test client) drives a Demo task: the title badge counts
 * the waiting task, the approval banner names it, a finished banner appears on both
 * and opens the task; system notifications fire for a page in the background; the
 * phone on a plain-HTTP LAN name is told why push is off; and push_sw.js, registered
 * as the service worker, shows a notification for a push message (delivered through
 * DevTools) and a tap opens that task. Screenshots: test-output/screenshots/notify-*.png
 */
import { chromium, type Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { startTestServer } from "../helpers/server.ts";
import { TestClient } from "../helpers/ws_client.ts";
import { CHROMIUM_ARGS, findChromium, screenshot, watchErrors } from "./browser.ts";
import type { PendingApproval } from "../../protocol/index.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** A LAN-like name for 127.0.0.1: a plain-HTTP page there is not a secure context. */
const LAN_HOST = "reinagent-lan.test";
const DEMO = { providerId: "demo", modelId: "demo" };

async function launch() {
  const executablePath = findChromium();
  if (!executablePath) {
    if (Deno.env.get("REINAGENT_REQUIRE_BROWSER") === "1") throw new Error("no Chromium");
    console.warn("!! SKIPPED: no Chromium");
    return null;
  }
  return await chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`],
  });
}

/** Records system notifications the page creates (the real API, observed). */
const RECORD_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  window.__notes = [];
  class Recorded extends Real {
    constructor(title, opts) { super(title, opts); window.__notes.push({ title, body: opts?.body }); }
  }
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = Real.requestPermission.bind(Real);
  window.Notification = Recorded;
})();`;

const title = (p: Page) => p.evaluate(() => document.title);

Deno.test("notifications: badge, banners, system notification, push reason, service worker", async () => {
  const browser = await launch();
  if (!browser) return;
  // The phone reaches the server by a name of its own (as a LAN name would be): allowed.
  const s = await startTestServer({ env: { REINAGENT_ALLOWED_HOSTS: LAN_HOST } });
  const c = await TestClient.connect(s.base, s.token);
  try {
    const port = new URL(s.base).port;
    const desktopCtx = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
    await desktopCtx.grantPermissions(["notifications"], { origin: s.base });
    await desktopCtx.addInitScript(RECORD_NOTIFICATIONS);
    const desktop = await desktopCtx.newPage();
    const dErrors = watchErrors(desktop);
    const phoneCtx = await browser.newContext({
      viewport: PHONE,
      locale: "en-US",
      isMobile: true,
      hasTouch: true,
    });
    const phone = await phoneCtx.newPage();
    const pErrors = watchErrors(phone);
    await desktop.goto(s.url);
    await phone.goto(`http://${LAN_HOST}:${port}/?token=${encodeURIComponent(s.token)}`);
    for (const p of [desktop, phone]) {
      await p.waitForSelector("[data-testid=sidebar] .task-section, [data-testid=no-tasks]", {
        state: "attached",
      });
    }
    assert(!(await title(desktop)).startsWith("("), "no badge with nothing waiting");

    // A task started elsewhere waits for an approval: every client counts it.
    const { task } = await c.request("tasks.create", {
      message: "please write a note file",
      options: { model: DEMO, approval: "ask" },
    });
    for (const p of [desktop, phone]) {
      await p.waitForFunction(() => document.title.startsWith("(1) "), null, { timeout: 15_000 });
      await p.locator("[data-testid=approval-banner]").waitFor();
    }
    await screenshot(desktop, "notify-desktop-waiting");
    await screenshot(phone, "notify-phone-waiting");

    // Approve from the test client: the run finishes; both pages show the finished banner.
    const { approvals } = await c.request<{ approvals: PendingApproval[] }>("approvals.list");
    await c.request("approval.decide", { id: approvals[0].id, decision: "allow" });
    for (const p of [desktop, phone]) {
      const b = p.locator("[data-testid=notify-banner][data-kind=finished]");
      await b.waitFor({ timeout: 15_000 });
      assertMatch(await b.innerText(), /finished/);
      // Unread until someone opens it: the badge stays at one.
      await p.waitForFunction(() => document.title.startsWith("(1) "));
    }
    await screenshot(desktop, "notify-desktop-finished");
    await screenshot(phone, "notify-phone-finished");

    // Open from the banner: the task shows, the banner goes, the badge clears.
    await desktop.click("[data-testid=notify-banner-open]");
    await desktop.waitForURL(new RegExp(`#/t/${task.id}$`));
    await desktop.locator("[data-testid=notify-banner]").waitFor({ state: "detached" });
    await desktop.waitForFunction(() => !document.title.startsWith("("));
    await phone.waitForFunction(() => !document.title.startsWith("("), null, { timeout: 5000 });

    // A page in the background gets a system notification (hasFocus false = another window).
    await desktop.evaluate(() => {
      document.hasFocus = () => false;
    });
    await c.request("task.send", { id: task.id, text: "show me around" });
    await desktop.waitForFunction(() => (window as any).__notes.length > 0, null, {
      timeout: 15_000,
    });
    const notes = await desktop.evaluate(() => (window as any).__notes);
    assertEquals(notes[0].body, "Finished");

    // Settings → General: the switches; on the LAN address, why push is off.
    await phone.goto(`http://${LAN_HOST}:${port}/#/settings`);
    await phone.click("[data-testid=settings-tab-general]");
    const blocked = phone.locator("[data-testid=notify-push-blocked]");
    await blocked.waitFor();
    assertMatch(await blocked.innerText(), /plain HTTP at reinagent-lan\.test/);
    await phone.locator("[data-testid=notify-settings]").scrollIntoViewIfNeeded();
    await screenshot(phone, "notify-phone-settings");
    await phone.click("[data-testid=notify-event-finished]");
    const snap = await c.request("notify.subscribe");
    assertEquals(snap.events.finished, false, "the switch is kept by the server");
    await desktop.goto(`${s.base}/`);
    await desktop.click("[data-testid=open-settings]");
    await desktop.click("[data-testid=settings-tab-general]");
    await desktop.locator("[data-testid=notify-push-enable]").waitFor();
    assertEquals(await desktop.locator("[data-testid=notify-event-finished]").isChecked(), false);
    await screenshot(desktop, "notify-desktop-settings");

    // The app's service worker (it imports push_sw.js): a push message shows a notification, a
    // tap opens the task.
    await desktop.goto(`${s.base}/`);
    const scriptURL = await desktop.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return reg.active?.scriptURL ?? "";
    });
    assert(scriptURL.endsWith("/sw.js"), `the app's worker is ${scriptURL}`);
    const worker = desktopCtx.serviceWorkers().find((w) => w.url().endsWith("/sw.js")) ??
      await desktopCtx.waitForEvent("serviceworker", (w) => w.url().endsWith("/sw.js"));
    // Only a blank tab stays: no page of the app is open, so the worker must show it.
    const blank = await desktopCtx.newPage();
    await desktop.close();
    const cdp = await desktopCtx.newCDPSession(blank);
    const regId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", (e: any) => {
        const r = e.registrations.find((x: any) => x.scopeURL === `${s.base}/`);
        if (r) resolve(r.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    const payload = {
      v: 1,
      id: "n1",
      kind: "waiting",
      reason: "question",
      taskId: task.id,
      taskTitle: "Write a note",
      at: Date.now(),
      url: `#/t/${task.id}`,
    };
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: s.base,
      registrationId: await regId,
      data: JSON.stringify(payload),
    });
    let shown: { title: string; body: string; taskId: string }[] = [];
    for (let i = 0; i < 100 && shown.length === 0; i++) {
      shown = await worker.evaluate(async () =>
        (await (self as any).registration.getNotifications()).map((n: any) => ({
          title: n.title,
          body: n.body,
          taskId: n.data?.taskId,
        }))
      );
      if (!shown.length) await new Promise((r) => setTimeout(r, 50));
    }
    assertEquals(shown, [{
      title: "Write a note",
      body: "Has a question for you",
      taskId: task.id,
    }]);
    // The tap, with the app open again: the worker tells the page to show the task.
    const again = await desktopCtx.newPage();
    const aErrors = watchErrors(again);
    await again.goto(`${s.base}/`);
    await again.waitForSelector("[data-testid=sidebar] .task-section");
    await worker.evaluate(async () => {
      const [n] = await (self as any).registration.getNotifications();
      try {
        self.dispatchEvent(
          new (self as any).NotificationEvent("notificationclick", { notification: n }),
        );
      } catch {
        // waitUntil on a synthetic event throws; the handler already ran
      }
    });
    await again.waitForURL(new RegExp(`#/t/${task.id}$`));
    await screenshot(again, "notify-desktop-opened-from-push");
    assertEquals(dErrors, []);
    assertEquals(aErrors, []);
    assertEquals(pErrors, []);
  } catch (e) {
    console.error(s.output());
    throw e;
  } finally {
    await c.close();
    await browser.close();
    await s.stop();
  }
});
