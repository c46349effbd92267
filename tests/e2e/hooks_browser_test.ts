/**
 * Hooks in a real (headless) Chromium against the real server and the mock LLM: a
 * project's untrusted hooks are asked about with their commands shown and do not run
 * (the turn says so); Trust makes them run (a PreToolUse hook blocks exec_command, the
 * card says why); a user hook that times out is noted on the turn; Settings → Hooks lists
 * both sources with their trust state. Desktop and phone.
 * Then the config is edited: asked again, with the trusted hooks that keep running shown.
 * Screenshots: {desktop,phone}-hooks-trust-prompt.png, {desktop,phone}-hooks-turn.png,
 * {desktop,phone}-hooks-changed.png, {desktop,phone}-hooks-settings.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { drawerShown, noHorizontalScroll, screenshot, withBrowserServer } from "./browser.ts";
import { lastTurn, send, strip } from "./run_helpers.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import { TestClient } from "../helpers/ws_client.ts";

const run = {
  text: "Running it.",
  toolCalls: [{ name: "exec_command", args: { command: "echo hi" } }],
};

function startHookMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("hook-run", {
    // Two turns of the same conversation, answered in the order asked.
    turns: [run, { text: "Finished." }, run, { text: "Finished again." }],
    sequential: true,
  });
  return mock;
}

async function seed(base: string): Promise<{ home: string; project: string }> {
  const home = await homeWithProvider(base, ["hook-run"], { defaultApproval: "full" });
  await Deno.writeTextFile(
    `${home}/config.json`,
    JSON.stringify({ hooks: [{ event: "PostToolUse", command: "sleep 3", timeoutMs: 300 }] }),
  );
  const project = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-hooks-project-" }));
  await Deno.mkdir(`${project}/.reinagent`);
  await Deno.writeTextFile(
    `${project}/.reinagent/config.json`,
    JSON.stringify({
      hooks: [{
        event: "PreToolUse",
        matcher: "exec_command",
        command: "echo 'commands need review in this repo' >&2; exit 2",
        timeoutMs: 10_000,
      }],
    }),
  );
  return { home, project };
}

async function scenario(viewport: typeof DESKTOP, name: "desktop" | "phone") {
  const mock = startHookMock();
  const { home, project } = await seed(mock.base);
  await withBrowserServer({ home }, async (browser, server) => {
    const { page, errors } = await newPage(browser, viewport);
    const ws = await TestClient.connect(server.base, server.token);
    await ws.request("projects.add", { path: project });
    const { task } = await ws.request("tasks.create", {
      title: "Hooked project",
      projectPath: project,
      options: { model: { providerId: "mock", modelId: "hook-run" } },
    });
    await ws.close();
    await page.goto(`${server.url}#/t/${task.id}`);

    // Asked, with the command shown; nothing runs before the answer.
    const prompt = page.locator("[data-testid=hooks-trust-prompt]");
    await prompt.waitFor();
    assertMatch(await prompt.innerText(), /defines 1 hook\(s\) that are not trusted yet/);
    assertMatch(
      await prompt.locator("[data-testid=hook-command]").innerText(),
      /commands need review in this repo/,
    );
    await noHorizontalScroll(page, viewport.width);
    await screenshot(page, `${name}-hooks-trust-prompt`);

    // A turn before trusting: the hook did not run (the command did) and the turn says so.
    await send(page, "run echo");
    const turn = lastTurn(page);
    await strip(turn).and(page.locator("[data-state=done]")).waitFor({ timeout: 30_000 });
    const notes = turn.locator("[data-testid=hook-note]");
    await notes.first().waitFor();
    const texts = await notes.allInnerTexts();
    assert(texts.some((x) => /did not run: they are not trusted yet/.test(x)), texts.join("|"));
    assert(texts.some((x) => /PostToolUse hook failed: timed out after 0\.3 s/.test(x)));

    // Trusted: the banner goes; the next turn's command is blocked with the hook's reason.
    await prompt.locator("[data-testid=hooks-trust]").click();
    await prompt.waitFor({ state: "detached" });
    await send(page, "run echo again");
    const second = lastTurn(page);
    await strip(second).and(page.locator("[data-state=done]")).waitFor({ timeout: 30_000 });
    await second.locator("[data-testid=turn-status] button").click();
    const refusal = second.locator("[data-testid=tool-refusal][data-code=hook_blocked]");
    await refusal.waitFor();
    assertEquals(
      await refusal.innerText(),
      "Blocked by a PreToolUse hook: commands need review in this repo",
    );
    await noHorizontalScroll(page, viewport.width);
    await screenshot(page, `${name}-hooks-turn`);

    // The config is edited (by the agent, say): asked again, the trusted hook still runs.
    await Deno.writeTextFile(
      `${project}/.reinagent/config.json`,
      JSON.stringify({ hooks: [{ event: "PreToolUse", command: "true" }] }),
    );
    await page.reload();
    await prompt.waitFor();
    assertEquals(await prompt.getAttribute("data-state"), "changed");
    assertMatch(await prompt.innerText(), /changed since you trusted them \(1 now\)/);
    assertMatch(
      await prompt.locator("[data-testid=hooks-kept] + [data-testid=hook-list]").innerText(),
      /commands need review in this repo/,
    );
    await noHorizontalScroll(page, viewport.width);
    await screenshot(page, `${name}-hooks-changed`);

    // Settings → Hooks: both files, their state and commands.
    if (name === "phone") {
      await page.click("[data-testid=open-drawer]");
      await drawerShown(page);
    }
    await page.click("[data-testid=open-settings] >> visible=true");
    await page.click("[data-testid=settings-tab-hooks]");
    const sources = page.locator("[data-testid=hook-source]");
    await sources.nth(1).waitFor();
    if (name === "phone") {
      await page.waitForFunction(() =>
        document.querySelector("[data-testid=sidebar]")!.getBoundingClientRect().right <= 0
      );
    }
    assertEquals(
      await sources.evaluateAll((l) => l.map((e) => (e as HTMLElement).dataset.state)),
      ["user", "changed"],
    );
    await noHorizontalScroll(page, viewport.width);
    await screenshot(page, `${name}-hooks-settings`);
    assertEquals(errors, [], "the page logged errors");
  }, async () => {
    await mock.close();
    await Deno.remove(project, { recursive: true });
  });
}

Deno.test(
  "hooks: trust prompt, notes on the turn, Settings → Hooks (desktop)",
  () => scenario(DESKTOP, "desktop"),
);

Deno.test(
  "hooks: trust prompt, notes on the turn, Settings → Hooks (phone)",
  () => scenario(PHONE, "phone"),
);
