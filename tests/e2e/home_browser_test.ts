/**
 * The phone task home in a real (headless) Chromium against the real
 * server: tasks made through the protocol (a project, a finished run, a run waiting
 * for approval, a pinned task, pushed running/failed states) show grouped by workspace
 * with badges, unread dots and time groups; a tap opens a task, Back returns home;
 * New task opens the draft and Back returns; 360 px has no horizontal scroll and
 * 44 px targets; the desktop start view is still the empty state. Screenshots:
 * test-output/screenshots/phone-home*.png.
 */
import type { Page, WebSocketRoute } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { TestClient } from "../helpers/ws_client.ts";
import type { TestServer } from "../helpers/server.ts";
import type { TaskSummary } from "../../protocol/index.ts";
import { drawerShown, noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const NARROW = { width: 360, height: 740 };

const homeRow = (page: Page, id: string) =>
  page.locator(`[data-testid=home-row][data-task-id="${id}"]`);

interface Seeded {
  done: TaskSummary;
  waiting: TaskSummary;
  fresh: TaskSummary;
  pinned: TaskSummary;
  spare: TaskSummary;
  projectName: string;
}

/** Waits until `cond` holds for the server's task list. */
async function waitTasks(
  c: TestClient,
  cond: (tasks: TaskSummary[]) => boolean,
  what: string,
  ms = 30_000,
): Promise<TaskSummary[]> {
  const deadline = Date.now() + ms;
  while (true) {
    const { tasks } = await c.request<{ tasks: TaskSummary[] }>("tasks.list");
    if (cond(tasks)) return tasks;
    if (Date.now() > deadline) throw new Error(`timed out: ${what} ${JSON.stringify(tasks)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A project with a finished (unread) run, a run waiting for approval, more tasks. */
async function seed(server: TestServer): Promise<Seeded> {
  const folder = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-home-proj-" }));
  const c = await TestClient.connect(server.base, server.token);
  try {
    const { project } = await c.request("projects.add", { path: folder });
    const create = async (args: Record<string, unknown>) =>
      (await c.request<{ task: TaskSummary }>("tasks.create", args)).task;
    const spare = await create({ title: "Spare task for pushed states" });
    const pinned = await create({ title: "Pinned research notes", message: "hi there" });
    const fresh = await create({ title: "Write the release notes" });
    const waiting = await create({
      title: "Needs your approval",
      projectPath: folder,
      message: "hello, please write a note",
      options: { approval: "ask" },
    });
    const done = await create({
      title: "Fix the login bug",
      projectPath: folder,
      message: "hello, look around",
    });
    await waitTasks(
      c,
      (ts) =>
        ts.find((x) => x.id === waiting.id)?.status === "waiting" &&
        ts.find((x) => x.id === done.id)?.lastRun === "done" &&
        ts.find((x) => x.id === pinned.id)?.lastRun === "done" &&
        !!ts.find((x) => x.id === done.id)?.unread,
      "runs to settle",
    );
    await c.request("tasks.pin", { id: pinned.id, pinned: true });
    return { done, waiting, fresh, pinned, spare, projectName: project.name };
  } finally {
    await c.close();
  }
}

Deno.test(
  "home (phone 390×844): groups, badges, unread, tap in, Back returns, New task",
  async () => {
    await withPage(PHONE, async (page, server) => {
      const s = await seed(server);
      // Sit between page and server to push the states a test cannot hold still.
      let route: WebSocketRoute | null = null;
      await page.routeWebSocket(/\/ws$/, (ws) => {
        const upstream = ws.connectToServer();
        ws.onMessage((m) => upstream.send(m));
        route = ws;
      });
      let seq = 1_000_000;
      const push = (task: TaskSummary) =>
        route!.send(
          JSON.stringify({ t: "evt", topic: "tasks", seq: ++seq, data: { kind: "upsert", task } }),
        );

      await openApp(page, server.url);
      const home = page.locator("[data-testid=task-home]");
      await home.waitFor();
      assertEquals(await page.locator("[data-testid=empty-state]").count(), 0);
      assertEquals(await page.locator("[data-testid=composer-input]").count(), 0);
      assertEquals(await page.locator("[data-testid=header-title]").innerText(), "All tasks");

      // Pinned first, then the project, then "Tasks"; each with its time groups.
      await homeRow(page, s.done.id).waitFor();
      assertEquals(
        await page.locator("[data-testid=home-pinned] [data-testid=home-row]").evaluateAll((els) =>
          els.map((e) => (e as HTMLElement).dataset.taskId)
        ),
        [s.pinned.id],
      );
      assertEquals(
        await page.locator("[data-testid=home-group-name]").allInnerTexts(),
        [s.projectName, "Tasks"],
      );
      const project = page.locator("[data-testid=home-group]").first();
      assertEquals(
        await project.locator("[data-testid=home-row]").evaluateAll((els) =>
          els.map((e) => (e as HTMLElement).dataset.taskId)
        ),
        [s.done.id, s.waiting.id],
      );
      assertEquals(
        await page.locator("[data-testid=home-time] .home-time-label").allInnerTexts(),
        ["Today", "Today"],
      );
      assertEquals(
        await page.locator("[data-testid=home-pinned] .home-row-ws").innerText(),
        "Tasks",
      );

      // Badges from the real summaries; unread dots where a run finished unseen.
      const badge = (id: string) => homeRow(page, id).locator("[data-testid=home-badge]");
      assertEquals(await badge(s.done.id).getAttribute("data-status"), "done");
      assertEquals(await badge(s.done.id).innerText(), "Done");
      assertEquals(await badge(s.waiting.id).getAttribute("data-status"), "waiting");
      assertEquals(await badge(s.waiting.id).innerText(), "Waiting for you");
      assertEquals(await badge(s.fresh.id).count(), 0, "a task with no entries has no badge");
      await homeRow(page, s.done.id).locator("[data-testid=home-unread]").waitFor();
      assertEquals(await homeRow(page, s.fresh.id).locator("[data-testid=home-unread]").count(), 0);
      assertEquals(await homeRow(page, s.done.id).getAttribute("data-unread"), "true");
      assertMatch(
        await homeRow(page, s.done.id).locator("[data-testid=home-row-time]").innerText(),
        /^(now|\dm)$/,
      );

      // Live states pushed like the server would: running and error.
      push({ ...s.fresh, status: "running", unread: true, updatedAt: Date.now() });
      const noonYesterday = new Date();
      noonYesterday.setDate(noonYesterday.getDate() - 1);
      noonYesterday.setHours(12, 0, 0, 0);
      push({ ...s.spare, lastRun: "failed", entryCount: 2, updatedAt: noonYesterday.getTime() });
      await badge(s.fresh.id).and(page.locator("[data-status=running]")).waitFor();
      assertEquals(await badge(s.fresh.id).innerText(), "Running");
      await badge(s.spare.id).and(page.locator("[data-status=failed]")).waitFor();
      assertEquals(await badge(s.spare.id).innerText(), "Failed");
      // Older activity lands in its time group (the waiting task as it was 40 days ago).
      push({ ...s.waiting, status: "waiting", updatedAt: Date.now() - 40 * 86_400_000 });
      await page.waitForFunction(() =>
        [...document.querySelectorAll("[data-testid=home-time]")].map((e) =>
          (e as HTMLElement).dataset.time
        ).join() === "today,older,today,yesterday"
      );
      assertEquals(
        await page.locator("[data-testid=home-time] .home-time-label").allInnerTexts(),
        ["Today", "Older", "Today", "Yesterday"],
      );
      assertMatch(
        await homeRow(page, s.waiting.id).locator("[data-testid=home-row-time]").innerText(),
        /^[A-Z][a-z]{2} \d{1,2}(, \d{4})?$/,
      );
      assertEquals(
        await page.locator("[data-testid=home-summary] .home-sum").allInnerTexts(),
        ["1 waiting for you", "1 running", "1 failed", "3 unread"],
      );

      // Touch targets and no horizontal scroll.
      for (
        const sel of [
          "[data-testid=open-drawer]",
          "[data-testid=home-search]",
          "[data-testid=home-new-task]",
          "[data-testid=home-group-new] >> nth=0",
          `[data-testid=home-row][data-task-id="${s.done.id}"] .home-open`,
        ]
      ) {
        const box = await page.locator(sel).boundingBox();
        assert(box && box.width >= 44 && box.height >= 44, `${sel}: ${JSON.stringify(box)}`);
      }
      await noHorizontalScroll(page, PHONE.width);
      await screenshot(page, "phone-home");
      // (The count of tasks waiting or unread comes first: notifications.)
      assertMatch(await page.title(), /^(\(\d+\) )?All tasks · ReinAgent$/);
      await page.locator(".home-scroll").evaluate((el) => el.scrollTop = el.scrollHeight);
      await screenshot(page, "phone-home-scrolled");
      await page.locator(".home-scroll").evaluate((el) => el.scrollTop = 0);

      // One tap into a task: its own history entry; Back returns to the home.
      const before = await page.evaluate(() => history.length);
      await homeRow(page, s.done.id).locator(".home-open").click();
      await page.waitForSelector("[data-testid=entry][data-role=user] >> text=hello, look around");
      assertMatch(page.url(), new RegExp(`#/t/${s.done.id}$`));
      assertEquals(await page.evaluate(() => history.length), before + 1);
      assertEquals(await home.count(), 0);
      assertEquals(
        await page.locator("[data-testid=header-title]").innerText(),
        "Fix the login bug",
      );
      await page.locator("[data-testid=composer-input]").waitFor();
      assert(
        !(await page.locator("[data-testid=composer-input]").evaluate((el) =>
          el === document.activeElement
        )),
        "opening a task from the home must not focus the composer (phone keyboard)",
      );
      await screenshot(page, "phone-home-opened");
      await page.goBack();
      await home.waitFor();
      assert(!page.url().includes("#"), `URL after Back: ${page.url()}`);
      // Opening it marked it read.
      await page.waitForFunction(
        (id) =>
          document.querySelector(`[data-testid=home-row][data-task-id="${id}"]`)
            ?.getAttribute("data-unread") === "false",
        s.done.id,
      );
      // Forward goes into the task again; after a reload there, Back still goes home.
      await page.goForward();
      await page.waitForSelector("[data-testid=entry][data-role=user] >> text=hello, look around");
      await page.reload();
      await page.waitForSelector("[data-testid=entry][data-role=user] >> text=hello, look around");
      await page.goBack();
      await home.waitFor();

      // The waiting task opens on its approval.
      await homeRow(page, s.waiting.id).locator(".home-open").click();
      await page.locator("[data-testid=approval-card], [data-testid=approval-banner]").first()
        .waitFor({ state: "attached" });
      await page.goBack();
      await home.waitFor();

      // New task: the draft with its quick actions and composer; Back returns home.
      await page.click("[data-testid=home-new-task]");
      await page.waitForSelector("[data-testid=empty-state]");
      await page.locator("[data-testid=composer-input]").waitFor();
      assertEquals(await page.locator("[data-testid=header-title]").innerText(), "New task");
      await page.goBack();
      await home.waitFor();
      // A project's +: the draft in that project; sending makes a task there; Back → home.
      await page.locator("[data-testid=home-group-new]").first().click();
      await page.waitForSelector("[data-testid=empty-state]");
      assertEquals(
        await page.locator("[data-testid=project-chip] .project-chip-name").first().innerText(),
        s.projectName,
      );
      const input = page.locator("[data-testid=composer-input]");
      await input.fill("Started from the phone home");
      await page.click("[data-testid=send]");
      // A task of the project is still at work: sharing its folder is asked first.
      await page.locator(
        "[data-testid=same-folder-dialog], [data-testid=entry][data-role=user]",
      ).first().waitFor();
      if (await page.locator("[data-testid=same-folder-dialog]").count()) {
        await page.click("[data-testid=same-folder-share]");
      }
      await page.waitForSelector(
        "[data-testid=entry][data-role=user] >> text=Started from the phone home",
      );
      assertMatch(page.url(), /#\/t\/[A-Za-z0-9_-]+$/);
      await page.locator("[data-testid=send]").waitFor({ timeout: 20_000 });
      await page.goBack();
      await home.waitFor();
      assertEquals(
        await page.locator("[data-testid=home-group]").first().locator(
          "[data-testid=home-row-title]",
        ).first().innerText(),
        "Started from the phone home",
      );

      // The drawer still opens from the home; its New task leads to the draft.
      await page.click("[data-testid=open-drawer]");
      await drawerShown(page);
      await page.click("[data-testid=new-task]");
      await page.waitForSelector("[data-testid=empty-state]");
      await page.goBack(); // the home entry before the draft
      await home.waitFor();

      // Chinese and dark.
      await page.click("[data-testid=open-drawer]");
      await drawerShown(page);
      await page.click("[data-testid=lang-toggle]");
      await page.click("[data-testid=drawer-backdrop]", {
        position: { x: PHONE.width - 20, y: 400 },
      });
      await page.locator("[data-testid=sidebar]").waitFor({ state: "hidden" });
      // The Chinese strings load on demand: wait until they are in.
      await page.locator("[data-testid=header-title]", { hasText: "全部任务" }).waitFor();
      assertEquals(await badge(s.waiting.id).innerText(), "等待你处理");
      await screenshot(page, "phone-home-zh");
      await page.evaluate(() => document.documentElement.dataset.theme = "dark");
      await screenshot(page, "phone-home-dark");
      await page.evaluate(() => document.documentElement.dataset.theme = "light");

      // 360 px: no horizontal scroll, targets still 44 px.
      await page.setViewportSize(NARROW);
      await home.waitFor();
      await noHorizontalScroll(page, NARROW.width);
      for (const sel of ["[data-testid=home-new-task]", "[data-testid=home-group-new] >> nth=0"]) {
        const box = await page.locator(sel).boundingBox();
        assert(box && box.width >= 44 && box.height >= 44, `${sel}: ${JSON.stringify(box)}`);
      }
      await screenshot(page, "phone-home-360");
    });
  },
);

Deno.test(
  "home (phone): with no task the start view is the draft; a task arriving keeps it",
  async () => {
    await withPage(PHONE, async (page, server) => {
      await openApp(page, server.url);
      await page.waitForSelector("[data-testid=empty-state]");
      assertEquals(await page.locator("[data-testid=task-home]").count(), 0);
      const input = page.locator("[data-testid=composer-input]");
      await input.fill("typing on the phone");
      const c = await TestClient.connect(server.base, server.token);
      await c.request("tasks.create", { title: "Made on the desktop" });
      await c.close();
      await page.waitForTimeout(300);
      await page.waitForSelector("[data-testid=empty-state]");
      assertEquals(await input.inputValue(), "typing on the phone");
      // Back: the home, listing the new task.
      await page.goBack();
      await page.locator("[data-testid=task-home]").waitFor();
      assertEquals(await page.locator("[data-testid=home-row-title]").allInnerTexts(), [
        "Made on the desktop",
      ]);
    });
  },
);

Deno.test("home (desktop 1280×800): the start view is still the empty state", async () => {
  await withPage(DESKTOP, async (page, server) => {
    const s = await seed(server);
    await openApp(page, server.url);
    await page.waitForSelector("[data-testid=empty-state]");
    assertEquals(await page.locator("[data-testid=task-home]").count(), 0);
    await page.locator("[data-testid=composer-input]").waitFor();
    assertEquals(await page.locator("[data-testid=header-title]").innerText(), "New task");
    // Opening a task from the sidebar still replaces the URL (no new history entry).
    const before = await page.evaluate(() => history.length);
    await page.locator(`[data-testid=task-row][data-task-id="${s.done.id}"] .task-open`).click();
    await page.waitForSelector("[data-testid=entry][data-role=user] >> text=hello, look around");
    assertEquals(await page.evaluate(() => history.length), before);
    await page.click("[data-testid=new-task]");
    await page.waitForSelector("[data-testid=empty-state]");
    assertEquals(await page.locator("[data-testid=task-home]").count(), 0);
    // Narrowing the window to phone width shows the home; widening brings the draft back.
    await page.setViewportSize(PHONE);
    await page.locator("[data-testid=empty-state]").waitFor(); // the draft chosen stays
    await page.setViewportSize(DESKTOP);
    await page.waitForSelector("[data-testid=empty-state]");
  });
});
