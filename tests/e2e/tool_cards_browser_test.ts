/**
 * Tool cards by kind (SPEC §7.4) in a real (headless) Chromium against the real server
 * and the mock LLM: a command (exit code badge, output, sandbox), glob and grep (hit
 * counts), a refused webfetch (failure expanded with the error), list/read chips —
 * on desktop and phone. Screenshots: desktop-tools-*.png, phone-tools-*.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { card, DESKTOP, PHONE } from "./approval_helpers.ts";

const opts = { sanitizeResources: false, sanitizeOps: false };
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
  return mock;
}

async function seedHome(base: string, models: string[]): Promise<string> {
  const home = await homeWithMockProvider(base, models, {});
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

Deno.test("tool cards (desktop): command, search, web, read and list", opts, async () => {
  const mock = startKindsMock();
  const home = await seedHome(mock.base, ["kinds"]);
  try {
    await withPage(DESKTOP, async (page, server) => {
      await runKinds(page, server.url);
      const turn = lastTurn(page);

      // The failing command starts expanded: exit badge, output, working folder, sandbox.
      const failing = turn.locator("[data-testid=tool-card][data-tool=exec_command]").first();
      assertEquals(await failing.locator("[data-testid=exit-badge]").innerText(), "exit 3");
      assertMatch(await failing.locator("[data-testid=tool-arg]").innerText(), /\$printf 'one/);
      assertEquals(await failing.locator("[data-testid=exec-output]").innerText(), "one\ntwo");
      assertMatch(await failing.locator("[data-testid=exec-sandbox]").innerText(), /^sandbox: \S/);
      const quiet = turn.locator("[data-testid=tool-card][data-tool=exec_command]").nth(1);
      assertEquals(await quiet.locator("[data-testid=exit-badge]").innerText(), "exit 0");
      assertEquals(await quiet.locator("[data-testid=exec-output]").count(), 0, "ok: collapsed");
      await quiet.locator(".tool-head").click();
      assertEquals(await quiet.locator("[data-testid=exec-output]").innerText(), "No output.");

      // Searches: pattern and hit counts.
      assertEquals(await card(page, "glob").locator("[data-testid=tool-count]").innerText(), "2 files");
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
    }, { home });
  } finally {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("tool cards (phone 390×844): no horizontal scroll, output box follows the tail", opts, async () => {
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
      await out.waitFor();
      const pos = await out.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
      assert(pos < 2, `output box not at its tail (${pos} px above)`);
      assert(await out.evaluate((el) => el.scrollHeight > el.clientHeight), "box does not scroll");
      await noHorizontalScroll(page, PHONE.width);
      await screenshot(page, "phone-tools-exec");
    }, { home });
  } finally {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
});
