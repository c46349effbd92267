/**
 * Search dialog snippets show Markdown as the text a reader sees:
 * no `**`, backticks, `#` or link targets, the match still marked. Real (headless)
 * Chromium against the real server; desktop 1280×800 (Ctrl+K) and phone 390×844
 * (the drawer's search). Screenshots: test-output/screenshots/*-search-snippets.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { Store } from "../../store/store.ts";
import { openApp, screenshot, withPage } from "./browser.ts";

const tid = (id: string) => `[data-testid=${id}]`;

const ANSWER = [
  "## Findings",
  "",
  "The **kumquat** harvest uses `kumquat_sort()` — see [the notes](https://example.com/notes).",
  "",
  "- [x] *washed* kumquat crates",
].join("\n");

async function seedHome(): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "ra-snippets-" });
  await Deno.mkdir(`${home}/DefaultProject`);
  const store = new Store(`${home}/reinagent.db`);
  const r = store.repos!;
  r.tasks.create({ id: "tmd", title: "Harvest report", projectPath: null });
  r.entries.append({
    id: "mu",
    taskId: "tmd",
    role: "user",
    status: "done",
    parts: [{ type: "text", text: "How did the **harvest** go?" }],
  });
  r.entries.append({
    id: "ma",
    taskId: "tmd",
    role: "assistant",
    status: "done",
    parts: [{ type: "text", text: ANSWER }],
    meta: { startedAt: 1, endedAt: 2 },
  });
  store.close();
  return home;
}

async function check(page: Page, url: string, phone: boolean): Promise<void> {
  await openApp(page, url);
  if (phone) {
    await page.click(tid("open-drawer"));
    await page.click(tid("open-search"));
  } else {
    await page.locator("body").click({ position: { x: 700, y: 300 } });
    await page.keyboard.press("Control+k");
  }
  await page.locator(tid("search-dialog")).waitFor();
  await page.fill(tid("search-input"), "kumquat");
  const snippet = page.locator(`${tid("search-snippet")}[data-snippet-entry=ma]`);
  await snippet.waitFor();
  const text = await snippet.locator(".search-snippet-text").innerText();
  for (const raw of ["**", "`", "](", "##", "[x]", "*washed*"]) {
    assert(!text.includes(raw), `snippet shows Markdown "${raw}": ${text}`);
  }
  assert(text.includes("The kumquat harvest uses kumquat_sort()"), text);
  assertEquals(await snippet.locator(".search-mark").first().innerText(), "kumquat");
  await page.fill(tid("search-input"), "harvest");
  const user = page.locator(`${tid("search-snippet")}[data-snippet-entry=mu]`);
  await user.waitFor();
  assertEquals(await user.locator(".search-snippet-text").innerText(), "How did the harvest go?");
  assertEquals(await user.locator(".search-mark").innerText(), "harvest");
  await screenshot(page, `${phone ? "phone" : "desktop"}-search-snippets`);
}

Deno.test("search snippets (desktop): Markdown shown as text, match marked", async () => {
  const home = await seedHome();
  try {
    await withPage({ width: 1280, height: 800 }, (page, s) => check(page, s.url, false), { home });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test(
  "search snippets (phone 390×844): Markdown shown as text, match marked",
  async () => {
    const home = await seedHome();
    try {
      await withPage({ width: 390, height: 844 }, (page, s) => check(page, s.url, true), { home });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
);
