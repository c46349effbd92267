/**
 * The Memory page (Settings → Memory) in a real Chromium against the real server:
 * global and project tabs, a proposal accepted, a memory added and edited, search, a
 * corrupt file shown (and left as it is), delete and "Delete all" behind their
 * confirmations; desktop and phone without horizontal scroll. Screenshots:
 * desktop-memory-page.png, desktop-memory-form.png, phone-memory-page.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { drawerShown, noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import type { TestServer } from "../helpers/server.ts";
import { DESKTOP, PHONE } from "./approval_helpers.ts";
import { TestClient } from "../helpers/ws_client.ts";
import { formatFrontmatter } from "../../store/memory/frontmatter.ts";
import type { Page } from "playwright-core";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { lastTurn, newDraft, pickModel, send, strip } from "./run_helpers.ts";

const CORRUPT = "---\ntitle: [this is not closed\n";

/** Global memories as files (the source of truth) and a project added through the API. */
async function seed(server: TestServer): Promise<string> {
  const dir = `${server.home}/memory/global`;
  await Deno.mkdir(dir, { recursive: true });
  const file = (meta: Record<string, string | boolean>, body: string) =>
    formatFrontmatter({ type: "user", created: "2026-11-30T10:00:00.000Z", ...meta }, body);
  await Deno.writeTextFile(
    `${dir}/answer-in-english.md`,
    file({
      title: "Answer in English",
      description: "every reply",
      updated: "2026-12-01T10:00:00.000Z",
    }, "Always answer in English, even when the code comments are in German."),
  );
  await Deno.writeTextFile(
    `${dir}/prefers-small-commits.md`,
    file({
      title: "Prefers small commits",
      description: "when committing",
      unreviewed: true,
      source: "tool",
      type: "feedback",
      updated: "2026-12-02T10:00:00.000Z",
    }, "One change per commit, with a message in the imperative mood."),
  );
  await Deno.writeTextFile(`${dir}/broken-by-hand.md`, CORRUPT);
  const folder = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-mem-proj-" }));
  const c = await TestClient.connect(server.base, server.token);
  try {
    await c.request("projects.add", { path: folder });
    await c.request("memory.save", {
      scope: "project",
      projectPath: folder,
      title: "Tests run with deno task test",
      description: "before committing",
      type: "project",
      body: "Run `deno task test`; the browser tests need `deno task build-ui` first.",
    });
  } finally {
    await c.close();
  }
  return folder;
}

const tid = (id: string) => `[data-testid=${id}]`;

async function until(cond: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const row = (page: Page, id: string) => page.locator(`${tid("memory-row")}[data-id=${id}]`);

async function openMemory(page: Page, phone: boolean): Promise<void> {
  if (phone) {
    await page.click(tid("open-drawer"));
    await drawerShown(page);
  }
  await page.click(tid("open-settings"));
  await page.click(tid("settings-tab-memory"));
  await page.locator(tid("memory-pane")).waitFor();
  await row(page, "answer-in-english").waitFor();
}

Deno.test("Memory page (desktop): accept, add, edit, search, corrupt file, delete, wipe", async () => {
  await withPage(DESKTOP, async (page, server) => {
    const folder = await seed(server);
    await openApp(page, server.url);
    await openMemory(page, false);
    // The proposal is marked; the corrupt file is reported by name.
    assertEquals(
      await row(page, "prefers-small-commits").getAttribute("data-unreviewed"),
      "true",
    );
    await page.locator(tid("memory-pending")).waitFor();
    assertMatch(await page.locator(tid("memory-problems")).innerText(), /broken-by-hand\.md/);
    await screenshot(page, "desktop-memory-page");

    await row(page, "prefers-small-commits").locator(tid("memory-accept")).click();
    await page.waitForFunction(() =>
      document.querySelector("[data-id=prefers-small-commits]")?.getAttribute("data-unreviewed") ===
        "false"
    );
    assertEquals(await page.locator(tid("memory-pending")).count(), 0);
    const accepted = await Deno.readTextFile(
      `${server.home}/memory/global/prefers-small-commits.md`,
    );
    assertMatch(accepted, /unreviewed: false/);

    // Learning from conversations is off until switched on (kept in memory/settings.json).
    assertEquals(await page.isChecked(tid("memory-extraction")), false);
    await page.click(`.memory-extraction .switch`);
    await page.waitForFunction(() =>
      (document.querySelector("[data-testid=memory-extraction]") as HTMLInputElement).checked
    );
    await until(
      async () =>
        (await Deno.readTextFile(`${server.home}/memory/settings.json`).catch(() => ""))
          .includes('"extraction": true'),
      "settings.json written",
    );

    // A new memory, then edited.
    await page.click(tid("memory-add"));
    await page.fill(tid("memory-form-title"), "Uses pnpm");
    await page.fill(tid("memory-form-description"), "when installing packages");
    await page.fill(tid("memory-form-body"), "The user installs packages with pnpm, never npm.");
    await screenshot(page, "desktop-memory-form");
    await page.click(tid("memory-form-save"));
    await row(page, "uses-pnpm").waitFor();
    await row(page, "uses-pnpm").locator(tid("memory-edit")).click();
    assertEquals(await page.inputValue(tid("memory-form-title")), "Uses pnpm");
    await page.fill(tid("memory-form-body"), "pnpm only (v9).");
    await page.click(tid("memory-form-save"));
    await page.locator(tid("memory-form")).waitFor({ state: "detached" });
    assertMatch(await row(page, "uses-pnpm").innerText(), /pnpm only \(v9\)/);

    // Search (FTS on the server).
    await page.fill(tid("memory-search"), "imperative");
    await page.waitForFunction(() =>
      document.querySelectorAll("[data-testid=memory-row]").length === 1
    );
    await row(page, "prefers-small-commits").waitFor();
    await page.fill(tid("memory-search"), "");
    await page.waitForFunction(() =>
      document.querySelectorAll("[data-testid=memory-row]").length === 3
    );

    // Project tab: the project's own memory.
    await page.click(tid("memory-tab-project"));
    assertEquals(await page.inputValue(tid("memory-project")), "", "the default project first");
    await page.locator(tid("memory-empty")).waitFor();
    await page.selectOption(tid("memory-project"), folder);
    await row(page, "tests-run-with-deno-task-test").waitFor();
    await page.click(tid("memory-tab-global"));
    await row(page, "uses-pnpm").waitFor();

    // Delete one (two steps), then wipe the rest (two steps): all moved to the trash.
    await row(page, "uses-pnpm").locator(tid("memory-delete")).click();
    await page.click(tid("memory-delete-confirm"));
    await row(page, "uses-pnpm").waitFor({ state: "detached" });
    await page.click(tid("memory-wipe"));
    assertMatch(await page.locator(".inline-confirm").innerText(), /all 3 memories/);
    await page.click(tid("memory-wipe-confirm"));
    await page.locator(tid("memory-empty")).waitFor();
    const trash = [...Deno.readDirSync(`${server.home}/memory/.trash/global`)].map((e) => e.name);
    assert(trash.some((n) => n.endsWith("-uses-pnpm.md")), trash.join(","));
    const wiped = trash.find((n) => n.startsWith("wipe-"))!;
    assertEquals(
      [...Deno.readDirSync(`${server.home}/memory/.trash/global/${wiped}`)].map((e) => e.name)
        .sort(),
      ["answer-in-english.md", "broken-by-hand.md", "prefers-small-commits.md"],
    );
    assertEquals(
      await Deno.readTextFile(`${server.home}/memory/.trash/global/${wiped}/broken-by-hand.md`),
      CORRUPT,
      "the corrupt file was moved, not rewritten",
    );
  });
});

Deno.test("Memory page (phone): no horizontal scroll, touchable actions", async () => {
  await withPage(PHONE, async (page, server) => {
    const folder = await seed(server);
    await openApp(page, server.url);
    await openMemory(page, true);
    await noHorizontalScroll(page, PHONE.width);
    const accept = row(page, "prefers-small-commits").locator(tid("memory-accept"));
    const box = await accept.boundingBox();
    assert(box && box.height >= 36, `touch target ${box?.height}`);
    await screenshot(page, "phone-memory-page");
    await page.click(tid("memory-tab-project"));
    await page.selectOption(tid("memory-project"), folder);
    await row(page, "tests-run-with-deno-task-test").waitFor();
    await noHorizontalScroll(page, PHONE.width);
    await screenshot(page, "phone-memory-project");
  });
});

Deno.test("Memory from a turn: the tool's proposal card opens the page; accepted, the next task's reminder lists it", async () => {
  const mock = startMockLlm({ quiet: true });
  mock.register("mem-writer", {
    turns: [
      {
        text: "I will note that.",
        toolCalls: [{
          name: "memory",
          args: {
            action: "write",
            scope: "project",
            title: "Release notes live in CHANGES.md",
            description: "when releasing",
            body: "Write release notes into CHANGES.md at the repository root.",
          },
        }],
      },
      { text: "Noted as a proposal." },
    ],
  });
  mock.register("mem-reader", { turns: [{ text: "Read the reminder." }], repeatLast: true });
  const home = await homeWithProvider(mock.base, ["mem-writer", "mem-reader"], {
    defaultApproval: "full",
  });
  try {
    await withPage(DESKTOP, async (page, server) => {
      await openApp(page, server.url);
      await newDraft(page);
      await pickModel(page, "mock/mem-writer", "mem-writer");
      await send(page, "Where do release notes go?");
      await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
        timeout: 30_000,
      });
      await lastTurn(page).locator("[data-testid=turn-status] button").click();
      const card = page.locator("[data-testid=tool-card][data-tool=memory]");
      await card.locator(tid("memory-card-unreviewed")).waitFor();
      await card.locator(".tool-head").click();
      await screenshot(page, "desktop-memory-card");
      await card.locator(tid("memory-card-open")).click();
      // The page opens on the task's project bucket (the default project here).
      await page.locator(tid("memory-pane")).waitFor();
      const r = row(page, "release-notes-live-in-changes-md");
      await r.waitFor();
      assertEquals(await r.getAttribute("data-unreviewed"), "true");
      await r.locator(tid("memory-accept")).click();
      await page.waitForFunction(() =>
        document.querySelector("[data-id=release-notes-live-in-changes-md]")
          ?.getAttribute("data-unreviewed") === "false"
      );
      await page.click(tid("close-settings"));
      await newDraft(page);
      await pickModel(page, "mock/mem-reader", "mem-reader");
      await send(page, "What do you remember?");
      await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
        timeout: 30_000,
      });
      // The conversation's request (it offers tools); the title's side request may come after.
      const asked = mock.requests("mem-reader").filter((r) => Array.isArray(r.body.tools));
      const sent = JSON.stringify(asked.at(-1)!.body);
      assertMatch(
        sent,
        /release-notes-live-in-changes-md \(project\): Release notes live in CHANGES\.md/,
      );
    }, { home });
  } finally {
    await mock.close();
  }
});
