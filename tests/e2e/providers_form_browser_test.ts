/**
 * Settings → Providers tells the truth, in a real (headless)
 * Chromium against the real server and the mock LLM: "Add provider" (and a preset)
 * opens a form that stores nothing until Save — Cancel and Esc leave no "New provider
 * N" behind, problems are shown next to their field (checked here and by the server);
 * fetched models (which start disabled) offer "Enable all", done in one request.
 * Desktop 1280×800 and phone 390×844. Screenshots:
 * test-output/screenshots/{desktop,phone}-providers-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { TestClient } from "../helpers/ws_client.ts";
import type { TestServer } from "../helpers/server.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const tid = (id: string) => `[data-testid=${id}]`;

/** Provider ids the server has (asked directly, not through the page). */
async function storedIds(server: TestServer): Promise<string[]> {
  const c = await TestClient.connect(server.base, server.token);
  try {
    return ((await c.request("providers.list")).providers as { id: string }[]).map((p) => p.id);
  } finally {
    await c.close();
  }
}

async function openProviders(page: Page, url: string, phone: boolean): Promise<void> {
  await openApp(page, url);
  if (phone) await page.click(tid("open-drawer"));
  await page.click(tid("open-settings"));
  await page.waitForSelector(tid("provider-item"));
}

async function assertTouch(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox();
  assert(box && box.width >= 44 && box.height >= 44, `${selector} < 44 px: ${JSON.stringify(box)}`);
}

Deno.test(
  "add provider (desktop): a form, saved only on Save, errors at their field; Enable all",
  async () => {
    const mock = startMockLlm({ quiet: true });
    try {
      await withPage(DESKTOP, async (page, server) => {
        const sent: string[] = [];
        page.on("websocket", (ws) => ws.on("framesent", (f) => sent.push(String(f.payload))));
        await openProviders(page, server.url, false);

        // Cancel: nothing stored, no "New provider 1".
        await page.click(tid("add-provider"));
        const form = page.locator(tid("provider-form"));
        await form.waitFor();
        assertEquals(await storedIds(server), ["demo"], "stored before Save");
        await page.click(tid("provider-form-cancel"));
        await form.waitFor({ state: "detached" });
        assertEquals(await page.locator(tid("provider-item")).count(), 1);
        assertEquals(await storedIds(server), ["demo"]);

        // Save with problems: each shown at its field, nothing stored.
        await page.click(tid("add-provider"));
        await page.fill(tid("provider-form-base-url"), "ftp://wrong.example");
        await page.click(tid("provider-form-save"));
        assertEquals(
          await page.locator(tid("provider-form-name-error")).innerText(),
          "Give the provider a name.",
        );
        assertMatch(
          await page.locator(tid("provider-form-base-url-error")).innerText(),
          /must start with http:\/\/ or https:\/\//,
        );
        await page.fill(tid("provider-form-name"), "Gateway");
        await page.fill(tid("provider-form-base-url"), mock.base);
        await page.fill(tid("provider-form-key"), "sk bad key");
        await page.click(tid("provider-form-save"));
        // The server's own check, shown at the key field.
        assertMatch(
          await page.locator(tid("provider-form-key-error")).innerText(),
          /API key must be printable ASCII/,
        );
        assertEquals(await page.locator(tid("provider-form-name-error")).count(), 0);
        await screenshot(page, "desktop-providers-form");
        assertEquals(await storedIds(server), ["demo"], "stored despite the errors");

        await page.fill(tid("provider-form-key"), "sk-gateway-1234");
        await page.click(tid("provider-form-save"));
        await page.locator(`${tid("provider-title")} >> text=Gateway`).waitFor();
        assertEquals(await storedIds(server), ["demo", "gateway"]);
        assertMatch(
          (await page.locator(tid("provider-key")).getAttribute("placeholder"))!,
          /^Saved:/,
        );

        // A preset prefills the form; Esc cancels it.
        await page.click(tid("add-from-preset"));
        await page.click(tid("preset-deepseek"));
        assertEquals(await page.locator(tid("provider-form-name")).inputValue(), "DeepSeek");
        assertEquals(
          await page.locator(tid("provider-form-base-url")).inputValue(),
          "https://api.deepseek.com",
        );
        await page.locator(tid("provider-form-name")).press("Escape");
        await form.waitFor({ state: "detached" });
        assertEquals(await storedIds(server), ["demo", "gateway"]);

        // Fetched models start disabled: Enable all, in one request.
        await page.click(`${tid("provider-item")}[data-provider-id=gateway]`);
        await page.click(tid("fetch-models"));
        await page.waitForSelector(tid("fetch-status"));
        const switches = page.locator(tid("model-enabled"));
        const total = await switches.count();
        assert(total >= 2, `only ${total} models fetched`);
        const all = page.locator(tid("enable-all-models"));
        assertEquals(await all.innerText(), `Enable all (${total})`);
        await screenshot(page, "desktop-providers-fetched");
        sent.length = 0;
        await all.click();
        await all.waitFor({ state: "detached" });
        assertEquals(
          await switches.evaluateAll((els) => els.every((e) => (e as HTMLInputElement).checked)),
          true,
        );
        assertEquals(sent.filter((f) => f.includes('"models.setEnabled"')).length, 1);
        assertEquals(sent.filter((f) => f.includes('"models.update"')).length, 0);
        await screenshot(page, "desktop-providers-enabled");
      });
    } finally {
      await mock.close();
    }
  },
);

Deno.test(
  "add provider (phone 390×844): the form is the detail step; Save stores it",
  async () => {
    const mock = startMockLlm({ quiet: true });
    try {
      await withPage(PHONE, async (page, server) => {
        await openProviders(page, server.url, true);
        await page.click(tid("add-provider"));
        await page.locator(tid("provider-form")).waitFor();
        assertEquals(await page.locator(tid("provider-item")).isVisible(), false, "form step");
        for (const id of ["provider-form-save", "provider-form-cancel", "back-to-providers"]) {
          await assertTouch(page, tid(id));
        }
        await page.click(tid("provider-form-save"));
        await page.locator(tid("provider-form-name-error")).waitFor();
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-providers-form");
        await page.click(tid("back-to-providers"));
        await page.locator(tid("provider-form")).waitFor({ state: "detached" });
        assertEquals(await storedIds(server), ["demo"]);

        await page.click(tid("add-provider"));
        await page.fill(tid("provider-form-name"), "Phone gateway");
        await page.fill(tid("provider-form-base-url"), mock.base);
        await page.click(tid("provider-form-save"));
        await page.locator(`${tid("provider-title")} >> text=Phone gateway`).waitFor();
        assertEquals(await storedIds(server), ["demo", "phone-gateway"]);
        await page.click(tid("fetch-models"));
        await page.waitForSelector(tid("fetch-status"));
        await assertTouch(page, tid("enable-all-models"));
        await page.click(tid("enable-all-models"));
        await page.locator(tid("enable-all-models")).waitFor({ state: "detached" });
        await noHorizontalScroll(page, PHONE.width);
        await screenshot(page, "phone-providers-enabled");
      });
    } finally {
      await mock.close();
    }
  },
);
