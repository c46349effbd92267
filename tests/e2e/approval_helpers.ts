/**
 * Shared pieces of the approval browser tests: the mock LLM scenarios (write → read →
 * edit; single writes), two browser contexts (desktop watcher, phone approver) on one
 * server, and small page helpers.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { clickNewTask, watchErrors } from "./browser.ts";
import { pickModel } from "./run_helpers.ts";

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export const NOTES = "# Notes\n\n- one\n- two\n- three\n";
export const NOTES_EDITED = "# Notes\n\n- one\n- TWO\n- three\n";

export function startApprovalMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("approve", {
    turns: [
      { text: "Hello! Ready when you are." },
      {
        text: "I'll write the notes.",
        toolCalls: [{ name: "write_file", args: { path: "notes.md", content: NOTES } }],
      },
      { toolCalls: [{ name: "read_file", args: { path: "notes.md" } }] },
      {
        toolCalls: [{
          name: "edit_file",
          args: { path: "notes.md", old_string: "- two", new_string: "- TWO" },
        }],
      },
      { text: "Done: notes.md is written and updated." },
    ],
    repeatLast: true,
  });
  for (const name of ["alpha", "beta", "gamma"]) {
    mock.register(`write-${name}`, {
      turns: [
        {
          text: `Writing ${name}.txt.`,
          toolCalls: [{ name: "write_file", args: { path: `${name}.txt`, content: `${name}\n` } }],
        },
        { text: `Finished ${name}.` },
      ],
      repeatLast: true,
    });
  }
  return mock;
}

/** A page in a fresh context (own cookies) with its errors collected. */
export async function newPage(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, locale: "en-US" });
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

/** Chooses an approval mode in the composer's menu. */
export async function pickApproval(page: Page, mode: string, label: string): Promise<void> {
  await page.click("[data-testid=approval-select]");
  await page.click(`[data-testid=approval-option][data-value=${mode}]`);
  await page.locator("[data-testid=approval-select-menu]").waitFor({ state: "detached" });
  const shown = page.locator("[data-testid=approval-label]");
  if (await shown.isVisible()) {
    // The label follows the choice in the next render: give it that moment, then check.
    await shown.filter({ hasText: label }).waitFor({ timeout: 5_000 }).catch(() => {});
    assertEquals(await shown.innerText(), label);
  }
}

/** Starts a task from the draft with a model in ask mode; returns its id. */
export async function startAskTask(page: Page, model: string, text: string): Promise<string> {
  await clickNewTask(page);
  await page.waitForSelector("[data-testid=empty-state]");
  await pickModel(page, `mock/${model}`, model);
  await pickApproval(page, "ask", "Ask");
  const input = page.locator("[data-testid=composer-input]");
  await input.fill(text);
  await input.press("Enter");
  await page.waitForURL(/#\/t\/[A-Za-z0-9_-]+$/);
  return page.url().split("#/t/")[1];
}

/** The tool card of `tool` in the last turn (the last one when there are several). */
export const card = (page: Page, tool: string): Locator =>
  page.locator("[data-testid=turn]").last()
    .locator(`[data-testid=tool-card][data-tool=${tool}]`).last();

/** Asserts every matched element is at least 44×44 px (phone touch targets). */
export async function bigTargets(list: Locator): Promise<void> {
  const n = await list.count();
  assert(n > 0, "no targets found");
  for (let i = 0; i < n; i++) {
    const box = await list.nth(i).boundingBox();
    assert(box && box.width >= 44 && box.height >= 44, `target < 44 px: ${JSON.stringify(box)}`);
  }
}

export async function waitForFile(path: string, want: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let got = "";
  while (Date.now() < deadline) {
    got = await Deno.readTextFile(path).catch(() => "");
    if (got === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assertEquals(got, want, `${path} content`);
}
