/**
 * The Notes page (Settings → Notes) in a real Chromium against the real server and the
 * mock LLM: "Organise into a note" from a task's menu opens the new note; a new note is
 * typed and autosaved to its .md file; split preview renders the Markdown; an assist
 * action and its Undo; a file changed on disk is a conflict (nothing overwritten) until
 * the user loads the disk's version; a corrupt file is reported; rename. Phone: list and
 * editor one at a time, no horizontal scroll. Screenshots: desktop-notes-*.png,
 * phone-notes-*.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { drawerShown, noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { DESKTOP, PHONE } from "./approval_helpers.ts";
import type { Page } from "playwright-core";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { lastTurn, newDraft, pickModel, send, strip } from "./run_helpers.ts";

const tid = (id: string) => `[data-testid=${id}]`;

async function until(cond: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 8000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const readOr = (path: string) => Deno.readTextFile(path).catch(() => "");
const status = (page: Page) => page.locator(tid("notes-status")).getAttribute("data-state");

/** Through the sidebar's Notes entry (in the drawer on a phone). */
async function openNotes(page: Page, phone: boolean): Promise<void> {
  if (phone) {
    await page.click(tid("open-drawer"));
    await drawerShown(page);
    await screenshot(page, "phone-notes-drawer");
  }
  await page.click(tid("open-notes"));
  await page.locator(tid("notes-pane")).waitFor();
}

Deno.test("Notes page (desktop): organise a conversation, autosave, preview, assist + undo, conflict, rename", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("notes-model", {
    turns: [{ text: "Guard the cache with a mutex; the race is in `load()`." }],
    repeatLast: true,
    match: [
      {
        lastIncludes: "<conversation>",
        turn: { text: "# Cache race\n\n- The race is in `load()`.\n- Fix: guard it with a mutex." },
      },
      { lastIncludes: "<note>", turn: { text: "- You need milk and bread." } },
    ],
  });
  const home = await homeWithProvider(mock.base, ["notes-model"]);
  try {
    await withPage(DESKTOP, async (page, server) => {
      const dir = `${server.home}/notebooks/default`;
      await openApp(page, server.url);
      await newDraft(page);
      await pickModel(page, "mock/notes-model", "notes-model");
      await send(page, "Why does the cache race?");
      await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
        timeout: 30_000,
      });

      // Organise from the task's menu: the note is made and opened on the Notes page.
      await page.click(tid("task-menu"));
      await page.click(tid("organise-note"));
      await page.locator(tid("notes-pane")).waitFor();
      await page.waitForFunction(() =>
        (document.querySelector("[data-testid=notes-editor]") as HTMLTextAreaElement | null)
          ?.value.startsWith("# Cache race")
      );
      assertEquals(await page.inputValue(tid("notes-name")), "Cache race");
      assertMatch(await readOr(`${dir}/Cache race.md`), /guard it with a mutex/);
      const sent = JSON.stringify(mock.requests("notes-model").at(-1)!.body);
      assertMatch(sent, /Why does the cache race\?/);
      await screenshot(page, "desktop-notes-organised");

      // A new note, typed and saved a second after the last key.
      await page.click(tid("notes-new"));
      await page.locator(`${tid("notes-card")}[data-name=Untitled]`).waitFor();
      await page.fill(tid("notes-editor"), "# Shopping\n\n- milk\n- **bread**\n");
      assertEquals(await status(page), "dirty");
      await until(async () => (await status(page)) === "saved", "autosaved");
      assertEquals(await readOr(`${dir}/Untitled.md`), "# Shopping\n\n- milk\n- **bread**\n");
      // The card's title is the note's name, as the name field says; the heading is under it.
      const card = page.locator(`${tid("notes-card")}[data-name=Untitled]`);
      await card.locator(tid("notes-card-heading")).waitFor();
      assertEquals(await card.locator(tid("notes-card-title")).innerText(), "Untitled");
      assertEquals(await page.inputValue(tid("notes-name")), "Untitled");
      assertEquals(await card.locator(tid("notes-card-heading")).innerText(), "Shopping");

      // The shortcuts edit around the selection (and autosave like typing).
      await page.locator(tid("notes-editor")).press("Control+End");
      await page.locator(tid("notes-editor")).type("eggs");
      await page.click(tid("notes-format-todo"));
      assertEquals(
        await page.inputValue(tid("notes-editor")),
        "# Shopping\n\n- milk\n- **bread**\n- [ ] eggs",
      );
      await until(async () => (await readOr(`${dir}/Untitled.md`)).endsWith("- [ ] eggs"), "saved");
      await page.fill(tid("notes-editor"), "# Shopping\n\n- milk\n- **bread**\n");
      await until(async () => (await status(page)) === "saved", "saved again");

      // Split: the app's Markdown renderer shows the note.
      await page.click(tid("notes-mode-split"));
      await page.locator(`${tid("notes-preview")} h1 >> text=Shopping`).waitFor();
      await page.locator(`${tid("notes-preview")} strong >> text=bread`).waitFor();
      await screenshot(page, "desktop-notes-split");

      // Assist: a summary added at the end, then undone (both saved).
      await page.click(tid("notes-assist-summarise"));
      await page.locator(tid("notes-assist-undo")).waitFor();
      assertMatch(await page.inputValue(tid("notes-editor")), /## Summary\n\n- You need milk/);
      await until(async () => (await readOr(`${dir}/Untitled.md`)).includes("## Summary"), "saved");
      await page.click(tid("notes-assist-undo"));
      assertEquals(
        await page.inputValue(tid("notes-editor")),
        "# Shopping\n\n- milk\n- **bread**\n",
      );
      await until(
        async () => !(await readOr(`${dir}/Untitled.md`)).includes("Summary"),
        "undo saved",
      );
      await until(async () => (await status(page)) === "saved", "saved after undo");

      // Changed by another editor meanwhile: typing here is a conflict, the file is kept.
      await Deno.writeTextFile(`${dir}/Untitled.md`, "# Shopping\n\nchanged in vim\n");
      await page.locator(tid("notes-editor")).press("Control+End");
      await page.locator(tid("notes-editor")).type("- eggs");
      await page.locator(tid("notes-conflict")).waitFor();
      assertEquals(await status(page), "conflict");
      assertEquals(await readOr(`${dir}/Untitled.md`), "# Shopping\n\nchanged in vim\n");
      await screenshot(page, "desktop-notes-conflict");
      await page.click(tid("notes-reload"));
      await until(
        async () =>
          (await page.inputValue(tid("notes-editor"))) === "# Shopping\n\nchanged in vim\n",
        "the disk's text loaded",
      );
      assertEquals(await page.locator(tid("notes-conflict")).count(), 0);

      // Again, and this time the user keeps their text: it replaces the file, on purpose.
      await Deno.writeTextFile(`${dir}/Untitled.md`, "# Shopping\n\nchanged again\n");
      await page.locator(tid("notes-editor")).press("Control+End");
      await page.locator(tid("notes-editor")).type("- tea\n");
      await page.locator(tid("notes-conflict")).waitFor();
      await page.click(tid("notes-keep-mine"));
      await until(async () => (await status(page)) === "saved", "kept and saved");
      assertEquals(await readOr(`${dir}/Untitled.md`), "# Shopping\n\nchanged in vim\n- tea\n");

      // Rename; a corrupt file appears in the list's report, untouched.
      await page.fill(tid("notes-name"), "Groceries");
      await page.locator(tid("notes-name")).press("Enter");
      await page.locator(`${tid("notes-card")}[data-name=Groceries]`).waitFor();
      assertEquals(await readOr(`${dir}/Groceries.md`), "# Shopping\n\nchanged in vim\n- tea\n");
      await Deno.writeFile(`${dir}/broken.md`, new Uint8Array([0xff, 0xfe, 0xfd]));
      await page.click(tid("notes-new"));
      await page.locator(tid("notes-problems")).waitFor();
      assertMatch(await page.locator(tid("notes-problems")).innerText(), /broken\.md.*UTF-8/);
      assertEquals(await Deno.readFile(`${dir}/broken.md`), new Uint8Array([0xff, 0xfe, 0xfd]));

      // A notebook made, renamed and deleted (to the trash) from the bar.
      await page.click(tid("notes-notebook-add"));
      await page.fill(tid("notes-notebook-name"), "Work");
      await page.click(tid("notes-notebook-create"));
      await until(async () => (await page.inputValue(tid("notes-notebook"))) === "Work", "shown");
      await page.locator(tid("notes-empty")).waitFor();
      await page.click(tid("notes-notebook-rename"));
      await page.fill(tid("notes-notebook-name"), "Work 2026");
      await page.click(tid("notes-notebook-create"));
      await until(
        async () => (await page.inputValue(tid("notes-notebook"))) === "Work 2026",
        "renamed",
      );
      assert((await Deno.stat(`${server.home}/notebooks/Work 2026`)).isDirectory);
      await screenshot(page, "desktop-notes-notebook");
      await page.click(tid("notes-notebook-delete"));
      await page.click(tid("notes-notebook-delete-confirm"));
      await until(async () => (await page.inputValue(tid("notes-notebook"))) === "default", "back");
      assert(
        [...Deno.readDirSync(`${server.home}/notebooks/.trash`)].some((x) =>
          x.name.endsWith("Work 2026")
        ),
      );
    }, { home });
  } finally {
    await mock.close();
  }
});

Deno.test("Notes page (phone): the list, then the open note with Back; no horizontal scroll", async () => {
  await withPage(PHONE, async (page, server) => {
    const dir = `${server.home}/notebooks/default`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/Trip plan.md`,
      "# Trip plan\n\nA fairly long first line that must wrap on a phone instead of scrolling sideways.\n\n| day | place |\n|---|---|\n| 1 | Lisbon |\n",
    );
    await Deno.writeTextFile(`${dir}/Ideas.md`, "# Ideas\n\n- a notes page");
    // The test can drop the connection and hold it down (reconnects are refused meanwhile).
    let blocked = false;
    let live: { close(): Promise<void> } | null = null;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      if (blocked) return void ws.close();
      ws.connectToServer();
      live = ws;
    });
    await openApp(page, server.url);
    await openNotes(page, true);
    await page.locator(`${tid("notes-card")}[data-name="Trip plan"]`).waitFor();
    await noHorizontalScroll(page, PHONE.width);
    await screenshot(page, "phone-notes-list");
    // The search filters the cards by title and text.
    await page.fill(tid("notes-search"), "lisbon");
    await page.waitForFunction(() =>
      document.querySelectorAll("[data-testid=notes-card]").length === 1
    );
    await page.fill(tid("notes-search"), "nothing like this");
    await page.locator(tid("notes-no-match")).waitFor();
    await page.fill(tid("notes-search"), "");
    await page.click(`${tid("notes-card")}[data-name="Trip plan"]`);
    await page.locator(tid("notes-editor")).waitFor();
    assert(!(await page.locator(tid("notes-list")).isVisible()), "one column at a time");
    await page.click(tid("notes-mode-split"));
    await page.locator(`${tid("notes-preview")} table`).waitFor();
    await noHorizontalScroll(page, PHONE.width);
    const box = await page.locator(tid("notes-assist-summarise")).boundingBox();
    assert(box && box.height >= 36, `touch target ${box?.height}`);
    await screenshot(page, "phone-notes-editor");
    // Typed while the connection is down: "Not saved", then saved once it is back.
    blocked = true;
    await live!.close();
    await page.locator(tid("reconnecting")).waitFor();
    await page.click(tid("notes-mode-edit"));
    await page.locator(tid("notes-editor")).press("Control+End");
    await page.locator(tid("notes-editor")).type("Day 2: Porto\n");
    await until(async () => (await status(page)) === "error", "not saved while offline");
    await screenshot(page, "phone-notes-offline");
    blocked = false;
    await page.locator(tid("reconnecting")).waitFor({ state: "detached", timeout: 15_000 });
    await until(async () => (await status(page)) === "saved", "saved after reconnecting");
    assertMatch(await readOr(`${dir}/Trip plan.md`), /Day 2: Porto\n$/);

    await page.click(tid("notes-back"));
    await page.locator(tid("notes-list")).waitFor();
  });
});

Deno.test("Notes (phone): 'Organise into a note' from the Workbench sheet opens the note", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("notes-phone", {
    turns: [{ text: "Pack light: two shirts and a charger." }],
    repeatLast: true,
    match: [{
      lastIncludes: "<conversation>",
      turn: { text: "# Packing list\n\n- two shirts\n- a charger" },
    }],
  });
  const home = await homeWithProvider(mock.base, ["notes-phone"]);
  try {
    await withPage(PHONE, async (page, server) => {
      await openApp(page, server.url);
      await newDraft(page);
      await pickModel(page, "mock/notes-phone", "notes-phone");
      await send(page, "What should I pack?");
      await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
        timeout: 30_000,
      });
      await page.click(tid("open-workbench"));
      await page.locator(tid("organise-note")).waitFor();
      await screenshot(page, "phone-notes-organise-menu");
      await page.click(tid("organise-note"));
      await page.waitForFunction(() =>
        (document.querySelector("[data-testid=notes-editor]") as HTMLTextAreaElement | null)
          ?.value.startsWith("# Packing list")
      );
      assertMatch(
        await readOr(`${server.home}/notebooks/default/Packing list.md`),
        /two shirts/,
      );
      await noHorizontalScroll(page, PHONE.width);
      await screenshot(page, "phone-notes-organised");
    }, { home });
  } finally {
    await mock.close();
  }
});
