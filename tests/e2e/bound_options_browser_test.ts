/**
 * A task shows its own options in the composer (desktop 1280×800, phone 390×844): a
 * task made while the default approval mode was Ask still shows Ask after another client
 * made Full access the default — in a window that was open meanwhile and in one opened
 * later — while a new task's draft shows the new default. A server whose bubblewrap
 * cannot run shows the "No sandbox" badge in every window.
 */
import type { Browser, Page } from "playwright-core";
import { assertEquals } from "../helpers/assert.ts";
import { TestClient } from "../helpers/ws_client.ts";
import {
  clickNewTask,
  noHorizontalScroll,
  openApp,
  screenshot,
  watchErrors,
  withBrowserServer,
} from "./browser.ts";

const tid = (id: string) => `[data-testid=${id}]`;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function open(browser: Browser, viewport: typeof DESKTOP, url: string) {
  const context = await browser.newContext({ viewport, locale: "en-US" });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await openApp(page, url);
  return { page, errors };
}

/** Opens a task: the sidebar row on a desktop, the task home's row on a phone. */
async function openTask(page: Page, id: string) {
  const wide = (page.viewportSize()?.width ?? 1280) >= 768;
  const row = wide
    ? `${tid("task-row")}[data-task-id="${id}"] .task-open`
    : `${tid("home-row")}[data-task-id="${id}"]`;
  await page.click(row);
  await page.waitForSelector(tid("composer-tools"));
}

/** The composer's approval mode as shown (the short label on a phone). */
async function shownMode(page: Page, want: string): Promise<string> {
  const wide = (page.viewportSize()?.width ?? 1280) >= 768;
  const label = page.locator(tid(wide ? "approval-label" : "approval-short"));
  await label.filter({ hasText: want }).first().waitFor({ timeout: 5_000 }).catch(() => {});
  return (await label.first().textContent())?.trim() ?? "";
}

Deno.test(
  "the composer shows the task's own approval mode after the default changed",
  async () => {
    await withBrowserServer({}, async (browser, server) => {
      const c = await TestClient.connect(server.base, server.token);
      try {
        await c.request("settings.set", { defaultApproval: "ask" });
        const { task } = await c.request<{ task: { id: string } }>("tasks.create", {
          title: "Made while Ask was the default",
        });
        const before = await open(browser, DESKTOP, server.url);
        await openTask(before.page, task.id);
        assertEquals(await shownMode(before.page, "Ask"), "Ask");

        await c.request("settings.set", { defaultApproval: "full" });
        // The open window learns the new default: a new task's draft offers Full access …
        await clickNewTask(before.page);
        await before.page.waitForSelector(tid("empty-state"));
        assertEquals(await shownMode(before.page, "Full access"), "Full access");
        // … and the task keeps Ask.
        await openTask(before.page, task.id);
        assertEquals(await shownMode(before.page, "Ask"), "Ask");
        await screenshot(before.page, "desktop-bound-options");

        // The task's own sandbox level, in the approval menu: lowering it is told to the others.
        await before.page.click(tid("approval-select"));
        const pressed = `${tid("task-sandbox-option")}[aria-pressed=true]`;
        assertEquals(
          await before.page.locator(pressed).getAttribute("data-value"),
          "workspace-write",
        );
        await before.page.click(`${tid("task-sandbox-option")}[data-value=off]`);
        await before.page.locator(`${pressed}[data-value=off]`).waitFor();
        await before.page.locator(tid("approval-unsandboxed-note")).waitFor();
        await before.page.locator(`${tid("safety-notice")} >> text=Shell sandbox of`).waitFor();
        await screenshot(before.page, "desktop-task-sandbox-menu");
        await before.page.keyboard.press("Escape");
        const listed = await c.request<{ tasks: { settings: { sandbox?: string } }[] }>(
          "tasks.list",
          {
            ids: [task.id],
          },
        );
        assertEquals(listed.tasks[0].settings.sandbox, "off");

        // A window opened after the change shows the task's own mode too.
        const later = await open(browser, PHONE, server.url);
        await openTask(later.page, task.id);
        assertEquals(await shownMode(later.page, "Ask"), "Ask");
        await noHorizontalScroll(later.page, PHONE.width);
        await screenshot(later.page, "phone-bound-options");
        await later.page.click(tid("approval-select"));
        await later.page.locator(`${tid("task-sandbox-option")}[aria-pressed=true][data-value=off]`)
          .waitFor();
        await screenshot(later.page, "phone-task-sandbox-menu");
        assertEquals([...before.errors, ...later.errors], [], "the pages logged errors");
      } finally {
        await c.close();
      }
    });
  },
);

Deno.test("a server whose bubblewrap cannot run shows the No sandbox badge", async () => {
  // A bwrap first on PATH that always fails: the probe at start finds no working sandbox.
  const bin = await Deno.makeTempDir({ prefix: "ra-fake-bwrap-" });
  await Deno.writeTextFile(`${bin}/bwrap`, "#!/bin/sh\necho 'no namespaces here' >&2\nexit 1\n", {
    mode: 0o755,
  });
  const env = { PATH: `${bin}:${Deno.env.get("PATH") ?? ""}` };
  await withBrowserServer({ env }, async (browser, server) => {
    const c = await TestClient.connect(server.base, server.token);
    try {
      const { task } = await c.request<{ task: { id: string } }>("tasks.create", {
        title: "No sandbox here",
      });
      for (const [label, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
        const { page, errors } = await open(browser, viewport, server.url);
        await openTask(page, task.id);
        const badge = page.locator(tid("sandbox-badge"));
        await badge.waitFor();
        assertEquals(
          (await badge.getAttribute("title"))?.startsWith("Bubblewrap cannot run"),
          true,
        );
        if (label === "phone") await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, `${label}-no-sandbox-badge`);
        assertEquals(errors, [], "the page logged errors");
      }
    } finally {
      await c.close();
    }
  }, () => Deno.remove(bin, { recursive: true }));
});
