/**
 * Reviewing and undoing "Always allow" in a real (headless) Chromium, at
 * desktop 1280×800 and phone 390×844: a write is always-allowed from its approval card,
 * the approval-mode menu lists the task's rule, Remove takes it away, and the next
 * write asks again; rejecting it shows the translated refusal on the card.
 * The phone runs in Chinese. Screenshots: test-output/screenshots/desktop-policies.png,
 * phone-policies.png (and *-policies-refused.png).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import {
  noHorizontalScroll,
  openApp,
  screenshot,
  watchErrors,
  withBrowserServer,
} from "./browser.ts";
import { lastTurn, send, strip } from "./run_helpers.ts";
import { bigTargets, card, DESKTOP, PHONE, startAskTask } from "./approval_helpers.ts";

const VIEWPORTS = [["desktop", DESKTOP], ["phone", PHONE]] as const;
/** The desktop reads English, the phone Chinese (its browser language). */
const SAYS = {
  desktop: { locale: "en-US", allowed: "always allowed", rejected: "You rejected this call" },
  phone: { locale: "zh-CN", allowed: "始终允许", rejected: "你拒绝了这次调用" },
};

function startPolicyMock() {
  const mock = startMockLlm({ quiet: true });
  for (const [name] of VIEWPORTS) {
    mock.register(`policy-${name}`, {
      turns: [
        {
          text: "Writing one.",
          toolCalls: [{ name: "write_file", args: { path: `${name}-1.txt`, content: "1\n" } }],
        },
        { text: "Wrote one." },
        {
          text: "Writing two.",
          toolCalls: [{ name: "write_file", args: { path: `${name}-2.txt`, content: "2\n" } }],
        },
        { text: "Understood, not writing two." },
      ],
      repeatLast: true,
    });
  }
  return mock;
}

Deno.test(
  "policies: always allow a write, see it in the approval menu, remove it, asked again",
  async () => {
    const mock = startPolicyMock();
    const home = await homeWithMockProvider(mock.base, VIEWPORTS.map(([n]) => `policy-${n}`));
    await withBrowserServer({ home }, async (browser, server) => {
      for (const [name, viewport] of VIEWPORTS) {
        const says = SAYS[name];
        const context = await browser.newContext({ viewport, locale: says.locale });
        const p = await context.newPage();
        const errors = watchErrors(p);
        await openApp(p, server.url);
        await startAskTask(p, `policy-${name}`, "Write file one");

        // "Always allow" on the first write's approval card.
        const approval = p.locator("[data-testid=approval-card]");
        await approval.waitFor({ timeout: 15_000 });
        await approval.locator("[data-testid=approval-always]").click();
        await strip(lastTurn(p)).and(p.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
        assertEquals(await Deno.readTextFile(`${home}/DefaultProject/${name}-1.txt`), "1\n");

        // The approval-mode menu lists the rule.
        await p.click("[data-testid=approval-select]");
        const menu = p.locator("[data-testid=approval-select-menu]");
        const row = menu.locator("[data-testid=policy-row][data-tool=write_file]");
        await row.waitFor();
        assertEquals(await row.getAttribute("data-policy"), "allow");
        assertEquals(await row.locator(".policy-kind").innerText(), says.allowed);
        assertEquals(await menu.locator("[data-testid=policy-row]").count(), 1);
        const remove = row.locator("[data-testid=policy-remove]");
        if (name === "phone") {
          await bigTargets(remove);
          await bigTargets(menu.locator("[data-testid=approval-option]"));
        }
        await noHorizontalScroll(p, viewport.width);
        await row.scrollIntoViewIfNeeded();
        await screenshot(p, `${name}-policies`);

        // Remove: the rule is gone here and on the server.
        await remove.click();
        await menu.locator("[data-testid=policy-list]").waitFor({ state: "detached" });
        await p.keyboard.press("Escape");
        await menu.waitFor({ state: "detached" });

        // The next write asks again; rejecting it says why on the card.
        await send(p, "Write file two");
        const again = p.locator("[data-testid=approval-card]");
        await again.waitFor({ timeout: 15_000 });
        assertEquals(await card(p, "write_file").getAttribute("data-status"), "waiting");
        await again.locator("[data-testid=approval-reject]").click();
        await again.locator("[data-testid=approval-feedback]").press("Enter");
        await strip(lastTurn(p)).and(p.locator("[data-state=done]")).waitFor({ timeout: 15_000 });
        const turnStatus = lastTurn(p).locator("[data-testid=turn-status] button");
        if ((await turnStatus.getAttribute("aria-expanded")) !== "true") await turnStatus.click();
        const refused = card(p, "write_file").locator("[data-testid=tool-refusal]");
        await refused.waitFor();
        assertEquals(await refused.getAttribute("data-code"), "rejected");
        assertEquals(await refused.innerText(), says.rejected);
        assert(!(await Deno.stat(`${home}/DefaultProject/${name}-2.txt`).catch(() => null)));
        await screenshot(p, `${name}-policies-refused`);
        assertEquals(errors, [], `${name} page errors`);
        await p.context().close();
      }
    }, async () => {
      await mock.close();
    });
  },
);
