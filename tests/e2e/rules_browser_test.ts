/**
 * Rules by pattern in Settings (desktop 1280×800 and phone 390×844): the global and
 * project lists load, a rule is added, a bad one is refused on the page, and Save
 * stores it where the gate reads it. A task's own rules: "Edit this task's rules…" in the
 * approval menu opens them in Settings, where they are changed, added and removed, a
 * list the server refuses says why, and a change made elsewhere shows at once.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { TestClient } from "../helpers/ws_client.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";

const tid = (id: string) => `[data-testid=${id}]`;

async function openRules(page: Page) {
  const menu = page.locator(tid("open-drawer"));
  if (await menu.isVisible()) await menu.click();
  await page.click(`${tid("open-settings")} >> visible=true`);
  await page.waitForSelector(tid("settings-view"));
  await page.click(tid("settings-tab-general"));
  await page.waitForSelector(`${tid("permission-rules")}[data-state=ready]`);
}

for (
  const [label, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const
) {
  Deno.test(`rules (${label}): listed, added, refused when malformed, saved`, async () => {
    const project = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-rules-proj-" }));
    await withPage(viewport, async (page, server) => {
      const c = await TestClient.connect(server.base, server.token);
      try {
        await c.request("projects.add", { path: project });
        await c.request("rules.set", {
          scope: "global",
          rules: [
            { rule: "exec_command(git push *)", policy: "deny" },
            { rule: "webfetch(domain:docs.deno.com)", policy: "allow" },
          ],
        });
        await c.request("rules.set", {
          scope: "project",
          projectPath: project,
          rules: [{ rule: "write_file(src/**)", policy: "allow" }],
        });
        await openApp(page, server.url);
        await openRules(page);
        const global = page.locator(tid("rules-global"));
        assertEquals(await global.locator(tid("rule-row")).count(), 2);
        await global.locator(tid("rule-add")).click();
        const fresh = global.locator(tid("rule-text")).nth(2);
        await fresh.fill("npm test *");
        await page.waitForSelector(`${tid("rules-global")} >> text=Not a rule: npm test *`);
        await fresh.fill("exec_command(npm test *)");
        await global.locator(tid("rule-save")).click();
        await page.waitForSelector(`${tid("rules-global")} >> text=Saved.`);
        const view = await c.request("rules.get", {}) as { global: { rule: string }[] };
        assertEquals(view.global.map((r) => r.rule), [
          "exec_command(git push *)",
          "webfetch(domain:docs.deno.com)",
          "exec_command(npm test *)",
        ]);
        await page.locator(tid("permission-rules")).scrollIntoViewIfNeeded();
        await noHorizontalScroll(page, viewport.width);
        await screenshot(page, `rules-settings-${label}`);
      } finally {
        await c.close();
      }
    });
  });
}

interface TaskRulesView {
  task: { rules: { rule: string; policy: string }[] } | null;
}

for (
  const [label, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const
) {
  Deno.test(`task rules (${label}): opened from the approval menu, edited and saved in Settings`, async () => {
    await withPage(viewport, async (page, server) => {
      const c = await TestClient.connect(server.base, server.token);
      try {
        const { task } = await c.request("tasks.create", {
          title: "Ship it",
          options: { rules: [{ rule: "exec_command(npm test *)", policy: "allow" }] },
        }) as { task: { id: string } };
        const rulesOnServer = async () =>
          ((await c.request("rules.get", { taskId: task.id })) as TaskRulesView).task!.rules;
        await openApp(page, `${server.url}#/t/${task.id}`);
        await page.click(tid("approval-select"));
        const menu = page.locator(tid("approval-select-menu"));
        await menu.locator(tid("task-rule-row")).waitFor();
        await menu.locator(tid("edit-task-rules")).scrollIntoViewIfNeeded();
        await screenshot(page, `rules-task-menu-${label}`);
        await menu.locator(tid("edit-task-rules")).click();

        // Settings opens at the task's own list.
        const list = page.locator(tid("rules-task"));
        await list.waitFor();
        assertEquals(
          (await list.locator(".rules-scope-title").innerText()).trim(),
          "This task: Ship it",
        );
        assertEquals(await list.isVisible(), true);
        const box = (await list.boundingBox())!;
        assert(box.y >= 0 && box.y < viewport.height, `in view: ${box.y}`);
        await screenshot(page, `rules-task-opened-${label}`);
        const rows = list.locator(tid("rule-row"));
        assertEquals(await rows.count(), 1);
        assertEquals(
          await rows.nth(0).locator(tid("rule-text")).inputValue(),
          "exec_command(npm test *)",
        );

        // Change, add (a malformed line is refused on the page), remove.
        await rows.nth(0).locator(tid("rule-policy")).selectOption("ask");
        await list.locator(tid("rule-add")).click();
        await rows.nth(1).locator(tid("rule-text")).fill("git push *");
        await list.locator("text=Not a rule: git push *").waitFor();
        assertEquals(await list.locator(tid("rule-save")).isDisabled(), true);
        await rows.nth(1).locator(tid("rule-text")).fill("exec_command(git push *)");
        await rows.nth(1).locator(tid("rule-policy")).selectOption("deny");
        await list.locator(tid("rule-add")).click();
        await rows.nth(2).locator(tid("rule-text")).fill("read_file");
        await rows.nth(2).locator(tid("rule-remove")).click();
        assertEquals(await rows.count(), 2);

        // A list the server refuses (the same rule twice) says why and changes nothing.
        await list.locator(tid("rule-add")).click();
        await rows.nth(2).locator(tid("rule-text")).fill("exec_command(git push *)");
        await list.locator(tid("rule-save")).click();
        await list.locator("text=listed twice: exec_command(git push *)").waitFor();
        assertEquals(await rulesOnServer(), [{
          rule: "exec_command(npm test *)",
          policy: "allow",
        }]);
        await rows.nth(2).locator(tid("rule-remove")).click();
        await list.locator(tid("rule-save")).click();
        await list.locator("text=Saved.").waitFor();
        assertEquals(await rulesOnServer(), [
          { rule: "exec_command(npm test *)", policy: "ask" },
          { rule: "exec_command(git push *)", policy: "deny" },
        ]);
        await noHorizontalScroll(page, viewport.width);
        await list.scrollIntoViewIfNeeded();
        await screenshot(page, `rules-task-${label}`);

        // Removed elsewhere (the approval menu of another window): the list follows.
        await c.request("task.removeRule", { id: task.id, rule: "exec_command(npm test *)" });
        await page.waitForFunction(() =>
          document.querySelectorAll("[data-testid=rules-task] [data-testid=rule-row]").length === 1
        );
        assertEquals(
          await rows.nth(0).locator(tid("rule-text")).inputValue(),
          "exec_command(git push *)",
        );

        // Back in the task, the approval menu lists what Settings saved.
        await page.goBack();
        await page.click(tid("approval-select"));
        const row = menu.locator(tid("task-rule-row"));
        await row.waitFor();
        assertEquals((await row.innerText()).split("\n")[0].trim(), "exec_command(git push *)");
        assertEquals(await row.getAttribute("data-policy"), "deny");
      } finally {
        await c.close();
      }
    });
  });
}
