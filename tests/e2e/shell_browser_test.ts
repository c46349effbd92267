/**
 * The UI shell in a real (headless) Chromium against the real server process:
 * draft → first message creates a task, reload keeps it (cookie, clean URL), rename,
 * pin, two-step delete, theme and language, the phone drawer, reconnection, and the
 * store banner. Screenshots go to test-output/screenshots/.
 */
import type { Page, WebSocketRoute } from "playwright-core";
import type { TaskSummary } from "../../protocol/index.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  drawerShown,
  launchBrowser,
  noHorizontalScroll,
  openApp,
  screenshot,
  until,
  withPage,
} from "./browser.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const rows = (page: Page) => page.locator("[data-testid=task-row]");
const userEntries = (page: Page) => page.locator("[data-testid=entry][data-role=user]");
const rowTitles = (page: Page) =>
  page.locator("[data-testid=task-row] [data-testid=task-title]").allInnerTexts();

Deno.test(
  "shell (desktop): draft, send, reload, rename, pin, delete, theme, language",
  async () => {
    await withPage(DESKTOP, async (page, server) => {
      await openApp(page, server.url);
      assert(!page.url().includes("token="), `token left in the URL: ${page.url()}`);
      await page.waitForSelector("[data-testid=empty-state]");
      await screenshot(page, "desktop-empty");

      // Draft mode: no task exists until the first message is sent.
      await page.click("[data-testid=new-task]");
      assertEquals(await rows(page).count(), 0);
      const input = page.locator("[data-testid=composer-input]");
      assert(await input.evaluate((el) => el === document.activeElement), "composer not focused");
      assert(await page.locator("[data-testid=send]").isDisabled(), "send enabled while empty");
      await input.fill("Greetings from the browser test");
      await input.press("Enter");
      await page.waitForSelector(
        "[data-testid=entry][data-role=user] >> text=Greetings from the browser test",
      );
      await rows(page).first().waitFor();
      assertEquals(await rows(page).count(), 1);
      assertEquals(await input.inputValue(), "");
      assertMatch(page.url(), /#\/t\/[A-Za-z0-9_-]+$/);
      // The message started a (Demo) run; sending is possible again once it ended.
      await page.locator("[data-testid=send]").waitFor({ timeout: 15_000 });

      // Enter that ends an IME composition (isComposing / keyCode 229) must not send.
      await input.fill("composing");
      for (const init of [{ isComposing: true }, { keyCode: 229 }]) {
        await input.evaluate((el, init) =>
          el.dispatchEvent(
            new KeyboardEvent("keydown", {
              key: "Enter",
              bubbles: true,
              cancelable: true,
              ...init,
            }),
          ), init);
      }
      await page.waitForTimeout(200);
      assertEquals(await userEntries(page).count(), 1, "an IME Enter sent the message");
      assertEquals(await input.inputValue(), "composing");
      await input.fill("");

      // Shift+Enter is a new line; Enter sends both lines as one message.
      await input.type("line one");
      await input.press("Shift+Enter");
      await input.type("line two");
      assertEquals(await input.inputValue(), "line one\nline two");
      await input.press("Enter");
      await page.waitForFunction(() =>
        document.querySelectorAll("[data-testid=entry][data-role=user]").length === 2
      );
      assertEquals(await userEntries(page).nth(1).innerText(), "line one\nline two");
      await screenshot(page, "desktop-task");
      assertEquals(await page.title(), "Greetings from the browser test · ReinAgent");
      await page.locator("[data-testid=send]").waitFor({ timeout: 15_000 }); // its run ended

      // Reload: the cookie authenticates, the task is restored from the URL and the store.
      await page.reload();
      await page.waitForSelector(
        "[data-testid=entry][data-role=user] >> text=Greetings from the browser test",
      );
      assertEquals(await userEntries(page).count(), 2);
      assert(!page.url().includes("token="), "token in URL after reload");
      assertEquals(await rows(page).count(), 1);

      // A second task; quick actions prefill the composer without sending.
      await page.click("[data-testid=new-task]");
      await page.waitForSelector("[data-testid=empty-state]");
      assertEquals(await input.inputValue(), "");
      await page.click("[data-testid=quick-action][data-action=weekly]");
      assertEquals(await input.inputValue(), "Summarise everything that happened this week.");
      await page.waitForTimeout(150);
      assertEquals(await rows(page).count(), 1, "a quick action must not send");
      await input.fill("Second task");
      await page.click("[data-testid=send]");
      await page.waitForFunction(() =>
        document.querySelectorAll("[data-testid=task-row]").length === 2
      );
      // Let that task's (Demo) run end: finishing re-orders the rows (updatedAt).
      await page.locator("[data-testid=send]").waitFor({ timeout: 15_000 });
      await page.waitForFunction(() =>
        !document.querySelector("[data-testid=task-row] [data-testid=status-running]")
      );
      const [newest, older] = await rowTitles(page);
      assertEquals(newest, "Second task", "the newest task is listed first");
      assertMatch(older, /^Greetings from the browser test/);

      // Rename: Esc cancels, Enter saves.
      const olderRow = rows(page).nth(1);
      await olderRow.locator(".task-open").dblclick();
      await page.locator("[data-testid=rename-input]").fill("Should not stick");
      await page.keyboard.press("Escape");
      await page.waitForSelector("[data-testid=rename-input]", { state: "detached" });
      assertMatch((await rowTitles(page))[1], /^Greetings from the browser test/);
      await olderRow.hover();
      await olderRow.locator("[data-testid=rename-task]").click();
      await page.locator("[data-testid=rename-input]").fill("Renamed task");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-testid=task-title] >> text=Renamed task");

      // Pin: the pinned task moves to the top.
      const renamed = page.locator("[data-testid=task-row]", { hasText: "Renamed task" });
      await renamed.hover();
      await renamed.locator("[data-testid=pin-task]").click();
      await page.waitForFunction(() =>
        document.querySelector("[data-testid=task-row] [data-testid=task-title]")?.textContent ===
          "Renamed task"
      );
      await renamed.locator("[data-testid=pin-task][aria-pressed=true]").waitFor();

      // Two-step delete: the first click only asks; Esc and a click elsewhere cancel.
      const second = page.locator("[data-testid=task-row]", { hasText: "Second task" });
      const askDelete = async () => {
        await second.hover();
        await second.locator("[data-testid=delete-task]").click();
        await page.waitForSelector("[data-testid=confirm-delete]");
      };
      await askDelete();
      await screenshot(page, "desktop-confirm-delete");
      assertEquals(await rows(page).count(), 2);
      await page.keyboard.press("Escape");
      await page.waitForSelector("[data-testid=confirm-delete]", { state: "detached" });
      await askDelete();
      await page.click("[data-testid=header-title]");
      await page.waitForSelector("[data-testid=confirm-delete]", { state: "detached" });
      assertEquals(await rows(page).count(), 2);
      await askDelete();
      await page.click("[data-testid=confirm-delete]");
      await page.waitForFunction(() =>
        document.querySelectorAll("[data-testid=task-row]").length === 1
      );

      // Everything above was stored by the server.
      await page.reload();
      await page.waitForSelector("[data-testid=task-row]");
      assertEquals(await rowTitles(page), ["Renamed task"]);
      assertEquals(
        await rows(page).first().locator("[data-testid=pin-task]").getAttribute("aria-pressed"),
        "true",
      );

      // Theme: system → light → dark, applied through CSS variables, kept on reload.
      const themeState = () =>
        page.evaluate(() => ({
          theme: document.documentElement.dataset.theme,
          pref: document.documentElement.dataset.themePref,
          bg: getComputedStyle(document.body).backgroundColor,
        }));
      assertEquals((await themeState()).pref, "system");
      await page.click("[data-testid=theme-toggle]");
      const light = await themeState();
      assertEquals([light.pref, light.theme], ["light", "light"]);
      await page.click("[data-testid=theme-toggle]");
      const dark = await themeState();
      assertEquals([dark.pref, dark.theme], ["dark", "dark"]);
      assert(light.bg !== dark.bg, `background did not change: ${light.bg}`);
      await page.reload();
      await page.waitForSelector("[data-testid=task-row]");
      assertEquals((await themeState()).theme, "dark");
      await screenshot(page, "desktop-dark");

      // Language: the globe switches every string and is remembered.
      const newTaskLabel = page.locator("[data-testid=new-task]");
      assertEquals((await newTaskLabel.innerText()).trim(), "New task");
      // The Chinese strings load on demand: each read waits until they are in.
      await page.click("[data-testid=lang-toggle]");
      await newTaskLabel.filter({ hasText: "新建任务" }).waitFor();
      assertEquals(await page.evaluate(() => document.documentElement.lang), "zh-CN");
      await page.reload();
      await page.waitForSelector("[data-testid=task-row]");
      await newTaskLabel.filter({ hasText: "新建任务" }).waitFor();
      await page.click("[data-testid=new-task]");
      await page.waitForSelector("[data-testid=empty-state] >> text=今天要做什么？");
      await screenshot(page, "desktop-zh");
      await page.click("[data-testid=lang-toggle]");
      assertEquals((await newTaskLabel.innerText()).trim(), "New task");
    });
  },
);

Deno.test("shell (phone 390×844): drawer, composer, no horizontal scroll", async () => {
  await withPage(PHONE, async (page, server) => {
    await openApp(page, server.url);
    await page.waitForSelector("[data-testid=empty-state]");
    await noHorizontalScroll(page, PHONE.width);
    assert(!(await page.locator("[data-testid=sidebar]").isVisible()), "drawer open at start");
    await screenshot(page, "phone-empty");

    // Touch targets.
    for (const id of ["open-drawer", "send", "header-new-task"]) {
      const box = await page.locator(`[data-testid=${id}]`).boundingBox();
      assert(
        box && box.width >= 44 && box.height >= 44,
        `${id} is smaller than 44 px: ${JSON.stringify(box)}`,
      );
    }

    // The drawer opens from the menu button and closes on a backdrop tap.
    await page.click("[data-testid=open-drawer]");
    await drawerShown(page);
    await page.click("[data-testid=drawer-backdrop]", {
      position: { x: PHONE.width - 20, y: 400 },
    });
    await page.locator("[data-testid=sidebar]").waitFor({ state: "hidden" });

    // Compose and send with the send button.
    const input = page.locator("[data-testid=composer-input]");
    await input.fill("Sent from a phone");
    await page.click("[data-testid=send]");
    await page.waitForSelector("[data-testid=entry][data-role=user] >> text=Sent from a phone");
    await noHorizontalScroll(page, PHONE.width);
    await input.fill("A very long line without spaces: " + "x".repeat(300));
    await page.click("[data-testid=send]");
    await page.waitForFunction(() =>
      document.querySelectorAll("[data-testid=entry][data-role=user]").length === 2
    );
    await noHorizontalScroll(page, PHONE.width);
    await screenshot(page, "phone-task");

    // New task from the drawer closes it; choosing a task closes it too.
    await page.click("[data-testid=open-drawer]");
    await drawerShown(page);
    await noHorizontalScroll(page, PHONE.width);
    await screenshot(page, "phone-drawer");
    await page.click("[data-testid=new-task]");
    await page.locator("[data-testid=sidebar]").waitFor({ state: "hidden" });
    await page.waitForSelector("[data-testid=empty-state]");
    await page.click("[data-testid=open-drawer]");
    await drawerShown(page);
    await rows(page).first().locator(".task-open").click();
    await page.locator("[data-testid=sidebar]").waitFor({ state: "hidden" });
    await page.waitForSelector("[data-testid=entry] >> text=Sent from a phone");
    await noHorizontalScroll(page, PHONE.width);
  });
});

Deno.test(
  "shell: reconnects after a server restart and keeps the composer text",
  async () => {
    const home = await Deno.makeTempDir({ prefix: "ra-ui-home-" });
    const browser = await launchBrowser();
    if (!browser) return;
    let server = await startTestServer({ home });
    const port = new URL(server.base).port;
    try {
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await openApp(page, server.url);
      const input = page.locator("[data-testid=composer-input]");
      await input.fill("Before the restart");
      await input.press("Enter");
      await page.waitForSelector("[data-testid=entry] >> text=Before the restart");

      await server.stop();
      await page.waitForSelector("[data-testid=reconnecting]");
      assertMatch(
        await page.locator("[data-testid=reconnecting]").innerText(),
        /Reconnecting… \(attempt \d+\)/,
      );
      await input.fill("typed while offline");
      assert(await page.locator("[data-testid=send]").isDisabled(), "send enabled while offline");
      await screenshot(page, "desktop-reconnecting");

      server = await startTestServer({ home, args: ["--port", port] });
      await page.waitForSelector("[data-testid=reconnecting]", {
        state: "detached",
        timeout: 15_000,
      });
      assertEquals(await input.inputValue(), "typed while offline");
      // The new process has a new epoch: the client re-fetched and re-subscribed.
      await input.press("Enter");
      await page.waitForSelector("[data-testid=entry] >> text=typed while offline");
      assertEquals(await userEntries(page).count(), 2);
    } finally {
      await browser.close();
      await server.stop();
      await Deno.remove(home, { recursive: true });
    }
  },
);

Deno.test("shell: a damaged database shows the store banner", async () => {
  const home = await Deno.makeTempDir({ prefix: "ra-ui-home-" });
  await Deno.writeTextFile(`${home}/reinagent.db`, "this is not a SQLite database, keep me");
  try {
    await withPage(DESKTOP, async (page, server) => {
      await page.goto(server.url);
      const banner = page.locator("[data-testid=store-banner]");
      await banner.waitFor();
      const text = await banner.innerText();
      assertMatch(text, /The database could not be opened and was left untouched: \S/);
      assert(text.includes("reinagent.db"), `banner does not name the file: ${text}`);
      await screenshot(page, "desktop-store-banner");
    }, { home });
    assertEquals(
      await Deno.readTextFile(`${home}/reinagent.db`),
      "this is not a SQLite database, keep me",
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test(
  "shell: pushed events update status markers, unread dots and streaming entries",
  async () => {
    await withPage(DESKTOP, async (page, server) => {
      // Sit between page and server so the test can push extra events to the page.
      let route: WebSocketRoute | null = null;
      const sentOps: { op: string; args: Record<string, unknown> }[] = [];
      await page.routeWebSocket(/\/ws$/, (ws) => {
        const upstream = ws.connectToServer();
        ws.onMessage((m) => {
          const msg = JSON.parse(String(m));
          if (msg.t === "req") sentOps.push({ op: msg.op, args: msg.args });
          upstream.send(m);
        });
        route = ws;
      });
      let seq = 1_000_000;
      const push = (topic: string, data: unknown) =>
        route!.send(JSON.stringify({ t: "evt", topic, seq: ++seq, data }));

      await openApp(page, server.url);
      const input = page.locator("[data-testid=composer-input]");
      await input.fill("Status check");
      await input.press("Enter");
      await rows(page).first().waitFor();
      // Let the (Demo) run of that message finish so only pushed entries stream below.
      await page.waitForSelector("[data-testid=turn-status][data-state=done]", { timeout: 15_000 });
      const id = (await rows(page).first().getAttribute("data-task-id"))!;
      await page.click("[data-testid=new-task]");

      // A task the user is not looking at starts running and has news.
      // A whole summary, as the server sends it (typed so a new field breaks this test).
      const base: Omit<TaskSummary, "status" | "unread" | "updatedAt"> = {
        id,
        title: "Status check",
        projectPath: null,
        pinned: false,
        lastRun: "done",
        queued: 0,
        createdAt: 1,
        entryCount: 1,
        settings: { model: null, effort: null, approval: null },
      };
      push("tasks", {
        kind: "upsert",
        task: { ...base, status: "running", unread: true, updatedAt: Date.now() },
      });
      const row = page.locator(`[data-testid=task-row][data-task-id="${id}"]`);
      await row.locator("[data-testid=status-running]").waitFor();
      await row.locator("[data-testid=unread-dot]").waitFor();
      push("tasks", {
        kind: "upsert",
        task: { ...base, status: "waiting", unread: true, updatedAt: Date.now() },
      });
      await row.locator("[data-testid=status-waiting]").waitFor();
      assertEquals(await row.locator("[data-testid=status-running]").count(), 0);
      await screenshot(page, "desktop-status-markers");

      // Opening it subscribes; the snapshot's summary (read) replaces the pushed one.
      await row.locator(".task-open").click();
      await row.locator("[data-testid=unread-dot]").waitFor({ state: "detached" });
      assert(
        sentOps.some((r) => r.op === "task.subscribe" && r.args.id === id),
        "no task.subscribe sent",
      );
      // News for the task being shown: the client marks it read at once.
      push("tasks", {
        kind: "upsert",
        task: { ...base, status: "running", unread: true, updatedAt: Date.now() },
      });
      await until(
        () => sentOps.some((r) => r.op === "tasks.markRead" && r.args.id === id),
        () => `no tasks.markRead sent: ${JSON.stringify(sentOps.map((r) => r.op))}`,
      );
      await row.locator("[data-testid=unread-dot]").waitFor({ state: "detached" });

      // Streaming entry: inserted by pos, then replaced by id.
      const entry = (eid: string, pos: number, text: string, status: string) => ({
        id: eid,
        taskId: id,
        pos,
        role: "assistant",
        status,
        createdAt: Date.now(),
        updatedAt: Date.now(),
        parts: [{ type: "text", text }],
        meta: {},
      });
      const topic = `task:${id}`;
      push(topic, { kind: "entry", entry: entry("late", 999, "Partial", "streaming") });
      await page.waitForSelector("[data-testid=entry][data-entry-id=late] [data-testid=streaming]");
      push(topic, { kind: "entry", entry: entry("early", 500, "Placed before", "done") });
      push(topic, {
        kind: "entry",
        entry: entry("late", 999, "Partial answer, complete.", "done"),
      });
      // Once done, "late" is the turn's final answer (outside the collapsed process).
      await page.waitForSelector(
        "[data-testid=final-answer][data-entry-id=late] >> text=Partial answer, complete.",
      );
      assertEquals(await page.locator("[data-testid=streaming]").count(), 0);
      const order = await page.locator("[data-entry-id]").evaluateAll((els) =>
        els.map((e) => (e as HTMLElement).dataset.entryId)
      );
      assertEquals(order.slice(-2), ["early", "late"]);
      assertEquals(order.filter((x) => x === "late" || x === "early").length, 2, "duplicates");
      await screenshot(page, "desktop-streaming");

      // Another client deletes the task: the view falls back to the draft.
      push("tasks", { kind: "delete", id });
      await page.waitForSelector("[data-testid=empty-state]");
      assertEquals(await rows(page).count(), 0);
    });
  },
);

Deno.test(
  "shell: a dropped connection resumes from the last seq without re-fetching",
  async () => {
    await withPage(DESKTOP, async (page, server, browser) => {
      let block = false;
      let route: WebSocketRoute | null = null;
      const sentOps: string[] = [];
      const subscribeIds = new Set<number>();
      let subscribed = false;
      await page.routeWebSocket(/\/ws$/, (ws) => {
        if (block) {
          ws.close({ code: 1011, reason: "test: server unreachable" });
          return;
        }
        const upstream = ws.connectToServer();
        ws.onMessage((m) => {
          const msg = JSON.parse(String(m));
          if (msg.t === "req") {
            sentOps.push(msg.op);
            if (msg.op === "task.subscribe") subscribeIds.add(msg.id);
          }
          upstream.send(m);
        });
        upstream.onMessage((m) => {
          const msg = JSON.parse(String(m));
          if (msg.t === "res" && subscribeIds.has(msg.id)) subscribed = true;
          ws.send(m);
        });
        route = ws;
      });
      await openApp(page, server.url);
      const input = page.locator("[data-testid=composer-input]");
      await input.fill("Resume me");
      await input.press("Enter");
      const row = rows(page).first();
      await row.waitFor();
      const id = (await row.getAttribute("data-task-id"))!;
      // The task's snapshot must have arrived, or re-subscribing after the drop is right.
      while (!subscribed) await new Promise((r) => setTimeout(r, 20));

      // Drop the connection and keep it down while another client renames the task.
      block = true;
      await route!.close({ code: 1006, reason: "test: dropped" });
      await page.waitForSelector("[data-testid=reconnecting]");
      const other = await (await browser.newContext()).newPage();
      await other.goto(`${server.url}#/t/${id}`);
      await other.locator(`[data-testid=task-row][data-task-id="${id}"]`).waitFor();
      await other.locator("[data-testid=task-row] .task-open").dblclick();
      await other.locator("[data-testid=rename-input]").fill("Renamed elsewhere");
      await other.keyboard.press("Enter");
      await other.waitForSelector("[data-testid=task-title] >> text=Renamed elsewhere");
      await other.locator("[data-testid=composer-input]").fill("Sent by another client");
      await other.locator("[data-testid=send]").waitFor({ timeout: 15_000 }); // run ended
      await other.locator("[data-testid=composer-input]").press("Enter");
      await other.waitForSelector("[data-testid=entry] >> text=Sent by another client");

      // Back online: the missed events are replayed; no snapshot is fetched again.
      const before = sentOps.length;
      block = false;
      await page.waitForSelector("[data-testid=reconnecting]", { state: "detached" });
      await page.waitForSelector("[data-testid=task-title] >> text=Renamed elsewhere");
      await page.waitForSelector("[data-testid=entry] >> text=Sent by another client");
      // The run started by the other client leaves the task unread: marking it read is
      // expected, and so is re-subscribing to `settings` on the new socket (providers
      // are not part of the resumed topics); fetching a task snapshot again is not.
      const after = sentOps.slice(before).filter((op) =>
        op !== "tasks.markRead" && op !== "settings.subscribe"
      );
      assertEquals(after, ["events.resume"], `ops after reconnecting: ${after.join(", ")}`);
    });
  },
);
