/**
 * The composer in a real (headless) Chromium against the real server and the mock
 * LLM, on desktop and phone: attach via the picker, paste an image, paste long text
 * (→ .txt), send (thumbnail in the message, image in the model request), the steering
 * queue (queue while streaming, remove one, the other is sent after the run), ↑/↓
 * prompt history, and a draft that survives a reload. Screenshots:
 * test-output/screenshots/{desktop,phone}-composer-*.png.
 */
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithMockProvider } from "../helpers/mock_home.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { pickModel } from "./run_helpers.ts";
import { holdReplies } from "./hold_replies.ts";
import { TestClient } from "../helpers/ws_client.ts";
import type { Draft } from "../../protocol/index.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const input = (page: Page) => page.locator("[data-testid=composer-input]");
const chips = (page: Page) => page.locator("[data-testid=attachment-chip]");

/** A real 160×100 PNG drawn in the page; returns its base64. */
async function drawPng(page: Page): Promise<string> {
  return await page.evaluate(async () => {
    const c = new OffscreenCanvas(160, 100);
    const g = c.getContext("2d")!;
    const grad = g.createLinearGradient(0, 0, 160, 100);
    grad.addColorStop(0, "#2f6fdf");
    grad.addColorStop(1, "#c8623c");
    g.fillStyle = grad;
    g.fillRect(0, 0, 160, 100);
    g.fillStyle = "#ffffff";
    g.font = "bold 28px sans-serif";
    g.fillText("PNG", 52, 60);
    const bytes = new Uint8Array(
      await (await c.convertToBlob({ type: "image/png" })).arrayBuffer(),
    );
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin);
  });
}

/** Dispatches a paste on the composer with an image file or text in its DataTransfer. */
async function paste(page: Page, what: { png?: string; text?: string }): Promise<boolean> {
  return await page.evaluate(({ png, text }) => {
    const dt = new DataTransfer();
    if (png) {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], "image.png", { type: "image/png" }));
    }
    if (text) dt.setData("text/plain", text);
    const el = document.querySelector("[data-testid=composer-input]")!;
    const ev = new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true });
    el.dispatchEvent(ev);
    return ev.defaultPrevented;
  }, what);
}

async function allUploaded(page: Page, n: number): Promise<void> {
  await page.waitForFunction((count) => {
    const list = [...document.querySelectorAll("[data-testid=attachment-chip]")];
    return list.length === count && list.every((c) => c.getAttribute("data-status") === "done");
  }, n);
}

/** Runs until the test opens its gate: the queue is filled while it surely still runs. */
/** Waits until the server holds task `task`'s draft (saved once the composer is still). */
async function savedDraft(url: string, task: string, text: string, files: number) {
  const u = new URL(url);
  const client = await TestClient.connect(u.origin, u.searchParams.get("token")!);
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { draft } = await client.request<{ draft: Draft | null }>("draft.get", { task });
      if (draft?.text === text && draft.attachments.length === files) return;
      if (Date.now() > deadline) throw new Error(`draft not saved: ${JSON.stringify(draft)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.close();
  }
}

const slow = { text: "tick ".repeat(300), chunk: 5, hold: { gate: "slow" } };

function startMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("vision-echo", { turns: [{ text: "I see an image." }], repeatLast: true });
  mock.register("slowish", {
    // The task already has two answers when it switches to this model: turn 2 is slow.
    turns: [slow, slow, slow, { text: "Queued answer." }],
    repeatLast: true,
  });
  return mock;
}

async function flow(page: Page, url: string, mock: ReturnType<typeof startMock>, prefix: string) {
  // The queued messages' replies come 400 ms late: the second is sent (Enter) while the
  // first is still on its way, which must queue it too, not drop the key press.
  await page.addInitScript(holdReplies, { op: "task.send", argsInclude: "queued", ms: 400 });
  await openApp(page, url);
  await page.waitForSelector("[data-testid=empty-state]");
  await pickModel(page, "mock/vision-echo", "vision-echo");

  // ---- attachments: picker, pasted image, pasted long text ----
  await page.setInputFiles("[data-testid=attach-input]", {
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("some notes\n"),
  });
  await allUploaded(page, 1);
  const png = await drawPng(page);
  assert(await paste(page, { png }), "image paste handled");
  await allUploaded(page, 2);
  await page.locator("[data-testid=attachment-thumb]").waitFor();
  const long = "word ".repeat(3200); // 16 000 characters
  assert(await paste(page, { text: long }), "long text paste handled");
  await allUploaded(page, 3);
  assertMatch(await chips(page).nth(2).innerText(), /pasted-text-\d{8}-\d{6}\.txt/);
  assertEquals(await input(page).inputValue(), "", "long text was not inserted");
  assert(!(await paste(page, { text: "short" })), "short text is left to the text box");
  await input(page).fill("Describe these attachments");
  await noHorizontalScroll(page, (await page.viewportSize())!.width);
  await screenshot(page, `${prefix}-composer-attachments`);
  await input(page).press("Enter");

  const user = page.locator("[data-testid=entry][data-role=user]").first();
  await user.locator("[data-testid=message-image]").waitFor();
  assertEquals(await user.locator("[data-testid=message-file]").count(), 2);
  assertEquals(await chips(page).count(), 0, "chips cleared after send");
  await page.waitForFunction(() =>
    (document.querySelector("[data-testid=message-image]") as HTMLImageElement)?.naturalWidth > 0
  );
  await page.locator("[data-testid=final-answer]", { hasText: "I see an image." }).waitFor();
  // (the model is also asked for a title: look at every request it got)
  const body = JSON.stringify(mock.requests("vision-echo").map((r) => r.body));
  assert(body.includes(`data:image/png;base64,${png}`), "the image reached the model");
  assert(body.includes("some notes"), "the text file was inlined");
  await screenshot(page, `${prefix}-composer-sent`);

  // ---- an image alone (no text) is a message too ----
  assert(await paste(page, { png }), "second image paste handled");
  await allUploaded(page, 1);
  assertEquals(await input(page).inputValue(), "");
  await page.locator("[data-testid=send]:not([disabled])").click();
  const second = page.locator("[data-testid=entry][data-role=user]").nth(1);
  await second.locator("[data-testid=message-image]").waitFor();
  assertEquals(await second.locator(".part-text").count(), 0, "no empty text line");
  await page.locator("[data-testid=final-answer]").nth(1).waitFor();
  await page.locator("[data-testid=send]").waitFor();
  await screenshot(page, `${prefix}-composer-image-only`);

  // ---- steering queue: two messages while the run streams; one removed ----
  // The task's model changes through the server: wait for the label.
  await page.click("[data-testid=model-select]");
  await page.click('[data-testid=model-option][data-value="mock/slowish"]');
  await page.locator("[data-testid=model-label]", { hasText: "slowish" }).waitFor();
  await input(page).fill("start the slow one");
  await input(page).press("Enter");
  await page.locator("[data-testid=stop]").waitFor();
  await input(page).fill("queued one");
  await input(page).press("Enter");
  await input(page).fill("queued two");
  await input(page).press("Enter");
  await page.waitForFunction(() =>
    document.querySelectorAll("[data-testid=queue-chip]").length === 2
  );
  assertEquals(await input(page).inputValue(), "");
  await screenshot(page, `${prefix}-composer-queue`);
  await page.locator("[data-testid=queue-chip]", { hasText: "queued one" })
    .locator("[data-testid=queue-remove]").click();
  await page.waitForFunction(() =>
    document.querySelectorAll("[data-testid=queue-chip]").length === 1
  );
  // The run ends only after the page got both (late) replies, as on a real link, where
  // a reply never arrives after the events that follow it.
  await page.waitForFunction(() =>
    (globalThis as unknown as { __held: string[] }).__held
      .filter((s) => s.startsWith("reply")).length === 2
  );
  mock.release("slow");
  await page.locator("[data-testid=entry][data-role=user]", { hasText: "queued two" }).waitFor({
    timeout: 40_000,
  });
  await page.locator("[data-testid=queue]").waitFor({ state: "detached" });
  await page.locator("[data-testid=send]").waitFor({ timeout: 40_000 });
  assertEquals(
    await page.locator("[data-testid=entry][data-role=user]", { hasText: "queued one" }).count(),
    0,
    "the removed message was never sent",
  );

  // ---- prompt history: ↑ walks back, ↓ returns to what was typed ----
  await input(page).fill("");
  await input(page).focus();
  await page.keyboard.press("ArrowUp");
  await page.waitForFunction(() =>
    (document.querySelector("[data-testid=composer-input]") as HTMLTextAreaElement).value ===
      "queued two"
  );
  await page.keyboard.press("ArrowUp");
  assertEquals(await input(page).inputValue(), "queued one");
  await page.keyboard.press("ArrowUp");
  assertEquals(await input(page).inputValue(), "start the slow one");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  assertEquals(await input(page).inputValue(), "queued two");
  await page.keyboard.press("ArrowDown");
  assertEquals(await input(page).inputValue(), "");
  // Multi-line text: ↑ on the second line only moves the caret.
  await input(page).fill("line one\nline two");
  await page.keyboard.press("ArrowUp");
  assertEquals(await input(page).inputValue(), "line one\nline two");

  // ---- draft autosave: text + attachment survive a reload ----
  await input(page).fill("an unsent draft");
  await page.setInputFiles("[data-testid=attach-input]", {
    name: "draft.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("draft file"),
  });
  await allUploaded(page, 1);
  await savedDraft(url, page.url().split("#/t/")[1], "an unsent draft", 1);
  await page.reload();
  await page.waitForFunction(() =>
    (document.querySelector("[data-testid=composer-input]") as HTMLTextAreaElement)?.value ===
      "an unsent draft"
  );
  await allUploaded(page, 1);
  assertEquals(await chips(page).first().locator(".att-name").innerText(), "draft.txt");
  await screenshot(page, `${prefix}-composer-draft`);

  // ---- drag and drop onto the composer ----
  const dropped = await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(["dropped text"], "dropped.md", { type: "text/markdown" }));
    const form = document.querySelector("[data-testid=composer]")!;
    form.dispatchEvent(
      new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }),
    );
    const ev = new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true });
    form.dispatchEvent(ev);
    return ev.defaultPrevented;
  });
  assert(dropped, "drop handled");
  await allUploaded(page, 2);
  assertEquals(await chips(page).nth(1).locator(".att-name").innerText(), "dropped.md");
}

Deno.test("composer (desktop): attachments, steering queue, history, drafts", async () => {
  const mock = startMock();
  const home = await homeWithMockProvider(mock.base, ["vision-echo", "slowish"]);
  try {
    await withPage(DESKTOP, (page, server) => flow(page, server.url, mock, "desktop"), { home });
  } finally {
    await mock.close();
  }
});

Deno.test("composer (phone): attachments, steering queue, history, drafts", async () => {
  const mock = startMock();
  const home = await homeWithMockProvider(mock.base, ["vision-echo", "slowish"]);
  try {
    await withPage(PHONE, async (page, server) => {
      await flow(page, server.url, mock, "phone");
      // Touch targets of the new controls are at least 44 px on a phone.
      for (const id of ["attach", "attachment-remove"]) {
        const box = await page.locator(`[data-testid=${id}]`).first().boundingBox();
        assert(box && box.height >= 44 && box.width >= 44, `${id} is ${box?.width}×${box?.height}`);
      }
      await page.setViewportSize({ width: 360, height: 780 });
      await noHorizontalScroll(page, 360);
    }, { home });
  } finally {
    await mock.close();
  }
});
