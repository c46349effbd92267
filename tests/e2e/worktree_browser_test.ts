/**
 * An isolated task from the browser, desktop and phone: a draft in a project that is a git
 * repository with "Own branch" on; the Demo writes its note in the task's worktree; the
 * branch chip opens the review (the file and its diff), Merge brings it into main, Keep
 * branch removes the worktree.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { TestClient } from "../helpers/ws_client.ts";
import { drawerShown, openApp, screenshot, withPage } from "./browser.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";

const tid = (id: string) => `[data-testid=${id}]`;

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

async function repository(): Promise<string> {
  const repo = await Deno.realPath(await Deno.makeTempDir({ prefix: "ra-wt-ui-" }));
  await git(repo, "init", "-q", "-b", "main");
  await Deno.writeTextFile(`${repo}/README.md`, "# Repo\n");
  await git(repo, "add", "-A");
  await git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first");
  return repo;
}

for (
  const [name, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const
) {
  Deno.test(`isolated task (${name}): own branch, review, merge, keep`, async () => {
    const repo = await repository();
    try {
      await withPage(viewport, async (page: Page, server) => {
        const c = await TestClient.connect(server.base, server.token);
        const { project } = await c.request("projects.add", { path: repo });
        await c.close();
        await openApp(page, server.url);
        if (name === "phone") {
          await page.click(tid("open-drawer"));
          await drawerShown(page);
        }
        await page.locator(`${tid("project")}[data-path="${project.path}"]`)
          .locator(tid("project-new-task")).click();
        await page.waitForSelector(tid("empty-state"));
        const toggle = page.locator(tid("draft-worktree"));
        assertEquals(await toggle.getAttribute("aria-pressed"), "false");
        await toggle.click();
        assertEquals(await toggle.getAttribute("aria-pressed"), "true");
        await screenshot(page, `${name}-worktree-draft`);
        const input = page.locator(tid("composer-input"));
        await input.fill("write a note file");
        await input.press("Enter");
        const chip = page.locator(tid("worktree-chip"));
        await chip.waitFor();
        assertMatch(await chip.innerText(), /reinagent\/write-a-note-file/);
        // The run's end, as the server records it.
        const watch = await TestClient.connect(server.base, server.token);
        for (let done = false; !done;) {
          const { tasks } = await watch.request("tasks.list", {});
          done = tasks.length === 1 && tasks[0].lastRun === "done";
          if (!done) await new Promise((r) => setTimeout(r, 100));
        }
        await watch.close();
        assertEquals(
          await Deno.stat(`${repo}/demo-note.md`).then(() => true, () => false),
          false,
          "the project folder is untouched",
        );
        await chip.click();
        const dialog = page.locator(tid("worktree-dialog"));
        await dialog.locator(tid("worktree-files")).waitFor();
        assertMatch(await dialog.locator(tid("worktree-files")).innerText(), /demo-note\.md/);
        assertMatch(
          await dialog.locator(tid("worktree-diff")).innerText(),
          /\+\+\+ b\/demo-note\.md/,
        );
        await screenshot(page, `${name}-worktree-review`);
        await dialog.locator(tid("worktree-merge")).click();
        await dialog.locator(tid("worktree-outcome")).waitFor();
        assertMatch(await dialog.locator(tid("worktree-outcome")).innerText(), /Merged into main/);
        assert(await Deno.stat(`${repo}/demo-note.md`).then(() => true), "merged into main");
        await dialog.locator(tid("worktree-keep")).click();
        await page.waitForFunction(() =>
          /branch kept/.test(
            document.querySelector("[data-testid=worktree-outcome]")?.textContent ?? "",
          )
        );
        await screenshot(page, `${name}-worktree-kept`);
        assertMatch(await git(repo, "branch", "--list", "reinagent/*"), /write-a-note-file/);
      });
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  });
}

Deno.test(
  "worktree setup (desktop): set in the project's menu, shown as the task's first note",
  async () => {
    const repo = await repository();
    try {
      await withPage({ width: 1280, height: 800 }, async (page: Page, server) => {
        const c = await TestClient.connect(server.base, server.token);
        const { project } = await c.request("projects.add", { path: repo });
        await c.close();
        await openApp(page, server.url);
        const row = page.locator(`${tid("project")}[data-path="${project.path}"]`);
        await row.locator(".project-head").hover();
        await row.locator(tid("project-setup")).click();
        const dialog = page.locator(tid("setup-dialog"));
        await dialog.locator(tid("setup-command")).fill("printf ready > setup-ran.txt");
        await dialog.locator(tid("setup-save")).click();
        await dialog.waitFor({ state: "detached" });
        await row.locator(tid("project-new-task")).click();
        await page.locator(tid("draft-worktree")).click();
        const input = page.locator(tid("composer-input"));
        await input.fill("write a note file");
        await input.press("Enter");
        const note = page.locator(`${tid("setup-note")}[data-state=done]`);
        await note.waitFor({ timeout: 20_000 });
        assertMatch(await note.innerText(), /The worktree was set up\.[\s\S]*printf ready/);
        await screenshot(page, "desktop-worktree-setup");
      });
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  },
);

Deno.test(
  "a second task in a busy folder asks first; Own branch gives it a worktree",
  async () => {
    const repo = await repository();
    const llm = startMockLlm({ quiet: true });
    // The first task streams for a while: it is still at work when the second is sent.
    llm.register("slow", { turns: [{ text: "w ".repeat(400), chunk: 4, delayMs: 20 }] });
    const home = await homeWithProvider(llm.base, ["slow"]);
    try {
      await withPage({ width: 1280, height: 800 }, async (page: Page, server) => {
        const c = await TestClient.connect(server.base, server.token);
        const { project } = await c.request("projects.add", { path: repo });
        const first = await c.request("tasks.create", {
          projectPath: project.path,
          message: "go on for a while",
          options: { model: { providerId: "mock", modelId: "slow" } },
        });
        await openApp(page, server.url);
        const row = page.locator(`${tid("project")}[data-path="${project.path}"]`);
        await row.locator(tid("project-new-task")).click();
        const input = page.locator(tid("composer-input"));
        await input.fill("write a note file");
        await input.press("Enter");
        const dialog = page.locator(tid("same-folder-dialog"));
        await dialog.waitFor();
        assertMatch(await dialog.innerText(), /A task is still running in/);
        await screenshot(page, "desktop-same-folder-ask");
        await dialog.locator(tid("same-folder-own")).click();
        await page.locator(tid("worktree-chip")).waitFor();
        const { tasks } = await c.request("tasks.list", {});
        const second = tasks.find((t: { id: string }) => t.id !== first.task.id);
        assertMatch(second.settings.worktree.branch, /^reinagent\//);
        await c.request("task.stop", { id: first.task.id });
        await c.close();
      }, { home });
    } finally {
      await llm.close();
      await Deno.remove(repo, { recursive: true });
    }
  },
);
