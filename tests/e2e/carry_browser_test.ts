/**
 * Export and import in a real (headless) Chromium against the real server: the task
 * menu exports the open task as Markdown and JSON (real downloads), Settings → Import &
 * backup counts the Claude Code and Codex sessions on the server's machine (the CLIs'
 * own fixture files), imports them (a second time: already here), imports an export
 * file through the file picker and downloads the backup. Desktop 1280×800 and phone
 * 390×844, screenshots in test-output/screenshots/.
 */
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { ROOT } from "../helpers/server.ts";
import { Store } from "../../store/store.ts";
import { drawerShown, noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { EXPORT_KIND } from "../../protocol/carry.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const tid = (id: string) => `[data-testid=${id}]`;

/** A data dir with one task, and Claude Code / Codex session folders beside it. */
async function setup(): Promise<{ home: string; tools: string; env: Record<string, string> }> {
  const home = await Deno.makeTempDir({ prefix: "ra-carry-ui-" });
  const tools = await Deno.makeTempDir({ prefix: "ra-carry-tools-" });
  for (const [from, to] of [["claude", "claude/projects"], ["codex", "codex/sessions"]]) {
    await Deno.mkdir(`${tools}/${to}`, { recursive: true });
    await new Deno.Command("cp", {
      args: ["-a", `${ROOT}tests/fixtures/carry/${from}/.`, `${tools}/${to}`],
    }).output();
  }
  const store = new Store(`${home}/reinagent.db`);
  const r = store.repos!;
  r.tasks.create({ id: "tcarryui1", title: "Carry demo", projectPath: null });
  r.entries.append({
    id: "mcarryui1",
    taskId: "tcarryui1",
    role: "user",
    status: "done",
    parts: [{ type: "text", text: "Summarise the repository" }],
  });
  r.entries.append({
    id: "mcarryui2",
    taskId: "tcarryui1",
    role: "assistant",
    status: "done",
    parts: [{ type: "text", text: "It holds twenty modules. UI-EXPORT-DONE" }],
    meta: { model: "mock/m1", usage: { input: 12, output: 7, cacheRead: 0, cacheWrite: 0 } },
  });
  store.close();
  return {
    home,
    tools,
    // The server looks where each tool keeps its sessions (their own variables).
    env: {
      CLAUDE_CONFIG_DIR: `${tools}/claude`,
      CODEX_HOME: `${tools}/codex`,
      PI_CODING_AGENT_DIR: `${tools}/pi`,
      XDG_DATA_HOME: `${tools}/xdg`,
    },
  };
}

async function download(
  page: Page,
  click: () => Promise<void>,
): Promise<{ name: string; text: string }> {
  const [d] = await Promise.all([page.waitForEvent("download"), click()]);
  const path = await d.path();
  return { name: d.suggestedFilename(), text: await Deno.readTextFile(path!) };
}

async function openDataTab(page: Page, phone: boolean) {
  if (phone) {
    await page.click(tid("open-drawer"));
    await drawerShown(page);
  }
  await page.click(tid("open-settings"));
  await page.click(tid("settings-tab-data"));
  await page.waitForSelector(`${tid("carry-count-claude-code")} >> text="1 session"`);
  await page.waitForSelector(`${tid("carry-count-codex")} >> text="1 session"`);
}

const otherExport = JSON.stringify({
  kind: EXPORT_KIND,
  version: 1,
  exportedAt: 0,
  app: { name: "ReinAgent", version: "0" },
  tasks: [{
    id: "tfromlaptop",
    title: "From the laptop",
    projectPath: null,
    pinned: false,
    lastRun: "done",
    settings: {},
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    entries: [{
      id: "mfromlaptop1",
      taskId: "tfromlaptop",
      pos: 1,
      role: "user",
      status: "done",
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
      parts: [{ type: "text", text: "hello from the laptop" }],
      meta: {},
    }],
    attachments: [],
  }],
});

Deno.test(
  "carry (desktop): task menu exports, Settings imports Claude Code / Codex sessions and files, backup",
  async () => {
    const s = await setup();
    try {
      await withPage(DESKTOP, async (page, server) => {
        await openApp(page, server.url);
        await page.click(`${tid("task-row")}[data-task-id=tcarryui1] .task-open`);
        await page.waitForSelector(`text=UI-EXPORT-DONE`);
        await page.click(tid("task-menu"));
        await page.waitForSelector(tid("export-md"));
        await screenshot(page, "desktop-carry-task-menu");
        const md = await download(page, () => page.click(tid("export-md")));
        assertEquals(md.name, "carry-demo.md");
        assertMatch(md.text, /^## Carry demo/);
        assertMatch(md.text, /UI-EXPORT-DONE/);
        await page.click(tid("task-menu"));
        const json = await download(page, () => page.click(tid("export-json")));
        const bundle = JSON.parse(json.text);
        assertEquals([bundle.kind, bundle.tasks[0].entries.length], [EXPORT_KIND, 2]);
        assertEquals(bundle.tasks[0].entries[1].meta.usage.output, 7);

        await openDataTab(page, false);
        await screenshot(page, "desktop-carry-settings");
        await page.click(tid("carry-from-claude-code"));
        await page.waitForSelector(`${tid("carry-outcome")} >> text=Claude Code: 1 new,`);
        await page.waitForSelector(
          `${tid("task-row")} >> text=Read the modules in src/ and tell me what each one exports.`,
        );
        await page.click(tid("carry-from-codex"));
        await page.waitForSelector(`${tid("carry-outcome")} >> text=Codex: 1 new,`);
        // The imported session reads like a conversation here: its tool calls as tool cards.
        await page.click(`${tid("task-row")} >> text=Read the modules in src/ >> nth=0`);
        await page.waitForSelector("text=FIXTURE-DONE");
        await page.click("text=Worked");
        await page.waitForSelector("text=ls src");
        await screenshot(page, "desktop-carry-imported-session");
        await openDataTab(page, false);
        await page.click(tid("carry-from-codex"));
        await page.waitForSelector(
          `${tid("carry-outcome")} >> text=0 new, 0 updated, 1 already here`,
        );

        await page.setInputFiles(tid("carry-import-file-input"), {
          name: "laptop.json",
          mimeType: "application/json",
          buffer: Buffer.from(otherExport),
        });
        await page.waitForSelector(`${tid("carry-outcome")} >> text=laptop.json: 1 new,`);
        await page.waitForSelector(`${tid("task-row")} >> text=From the laptop`);
        await page.setInputFiles(tid("carry-import-file-input"), {
          name: "broken.json",
          mimeType: "application/json",
          buffer: Buffer.from("{nope"),
        });
        await page.waitForSelector(`${tid("carry-outcome")}[role=alert] >> text=not JSON`);
        await screenshot(page, "desktop-carry-settings-error");

        const backup = await download(page, () => page.click(tid("backup-download")));
        assertMatch(backup.name, /^reinagent-backup-\d{4}-\d\d-\d\d\.json$/);
        assertEquals(JSON.parse(backup.text).manifest.kind, "reinagent-backup");
        await page.setInputFiles(tid("backup-restore-file-input"), {
          name: "backup.json",
          mimeType: "application/json",
          buffer: Buffer.from(backup.text),
        });
        await page.waitForSelector(`${tid("carry-outcome")} >> text=Restored`);
        await page.locator(tid("carry-outcome")).scrollIntoViewIfNeeded();
        await screenshot(page, "desktop-carry-restored");
      }, { home: s.home, env: s.env });
    } finally {
      await Deno.remove(s.home, { recursive: true }).catch(() => {});
      await Deno.remove(s.tools, { recursive: true });
    }
  },
);

Deno.test(
  "carry (phone): export from the Workbench sheet; Import & backup fits 390 px",
  async () => {
    const s = await setup();
    try {
      await withPage(PHONE, async (page, server) => {
        await openApp(page, server.url);
        await page.evaluate(() => location.hash = "#/t/tcarryui1");
        await page.waitForSelector(`text=UI-EXPORT-DONE`);
        // No room for one more header button on a phone: the Workbench sheet has the items.
        const plus = await page.locator(tid("header-new-task")).boundingBox();
        assert(
          plus && plus.x + plus.width <= PHONE.width,
          `the header overflows: ${JSON.stringify(plus)}`,
        );
        assertEquals(await page.locator(tid("task-menu")).isVisible(), false);
        await page.click(tid("open-workbench"));
        await page.waitForSelector(tid("export-json"));
        await screenshot(page, "phone-carry-task-menu");
        const md = await download(page, () => page.click(tid("export-md")));
        assertMatch(md.text, /UI-EXPORT-DONE/);
        await noHorizontalScroll(page, PHONE.width);

        await openDataTab(page, true);
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-carry-settings");
        await page.click(tid("carry-from-codex"));
        await page.waitForSelector(`${tid("carry-outcome")} >> text=Codex: 1 new,`);
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-carry-imported");
        await page.locator(tid("webdav-url")).scrollIntoViewIfNeeded();
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-carry-backup");
      }, { home: s.home, env: s.env });
    } finally {
      await Deno.remove(s.home, { recursive: true }).catch(() => {});
      await Deno.remove(s.tools, { recursive: true });
    }
  },
);
