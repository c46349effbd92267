/**
 * The composer's model chip and effort menu tell the truth, in a
 * real (headless) Chromium against the real server and the mock LLM: the effort menu
 * offers exactly the levels a model declares (the general four otherwise, Default
 * only for the scripted Demo), shows and sends the level the run really uses, and
 * explains the step budget; the model chip names "Provider / model", drops the
 * provider first when narrow and never shrinks to one letter on a phone, with the
 * full name in its tooltip and in the sheet. Screenshots:
 * test-output/screenshots/{desktop,phone}-chips-*.png.
 */
import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { Store } from "../../store/store.ts";
import { noHorizontalScroll, openApp, screenshot, withPage } from "./browser.ts";
import { lastTurn, pickModel, send, strip } from "./run_helpers.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const LONG = "a-very-long-model-name-for-testing-2025-preview";
const tid = (id: string) => `[data-testid=${id}]`;

function startMock() {
  const mock = startMockLlm({ quiet: true });
  mock.register("deep-think", { turns: [{ text: "Thought hard." }], repeatLast: true });
  mock.register(LONG, {
    turns: [{ text: "hello" }, { text: "tick ".repeat(600), chunk: 5, delayMs: 30 }],
    repeatLast: true,
  });
  return mock;
}

/** Provider "Mock": `deep-think` declares Low/High/Max (default High); LONG declares none. */
async function seedHome(base: string): Promise<string> {
  const home = await homeWithProvider(base, ["deep-think", LONG]);
  const store = new Store(`${home}/reinagent.db`);
  const p = store.repos!.providers.get("mock")!;
  store.repos!.providers.put({
    ...p,
    models: p.models.map((m) =>
      m.id === "deep-think"
        ? { ...m, name: "Deep Think", effortLevels: ["low", "high", "max"], defaultEffort: "high" }
        : m
    ),
  });
  store.close();
  return home;
}

const optionValues = (page: Page) =>
  page.locator(tid("effort-option")).evaluateAll((els) =>
    els.map((e) => e.getAttribute("data-value"))
  );

/** Picks a model (in a task the label follows the server's answer: wait for it). */
async function chooseModel(page: Page, value: string, label: string): Promise<void> {
  await page.click(tid("model-select"));
  await page.click(`${tid("model-option")}[data-value="${value}"]`);
  await page.waitForFunction(
    (want) => document.querySelector("[data-testid=model-label]")?.textContent === want,
    label,
  );
}

async function openEffort(page: Page): Promise<void> {
  await page.click(tid("effort-select"));
  await page.locator(tid("effort-select-menu")).waitFor();
  // The menu takes its keys (Escape) once it has focused its item: wait for that, or a
  // key pressed in between (a loaded machine) is lost.
  await page.waitForFunction(() =>
    document.querySelector("[data-testid=effort-select-menu]")?.contains(document.activeElement)
  );
}

async function closeMenu(page: Page, testid: string): Promise<void> {
  await page.keyboard.press("Escape");
  await page.locator(tid(`${testid}-menu`)).waitFor({ state: "detached" });
}

Deno.test(
  "effort menu (desktop): only declared levels, the level really used, the step budget explained",
  async () => {
    const mock = startMock();
    const home = await seedHome(mock.base);
    try {
      await withPage(DESKTOP, async (page, server) => {
        await openApp(page, server.url);
        await page.waitForSelector(tid("empty-state"));
        // A model that declares Low/High/Max: the system default "Default" is not one of
        // them, so the model's own default (High) is shown — and sent.
        await pickModel(page, "mock/deep-think", "Deep Think");
        assertEquals(await page.locator(tid("effort-label")).innerText(), "High");
        assertEquals(await page.locator(tid("steps-badge")).innerText(), "400");
        await openEffort(page);
        assertEquals(await optionValues(page), ["low", "high", "max"]);
        assertEquals(
          await page.locator(`${tid("effort-option")}[aria-checked=true]`).getAttribute(
            "data-value",
          ),
          "high",
        );
        const note = page.locator(tid("effort-note"));
        assertMatch(await note.innerText(), /step budget: how many agent steps/);
        assertMatch(await note.innerText(), /levels this model declares/);
        await screenshot(page, "desktop-chips-effort-declared");
        await closeMenu(page, "effort-select");
        await send(page, "Think about it");
        await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor();
        // (The other request to the model makes the title: no tools, effort off.)
        const turn = mock.requests("deep-think").filter((r) => Array.isArray(r.body.tools));
        assertEquals(turn.map((r) => r.body.reasoning_effort), ["high"]);

        // A model that declares none: the general four, said so.
        await chooseModel(page, `mock/${LONG}`, LONG);
        await openEffort(page);
        assertEquals(await optionValues(page), ["default", "low", "medium", "high"]);
        assertMatch(await page.locator(tid("effort-source")).innerText(), /declares no levels/);
        await screenshot(page, "desktop-chips-effort-undeclared");
        await closeMenu(page, "effort-select");

        // The scripted Demo declares only Default.
        await chooseModel(page, "demo/demo", "Demo");
        await openEffort(page);
        assertEquals(await optionValues(page), ["default"]);
        await closeMenu(page, "effort-select");

        // The model chip: "Mock / name" on a wide composer, the full name in the tooltip.
        await chooseModel(page, `mock/${LONG}`, LONG);
        const chip = page.locator(tid("model-select"));
        assertEquals(await chip.getAttribute("title"), `Model: Mock / ${LONG}`);
        assert(await page.locator(tid("model-provider")).isVisible(), "no provider on desktop");
        await screenshot(page, "desktop-chips-model");
      }, { home });
    } finally {
      await mock.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);

/** Widths and overlap of the composer bar's controls. */
const barLayout = (page: Page) =>
  page.evaluate(() => {
    const box = (sel: string) => document.querySelector(sel)?.getBoundingClientRect() ?? null;
    const label = box("[data-testid=model-label]")!;
    const chip = box("[data-testid=model-select]")!;
    const effort = box("[data-testid=effort-select]")!;
    return { label: label.width, chipRight: chip.right, effortLeft: effort.left };
  });

Deno.test(
  "model chip (phone 390×844): never one letter, not even while a run shows Send and Stop",
  async () => {
    const mock = startMock();
    const home = await seedHome(mock.base);
    try {
      await withPage(PHONE, async (page, server) => {
        await openApp(page, server.url);
        await page.click(
          `${tid("new-task")}, ${tid("header-new-task")}, ${tid("home-new-task")} >> visible=true`,
        );
        await page.waitForSelector(tid("empty-state"));
        await pickModel(page, `mock/${LONG}`, LONG);
        await send(page, "hi");
        await strip(lastTurn(page)).and(page.locator("[data-state=done]")).waitFor();
        let l = await barLayout(page);
        assert(l.label >= 60, `model name squeezed to ${l.label}px`);
        assert(
          l.chipRight <= l.effortLeft + 0.5,
          `chip overlaps the effort button: ${JSON.stringify(l)}`,
        );

        // A run with a message typed: Send (queue) and Stop both show.
        await send(page, "go on");
        await page.locator(tid("stop")).waitFor();
        await page.locator(tid("composer-input")).fill("more please");
        await page.locator(tid("send")).waitFor();
        l = await barLayout(page);
        assert(l.label >= 60, `model name squeezed to ${l.label}px while running`);
        assert(
          l.chipRight <= l.effortLeft + 0.5,
          `chip overlaps while running: ${JSON.stringify(l)}`,
        );
        await noHorizontalScroll(page, PHONE.width);
        for (const id of ["model-select", "effort-select", "approval-select", "send", "stop"]) {
          const b = (await page.locator(tid(id)).boundingBox())!;
          assert(b.width >= 44 && b.height >= 44, `${id} < 44 px: ${JSON.stringify(b)}`);
        }
        await screenshot(page, "phone-chips-model-running");
        await page.click(tid("stop"));
        await strip(lastTurn(page)).and(page.locator("[data-state=stopped]")).waitFor();

        // The sheet shows the whole name of the chosen model, uncut.
        await page.click(tid("model-select"));
        const current = page.locator(`${tid("model-option")}[aria-checked=true] .mi-title`);
        assertEquals(await current.innerText(), LONG);
        const cut = await current.evaluate((e) => e.scrollWidth > e.clientWidth + 1);
        assertEquals(cut, false, "the sheet cuts the model's name");
        await screenshot(page, "phone-chips-model-sheet");
        await closeMenu(page, "model-select");

        await openEffort(page);
        assert(await page.locator(tid("effort-note")).isVisible(), "no step-budget note");
        await screenshot(page, "phone-chips-effort");
      }, { home });
    } finally {
      await mock.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);
