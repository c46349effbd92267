/**
 * Every task shows its folder, and a project just added is where the next draft goes
 * in a real (headless) Chromium against the real server: three
 * "Fix tests" tasks — in project alpha, in project beta, in no project — are told
 * apart by the header's folder chip (two projects both named "app" show their parent
 * folder too); adding a project while a task is shown makes the next "New task"
 * draft start in it, and a draft shown while adding moves into it. Desktop 1280×800
 * and phone 390×844. Screenshots: test-output/screenshots/{desktop,phone}-folder-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { Store } from "../../store/store.ts";
import {
  clickNewTask,
  drawerShown,
  noHorizontalScroll,
  openApp,
  screenshot,
  withPage,
} from "./browser.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const tid = (id: string) => `[data-testid=${id}]`;

interface Seeded {
  home: string;
  root: string;
}

async function seedHome(): Promise<Seeded> {
  const home = await Deno.makeTempDir({ prefix: "ra-folder-home-" });
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-folders-" }));
  for (const d of ["alpha", "beta", "x/app", "y/app", "gamma", "delta"]) {
    await Deno.mkdir(`${root}/${d}`, { recursive: true });
  }
  await Deno.mkdir(`${home}/DefaultProject`);
  const store = new Store(`${home}/reinagent.db`);
  const r = store.repos!;
  const projects: [string, string][] = [["pa", "alpha"], ["pb", "beta"], ["px", "x/app"], [
    "py",
    "y/app",
  ]];
  for (const [id, dir] of projects) {
    r.projects.add({ id, path: `${root}/${dir}`, name: dir.split("/").pop()! });
  }
  const task = (id: string, projectPath: string | null) => {
    r.tasks.create({ id, title: "Fix tests", projectPath });
    r.entries.append({
      id: `${id}-u`,
      taskId: id,
      role: "user",
      status: "done",
      parts: [{ type: "text", text: "Fix the failing tests" }],
    });
  };
  task("ta", `${root}/alpha`);
  task("tb", `${root}/beta`);
  task("tn", null);
  task("tx", `${root}/x/app`);
  store.close();
  return { home, root };
}

const chip = (page: Page) => page.locator(tid("project-chip"));

async function openTask(page: Page, url: string, id: string): Promise<void> {
  await page.goto(`${url}#/t/${id}`);
  await page.locator(`[data-entry-id=${id}-u]`).first().waitFor();
  await page.locator(`${tid("header-title")} >> text=Fix tests`).waitFor();
}

/** Adds `path` with the folder browser's typed path. */
async function addProject(page: Page, path: string, phone: boolean): Promise<void> {
  if (phone) {
    await page.click(tid("open-drawer"));
    await drawerShown(page);
  }
  await page.click(tid("add-project"));
  await page.locator(tid("folder-browser")).waitFor();
  // Typed at once: the first listing (home) must not overwrite it.
  await page.locator(tid("folder-path")).fill(path);
  await page.click(tid("folder-choose"));
  // Closed, or the server's refusal shown: the refusal is the failure to report.
  await page.waitForFunction(() =>
    !document.querySelector("[data-testid=folder-browser]") ||
    document.querySelector("[data-testid=folder-error]")
  );
  const refused = page.locator(tid("folder-error"));
  if (await refused.count()) throw new Error(`adding ${path}: ${await refused.innerText()}`);
  await page.locator(tid("folder-browser")).waitFor({ state: "detached" });
  if (phone) {
    await page.keyboard.press("Escape");
    await page.locator(tid("sidebar")).waitFor({ state: "hidden" });
  }
}

async function check(page: Page, s: Seeded, url: string, phone: boolean): Promise<void> {
  const name = phone ? "phone" : "desktop";
  await openApp(page, url);
  // Same title, three folders: the chip tells them apart.
  const seen: string[] = [];
  for (const id of ["ta", "tb", "tn"]) {
    await openTask(page, url, id);
    assert(await chip(page).isVisible(), `task ${id} shows no folder`);
    seen.push(await chip(page).innerText());
  }
  assertEquals(seen, ["alpha", "beta", "No project"]);
  assertMatch((await chip(page).getAttribute("title"))!, /No project: .*DefaultProject/);
  await openTask(page, url, "ta");
  assertEquals(await chip(page).getAttribute("title"), `Works in ${s.root}/alpha`);
  // Two projects named "app": the parent folder too.
  await openTask(page, url, "tx");
  assertEquals(await chip(page).innerText(), "x/app");
  const box = (await chip(page).boundingBox())!;
  const title = (await page.locator(tid("header-title")).boundingBox())!;
  // On a phone the chip gives way first (its icon stays): the short title shows whole.
  assert(box.width >= (phone ? 28 : 40), `chip too narrow: ${JSON.stringify(box)}`);
  assert(title.width >= 60, `the title is squeezed out: ${JSON.stringify(title)}`);
  const cut = await page.locator(tid("header-title")).evaluate((el) =>
    el.scrollWidth > el.clientWidth
  );
  assert(!cut, "the title «Fix tests» is cut");
  if (phone) await noHorizontalScroll(page, PHONE.width);
  await screenshot(page, `${name}-folder-chip`);

  // A project added while a task is shown: the next New task draft is in it.
  await openTask(page, url, "tn");
  await addProject(page, `${s.root}/gamma`, phone);
  assertEquals(await chip(page).innerText(), "No project", "the task shown stays as it is");
  await clickNewTask(page);
  await page.waitForSelector(tid("empty-state"));
  await page.locator(`${tid("project-chip")} >> text=gamma`).waitFor({ timeout: 5000 });
  await screenshot(page, `${name}-folder-draft`);
  // Used up: the following New task is a plain draft again.
  await page.locator(tid("project-chip-clear")).click();
  await openTask(page, url, "tb");
  await clickNewTask(page);
  await page.waitForSelector(tid("empty-state"));
  assertEquals(await chip(page).count(), 0);

  // A draft shown while adding moves into the new project at once (its text kept).
  await page.locator(tid("composer-input")).fill("Start here");
  await addProject(page, `${s.root}/delta`, phone);
  await chip(page).waitFor();
  assertEquals(await chip(page).locator(".project-chip-name").innerText(), "delta");
  assertEquals(await page.locator(tid("composer-input")).inputValue(), "Start here");
}

Deno.test(
  "folder chip (desktop): same titles told apart; the next draft is in the added project",
  async () => {
    const s = await seedHome();
    try {
      await withPage(DESKTOP, (page, server) => check(page, s, server.url, false), {
        home: s.home,
      });
    } finally {
      await Deno.remove(s.home, { recursive: true });
      await Deno.remove(s.root, { recursive: true });
    }
  },
);

Deno.test(
  "folder chip (phone 390×844): same titles told apart; the next draft is in the added project",
  async () => {
    const s = await seedHome();
    try {
      await withPage(PHONE, (page, server) => check(page, s, server.url, true), { home: s.home });
    } finally {
      await Deno.remove(s.home, { recursive: true });
      await Deno.remove(s.root, { recursive: true });
    }
  },
);
