/**
 * Tool cards by kind in a real (headless) Chromium against the real server
 * and the mock LLM: a command (exit code badge, output, sandbox), glob and grep (hit
 * counts), a refused webfetch (failure expanded with the error), list/read chips —
 * on desktop and phone. Screenshots: desktop-tools-*.png, phone-tools-*.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { card, DESKTOP, PHONE } from "./approval_helpers.ts";

const FILES = { "notes.md": "hello notes\nsecond line\n", "docs/guide.md": "say hello\n" };

function startKindsMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("kinds", {
    turns: [
      {
        text: "Looking around.",
        toolCalls: [
          { id: "k1", name: "list_dir", args: { path: "." } },
          { id: "k2", name: "read_file", args: { path: "notes.md", offset: 2, limit: 1 } },
          { id: "k3", name: "glob", args: { pattern: "**/*.md" } },
          { id: "k4", name: "grep", args: { pattern: "hello", include: "*.md" } },
        ],
      },
      {
        toolCalls: [
          { id: "k5", name: "exec_command", args: { command: "printf 'one\\ntwo\\n'; exit 3" } },
          { id: "k6", name: "exec_command", args: { command: "true" } },
          { id: "k7", name: "webfetch", args: { url: "https://127.0.0.1/secret" } },
        ],
      },
      { text: "All done." },
    ],
    repeatLast: true,
  });
  const big = Array.from({ length: 120 }, (_, i) => `line ${i + 1} of the big file`).join("\n");
  mock.register("stream-write", {
    turns: [
      {
        toolCalls: [{ name: "write_file", args: { path: "big.txt", content: big + "\n" } }],
        chunk: 40,
        delayMs: 15,
      },
      { text: "Wrote it." },
    ],
    repeatLast: true,
  });
  return mock;
}

async function seedHome(base: string, models: string[]): Promise<string> {
  // The cards are under test, not the approval gate: commands run without asking.
  const home = await homeWithProvider(base, models, { defaultApproval: "full" });
  await Deno.mkdir(`${home}/DefaultProject/docs`, { recursive: true });
  for (const [name, text] of Object.entries(FILES)) {
    await Deno.writeTextFile(`${home}/DefaultProject/${name}`, text);
  }
  return home;
}

async function runKinds(page: import("playwright-core").Page, url: string): Promise<void> {
  await openApp(page, url);
  await pickModel(page, "mock/kinds", "kinds");
  await send(page, "Show me every kind of card");
  await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({ timeout: 20_000 });
  await lastTurn(page).locator("[data-testid=turn-status] button").click();
  await card(page, "exec_command").waitFor();
}

Deno.test("tool cards (desktop): command, search, web, read and list", async () => {
  const mock = startKindsMock();
  const home = await seedHome(mock.base, ["kinds", "stream-write"]);
  try {
    await withPage(DESKTOP, async (page, server) => {
      await runKinds(page, server.url);
      const turn = lastTurn(page);

      // The failing command starts expanded: exit badge, output, working folder, sandbox.
      const failing = turn.locator("[data-testid=tool-card][data-tool=exec_command]").first();
      assertEquals(await failing.locator("[data-testid=exit-badge]").innerText(), "exit 3");
      assertMatch(await failing.locator("[data-testid=tool-arg]").innerText(), /^\$printf 'one/);
      assertEquals(await failing.locator("[data-testid=exec-output]").innerText(), "one\ntwo");
      assertMatch(await failing.locator("[data-testid=exec-sandbox]").innerText(), /^sandbox: \S/);
      const quiet = turn.locator("[data-testid=tool-card][data-tool=exec_command]").nth(1);
      assertEquals(await quiet.locator("[data-testid=exit-badge]").innerText(), "exit 0");
      assertEquals(await quiet.locator("[data-testid=exec-output]").count(), 0, "ok: collapsed");
      await quiet.locator(".tool-head").click();
      assertEquals(await quiet.locator("[data-testid=exec-output]").innerText(), "No output.");

      // Searches: pattern and hit counts.
      assertEquals(
        await card(page, "glob").locator("[data-testid=tool-count]").innerText(),
        "2 files",
      );
      assertEquals(
        await card(page, "grep").locator("[data-testid=tool-count]").innerText(),
        "2 matches in 2 files",
      );
      assertMatch(await card(page, "grep").locator("[data-testid=tool-arg]").innerText(), /hello/);

      // A refused fetch: failed, expanded with the SSRF error.
      const web = card(page, "webfetch");
      assertEquals(await web.getAttribute("data-status"), "failed");
      assertMatch(await web.locator("[data-testid=tool-output]").innerText(), /Blocked/);

      // Read and list: chips with the line range and the entry count.
      const read = card(page, "read_file");
      assertEquals(await read.locator("[data-testid=file-label]").innerText(), "lines 2–2 of 2");
      const list = card(page, "list_dir");
      assertEquals(await list.locator("[data-testid=tool-arg]").innerText(), ".");
      assertEquals(await list.locator("[data-testid=tool-count]").innerText(), "2 entries");
      await screenshot(page, "desktop-tools-kinds");

      // A write whose arguments stream slowly shows how much has arrived, then its diff.
      await page.click("[data-testid=new-task]");
      await pickModel(page, "mock/stream-write", "stream-write");
      await send(page, "Write a big file");
      const receiving = card(page, "write_file").locator("[data-testid=tool-receiving]", {
        hasText: /^receiving [\d.]+K? chars…$/,
      });
      await receiving.waitFor({ timeout: 15_000 });
      // The path is known before the content has arrived.
      assertEquals(
        await card(page, "write_file").locator("[data-testid=file-chip]").getAttribute("title"),
        "big.txt",
      );
      await screenshot(page, "desktop-tools-receiving");
      await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
        timeout: 20_000,
      });
      await lastTurn(page).locator("[data-testid=turn-status] button").click();
      const big = card(page, "write_file");
      assertEquals(await big.locator("[data-testid=diff-stats]").innerText(), "+120 −0");
      assertEquals(await receiving.count(), 0);
    }, { home });
  } finally {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test(
  "tool cards (phone 390×844): no horizontal scroll, output box follows the tail",
  async () => {
    const mock = startKindsMock();
    mock.register("long", {
      turns: [
        { toolCalls: [{ name: "exec_command", args: { command: "seq 1 400; exit 1" } }] },
        { text: "Counted." },
      ],
      repeatLast: true,
    });
    const home = await seedHome(mock.base, ["kinds", "long"]);
    try {
      await withPage(PHONE, async (page, server) => {
        await runKinds(page, server.url);
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-tools-kinds");
        await page.click("[data-testid=header-new-task]");
        await pickModel(page, "mock/long", "long");
        await send(page, "Count to 400");
        await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
          timeout: 20_000,
        });
        await lastTurn(page).locator("[data-testid=turn-status] button").click();
        const out = card(page, "exec_command").locator("[data-testid=exec-output]");
        const atTail = async (why: string) => {
          await out.waitFor();
          assert(
            await out.evaluate((el) => el.scrollHeight > el.clientHeight),
            "box does not scroll",
          );
          const pos = await out.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
          assert(pos < 2, `${why}: output box not at its tail (${pos} px above)`);
        };
        await atTail("live");
        // Opened later (rendered inside the collapsed turn after a reload): still the tail.
        await page.reload();
        await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor();
        await lastTurn(page).locator("[data-testid=turn-status] button").click();
        await atTail("after reload");
        assertMatch(await out.innerText(), /\n400$/);
        await screenshot(page, "phone-tools-exec");
        // Scrolled up by the reader: it stays there.
        await out.evaluate((el) => el.scrollTop = 0);
        await out.evaluate(() => new Promise((r) => setTimeout(r, 100)));
        assertEquals(await out.evaluate((el) => el.scrollTop), 0);
        await noHorizontalScroll(page, PHONE.width);
      }, { home });
    } finally {
      await mock.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);
