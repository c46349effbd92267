/**
 * Sub-agents in a real (headless) Chromium against the real server and the mock LLM:
 * the agent tool card (type, task, facts) opens the sub-agent's transcript in the
 * right panel as a read-only replay (its tool cards and report, no message actions);
 * a background sub-agent shows in the composer's badge and is stopped from it — on
 * desktop (1280×800) and phone (390×844). Screenshots: *-subagent-*.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { DESKTOP, PHONE } from "./approval_helpers.ts";
import type { Page } from "playwright-core";

/** The `agent` cards of the last turn: 0 = the foreground one, 1 = the background one. */
const agentCard = (page: Page, i: number) =>
  lastTurn(page).locator("[data-testid=tool-card][data-tool=agent]").nth(i);

function startSubagentMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("subs", {
    turns: [
      {
        text: "Delegating.",
        toolCalls: [
          {
            id: "s1",
            name: "agent",
            args: {
              description: "Inspect the notes",
              prompt: "Inspect notes.md and report what it says.",
              subagent_type: "explorer",
            },
          },
          {
            id: "s2",
            name: "agent",
            args: {
              description: "Watch the folder",
              prompt: "Watch slowly: list the folder again and again.",
              subagent_type: "explorer",
              run_in_background: true,
            },
          },
        ],
      },
      { text: "The explorer says notes.md holds a greeting." },
    ],
    repeatLast: true,
    branches: [
      {
        when: "Inspect notes.md",
        turns: [
          {
            thinking: "Read the file.",
            toolCalls: [{ name: "read_file", args: { path: "notes.md" } }],
            usage: { input: 1200, output: 40 },
          },
          {
            text: "**Report**: `notes.md` holds one line, *hello notes*.",
            usage: { input: 1300, output: 30 },
          },
        ],
      },
      {
        when: "Watch slowly",
        turns: [{
          text: "still watching",
          chunk: 2,
          delayMs: 120,
          toolCalls: [{ name: "list_dir", args: { path: "." } }],
        }],
        repeatLast: true,
      },
    ],
  });
  mock.register("subs-ask", {
    turns: [
      {
        toolCalls: [{
          id: "t1",
          name: "agent",
          args: {
            description: "Run the tests",
            prompt: "Run the test command.",
            subagent_type: "test-runner",
          },
        }],
      },
      { text: "The tests pass." },
    ],
    repeatLast: true,
    branches: [{
      when: "Run the test command.",
      turns: [
        { toolCalls: [{ name: "exec_command", args: { command: "echo tests-ok" } }] },
        { text: "1 passed: tests-ok." },
      ],
    }],
  });
  return mock;
}

async function seedHome(base: string): Promise<string> {
  const home = await homeWithProvider(base, ["subs"], { defaultApproval: "full" });
  await Deno.writeTextFile(`${home}/DefaultProject/notes.md`, "hello notes\n");
  return home;
}

/** Sends the prompt, waits for the turn, checks the card and opens its transcript. */
async function runAndOpen(page: Page, url: string, prefix: string): Promise<void> {
  await openApp(page, url);
  await pickModel(page, "mock/subs", "subs");
  await send(page, "Use sub-agents");
  // The background sub-agent is listed in the composer's badge while it runs.
  const badge = page.locator("[data-testid=bg-badge]");
  await badge.waitFor({ timeout: 20_000 });
  assertEquals(await page.locator("[data-testid=bg-badge-count]").innerText(), "1");
  await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({ timeout: 20_000 });
  await lastTurn(page).locator("[data-testid=turn-status] button").click();

  const fg = agentCard(page, 0);
  await fg.waitFor();
  assertEquals(await fg.getAttribute("data-status"), "done");
  assertMatch(
    await fg.locator("[data-testid=tool-arg]").innerText(),
    /explorer\s+Inspect the notes/,
  );
  assertEquals(await fg.locator("[data-testid=subagent-calls]").innerText(), "1 tool call");
  assertMatch(await fg.locator("[data-testid=subagent-facts]").innerText(), /2\.6K tokens/);
  const bg = agentCard(page, 1);
  assertEquals(await bg.locator("[data-testid=subagent-bg]").innerText(), "Background");
  assertMatch(await bg.locator("[data-testid=subagent-state]").innerText(), /Running/);
  await screenshot(page, `${prefix}-subagent-cards`);

  // The transcript: a read-only replay of the sub-agent's turn.
  await fg.locator("[data-testid=subagent-open]").click();
  const panel = page.locator("[data-testid=right-panel][data-kind=subagent]");
  await panel.waitFor();
  const pane = panel.locator("[data-testid=subagent-pane]");
  await pane.waitFor();
  assertEquals(await pane.getAttribute("data-status"), "done");
  await panel.locator("[data-testid=entry][data-role=user]").waitFor();
  assertMatch(
    await panel.locator("[data-testid=entry][data-role=user]").innerText(),
    /Inspect notes\.md and report what it says\./,
  );
  // Finished turns start collapsed: open the process to see its tool card.
  await panel.locator("[data-testid=turn-status] button").click();
  const read = panel.locator("[data-testid=tool-card][data-tool=read_file]");
  await read.waitFor();
  assertEquals(await read.getAttribute("data-status"), "done");
  assertMatch(
    await panel.locator("[data-testid=final-answer]").innerText(),
    /Report: notes\.md holds one line/,
  );
  // Read-only: no edit, rewind, retry or branch.
  assertEquals(await panel.locator("[data-testid=msg-actions]").count(), 0);
  assertEquals(
    await panel.locator("[data-testid=answer-actions], [data-testid=retry-answer]").count(),
    0,
  );
  assertEquals(await panel.locator("[data-testid=subagent-stop]").count(), 0);
  await screenshot(page, `${prefix}-subagent-transcript`);
  await panel.locator("[data-testid=panel-close], [data-testid=panel-back] >> visible=true")
    .click();
  await panel.waitFor({ state: "detached" });
}

/** Stops the background sub-agent from the badge; the badge goes away. */
async function stopFromBadge(page: Page, prefix: string): Promise<void> {
  await page.locator("[data-testid=bg-badge]").click();
  const row = page.locator("[data-testid=bg-row]");
  await row.waitFor();
  assertMatch(await row.innerText(), /explorer\s+Watch the folder/);
  await screenshot(page, `${prefix}-subagent-badge`);
  await row.locator("[data-testid=bg-stop]").click();
  await page.locator("[data-testid=bg-badge]").waitFor({ state: "detached", timeout: 5000 });
  const bg = agentCard(page, 1);
  await bg.locator("[data-testid=subagent-state]", { hasText: "Stopped" }).waitFor();
}

Deno.test(
  "sub-agent card opens its transcript; background badge stops it (desktop)",
  async () => {
    const mock = startSubagentMock();
    const home = await seedHome(mock.base);
    try {
      await withPage(DESKTOP, async (page, server) => {
        await runAndOpen(page, server.url, "desktop");
        await stopFromBadge(page, "desktop");
        // After a reload (a fresh client) the stored transcript still opens.
        await page.reload();
        await lastTurn(page).waitFor();
        await lastTurn(page).locator("[data-testid=turn-status] button").click();
        await agentCard(page, 0).locator("[data-testid=subagent-open]").click();
        await page.locator("[data-testid=subagent-pane][data-status=done]").waitFor();
        assert(
          await page.locator("[data-testid=subagent-transcript] [data-testid=turn]").count() >= 1,
        );
      }, { home });
    } finally {
      await mock.close();
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  },
);

Deno.test(
  "sub-agent card opens its transcript; background badge stops it (phone)",
  async () => {
    const mock = startSubagentMock();
    const home = await seedHome(mock.base);
    try {
      await withPage(PHONE, async (page, server) => {
        await runAndOpen(page, server.url, "phone");
        await noHorizontalScroll(page, PHONE.width);
        await stopFromBadge(page, "phone");
      }, { home });
    } finally {
      await mock.close();
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  },
);

Deno.test(
  "a sub-agent's approval shows on its agent card, labelled with the sub-agent (desktop)",
  async () => {
    const mock = startSubagentMock();
    // edit mode: commands ask first, also a sub-agent's.
    const home = await homeWithProvider(mock.base, ["subs-ask"], { defaultApproval: "edit" });
    try {
      await withPage(DESKTOP, async (page, server) => {
        await openApp(page, server.url);
        await pickModel(page, "mock/subs-ask", "subs-ask");
        await send(page, "Run the tests with a sub-agent");
        const card = agentCard(page, 0);
        await card.locator("[data-testid=approval-card]").waitFor({ timeout: 20_000 });
        assertEquals(await card.getAttribute("data-status"), "waiting");
        assertEquals(
          await card.locator("[data-testid=approval-subagent]").innerText(),
          "Asked by the test-runner sub-agent: Run the tests · exec_command",
        );
        assertEquals(
          await card.locator("[data-testid=approval-summary]").innerText(),
          "$ echo tests-ok",
        );
        // While it runs, the card already opens its live transcript.
        assertMatch(await card.locator("[data-testid=subagent-state]").innerText(), /Running/);
        await card.locator("[data-testid=subagent-open]").waitFor();
        await screenshot(page, "desktop-subagent-approval");
        await card.locator("[data-testid=approval-allow]").click();
        await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
          timeout: 20_000,
        });
        await lastTurn(page).locator("[data-testid=turn-status] button").click();
        assertEquals(await agentCard(page, 0).getAttribute("data-status"), "done");
        assertEquals(
          await agentCard(page, 0).locator("[data-testid=subagent-calls]").innerText(),
          "1 tool call",
        );
      }, { home });
    } finally {
      await mock.close();
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  },
);
