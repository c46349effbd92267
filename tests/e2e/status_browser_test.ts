/**
 * Task states in a real (headless) Chromium against the real server and the mock LLM:
 * tasks that really ran — finished, stopped by the user, stopped with a queued message
 * left, failed (401), still running, waiting for an approval — and one that never ran
 * show the server's record in the same words on the desktop sidebar (1280×800) and
 * the phone home (390×844); a stopped run is "Stopped", never "Done".
 * Screenshots: desktop-task-states.png, phone-home-states.png.
 */
import type { Page } from "playwright-core";
import { assertEquals } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { TestClient } from "../helpers/ws_client.ts";
import type { TestServer } from "../helpers/server.ts";
import type { TaskSummary } from "../../protocol/index.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withBrowserServer } from "./browser.ts";
import { DESKTOP, newPage, PHONE } from "./approval_helpers.ts";

function startStatesMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("quick", { turns: [{ text: "All done." }], repeatLast: true });
  // Long enough to stay running for the whole test (it is stopped at the end).
  mock.register("slow", { turns: [{ text: "tick ".repeat(4000), chunk: 2, delayMs: 40 }] });
  mock.register("denied", { turns: [{ text: "x", fail: { status: 401, message: "bad key" } }] });
  mock.register("writer", {
    turns: [{
      text: "Writing.",
      toolCalls: [{ name: "write_file", args: { path: "w.txt", content: "w\n" } }],
    }],
  });
  return mock;
}

type Seeded = Record<
  "done" | "stopped" | "queued" | "failed" | "running" | "waiting" | "fresh",
  string
>;

async function seed(server: TestServer): Promise<Seeded> {
  const c = await TestClient.connect(server.base, server.token);
  const model = (modelId: string) => ({ model: { providerId: "mock", modelId } });
  const create = async (title: string, modelId?: string, extra: Record<string, unknown> = {}) =>
    (await c.request<{ task: TaskSummary }>("tasks.create", {
      title,
      ...(modelId ? { message: `${title}, please`, options: { ...model(modelId), ...extra } } : {}),
    })).task.id;
  const summary = async (id: string) =>
    (await c.request<{ tasks: TaskSummary[] }>("tasks.list")).tasks.find((t) => t.id === id)!;
  const settle = async (id: string, ok: (t: TaskSummary) => boolean) => {
    const end = Date.now() + 20_000;
    while (!ok(await summary(id))) {
      if (Date.now() > end) throw new Error(`task ${id}: ${JSON.stringify(await summary(id))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    const fresh = await create("Never ran");
    const failed = await create("Call the API", "denied");
    const done = await create("Summarise the notes", "quick");
    const stopped = await create("Long explanation", "slow");
    const queued = await create("Refactor with a follow-up", "slow");
    await settle(queued, (t) => t.status === "running");
    await c.request("task.send", { id: queued, text: "then also update the docs" });
    await settle(stopped, (t) => t.status === "running");
    await c.request("task.stop", { id: stopped });
    await c.request("task.stop", { id: queued });
    const waiting = await create("Write w.txt", "writer", { approval: "ask" });
    const running = await create("Keeps streaming", "slow");
    // (Written so that it also settles on a server without `lastRun`.)
    await settle(failed, (t) => t.lastRun === "failed" || t.status === "error");
    await settle(done, (t) => t.status === "idle" && t.entryCount > 1);
    await settle(waiting, (t) => t.status === "waiting");
    await settle(running, (t) => t.status === "running");
    return { done, stopped, queued, failed, running, waiting, fresh };
  } finally {
    await c.close();
  }
}

const WORDS: Record<keyof Seeded, [string, string] | null> = {
  running: ["running", "Running"],
  waiting: ["waiting", "Waiting for you"],
  queued: ["queued", "Message queued"],
  failed: ["failed", "Failed"],
  stopped: ["stopped", "Stopped"],
  done: ["done", "Done"],
  fresh: null,
};

/** [state, word] of each seeded task's badge in `scope` rows (null = no badge). */
async function badges(page: Page, row: string, badge: string, s: Seeded) {
  const out: Record<string, [string, string] | null> = {};
  for (const [k, id] of Object.entries(s)) {
    const b = page.locator(`[data-testid=${row}][data-task-id="${id}"] ${badge}`);
    out[k] = (await b.count())
      ? [(await b.getAttribute("data-status"))!, (await b.innerText()).trim()]
      : null;
  }
  return out;
}

Deno.test(
  "task states: the server's record, the same words on the desktop sidebar and the phone home",
  async () => {
    const mock = startStatesMock();
    const home = await homeWithProvider(mock.base, ["quick", "slow", "denied", "writer"]);
    await withBrowserServer(
      { home },
      async (browser, server) => {
        const s = await seed(server);
        const phone = await newPage(browser, PHONE);
        const p = phone.page;
        await openApp(p, server.url);
        await p.locator("[data-testid=task-home]").waitFor();
        await p.locator(
          `[data-testid=home-row][data-task-id="${s.waiting}"] [data-testid=home-badge]`,
        )
          .waitFor();
        assertEquals(await badges(p, "home-row", "[data-testid=home-badge]", s), WORDS);
        assertEquals(
          await p.locator("[data-testid=home-summary] .home-sum").allInnerTexts(),
          ["1 waiting for you", "1 with a queued message", "1 running", "1 failed", "4 unread"],
        );
        await noHorizontalScroll(p, PHONE.width);
        await screenshot(p, "phone-home-states");

        const desk = await newPage(browser, DESKTOP);
        await openApp(desk.page, server.url);
        const d = desk.page;
        await d.locator(`[data-testid=task-row][data-task-id="${s.waiting}"] [data-status=waiting]`)
          .waitFor();
        assertEquals(await badges(d, "task-row", ".state-badge", s), WORDS);
        await screenshot(d, "desktop-task-states");

        // Removing the queued message leaves how its run really ended: Stopped.
        const c = await TestClient.connect(server.base, server.token);
        const { queue } = await c.request<{ queue: { id: string }[] }>("queue.list", {
          id: s.queued,
        });
        await c.request("queue.remove", { id: s.queued, itemId: queue[0].id });
        await c.request("task.stop", { id: s.running });
        await c.close();
        const row = (page: Page, id: string, sel: string) =>
          page.locator(`[data-testid=${sel}][data-task-id="${id}"] [data-status=stopped]`);
        await row(p, s.queued, "home-row").waitFor();
        await row(d, s.queued, "task-row").waitFor();
        await row(p, s.running, "home-row").waitFor();
        assertEquals(desk.errors, [], "desktop page errors");
        assertEquals(phone.errors, [], "phone page errors");
      },
      async () => {
        await mock.close();
        await Deno.remove(home, { recursive: true });
      },
    );
  },
);
