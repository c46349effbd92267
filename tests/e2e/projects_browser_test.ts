/**
 * Projects in the sidebar, in a real (headless) Chromium against the real server:
 * add a folder through the server-side folder browser (with its errors), start a
 * draft in the project and send → the task nests under the project and its Demo run
 * works in that folder; collapse and re-order sections (keyboard and pointer drag) and
 * a project, reload and open a second "device" → the layout is kept on the server.
 * Desktop 1280×800 and phone 390×844 (and 360 wide for horizontal scroll).
 * Task-row rename/pin/delete are covered by shell_browser_test.ts.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { drawerShown, noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A fake home for the server (`~` in the folder browser) with two project folders. */
async function fakeHome(): Promise<string> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-e2e-home-" }));
  await Deno.mkdir(`${home}/code/proj-one`, { recursive: true });
  await Deno.mkdir(`${home}/code/proj-two`, { recursive: true });
  await Deno.mkdir(`${home}/.config`, { recursive: true });
  await Deno.writeTextFile(`${home}/code/proj-one/marker-one.md`, "# Marker one\n");
  await Deno.writeTextFile(`${home}/notes.txt`, "a file, not a folder");
  return home;
}

/** Asked for a file, the Demo run writes demo-note.md into its workspace as its last tool call. */
async function demoNote(folder: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (true) {
    const text = await Deno.readTextFile(`${folder}/demo-note.md`).catch(() => null);
    if (text !== null) return text;
    if (Date.now() > deadline) throw new Error(`no demo-note.md in ${folder}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sectionOrder = (page: Page) =>
  page.$$eval(
    "[data-testid=sidebar] [data-section]",
    (els) => els.map((e) => (e as HTMLElement).dataset.section),
  );

/** Adds `rel` (under the fake home) as a project through the folder browser. */
async function addThroughBrowser(page: Page, home: string, rel: string[]): Promise<void> {
  await page.click("[data-testid=add-project]");
  const dialog = page.locator("[data-testid=folder-browser]");
  await dialog.waitFor();
  await page.waitForFunction(
    (home) =>
      (document.querySelector("[data-testid=folder-path]") as HTMLInputElement)?.value === home,
    home,
  );
  for (const name of rel) {
    await dialog.locator(`[data-testid=folder-entry][data-name="${name}"]`).click();
  }
  const want = `${home}/${rel.join("/")}`;
  await page.waitForFunction(
    (want) =>
      (document.querySelector("[data-testid=folder-path]") as HTMLInputElement)?.value === want,
    want,
  );
  await page.click("[data-testid=folder-choose]");
  await dialog.waitFor({ state: "detached" });
  await page.locator(`[data-testid=project][data-path="${want}"]`).waitFor();
}

Deno.test(
  "projects (desktop): folder browser, draft in a project, nested task, layout kept",
  async () => {
    const home = await fakeHome();
    try {
      await withPage(DESKTOP, async (page, server, browser) => {
        await openApp(page, server.url);
        await page.locator("[data-testid=no-projects]").waitFor();
        assertEquals(await sectionOrder(page), ["projects", "tasks"]);

        // The folder browser starts at the server's home, lists folders only, hidden last
        // and only on demand, and reports bad paths as the server words them.
        await page.click("[data-testid=add-project]");
        const dialog = page.locator("[data-testid=folder-browser]");
        await dialog.waitFor();
        await page.waitForFunction(() =>
          document.querySelectorAll("[data-testid=folder-entry]").length === 1
        );
        assertEquals(
          await dialog.locator("[data-testid=folder-entry]").evaluateAll((els) =>
            els.map((e) => (e as HTMLElement).dataset.name)
          ),
          ["code"],
        );
        await dialog.locator("[data-testid=folder-show-hidden]").check();
        await dialog.locator("[data-testid=folder-entry][data-name='.config']").waitFor();
        await screenshot(page, "desktop-projects-browser");
        const path = dialog.locator("[data-testid=folder-path]");
        await path.fill(`${home}/missing`);
        await path.press("Enter");
        assertEquals(
          await dialog.locator("[data-testid=folder-error]").innerText(),
          `the folder ${home}/missing does not exist`,
        );
        await path.fill(`${home}/notes.txt`);
        await page.click("[data-testid=folder-choose]");
        await page.waitForFunction(
          (m) => document.querySelector("[data-testid=folder-error]")?.textContent === m,
          `${home}/notes.txt is not a folder`,
        );
        assertEquals(await page.locator("[data-testid=project]").count(), 0, "nothing was added");
        await screenshot(page, "desktop-projects-browser-error");
        // Home goes back; Esc closes.
        await page.click("[data-testid=folder-home]");
        await page.waitForFunction(
          (home) =>
            (document.querySelector("[data-testid=folder-path]") as HTMLInputElement).value ===
              home,
          home,
        );
        assertEquals(await dialog.locator("[data-testid=folder-error]").count(), 0);
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });

        await addThroughBrowser(page, home, ["code", "proj-one"]);
        await addThroughBrowser(page, home, ["code", "proj-two"]);
        const one = page.locator(`[data-testid=project][data-path="${home}/code/proj-one"]`);
        assertEquals(await one.locator("[data-testid=project-name]").innerText(), "proj-one");
        // Adding it again is refused in the dialog.
        await page.click("[data-testid=add-project]");
        await page.locator("[data-testid=folder-path]").fill(`${home}/code/proj-one`);
        await page.click("[data-testid=folder-choose]");
        await page.waitForFunction(
          (m) => document.querySelector("[data-testid=folder-error]")?.textContent === m,
          `${home}/code/proj-one is already a project ("proj-one")`,
        );
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });

        // A path typed the instant the dialog shows (before its first listing has even
        // been asked for) is kept: the home listing must not overwrite it.
        const typedEarly = `${home}/code`;
        await page.evaluate((want) => {
          const seen = new MutationObserver(() => {
            const el = document.querySelector("[data-testid=folder-path]") as HTMLInputElement;
            if (!el) return;
            seen.disconnect();
            el.value = want;
            el.dispatchEvent(new Event("input", { bubbles: true }));
          });
          seen.observe(document.body, { childList: true, subtree: true });
        }, typedEarly);
        await page.click("[data-testid=add-project]");
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=folder-list]")?.getAttribute("aria-busy") ===
            "false" && document.querySelectorAll("[data-testid=folder-entry]").length > 0
        );
        assertEquals(await page.locator("[data-testid=folder-path]").inputValue(), typedEarly);
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });

        // Focused before its first listing arrives (a select-all, a paste about to come): the
        // listing leaves the field alone, or its path would end up in front of the paste.
        await page.evaluate(() => {
          const seen = new MutationObserver(() => {
            const el = document.querySelector("[data-testid=folder-path]") as HTMLInputElement;
            if (!el) return;
            seen.disconnect();
            el.focus();
          });
          seen.observe(document.body, { childList: true, subtree: true });
        });
        await page.click("[data-testid=add-project]");
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=folder-list]")?.getAttribute("aria-busy") ===
            "false" && document.querySelectorAll("[data-testid=folder-entry]").length > 0
        );
        assertEquals(
          await page.locator("[data-testid=folder-path]").inputValue(),
          "~",
          "the field as it was focused, not the listing's path",
        );
        await page.keyboard.press("ControlOrMeta+A");
        await page.keyboard.insertText(`${home}/code`);
        assertEquals(await page.locator("[data-testid=folder-path]").inputValue(), `${home}/code`);
        await page.keyboard.press("Escape");

        // A draft in the project: the header names it; the first send creates the task there.
        await one.locator("[data-testid=project-new-task]").click();
        await page.waitForSelector("[data-testid=empty-state]");
        assertEquals(
          await page.locator("[data-testid=project-chip] .project-chip-name").first().innerText(),
          "proj-one",
        );
        const input = page.locator("[data-testid=composer-input]");
        await input.fill("hi, show me around and write a note file");
        await screenshot(page, "desktop-projects-draft");
        await input.press("Enter");
        const nested = one.locator("[data-testid=project-tasks] [data-testid=task-row]");
        await nested.first().waitFor();
        assertEquals(await nested.count(), 1);
        assertEquals(
          await page.locator("[data-testid=section-tasks] [data-testid=task-row]").count(),
          0,
        );
        assertEquals(
          await page.locator("[data-testid=project-chip] .project-chip-name").first().innerText(),
          "proj-one",
        );
        // The Demo run lists and reads the project folder and writes its note there.
        await page.locator("[data-testid=send]").waitFor({ timeout: 20_000 });
        await page.locator("text=marker-one.md").first().waitFor({ state: "attached" });
        assertMatch(await demoNote(`${home}/code/proj-one`), /Demo model/);
        assertEquals(
          await Deno.stat(`${server.home}/DefaultProject/demo-note.md`).catch(() => null),
          null,
        );

        // A task without a project lists under Tasks; the draft chip can drop the project.
        await page.locator(
          "[data-testid=project][data-path$=proj-two] [data-testid=project-new-task]",
        )
          .click();
        assertEquals(
          await page.locator("[data-testid=project-chip] .project-chip-name").first().innerText(),
          "proj-two",
        );
        await page.click("[data-testid=project-chip-clear]");
        assertEquals(await page.locator("[data-testid=project-chip]").count(), 0);
        await input.fill("A task without a project");
        await input.press("Enter");
        await page.locator("[data-testid=section-tasks] [data-testid=task-row]").first().waitFor();
        await page.locator("[data-testid=send]").waitFor({ timeout: 20_000 });
        // A task without a project says so (its folder is in the tooltip).
        assertEquals(
          await page.locator("[data-testid=project-chip] .project-chip-name").first().innerText(),
          "No project",
        );
        await screenshot(page, "desktop-projects-nested");

        // Collapse Tasks and proj-two; move the Projects section down with the keyboard.
        await page.click("[data-testid=toggle-tasks]");
        assertEquals(
          await page.locator("[data-testid=section-tasks] [data-testid=task-row]").count(),
          0,
        );
        assertEquals(
          await page.getAttribute("[data-testid=toggle-tasks]", "aria-expanded"),
          "false",
        );
        await page.locator(
          "[data-testid=project][data-path$=proj-two] [data-testid=project-toggle]",
        ).click();
        await page.focus("[data-testid=reorder-projects]");
        await page.keyboard.press("Alt+ArrowDown");
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=sidebar] [data-section]")?.getAttribute(
            "data-section",
          ) === "tasks"
        );
        // The handle gets the focus back in the next frame (moving a node blurs it).
        await page.waitForFunction(() =>
          document.activeElement?.getAttribute("data-testid") === "reorder-projects"
        ).catch(() => {
          throw new Error("the handle keeps the focus after a keyboard move");
        });
        assertEquals(
          await page.locator("[data-testid=reorder-status]").innerText(),
          "Projects moved to position 2 of 2",
        );
        // Projects: drag proj-two above proj-one with the pointer.
        const handle = page.locator(
          "[data-testid=project][data-path$=proj-two] [data-testid=reorder-project]",
        );
        await one.locator(".project-head").hover();
        const hb = (await handle.boundingBox())!;
        const ob = (await one.boundingBox())!;
        await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
        await page.mouse.down();
        await page.mouse.move(hb.x + hb.width / 2, hb.y - 6, { steps: 3 });
        await page.mouse.move(hb.x + hb.width / 2, ob.y + 4, { steps: 5 });
        await page.mouse.up();
        const projectOrder = () =>
          page.$$eval(
            "[data-testid=project] [data-testid=project-name]",
            (els) => els.map((e) => e.textContent),
          );
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=project] [data-testid=project-name]")
            ?.textContent === "proj-two"
        );
        // Sections: drag Tasks (now first) back below Projects with the pointer.
        const th = (await page.locator("[data-testid=reorder-tasks]").boundingBox())!;
        const pb = (await page.locator("[data-testid=section-projects]").boundingBox())!;
        await page.mouse.move(th.x + th.width / 2, th.y + th.height / 2);
        await page.mouse.down();
        await page.mouse.move(th.x + th.width / 2, th.y + 10, { steps: 3 });
        await page.mouse.move(th.x + th.width / 2, pb.y + pb.height - 2, { steps: 8 });
        await page.mouse.up();
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=sidebar] [data-section]")?.getAttribute(
            "data-section",
          ) === "projects"
        );
        // And once more down with the keyboard, so the stored order differs from the default.
        await page.focus("[data-testid=reorder-projects]");
        await page.keyboard.press("ArrowDown");
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=sidebar] [data-section]")?.getAttribute(
            "data-section",
          ) === "tasks"
        );
        await screenshot(page, "desktop-projects-reordered");

        // Reload: order, collapsed sections and projects come back from the server.
        await page.waitForTimeout(300); // let the last kv.set land
        await page.reload();
        await page.locator("[data-testid=project]").first().waitFor();
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=sidebar] [data-section]")?.getAttribute(
            "data-section",
          ) === "tasks"
        );
        assertEquals(await sectionOrder(page), ["tasks", "projects"]);
        assertEquals(
          await page.getAttribute("[data-testid=toggle-tasks]", "aria-expanded"),
          "false",
        );
        assertEquals(await projectOrder(), ["proj-two", "proj-one"]);
        assertEquals(
          await page.getAttribute(
            "[data-testid=project][data-path$=proj-two] [data-testid=project-toggle]",
            "aria-expanded",
          ),
          "false",
        );
        assertEquals(await one.locator("[data-testid=task-row]").count(), 1);

        // Another device (fresh browser context, same server) sees the same layout.
        const other = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
        const page2 = await other.newPage();
        await openApp(page2, server.url);
        await page2.locator("[data-testid=project]").first().waitFor();
        await page2.waitForFunction(() =>
          document.querySelector("[data-testid=sidebar] [data-section]")?.getAttribute(
            "data-section",
          ) === "tasks"
        );
        assertEquals(
          await page2.getAttribute("[data-testid=toggle-tasks]", "aria-expanded"),
          "false",
        );

        // Renaming a project on one device shows on the other; removing keeps its task.
        await one.locator(".project-head").hover();
        await one.locator("[data-testid=project-rename]").click();
        await page.locator("[data-testid=project-rename-input]").fill("Project One");
        await page.locator("[data-testid=project-rename-input]").press("Enter");
        await page2.locator("[data-testid=project-name] >> text=Project One").waitFor();
        const one2 = page2.locator(`[data-testid=project][data-path="${home}/code/proj-one"]`);
        await one2.locator(".project-head").hover();
        await one2.locator("[data-testid=project-remove]").click();
        await page2.locator("[data-testid=confirm-remove-project]").waitFor();
        await page2.keyboard.press("Escape");
        await page2.locator("[data-testid=confirm-remove-project]").waitFor({ state: "detached" });
        await one2.locator(".project-head").hover();
        await one2.locator("[data-testid=project-remove]").click();
        await screenshot(page2, "desktop-projects-remove-confirm");
        await page2.click("[data-testid=confirm-remove-project]");
        await one.waitFor({ state: "detached" });
        // Its task is kept and lists under Tasks (expand the section to see it).
        await page.click("[data-testid=toggle-tasks]");
        await page.locator(
          "[data-testid=section-tasks] [data-testid=task-row] >> text=Show me around",
        )
          .waitFor();
        assertEquals(
          await page.locator("[data-testid=section-tasks] [data-testid=task-row]").count(),
          2,
        );
        await other.close();

        // Dark theme (following the system): colours come from the tokens.
        await page.emulateMedia({ colorScheme: "dark" });
        await page.waitForTimeout(400); // let the colour transitions finish
        await screenshot(page, "desktop-projects-dark");
      }, { env: { HOME: home } });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);

Deno.test(
  "projects (phone 390×844): add in the drawer, draft in a project, touch targets",
  async () => {
    const home = await fakeHome();
    try {
      await withPage(PHONE, async (page, server) => {
        await openApp(page, server.url);
        await page.click("[data-testid=open-drawer]");
        await drawerShown(page);
        for (
          const id of [
            "add-project",
            "reorder-projects",
            "toggle-projects",
            "open-search",
            "tasks-new-task",
          ]
        ) {
          const box = await page.locator(`[data-testid=${id}]`).boundingBox();
          assert(
            box && box.width >= 44 && box.height >= 44,
            `${id} is smaller than 44 px: ${JSON.stringify(box)}`,
          );
        }
        await addThroughBrowser(page, home, ["code", "proj-one"]);
        await noHorizontalScroll(page, PHONE.width);
        const one = page.locator("[data-testid=project]").first();
        await one.locator(".project-head").hover();
        for (
          const id of ["project-new-task", "project-rename", "project-remove", "project-toggle"]
        ) {
          const box = await one.locator(`[data-testid=${id}]`).boundingBox();
          assert(
            box && box.width >= 44 && box.height >= 44,
            `${id} is smaller than 44 px: ${JSON.stringify(box)}`,
          );
        }
        await screenshot(page, "phone-projects-drawer");

        await page.click("[data-testid=add-project]");
        await page.locator("[data-testid=folder-browser]").waitFor();
        await page.locator("[data-testid=folder-entry][data-name=code]").waitFor();
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-projects-browser");
        await page.click("[data-testid=folder-cancel]");
        await page.locator("[data-testid=folder-browser]").waitFor({ state: "detached" });

        await one.locator("[data-testid=project-new-task]").click();
        await page.locator("[data-testid=sidebar]").waitFor({ state: "hidden" });
        assertEquals(
          await page.locator("[data-testid=project-chip] .project-chip-name").first().innerText(),
          "proj-one",
        );
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-projects-draft");
        const input = page.locator("[data-testid=composer-input]");
        await input.fill("hi, show me around and write a note file");
        await page.click("[data-testid=send]");
        await page.locator("[data-testid=send]").waitFor({ timeout: 20_000 });
        await page.locator("text=marker-one.md").first().waitFor({ state: "attached" });
        assertMatch(await demoNote(`${home}/code/proj-one`), /Demo model/);

        await page.click("[data-testid=open-drawer]");
        await drawerShown(page);
        assertEquals(
          await one.locator("[data-testid=project-tasks] [data-testid=task-row]").count(),
          1,
        );
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-projects-nested");

        // A finger drags the Tasks section above Projects (touch → pointer events).
        const cdp = await page.context().newCDPSession(page);
        await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
        const th = (await page.locator("[data-testid=reorder-tasks]").boundingBox())!;
        const pb = (await page.locator("[data-testid=section-projects]").boundingBox())!;
        const x = th.x + th.width / 2;
        const touch = async (type: "touchStart" | "touchMove" | "touchEnd", y: number) =>
          await cdp.send("Input.dispatchTouchEvent", {
            type,
            touchPoints: type === "touchEnd" ? [] : [{ x, y }],
          });
        await touch("touchStart", th.y + th.height / 2);
        for (let y = th.y + th.height / 2; y > pb.y; y -= 12) await touch("touchMove", y);
        await touch("touchMove", pb.y + 2);
        await touch("touchEnd", 0);
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=sidebar] [data-section]")?.getAttribute(
            "data-section",
          ) === "tasks"
        );
        await drawerShown(page);
        await screenshot(page, "phone-projects-touch-reordered");
        await page.reload();
        await page.locator("[data-testid=project]").first().waitFor({ state: "attached" });
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=sidebar] [data-section]")?.getAttribute(
            "data-section",
          ) === "tasks"
        );
        await page.click("[data-testid=open-drawer]");
        await drawerShown(page);

        // The search entry hands over to the search dialog: the drawer gets out of the way.
        await page.click("[data-testid=open-search]");
        await page.locator("[data-testid=sidebar]").waitFor({ state: "hidden" });
        await page.keyboard.press("Escape");

        // 360 px wide: still no horizontal scroll.
        await page.setViewportSize({ width: 360, height: 740 });
        await noHorizontalScroll(page, 360);
      }, { env: { HOME: home } });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);
