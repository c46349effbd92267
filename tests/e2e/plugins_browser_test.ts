/**
 * Settings → Plugins in a real (headless) Chromium against the real server: the user's
 * plugins and a project's are listed with version, description, contributions and
 * state; a bad manifest and a link into the data folder are shown as such; turning a
 * plugin on and trusting its hooks is written to plugins.json. Desktop and phone (no
 * horizontal scroll). Then Settings → General → Network: the proxy setting refuses a bad
 * address with the reason and saves a good one.
 * Screenshots: {desktop,phone}-plugins.png, {desktop,phone}-plugins-trusted.png,
 * {desktop,phone}-proxy-settings.png.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { join } from "node:path";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { drawerShown, noHorizontalScroll, screenshot, withBrowserServer } from "./browser.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";
import type { Page } from "playwright-core";

async function write(path: string, text: string) {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

async function seed(home: string) {
  const guard = join(home, "plugins", "lint-guard");
  await write(
    join(guard, "plugin.json"),
    JSON.stringify({
      name: "lint-guard",
      version: "1.4.2",
      description: "Runs the linter before the agent's commands and adds /lint.",
      commands: "commands",
      hooks: [{ event: "PreToolUse", matcher: "exec_command", command: "./scripts/lint.sh" }],
    }),
  );
  await write(join(guard, "commands", "lint.md"), "---\ndescription: Lint the repo\n---\nLint it.");
  await write(join(home, "plugins", "broken", "plugin.json"), "{ not json");
  await Deno.symlink(home, join(home, "plugins", "sneaky"));
  const project = join(home, "DefaultProject", ".reinagent", "plugins", "notes");
  await write(
    join(project, "plugin.json"),
    JSON.stringify({
      name: "notes",
      version: "0.1.0",
      description: "Note skills",
      skills: "skills",
    }),
  );
  await write(
    join(project, "skills", "jot", "SKILL.md"),
    "---\nname: jot\ndescription: Jot\n---\nx",
  );
}

const card = (page: Page, name: string) =>
  page.locator(`[data-testid=plugin-card][data-name="${name}"]`);

async function scenario(viewport: typeof DESKTOP, name: "desktop" | "phone") {
  const mock = startMockLlm({ quiet: true });
  const home = await homeWithProvider(mock.base, ["m"]);
  await seed(home);
  await withBrowserServer({ home }, async (browser, server) => {
    const { page, errors } = await newPage(browser, viewport);
    await page.goto(server.url);
    if (name === "phone") {
      await page.click("[data-testid=open-drawer]");
      await drawerShown(page);
    }
    await page.click("[data-testid=open-settings] >> visible=true");
    await page.click("[data-testid=settings-tab-plugins]");
    await card(page, "notes").waitFor();
    const guard = card(page, "lint-guard");
    assertEquals(await guard.getAttribute("data-state"), "untrusted");
    assertEquals(await guard.getAttribute("data-enabled"), "false");
    assertMatch(
      await guard.innerText(),
      /1\.4\.2[\s\S]*Runs the linter[\s\S]*\.\/scripts\/lint\.sh/,
    );
    assertMatch(await card(page, "broken").innerText(), /not valid JSON/);
    assertEquals(await card(page, "sneaky").getAttribute("data-state"), "refused");
    assertMatch(await card(page, "sneaky").innerText(), /data folder/);
    assert(await card(page, "sneaky").locator("[data-testid=plugin-enable]").isDisabled());
    assertMatch(await card(page, "notes").innerText(), /Project/);
    await noHorizontalScroll(page, viewport.width);
    await screenshot(page, `${name}-plugins`);

    // On, then its hooks trusted: both land in plugins.json.
    await guard.locator("[data-testid=plugin-enable]").click();
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=plugin-card][data-name=lint-guard]")
        ?.getAttribute("data-enabled") === "true"
    );
    await guard.locator("[data-testid=plugin-trust]").click();
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=plugin-card][data-name=lint-guard]")
        ?.getAttribute("data-state") === "ok"
    );
    const state = JSON.parse(await Deno.readTextFile(join(home, "plugins.json")));
    assertEquals(state.enabled.length, 1);
    assertEquals(Object.keys(state.trust).length, 1);
    await guard.scrollIntoViewIfNeeded();
    await noHorizontalScroll(page, viewport.width);
    await screenshot(page, `${name}-plugins-trusted`);

    // Settings → General → Network: a bad proxy is refused with the reason; a good one saved.
    await page.click("[data-testid=settings-tab-general]");
    const proxy = page.locator("[data-testid=proxy-settings]");
    await page.locator("[data-testid=proxy-settings][data-state=ready]").waitFor();
    await proxy.locator("[data-testid=proxy-url]").fill("socks5://127.0.0.1:1080");
    await proxy.locator("[data-testid=proxy-save]").click();
    await proxy.locator("[data-testid=proxy-status].field-error").waitFor();
    assertMatch(await proxy.innerText(), /http:\/\/ or https:\/\//);
    await proxy.locator("[data-testid=proxy-url]").fill("http://127.0.0.1:7890");
    await proxy.locator("[data-testid=proxy-no]").fill("corp.example, 10.0.0.5");
    await proxy.locator("[data-testid=proxy-save]").click();
    await proxy.locator("[data-testid=proxy-status]:not(.field-error)").waitFor();
    const saved = JSON.parse(await Deno.readTextFile(join(home, "proxy.json")));
    assertEquals(saved, {
      url: "http://127.0.0.1:7890",
      noProxy: ["corp.example", "10.0.0.5"],
      loopback: false,
      system: false,
    });
    await proxy.scrollIntoViewIfNeeded();
    await noHorizontalScroll(page, viewport.width);
    await screenshot(page, `${name}-proxy-settings`);
    assertEquals(errors, [], "the page logged errors");
  }, async () => {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  });
}

Deno.test(
  "plugins: Settings → Plugins lists, switches on and trusts (desktop)",
  () => scenario(DESKTOP, "desktop"),
);

Deno.test(
  "plugins: Settings → Plugins lists, switches on and trusts (phone)",
  () => scenario(PHONE, "phone"),
);
