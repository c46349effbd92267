/**
 * Compaction in a real (headless) Chromium against the real server and the mock LLM,
 * on desktop (1280×800) and phone (390×844): the context panel says when the task
 * compacts by itself and offers "Compact now"; the band "Compacted N messages" appears
 * with its facts and the summary; the stats line counts it; `/compact <focus>` from the
 * composer answers with the numbers; the request preview shows the next request. Screenshots:
 * test-output/screenshots/{desktop,phone}-compaction-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { pickModel, send } from "./run_helpers.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const tid = (id: string) => `[data-testid=${id}]`;
const SUMMARY = "The user asked three questions; all were answered.";

async function flow(
  page: Page,
  url: string,
  mock: ReturnType<typeof startMockLlm>,
  prefix: string,
) {
  await openApp(page, url);
  await pickModel(page, "mock/echo", "echo");
  const finished = async (n: number) => {
    await page.waitForFunction(
      ([sel, want]) => document.querySelectorAll(sel as string).length >= (want as number),
      [`${tid("turn-status")}[data-state=done]`, n],
    );
  };
  let turns = 0;
  for (const q of ["first question", "second question", "third question"]) {
    await send(page, q);
    await finished(++turns);
  }

  // The panel: when it compacts by itself (window 128K declared) and "Compact now".
  await page.click(tid("context-ring"));
  await page.locator(tid("context-panel")).waitFor();
  const at = page.locator(tid("context-compact-at"));
  await at.waitFor();
  assertEquals(await at.getAttribute("data-window-known"), "true");
  assertMatch(await at.innerText(), /^Compacts by itself at ~86\.8K tokens\.$/);
  await screenshot(page, `${prefix}-compaction-panel`);

  // The request preview: the exact next request, as parts and as the wire JSON.
  await page.click(tid("open-request-preview"));
  const dialog = page.locator(tid("request-preview"));
  await dialog.locator(tid("preview-parts")).waitFor();
  assertMatch(
    await dialog.locator(tid("preview-meta")).innerText(),
    /^mock\/echo · openai-chat-completions · 6 messages · ~/,
  );
  const parts = dialog.locator(tid("preview-part"));
  assertEquals(await parts.count(), 8, "system + tools + 6 messages");
  assert((await parts.nth(2).innerText()).includes("<system-reminder>"), "no reminder");
  await screenshot(page, `${prefix}-request-preview`);
  await dialog.locator(tid("preview-tab-json")).click();
  const raw = JSON.parse(await dialog.locator(tid("preview-json")).innerText());
  assertEquals(raw.model, "echo");
  assertEquals(raw.messages.length, 7, "system + 6 messages");
  await page.click(tid("preview-close"));
  await dialog.waitFor({ state: "detached" });
  if (!(await page.locator(tid("context-panel")).isVisible())) {
    await page.click(tid("context-ring"));
  }
  await page.click(tid("compact-now"));
  const band = page.locator(tid("compact-band"));
  await band.waitFor();
  const count = Number(await band.getAttribute("data-count"));
  assert(count >= 2, `compacted ${count}`);
  assertEquals(await band.getAttribute("data-trigger"), "manual");
  assertEquals(await band.locator(".compact-label").innerText(), `COMPACTED ${count} MESSAGES`);
  await page.keyboard.press("Escape");
  await band.locator(".compact-head").click();
  await band.locator(tid("compact-summary")).waitFor();
  assert((await band.locator(tid("compact-summary")).innerText()).includes(SUMMARY));
  assertMatch(await band.locator(tid("compact-facts")).innerText(), /on request · prompt ~\d/);
  assertMatch(
    await page.locator(`${tid("stats-line")} [data-stat=compactions]`).innerText(),
    /^1 compaction \(/,
  );
  const notice = await page.locator(tid("command-notice")).innerText();
  assertMatch(notice, new RegExp(`Compacted ${count} messages \\(about \\d+ → \\d+ tokens`));
  await noHorizontalScroll(page, (await page.viewportSize())!.width);
  await screenshot(page, `${prefix}-compaction-band`);

  // The summary request: the same system prompt as the turns, the instruction last.
  const reqs = mock.requests("echo");
  const summaryReq = reqs.find((r) => JSON.stringify(r.body).includes("[Compaction]"))!;
  // (Title requests have no tools: they are not turns.)
  const turnReq = reqs.find((r) =>
    Array.isArray(r.body.tools) && !JSON.stringify(r.body).includes("[Compaction]")
  )!;
  const sys = (r: typeof turnReq) => (r.body.messages as { content: unknown }[])[0].content;
  assertEquals(sys(summaryReq), sys(turnReq));
  assertEquals(summaryReq.body.tools, turnReq.body.tools);

  // The next message goes out with the summary, not the compacted messages.
  await send(page, "fourth question");
  await finished(++turns);
  const next = JSON.stringify(mock.requests("echo").at(-1)!.body);
  assert(next.includes(SUMMARY), "the summary is not sent");
  assert(!next.includes("first question"), "a compacted message is still sent");

  // /compact with a focus, typed in the composer.
  const input = page.locator(tid("composer-input"));
  await input.fill("/compact the questions");
  await input.press("Enter");
  await page.locator(tid("compact-band")).nth(1).waitFor();
  assertMatch(await page.locator(tid("command-notice")).innerText(), /Compacted \d+ messages/);
  const last = JSON.stringify(mock.requests("echo").at(-1)!.body);
  assert(last.includes("Focus the summary on: the questions"), "the focus was not sent");
  await screenshot(page, `${prefix}-compaction-command`);
}

for (const [prefix, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  Deno.test(`compaction: Compact now, the band, /compact (${prefix})`, async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("echo", {
      turns: [{ text: "Here is a careful answer." }],
      repeatLast: true,
      match: [{ lastIncludes: "[Compaction]", turn: { text: SUMMARY } }],
    });
    try {
      const home = await homeWithMockProvider(mock.base, ["echo"]);
      await withPage(viewport, (page, server) => flow(page, server.url, mock, prefix), { home });
    } finally {
      await mock.close();
    }
  });
}
