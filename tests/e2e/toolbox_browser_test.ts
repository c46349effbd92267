/**
 * The coding toolbox's cards in the browser (desktop 1280×800 and phone 390×844): an
 * apply_patch card listing its three files with their diffs, a read_file of a PNG shown
 * as the image (and of one too large, sent resized), and a command's approval card offering "Always allow npm test *", whose
 * answer lets the same prefix run without asking. Screenshots:
 * test-output/screenshots/toolbox-*.png.
 */
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { patternPng } from "../helpers/images.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withBrowserServer } from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { card, DESKTOP, newPage, PHONE, pickApproval } from "./approval_helpers.ts";

const EDIT_LABEL = "Auto-edit";
const PNG_B64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

const PATCH = `*** Begin Patch
*** Add File: src/new.ts
+export const two = 2;
*** Update File: src/main.ts
@@ function main() {
   const a = 1;
-  return a;
+  return a + 2;
 }
*** Delete File: old.txt
*** End Patch`;

for (const [label, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  Deno.test(`toolbox cards (${label}): patch, image, prefix approval`, async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("tb", {
      turns: [
        { toolCalls: [{ name: "apply_patch", args: { input: PATCH } }] },
        {
          toolCalls: [
            { name: "read_file", args: { path: "dot.png" } },
            { name: "read_file", args: { path: "wide.png" } },
          ],
        },
        { text: "Patched and looked." },
        { toolCalls: [{ name: "exec_command", args: { command: "npm test -- --grep x" } }] },
        { toolCalls: [{ name: "exec_command", args: { command: "npm test" } }] },
        { text: "Tests ran." },
      ],
      repeatLast: true,
    });
    const home = await homeWithProvider(mock.base, ["tb"], {
      workspaceFiles: { "old.txt": "bye\n" },
    });
    await Deno.mkdir(`${home}/DefaultProject/src`);
    await Deno.writeTextFile(
      `${home}/DefaultProject/src/main.ts`,
      "function main() {\n  const a = 1;\n  return a;\n}\n",
    );
    await Deno.writeFile(`${home}/DefaultProject/dot.png`, Uint8Array.fromBase64(PNG_B64));
    await Deno.writeFile(`${home}/DefaultProject/wide.png`, patternPng(2400, 300));
    try {
      // Not about diagnostics: no language server is started for the patched files.
      await withBrowserServer(
        { home, env: { REINAGENT_DIAGNOSTICS: "off" } },
        async (browser, server) => {
          const { page, errors } = await newPage(browser, viewport);
          await openApp(page, server.url);
          await pickModel(page, "mock/tb", "tb");
          await pickApproval(page, "edit", EDIT_LABEL);
          await send(page, "Patch three files and look at dot.png");
          await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
            timeout: 20_000,
          });
          // The finished turn folds its steps: open them.
          await strip(lastTurn(page)).locator("button").first().click();
          await lastTurn(page).locator("[data-testid=turn-process]").waitFor();
          const patch = card(page, "apply_patch");
          assertEquals(await patch.getAttribute("data-status"), "done");
          if (!(await patch.locator("[data-testid=patch-file]").first().isVisible())) {
            await patch.locator(".tool-head").first().click();
          }
          assertEquals(await patch.locator("[data-testid=patch-file]").count(), 3);
          assertMatch(await patch.innerText(), /created[\s\S]*deleted/);
          const reads = page.locator("[data-testid=turn]").last()
            .locator("[data-testid=tool-card][data-tool=read_file]");
          const img = reads.first();
          assertMatch(await img.innerText(), /dot\.png\s*image 1×1/);
          // Over the models' limit: resized for the model, and the card says so.
          assertMatch(
            await reads.last().innerText(),
            /wide\.png\s*image 2400×300, sent as 2000×250/,
          );
          // On a phone a read card opens the file in the panel instead of unfolding.
          if (label === "desktop") {
            const shot = img.locator("[data-testid=read-card-image]");
            if (!(await shot.isVisible())) await img.locator(".tool-head").first().click();
            await shot.waitFor();
          }
          await noHorizontalScroll(page, viewport.width);
          await screenshot(page, `toolbox-cards-${label}`);

          await pickApproval(page, "ask", "Ask");
          await send(page, "Run the tests");
          const approval = page.locator("[data-testid=approval-card]");
          await approval.waitFor({ timeout: 15_000 });
          const prefix = approval.locator("[data-testid=approval-always-prefix]");
          assertEquals((await prefix.innerText()).trim(), "Always allow npm test *");
          await approval.scrollIntoViewIfNeeded();
          await screenshot(page, `toolbox-approval-${label}`);
          await prefix.click();
          // The second npm test runs without a card: the turn ends on its own.
          await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
            timeout: 20_000,
          });
          assertEquals(await page.locator("[data-testid=approval-card]").count(), 0);
          // The task's new rule is listed in the approval menu, removable.
          await page.click("[data-testid=approval-select]");
          const row = page.locator("[data-testid=task-rule-row]");
          assertEquals((await row.innerText()).split("\n")[0].trim(), "exec_command(npm test *)");
          await screenshot(page, `toolbox-task-rules-${label}`);
          await row.locator("[data-testid=task-rule-remove]").click();
          await row.waitFor({ state: "detached" });
          assertEquals(errors, []);
        },
      );
    } finally {
      await mock.close();
    }
  });
}

for (const [label, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
  Deno.test(
    `diagnostics card (${label}): a type error from the language server`,
    async () => {
      const mock = startMockLlm({ quiet: true });
      mock.register("diag", {
        turns: [
          { toolCalls: [{ name: "read_file", args: { path: "a.ts" } }] },
          {
            toolCalls: [{
              name: "edit_file",
              args: { path: "a.ts", old_string: "= 1;", new_string: '= "one";' },
            }],
          },
          { text: "Edited." },
        ],
        repeatLast: true,
      });
      const home = await homeWithProvider(mock.base, ["diag"], {
        workspaceFiles: { "a.ts": "export const n: number = 1;\n" },
      });
      try {
        await withBrowserServer(
          { home, env: { REINAGENT_DIAGNOSTICS: "on" } },
          async (browser, server) => {
            const { page, errors } = await newPage(browser, viewport);
            await openApp(page, server.url);
            await pickModel(page, "mock/diag", "diag");
            await pickApproval(page, "edit", EDIT_LABEL);
            await send(page, "Make n a word");
            await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({
              timeout: 60_000,
            });
            await strip(lastTurn(page)).locator("button").first().click();
            const edit = card(page, "edit_file");
            await edit.locator("[data-testid=diagnostics-badge]").waitFor();
            assertEquals(
              await edit.locator("[data-testid=diagnostics-badge]").innerText(),
              "1 problem",
            );
            if (!(await edit.locator("[data-testid=diagnostics]").isVisible())) {
              await edit.locator(".tool-head").first().click();
            }
            assertMatch(
              await edit.locator("[data-testid=diagnostics]").innerText(),
              /a\.ts:1:14\s+Type 'string' is not assignable to type 'number'\./,
            );
            await edit.scrollIntoViewIfNeeded();
            await noHorizontalScroll(page, viewport.width);
            await screenshot(page, `toolbox-diagnostics-${label}`);
            assertEquals(errors, []);
          },
        );
      } finally {
        await mock.close();
      }
    },
  );
}
