/**
 * The git panel, the file tree and the right panel's tabs in a
 * real (headless) Chromium against the real server and the mock LLM. The workspace is
 * a real repository; a run edits a tracked file and writes a new one. The panel opens
 * from the header's "Git" button (found by its accessible name), lists the modified
 * and the untracked file in their groups (it refreshed after the agent's writes),
 * shows the untracked file's diff as a full add, stages one file and commits it; the
 * history shows the graph; the "Files" tab's tree opens a file preview; a second run
 * while the panel is open shows its new file without a click. Desktop and phone; a
 * workspace that is not a repository gets an explanation and Initialise. Screenshots:
 * desktop-git-*.png, phone-git-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { runGit } from "../../server/git/run.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";
import { bigTargets, DESKTOP, PHONE } from "./approval_helpers.ts";

const tid = (id: string) => `[data-testid=${id}]`;

function startGitMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("gitpanel", {
    turns: [
      { toolCalls: [{ id: "r1", name: "read_file", args: { path: "app.ts" } }] },
      {
        toolCalls: [
          {
            id: "e1",
            name: "edit_file",
            args: { path: "app.ts", old_string: "const x = 1;", new_string: "const x = 2;" },
          },
          {
            id: "w1",
            name: "write_file",
            args: { path: "notes/todo.md", content: "- one\n- two\n" },
          },
        ],
      },
      { text: "Changed x and wrote the notes." },
    ],
    repeatLast: true,
  });
  // A second run while the git panel is open: the panel reloads by itself. The mock
  // picks a turn by the history's assistant turns: three came before.
  mock.register("gitmore", {
    turns: [
      { text: "-" },
      { text: "-" },
      { text: "-" },
      {
        toolCalls: [{
          id: "w2",
          name: "write_file",
          args: { path: "more.txt", content: "more\n" },
        }],
      },
      { text: "Wrote more." },
    ],
    repeatLast: true,
  });
  return mock;
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const r = await runGit(cwd, args);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

async function withRepoHome(fn: (home: string) => Promise<void>): Promise<void> {
  const mock = startGitMock();
  const home = await homeWithMockProvider(mock.base, ["gitpanel", "gitmore"], {
    "app.ts": "// app\nconst x = 1;\nexport { x };\n",
    "README.md": "# Demo\n",
  });
  const ws = `${home}/DefaultProject`;
  await git(ws, "init", "-q", "-b", "main");
  await git(ws, "config", "user.name", "Panel Test");
  await git(ws, "config", "user.email", "panel@example.com");
  await git(ws, "config", "commit.gpgsign", "false");
  await git(ws, "add", "-A");
  await git(ws, "commit", "-q", "-m", "Initial commit");
  try {
    await fn(home);
  } finally {
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
}

const panel = (page: Page) => page.locator(tid("right-panel"));
const fileRow = (page: Page, group: string, path: string) =>
  page.locator(`[data-testid=git-file][data-group=${group}][data-path="${path}"]`);

async function runAgent(page: Page, url: string): Promise<void> {
  await openApp(page, url);
  await pickModel(page, "mock/gitpanel", "gitpanel");
  await send(page, "Set x to 2 and write notes");
  await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor({ timeout: 20_000 });
}

/** Opens the Git panel: the header's "Git" button (desktop) or the Workbench menu's (phone). */
async function openGit(page: Page, phone: boolean): Promise<void> {
  if (phone) {
    assertEquals(await page.getByRole("button", { name: "Git", exact: true }).isVisible(), false);
    await page.getByRole("button", { name: /^Workbench/ }).click();
    await bigTargets(page.getByRole("menuitem"));
    await screenshot(page, "phone-git-menu");
    await page.getByRole("menuitem", { name: "Git", exact: true }).click();
  } else {
    await page.getByRole("button", { name: "Git", exact: true }).click();
  }
}

/** The git panel lists the agent's changes; stage app.ts. */
async function gitFlow(page: Page, shot: string): Promise<void> {
  await openGit(page, shot === "phone");
  await panel(page).waitFor();
  assertEquals(await panel(page).getAttribute("data-kind"), "git");
  await page.locator(tid("git-pane")).waitFor();
  await fileRow(page, "unstaged", "app.ts").waitFor();
  await fileRow(page, "untracked", "notes/todo.md").waitFor();
  assertEquals(
    await fileRow(page, "unstaged", "app.ts").locator(".git-xy").innerText(),
    "·M",
  );
  assertEquals((await page.locator(tid("git-branch")).innerText()).trim(), "main");
  // The tabs are all there with their names; Git is the current one.
  for (const name of ["Preview", "Diff", "Git", "Files", "Sub-agents"]) {
    assertEquals(await page.getByRole("button", { name, exact: true }).count() >= 1, true, name);
  }
  assertEquals(await page.locator(tid("panel-tab-git")).getAttribute("aria-current"), "page");

  // The untracked file's diff is a full add.
  await fileRow(page, "untracked", "notes/todo.md").locator(tid("git-file-toggle")).click();
  const diff = fileRow(page, "untracked", "notes/todo.md").locator(tid("git-diff"));
  await diff.waitFor();
  const text = await diff.innerText();
  assertMatch(text, /\+\+\+ b\/notes\/todo\.md/);
  assertMatch(text, /^\+- two$/m);
  await screenshot(page, `${shot}-git-status`);

  await fileRow(page, "unstaged", "app.ts").locator(tid("git-stage")).click();
  await fileRow(page, "staged", "app.ts").waitFor();
  assertEquals(await fileRow(page, "unstaged", "app.ts").count(), 0);
  assertEquals(await fileRow(page, "untracked", "notes/todo.md").count(), 1);
}

async function commitFlow(page: Page, ws: string): Promise<void> {
  await page.locator(tid("git-suggest")).click();
  await page.waitForFunction(
    () =>
      (document.querySelector("[data-testid=git-message]") as HTMLTextAreaElement)?.value !== "",
  );
  assertEquals(await page.locator(tid("git-message")).inputValue(), "Update app.ts");
  await page.locator(tid("git-message")).fill("Set x to 2");
  await page.locator(tid("git-commit")).click();
  await page.locator(tid("git-group-staged")).waitFor({ state: "detached" });
  assertEquals((await git(ws, "log", "-1", "--format=%s")).trim(), "Set x to 2");
  await page.locator(tid("git-log-toggle")).click();
  await page.locator(tid("git-log")).waitFor();
  assertEquals(await page.locator(tid("git-commit-row")).count(), 2);
  assertEquals(await page.locator(`${tid("git-graph")} circle`).count(), 2);
}

/** The Files tab: the tree, a folder opened lazily, a file's preview. */
async function filesFlow(page: Page, shot: string): Promise<void> {
  await page.locator(tid("panel-tab-files")).click();
  await page.locator(tid("files-tree")).waitFor();
  const node = (p: string) => page.locator(`[data-testid=files-node][data-path="${p}"]`);
  await node("app.ts").waitFor();
  assertEquals(await node(".git").getAttribute("data-ignored"), "true", ".git is dimmed");
  await node("notes").locator(tid("files-open")).first().click();
  await node("notes/todo.md").waitFor();
  await screenshot(page, `${shot}-git-files`);
  await node("app.ts").locator(tid("files-open")).click();
  assertEquals(await panel(page).getAttribute("data-kind"), "file");
  await page.locator(tid("code-view")).waitFor();
  assertMatch(await page.locator(tid("code-view")).innerText(), /const x = 2;/);
  assertEquals(await page.locator(tid("panel-tab-preview")).getAttribute("aria-current"), "page");
  await screenshot(page, `${shot}-git-preview`);
  // Back to the tree: the opened folder stays open.
  await page.locator(tid("panel-tab-files")).click();
  await node("notes/todo.md").waitFor();
}

Deno.test(
  "git panel and file tree (desktop 1280×800): status groups, diff, stage, commit, graph, preview",
  () =>
    withRepoHome((home) =>
      withPage(DESKTOP, async (page, server) => {
        await runAgent(page, server.url);
        await gitFlow(page, "desktop");
        await commitFlow(page, `${home}/DefaultProject`);
        await screenshot(page, "desktop-git-history");
        await filesFlow(page, "desktop");
        // The agent writes while the git panel is open: the new file shows up by itself.
        await page.locator(tid("panel-tab-git")).click();
        await page.locator(tid("git-pane")).waitFor();
        assertEquals(await fileRow(page, "untracked", "more.txt").count(), 0);
        await pickModel(page, "mock/gitmore", "gitmore");
        await send(page, "Write more");
        await fileRow(page, "untracked", "more.txt").waitFor({ timeout: 20_000 });
        // The header's Git button closes the panel again when it shows Git.
        await page.getByRole("button", { name: "Git", exact: true }).first().click();
        await panel(page).waitFor({ state: "detached" });
      }, { home })
    ),
);

Deno.test(
  "git panel and file tree (phone 390×844): a full-screen sheet, big targets",
  () =>
    withRepoHome((home) =>
      withPage(PHONE, async (page, server) => {
        await runAgent(page, server.url);
        await bigTargets(page.getByRole("button", { name: /^Workbench/ }));
        const title = (await page.locator(tid("header-title")).boundingBox())!;
        assert(title.width >= 60, `the title is squeezed out: ${JSON.stringify(title)}`);
        await gitFlow(page, "phone");
        const box = (await panel(page).boundingBox())!;
        assertEquals([box.x, box.y, box.width, box.height], [0, 0, PHONE.width, PHONE.height]);
        await bigTargets(page.locator(`${tid("git-file")} button`));
        await bigTargets(page.locator(".rpanel-tab"));
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-git-staged");
        await filesFlow(page, "phone");
        await bigTargets(page.locator(tid("files-open")));
        await noHorizontalScroll(page, PHONE.width);
        await page.locator(tid("panel-back")).click();
        await panel(page).waitFor({ state: "detached" });
      }, { home })
    ),
);

Deno.test(
  "git panel (desktop): not a repository → a plain explanation and Initialise",
  async () => {
    const mock = startGitMock();
    const home = await homeWithMockProvider(mock.base, ["gitpanel"], {
      "app.ts": "// app\nconst x = 1;\nexport { x };\n",
    });
    try {
      await withPage(DESKTOP, async (page, server) => {
        await runAgent(page, server.url);
        await page.getByRole("button", { name: "Git", exact: true }).click();
        const none = page.locator(tid("git-norepo"));
        await none.waitFor();
        assertEquals(await none.getAttribute("data-reason"), "not_repo");
        assertMatch(await none.innerText(), /not a git repository/);
        await screenshot(page, "desktop-git-norepo");
        await page.locator(tid("git-init")).click();
        await fileRow(page, "untracked", "app.ts").waitFor();
        await fileRow(page, "untracked", "notes/todo.md").waitFor();
        assertMatch(await page.locator(tid("git-upstream")).innerText(), /no commits yet/);
        await Deno.stat(`${home}/DefaultProject/.git`);
      }, { home });
    } finally {
      await mock.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);
