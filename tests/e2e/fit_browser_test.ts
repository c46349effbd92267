/**
 * Every screen fits at 1280×800 and on a phone (390×844): with the right panel open the
 * header keeps room for the task's title and the composer's controls do not run into
 * each other or past the card; a running task's composer on a phone shows the model's
 * whole name and keeps the context ring clear of Stop; tasks that finish elsewhere make
 * one banner, not a stack, which goes by itself; every Settings tab is on screen; the
 * phone's task list shows titles, not action icons; the composer's placeholder is not
 * cut. Screenshots: fit-*.png.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { homeWithProvider } from "../helpers/seed.ts";
import { TestClient } from "../helpers/ws_client.ts";
import { startMockLlm } from "../../scripts/mock-llm.ts";
import { drawerShown, screenshot, watchErrors, withBrowserServer } from "./browser.ts";
import { DESKTOP, PHONE } from "./approval_helpers.ts";

const tid = (id: string) => `[data-testid=${id}]`;

type Box = { name: string; x: number; y: number; w: number; h: number };

async function newPage(browser: Browser, viewport: typeof DESKTOP, phone = false) {
  const context = await browser.newContext({
    viewport,
    locale: "en-US",
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  return { page, errors: watchErrors(page) };
}

/** The shown controls of the composer's bar and toolbar, and the card around them. */
function composerBoxes(page: Page): Promise<{ card: Box; items: Box[] }> {
  return page.evaluate(() => {
    const box = (el: Element, name: string) => {
      const r = el.getBoundingClientRect();
      return { name, x: r.left, y: r.top, w: r.width, h: r.height };
    };
    const card = document.querySelector(".composer-card")!;
    const bar = card.querySelector(".composer-bar")!;
    const items: ReturnType<typeof box>[] = [];
    for (const el of [...bar.children, ...bar.querySelector(".composer-tools")!.children]) {
      if (el.classList.contains("composer-tools")) continue;
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none") continue;
      if (r.width === 0 && el.scrollWidth === 0) continue;
      // Placed on purpose elsewhere (the phone's enhance button sits in the text field).
      if (style.position === "absolute" || style.position === "fixed") continue;
      const name = el.getAttribute("data-testid") ??
        el.querySelector("[data-testid]")?.getAttribute("data-testid") ?? el.className;
      // A control squeezed narrower than its content spills over its neighbours.
      const b = box(el, name);
      items.push({ ...b, w: Math.max(b.w, el.scrollWidth) });
    }
    return { card: box(card, "card"), items };
  });
}

/** No two controls overlap and each is inside the card. */
async function composerFits(page: Page, what: string): Promise<void> {
  const { card, items } = await composerBoxes(page);
  for (const a of items) {
    assert(
      a.x >= card.x - 0.5 && a.x + a.w <= card.x + card.w + 0.5,
      `${what}: ${a.name} [${a.x}, ${a.x + a.w}] leaves the card [${card.x}, ${card.x + card.w}]`,
    );
    for (const b of items) {
      if (a === b) continue;
      const overlap = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      assert(
        overlap <= 0.5,
        `${what}: ${a.name} and ${b.name} overlap by ${overlap} px (${
          items.map((i) => `${i.name} ${Math.round(i.x)}+${Math.round(i.w)}`).join(", ")
        })`,
      );
    }
  }
  // Nothing cut inside: a label that needs more room than it has is clipped text.
  const cut = await page.evaluate(() =>
    [...document.querySelectorAll(".composer-bar .tool-label")]
      .filter((el) => (el as HTMLElement).offsetWidth > 0)
      .filter((el) => el.scrollWidth > (el as HTMLElement).clientWidth + 1)
      .map((el) => el.textContent)
  );
  assertEquals(cut, [], `${what}: labels cut`);
}

/** The composer's placeholder fits the text field (it has no scrollbar of its own). */
async function placeholderFits(page: Page, what: string): Promise<void> {
  const r = await page.locator(tid("composer-input")).evaluate((el) => {
    const ta = el as HTMLTextAreaElement;
    const probe = ta.cloneNode() as HTMLTextAreaElement;
    probe.value = ta.placeholder;
    probe.style.width = `${ta.getBoundingClientRect().width}px`;
    probe.style.height = `${ta.getBoundingClientRect().height}px`;
    probe.style.position = "absolute";
    probe.style.visibility = "hidden";
    ta.parentElement!.appendChild(probe);
    const out = { need: probe.scrollHeight, have: probe.clientHeight, text: ta.placeholder };
    probe.remove();
    return out;
  });
  assert(
    r.need <= r.have + 1,
    `${what}: placeholder "${r.text}" needs ${r.need} px, has ${r.have}`,
  );
}

Deno.test(
  "fit: composer with the panel open, a running phone composer, banners, settings, phone list",
  async () => {
    const mock = startMockLlm({ quiet: true });
    mock.register("slow", {
      turns: [{ text: "tick ".repeat(2000), chunk: 5, delayMs: 25 }],
      repeatLast: true,
    });
    mock.register("quick", { turns: [{ text: "Done." }], repeatLast: true });
    const home = await homeWithProvider(mock.base, ["slow", "quick"]);
    try {
      await withBrowserServer({ home }, async (browser, server) => {
        const c = await TestClient.connect(server.base, server.token);
        try {
          const create = async (message: string, modelId: string) =>
            (await c.request<{ task: { id: string } }>("tasks.create", {
              message,
              options: { model: { providerId: "mock", modelId } },
            })).task.id;
          const running = await create(
            "Write a migration plan for the billing database with rollback steps",
            "slow",
          );

          // Desktop, right panel open: the title keeps its room, the composer fits.
          const { page: d, errors: dErr } = await newPage(browser, DESKTOP);
          await d.goto(`${server.url}#/t/${running}`);
          await d.locator(tid("stop")).waitFor();
          await d.click(tid("open-files"));
          await d.locator(tid("right-panel")).waitFor();
          await d.locator(`${tid("right-panel")} ${tid("panel-tabs")}`).waitFor();
          const titleW = await d.locator(tid("header-title")).evaluate((el) =>
            el.getBoundingClientRect().width
          );
          assert(titleW >= 120, `the task's title has ${titleW} px beside the panel`);
          await composerFits(d, "desktop, panel open, running");
          await d.fill(tid("composer-input"), "queue this");
          await d.locator(tid("send")).waitFor();
          await composerFits(d, "desktop, panel open, running, typed");
          await d.fill(tid("composer-input"), "");
          await screenshot(d, "fit-desktop-panel-composer");

          // Phone, running: the model's name whole, the ring clear of Stop.
          const { page: p, errors: pErr } = await newPage(browser, PHONE, true);
          await p.goto(`${server.url}#/t/${running}`);
          await p.locator(tid("stop")).waitFor();
          await composerFits(p, "phone, running");
          await placeholderFits(p, "phone, running");
          await screenshot(p, "fit-phone-running-composer");
          await p.fill(tid("composer-input"), "queue this too");
          await p.locator(tid("send")).waitFor();
          await composerFits(p, "phone, running, typed");
          await screenshot(p, "fit-phone-running-composer-typed");
          await p.fill(tid("composer-input"), "");

          // Three tasks end while the phone shows another: one banner, "+2 more".
          for (const m of ["Summarise the notes", "Bump the version", "Find flaky tests"]) {
            await create(m, "quick");
          }
          await p.waitForFunction(
            () =>
              document.querySelector("[data-testid=notify-banner]")?.getAttribute("data-more") ===
                "2",
            null,
            { timeout: 15_000 },
          );
          assertEquals(await p.locator(tid("notify-banner")).count(), 1, "one banner");
          const bannerH = await p.locator(tid("notify-banner")).evaluate((el) =>
            el.getBoundingClientRect().height
          );
          assert(bannerH <= 60, `the banner is ${bannerH} px high`);
          await screenshot(p, "fit-phone-banner");
          await d.locator(tid("notify-banner")).waitFor();
          await screenshot(d, "fit-desktop-banner");
          // It goes by itself (the sidebar's unread dots stay).
          await p.locator(tid("notify-banner")).waitFor({ state: "detached", timeout: 15_000 });

          // The phone's task list: titles, not three icons per row.
          await p.click("[data-testid=open-drawer] >> visible=true");
          await drawerShown(p);
          const widths = await p.locator(tid("task-title")).evaluateAll((els) =>
            els.map((el) => el.getBoundingClientRect().width)
          );
          assert(widths.every((w) => w >= 150), `phone titles: ${widths.join(", ")} px`);
          assertEquals(
            await p.locator(`${tid("task-row")} ${tid("delete-task")}:visible`).count(),
            0,
          );
          await screenshot(p, "fit-phone-sidebar");
          const row = p.locator(tid("task-row")).first();
          await row.locator(tid("task-more")).click();
          await row.locator(tid("delete-task")).waitFor();
          await screenshot(p, "fit-phone-sidebar-actions");

          // Every Settings tab on screen, at 1280 and on the phone.
          await d.click(tid("panel-close"));
          await d.click(tid("open-settings"));
          await d.locator(tid("settings-view")).waitFor();
          for (
            const [page, w, name] of [[d, DESKTOP.width, "desktop"], [
              p,
              PHONE.width,
              "phone",
            ]] as const
          ) {
            if (name === "phone") {
              await p.click(tid("open-settings"));
              await p.locator(tid("settings-view")).waitFor();
            }
            const off = await page.locator("[role=tab][data-testid^=settings-tab-]").evaluateAll(
              (els, w) =>
                els.map((el) => ({
                  id: el.getAttribute("data-testid"),
                  r: el.getBoundingClientRect(),
                }))
                  .filter(({ r }) => r.left < 0 || r.right > w || r.width < 24)
                  .map(({ id }) => id),
              w,
            );
            assertEquals(off, [], `${name}: settings tabs off screen`);
            await screenshot(page, `fit-${name}-settings-tabs`);
          }
          assertEquals(dErr, [], "desktop page errors");
          assertEquals(pErr, [], "phone page errors");
        } finally {
          await c.close();
        }
      });
    } finally {
      await mock.close();
      await Deno.remove(home, { recursive: true });
    }
  },
);
