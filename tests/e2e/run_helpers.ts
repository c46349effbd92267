/**
 * Shared pieces of the run browser tests: the mock LLM scenarios (a rich turn with
 * thinking, a tool call and a Markdown answer; a slow stream; a 401), the workspace
 * files, and page helpers (draft, model choice, send, dangerous hrefs).
 */
import { clickNewTask } from "./browser.ts";
import type { Locator, Page } from "playwright-core";
import { assertEquals } from "../helpers/assert.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";

export const FINAL_MD = [
  "## Summary",
  "",
  "The folder has **two** files:",
  "",
  "| File | Size |",
  "|:--|--:|",
  "| notes.md | 12 B |",
  "| app.ts | 40 B |",
  "",
  "```ts",
  'console.log("hi");',
  "```",
  "",
  "- [x] listed",
  "- [ ] read",
  "",
  "See [the docs](https://example.com/docs), [this](javascript:alert(1)),",
  "[that](JaVaScRiPt:alert(3)) and <script>alert(2)</script>.",
].join("\n");

/** The gate of the rich model's final answer (see `MockTurn.hold`). */
export const RICH_GATE = "rich-final";

export function startMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("rich", {
    turns: [
      {
        thinking: "I should look at the folder first, then answer.",
        text: "Let me list the workspace.",
        toolCalls: [
          { name: "list_dir", args: { path: "." } },
          { name: "read_file", args: { path: "missing.md" } },
        ],
        chunk: 6,
      },
      // Held after its first frame until the test opens RICH_GATE: the run is surely
      // still going while the test looks at it live.
      {
        thinking: "Now I can write the answer.",
        text: FINAL_MD,
        chunk: 8,
        hold: { gate: RICH_GATE },
      },
    ],
    repeatLast: true,
  });
  mock.register("slow", { turns: [{ text: "tick ".repeat(600), chunk: 5, delayMs: 20 }] });
  mock.register("flaky", {
    turns: [{ fail: { status: 503, message: "overloaded", times: 4 }, text: "Recovered." }],
  });
  mock.register("unauthorized", { turns: [{ fail: { status: 401, message: "invalid api key" } }] });
  return mock;
}

export const WORKSPACE = { "notes.md": "hello notes\n", "app.ts": "console.log('app');\n" };

export const lastTurn = (page: Page) => page.locator("[data-testid=turn]").last();
export const strip = (turn: Locator) => turn.locator("[data-testid=turn-status]");

export async function newDraft(page: Page): Promise<void> {
  await clickNewTask(page);
  await page.waitForSelector("[data-testid=empty-state]");
}

export async function pickModel(page: Page, value: string, label: string): Promise<void> {
  await page.click("[data-testid=model-select]");
  await page.locator("[data-testid=model-select-menu]").waitFor();
  await page.click(`[data-testid=model-option][data-value="${value}"]`);
  await page.locator("[data-testid=model-select-menu]").waitFor({ state: "detached" });
  // In a task the label follows the server's answer to the settings change (a loaded
  // machine may take a moment): wait for it, then say what it shows if it never came.
  const shown = page.locator("[data-testid=model-label]");
  await page.locator("[data-testid=model-label]", { hasText: label }).waitFor({ timeout: 5000 })
    .catch(() => {});
  assertEquals(await shown.innerText(), label);
}

export async function send(page: Page, text: string): Promise<void> {
  const input = page.locator("[data-testid=composer-input]");
  await input.fill(text);
  await input.press("Enter");
  await page.waitForSelector(`[data-testid=entry][data-role=user] >> text=${text}`);
}

/** Every href on the page that is a script or data URL (must stay empty). */
export const dangerousHrefs = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("[href]")].map((a) => a.getAttribute("href") ?? "")
      // Browsers skip whitespace and control characters inside a scheme.
      // deno-lint-ignore no-control-regex
      .filter((h) => /^(javascript|data|vbscript):/i.test(h.replace(/[\s\u0000-\u001f]/g, "")))
  );

/** Waits until the live turn's streaming entry shows more than `chars` characters. */
export async function streamed(page: Page, chars: number): Promise<void> {
  await page.waitForFunction((n) => {
    const turns = document.querySelectorAll("[data-testid=turn]");
    const el = turns[turns.length - 1]?.querySelector(".process-entry");
    return (el?.textContent?.length ?? 0) > n;
  }, chars);
}

/** The rendered FINAL_MD: heading, aligned table, code block, task list, safe links. */
export async function checkRichAnswer(final: Locator): Promise<void> {
  assertEquals(await final.locator("h2").innerText(), "Summary");
  assertEquals(await final.locator("table th").allInnerTexts(), ["File", "Size"]);
  assertEquals(await final.locator("table td").first().innerText(), "notes.md");
  assertEquals(
    await final.locator("table td").nth(1).evaluate((el) => getComputedStyle(el).textAlign),
    "right",
  );
  assertEquals(
    await final.locator("[data-testid=code-block] code").innerText(),
    'console.log("hi");',
  );
  assertEquals(await final.locator("[data-testid=code-block]").getAttribute("data-lang"), "ts");
  assertEquals(await final.locator("input[type=checkbox]:checked").count(), 1);
  const docs = final.locator("a", { hasText: "the docs" });
  assertEquals(await docs.getAttribute("href"), "https://example.com/docs");
  assertEquals(await docs.getAttribute("target"), "_blank");
  assertEquals(await docs.getAttribute("rel"), "noopener noreferrer");
  assertEquals(await final.locator("a").count(), 1, "only the https link is a link");
}

/**
 * Keyboard use of an open menu: focus starts on the checked item (`checked`), ArrowDown
 * moves to the next one (`next`), Esc closes and gives focus back to the button.
 */
export async function checkMenuKeyboard(
  page: Page,
  testid: string,
  checked: string,
  next: string,
): Promise<void> {
  const focused = (attr: string) =>
    page.evaluate((a) => document.activeElement?.getAttribute(a), attr);
  assertEquals(await focused("data-value"), checked);
  await page.keyboard.press("ArrowDown");
  assertEquals(await focused("data-value"), next);
  await page.keyboard.press("Escape");
  await page.locator(`[data-testid=${testid}-menu]`).waitFor({ state: "detached" });
  assertEquals(await focused("data-testid"), testid);
}
