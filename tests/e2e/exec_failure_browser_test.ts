/**
 * Failures look like failures: a command that exits non-zero gets the
 * failure mark and a red "exit N" badge, its stderr is marked inside the merged output
 * (live and in the result), and a timeout, a timeout that needed SIGKILL and a kill by
 * signal each say so in a line under the output — at desktop 1280×800 and phone
 * 390×844. Screenshots: desktop-exec-failure-live.png, desktop-exec-failures.png,
 * phone-exec-failures.png.
 *
 * The shell sandbox is off here: under bwrap a command killed by a signal reads as exit
 * 128+N and the sandbox ends on SIGTERM, so neither line could be shown.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { Store } from "../../store/store.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { DESKTOP, PHONE } from "./approval_helpers.ts";
import type { Page } from "playwright-core";

/** The failing commands; the first goes on once the file `go` exists. */
function registerFails(mock: ReturnType<typeof startMockLlm>, go: string) {
  mock.register("fails", {
    turns: [
      {
        toolCalls: [
          // It waits for the test to have seen its live output with the stderr part.
          {
            id: "f1",
            name: "exec_command",
            args: {
              command: `echo out; echo err >&2; until [ -e '${go}' ]; do sleep 0.05; done; ` +
                "echo err2 >&2; exit 3",
            },
          },
          { id: "f2", name: "exec_command", args: { command: "sleep 30", timeout: 1 } },
          {
            id: "f3",
            name: "exec_command",
            args: { command: "trap '' TERM; sleep 30", timeout: 1 },
          },
          { id: "f4", name: "exec_command", args: { command: "echo bye; kill -KILL $$" } },
        ],
      },
      { text: "Those failed." },
    ],
    repeatLast: true,
  });
}

const execCard = (page: Page, i: number) =>
  lastTurn(page).locator("[data-testid=tool-card][data-tool=exec_command]").nth(i);

async function runFailures(page: Page, url: string, shot: string, go: string): Promise<void> {
  await openApp(page, url);
  await pickModel(page, "mock/fails", "fails");
  await send(page, "Run the failing commands");
  // Without a sandbox, full mode asks once per task before the first command.
  await page.locator(
    "[data-testid=approval-card][data-kind=unsandboxed] [data-testid=approval-allow]",
  )
    .click();
  // Live: the first command's stderr is marked while it still runs.
  const liveErr = execCard(page, 0).locator("[data-testid=exec-output] [data-testid=exec-stderr]");
  await liveErr.waitFor({ timeout: 10_000 });
  assertMatch(await liveErr.innerText(), /^err\n?$/);
  if (shot === "desktop") await screenshot(page, "desktop-exec-failure-live");
  await Deno.writeTextFile(go, "");
  await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({ timeout: 30_000 });
  await lastTurn(page).locator("[data-testid=turn-status] button").click();

  // exit 3: the failure mark (not the check), a red badge, stderr marked apart from stdout.
  const exit3 = execCard(page, 0);
  assertEquals(await exit3.getAttribute("data-status"), "failed");
  assertEquals(await exit3.locator(".tool-head .tool-failed").count(), 1, "failure mark");
  assertEquals(await exit3.locator(".tool-head .tool-done").count(), 0, "no green check");
  const badge = exit3.locator("[data-testid=exit-badge]");
  assertEquals(await badge.innerText(), "exit 3");
  assertMatch(String(await badge.getAttribute("class")), /\btone-bad\b/);
  const out = exit3.locator("[data-testid=exec-output]");
  assertEquals(await out.innerText(), "out\nerr\nerr2", "arrival order; the label is not text");
  const err = out.locator("[data-testid=exec-stderr]");
  assertEquals(await err.count(), 1);
  assertEquals(await err.innerText(), "err\nerr2");
  const label = await err.evaluate((el) => getComputedStyle(el, "::before").content);
  assertEquals(label, '"stderr"');
  const colours = await err.evaluate((el) => {
    const pre = el.closest("pre")!;
    return [getComputedStyle(el).color, getComputedStyle(pre).color];
  });
  assert(colours[0] !== colours[1], `stderr has its own colour (${colours})`);
  assertEquals(await exit3.locator("[data-testid=exec-ending]").count(), 0, "a plain exit");

  // Timeout: the badge and a line with the seconds.
  const timeout = execCard(page, 1);
  assertEquals(await timeout.getAttribute("data-status"), "failed");
  assertEquals(await timeout.locator("[data-testid=exit-badge]").innerText(), "timed out");
  assertEquals(
    await timeout.locator("[data-testid=exec-ending]").innerText(),
    "Timed out after 1 s: the command and everything it started were stopped.",
  );
  // A command ignoring SIGTERM: the line says SIGKILL was needed.
  assertMatch(
    await execCard(page, 2).locator("[data-testid=exec-ending]").innerText(),
    /^Timed out after 1 s: .* It ignored SIGTERM, so SIGKILL was needed\.$/,
  );
  // Killed by a signal.
  const killed = execCard(page, 3);
  assertEquals(await killed.getAttribute("data-status"), "failed");
  assertEquals(await killed.locator("[data-testid=exit-badge]").innerText(), "killed (SIGKILL)");
  assertEquals(
    await killed.locator("[data-testid=exec-ending]").innerText(),
    "Killed by signal SIGKILL.",
  );
  await exit3.evaluate((el) => el.scrollIntoView({ block: "start" }));
  await screenshot(page, `${shot}-exec-failures`);
}

for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  Deno.test(
    `exec card (${name} ${viewport.width}×${viewport.height}): non-zero exit, stderr, timeout, kill`,
    async () => {
      const mock = startMockLlm({ quiet: true });
      const home = await homeWithProvider(mock.base, ["fails"]);
      const go = `${home}/go`;
      registerFails(mock, go);
      const store = new Store(`${home}/reinagent.db`);
      store.repos!.kv.set("settings.sandboxLevel", "off");
      store.repos!.kv.set("settings.defaultApproval", "full"); // cards, not the approval gate
      store.close();
      try {
        await withPage(viewport, async (page, server) => {
          await runFailures(page, server.url, name, go);
          if (name === "phone") await noHorizontalScroll(page, viewport.width);
        }, { home });
      } finally {
        await mock.close();
        await Deno.remove(home, { recursive: true });
      }
    },
  );
}
