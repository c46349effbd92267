/**
 * Shared pieces of the interactive browser tests: the mock LLM scenarios (plan mode
 * with a refused then an approved plan; two questions; two todo lists; three turns
 * that change files for rewinding), a seeded server + browser, and small page helpers.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import type { TestServer } from "../helpers/server.ts";
import { pickApproval } from "./approval_helpers.ts";
import { clickNewTask, withBrowserServer } from "./browser.ts";
import { pickModel } from "./run_helpers.ts";

export const PLAN_V1 = "## Plan\n\n1. Write `plan.txt`\n2. Report back";
export const PLAN_V2 = [
  "## Plan (revised)",
  "",
  "1. Write `plan.txt` with **tests** in mind",
  "2. Run the tests",
  "3. Report back",
  "",
  "| Step | Tool |",
  "|---|---|",
  "| 1 | write_file |",
  "| 2 | exec_command |",
].join("\n");

export const QUESTIONS = [
  {
    question: "Which database should the app use?",
    header: "Database",
    options: [
      { label: "Postgres", description: "A server; more setup", recommended: true },
      { label: "SQLite", description: "One file, no server" },
    ],
  },
  {
    question: "Which test runners should I set up?",
    header: "Tests",
    multi_select: true,
    options: [{ label: "deno test" }, { label: "Vitest" }, { label: "Jest" }],
  },
];

const todos = (states: string[]) =>
  ["Read the code", "Write the feature", "Run the tests"].map((content, i) => ({
    content,
    status: states[i],
  }));
export const TODOS_1 = todos(["completed", "in_progress", "pending"]);
export const TODOS_2 = todos(["completed", "completed", "completed"]);

export const OTHER = "keep me\n";

export function startInteractMock() {
  const mock = startMockLlm({ quiet: true });
  const plan = (text: string) => ({ name: "exit_plan_mode", args: { plan: text } });
  mock.register("planner", {
    turns: [
      { text: "Let me plan this.", toolCalls: [plan(PLAN_V1)] },
      { text: "Revised with tests.", toolCalls: [plan(PLAN_V2)] },
      {
        text: "Implementing.",
        toolCalls: [{ name: "write_file", args: { path: "plan.txt", content: "planned\n" } }],
      },
      { text: "Plan carried out: plan.txt is written." },
    ],
    repeatLast: true,
  });
  mock.register("asker", {
    turns: [
      {
        text: "Two questions first.",
        toolCalls: [{ name: "ask_user_question", args: { questions: QUESTIONS } }],
      },
      { text: "Thanks, going with your choices." },
    ],
    repeatLast: true,
  });
  // Each of the last two answers waits, part-way, until the test opens its gate: the run
  // is surely going on while the test looks at the list.
  mock.register("todos", {
    turns: [
      { text: "Planning the work.", toolCalls: [{ name: "todo_write", args: { todos: TODOS_1 } }] },
      {
        text: "Working through the list step by step. ".repeat(8),
        chunk: 4,
        hold: { gate: "todos-1" },
        toolCalls: [{ name: "todo_write", args: { todos: TODOS_2 } }],
      },
      {
        text: "All three steps are done and checked. ".repeat(6),
        chunk: 4,
        hold: { gate: "todos-2" },
      },
    ],
    repeatLast: true,
  });
  mock.register("rewinder", {
    turns: [
      {
        text: "Writing story.txt.",
        toolCalls: [{ name: "write_file", args: { path: "story.txt", content: "one\n" } }],
      },
      { text: "Turn one done." },
      { toolCalls: [{ name: "read_file", args: { path: "story.txt" } }] },
      {
        toolCalls: [{
          name: "edit_file",
          args: { path: "story.txt", old_string: "one", new_string: "two" },
        }],
      },
      { text: "Turn two done." },
      {
        toolCalls: [{
          name: "exec_command",
          args: { command: "echo x >> story.txt && rm other.txt" },
        }],
      },
      { text: "Turn three done." },
    ],
  });
  return mock;
}

export const MODELS = ["planner", "asker", "todos", "rewinder"];

/** Starts a task from the draft with `model` in approval `mode`; returns its id. */
export async function startTask(
  page: Page,
  model: string,
  mode: string,
  label: string,
  text: string,
): Promise<string> {
  await clickNewTask(page);
  await page.waitForSelector("[data-testid=empty-state]");
  await pickModel(page, `mock/${model}`, model);
  await pickApproval(page, mode, label);
  const input = page.locator("[data-testid=composer-input]");
  await input.fill(text);
  await input.press("Enter");
  await page.waitForURL(/#\/t\/[A-Za-z0-9_-]+$/);
  return page.url().split("#/t/")[1];
}

/** The n-th user message (0-based). */
export const userMsg = (page: Page, n: number): Locator =>
  page.locator("[data-testid=entry][data-role=user]").nth(n);

/** Opens the Rewind dialog of user message `n` (hover button; ⋯ menu on phones). */
export async function openRewind(page: Page, n: number, phone: boolean): Promise<Locator> {
  const msg = userMsg(page, n);
  if (phone) {
    await msg.locator("[data-testid=msg-menu]").click();
    await page.locator("[data-testid=rewind-turn-item]").click();
  } else {
    await msg.hover();
    await msg.locator("[data-testid=rewind-turn]").click();
  }
  const dialog = page.locator("[data-testid=rewind-dialog]");
  await dialog.locator(".rw:not([data-phase=loading])").waitFor();
  return dialog;
}

/** The paths listed in a section of the Rewind dialog. */
export const listed = (dialog: Locator, section: string): Promise<string[]> =>
  dialog.locator(`[data-testid=rewind-${section}] [data-testid=rewind-path]`).allInnerTexts();

/** A seeded home, a server, a browser: runs `fn` and always cleans up. */
export async function withServer(
  fn: (
    ctx: {
      browser: Browser;
      server: TestServer;
      home: string;
      mock: ReturnType<typeof startInteractMock>;
    },
  ) => Promise<void>,
): Promise<void> {
  const mock = startInteractMock();
  const home = await homeWithProvider(mock.base, MODELS, {
    workspaceFiles: { "other.txt": OTHER },
  });
  await withBrowserServer(
    { home },
    (browser, server) => fn({ browser, server, home, mock }),
    async () => {
      await mock.close();
      await Deno.remove(home, { recursive: true });
    },
  );
}

/** The tool result texts the model received in its latest request that had any. */
export function toolResults(mock: ReturnType<typeof startInteractMock>, model: string): string[] {
  type Msg = { role: string; content: unknown };
  const tools = (r: { body: Record<string, unknown> }) =>
    ((r.body.messages ?? []) as Msg[]).filter((m) => m.role === "tool");
  const last = mock.requests(model).filter((r) => tools(r).length > 0).pop();
  return last ? tools(last).map((m) => String(m.content)) : [];
}
