/**
 * UI performance budgets in headless Chromium against the real server:
 *   - opening a task with 10 000 timeline entries: hash change → first paint of the
 *     timeline (median of 5), budget ≤ 300 ms;
 *   - scrolling through all of it (every page loaded with "Load earlier"), driven
 *     programmatically one step per animation frame: frames per second, budget ≥ 50;
 *   - composer input latency (keydown → the frame after it) while the mock LLM streams
 *     about 1 000 deltas/s into the task on screen: median and p95, budget < 50 ms;
 *   - the first load on a throttled phone connection (scripts/bench_first_load.ts).
 *
 * Usage: deno task bench:ui [--entries 10000] [--json]
 * Numbers taken on a machine busy with other work are pessimistic.
 */
import { chromium, type Page } from "playwright-core";
import { startTestServer } from "../tests/helpers/server.ts";
import { homeWithProvider } from "../tests/helpers/seed.ts";
import { CHROMIUM_ARGS, findChromium } from "../tests/e2e/browser.ts";
import { startMockLlm } from "./mock-llm.ts";
import { seedLongTask } from "./bench_ui_seed.ts";
import { TestClient } from "../tests/helpers/ws_client.ts";
import { benchFirstLoad, reportFirstLoad } from "./bench_first_load.ts";

/** Streams started next to the one on screen, so the server carries ~1 000 deltas/s. */
const EXTRA_STREAMS = 2;

export interface UiBench {
  entries: number;
  firstPaintMs: number[];
  scroll: { fps: number; frames: number; p95FrameMs: number; maxFrameMs: number; px: number };
  input: { medianMs: number; p95Ms: number; maxMs: number; keys: number; deltasPerSec: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** Opens `hash` and resolves with ms from the change to the first painted turn. */
function openAndTimePaint(page: Page, hash: string): Promise<number> {
  return page.evaluate((hash) =>
    new Promise<number>((resolve) => {
      const t0 = performance.now();
      const done = () => {
        // rAF runs before the frame is painted; a task queued from it runs after.
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
      };
      const mo = new MutationObserver(() => {
        if (document.querySelector("[data-testid=turn]")) {
          mo.disconnect();
          done();
        }
      });
      mo.observe(document.body, { childList: true, subtree: true });
      location.hash = hash;
    }), hash);
}

async function firstPaint(page: Page, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    await page.evaluate(() => (location.hash = "#/t/t-small"));
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=timeline-list]")?.getAttribute("data-turns") === "1" &&
      document.querySelectorAll("[data-testid=turn]").length === 1
    );
    await page.waitForTimeout(150);
    out.push(await openAndTimePaint(page, "#/t/t-bench"));
    await page.waitForTimeout(150);
  }
  return out;
}

async function loadEverything(page: Page): Promise<void> {
  const more = page.locator("[data-testid=load-earlier]");
  for (let i = 0; i < 100 && await more.count(); i++) {
    await page.locator("[data-testid=timeline]").evaluate((el) => (el.scrollTop = 0));
    await more.click();
    await page.waitForFunction(() =>
      !document.querySelector("[data-testid=load-earlier][aria-busy=true]")
    );
  }
}

function scrollThrough(page: Page, ms: number, step: number) {
  return page.evaluate(
    ({ ms, step }) =>
      new Promise<{ frames: number[]; px: number }>((resolve) => {
        const el = document.querySelector<HTMLElement>("[data-testid=timeline]")!;
        el.scrollTop = 0;
        const frames: number[] = [];
        let last = 0, start = 0, px = 0;
        const tick = (now: number) => {
          if (!start) start = now;
          else frames.push(now - last);
          last = now;
          const before = el.scrollTop;
          el.scrollTop = before + step;
          px += el.scrollTop - before;
          if (now - start < ms) requestAnimationFrame(tick);
          else resolve({ frames, px });
        };
        requestAnimationFrame(tick);
      }),
    { ms, step },
  );
}

async function inputLatency(page: Page, keys: number): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __lat: number[] };
    w.__lat = [];
    addEventListener("keydown", (e) => {
      const t = e.timeStamp;
      requestAnimationFrame(() => setTimeout(() => w.__lat.push(performance.now() - t), 0));
    }, { capture: true });
  });
  const input = page.locator("[data-testid=composer-input]");
  await input.click();
  for (let i = 0; i < keys; i++) {
    await page.keyboard.press(i % 10 === 9 ? "Backspace" : "a");
    await page.waitForTimeout(40);
  }
  await page.waitForTimeout(200);
  return await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat);
}

export async function benchUi(entries = 10_000): Promise<UiBench | null> {
  const exe = findChromium();
  if (!exe) {
    console.log("bench:ui skipped: no Chromium (set CHROMIUM_PATH)");
    return null;
  }
  const mock = startMockLlm({ quiet: true });
  // ~1 000 deltas/s: 2 characters per chunk, one chunk per millisecond.
  mock.register("stream", { turns: [{ text: "lorem ipsum ".repeat(4000), chunk: 2, delayMs: 1 }] });
  const home = await homeWithProvider(mock.base, ["stream"]);
  seedLongTask(home, { id: "t-bench", title: "10k entries", count: entries });
  seedLongTask(home, { id: "t-small", title: "small", count: 6 });
  const server = await startTestServer({ home });
  const browser = await chromium.launch({ executablePath: exe, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url);
    await page.waitForSelector("[data-testid=sidebar] .task-section, [data-testid=no-tasks]", {
      state: "attached",
    });
    await openAndTimePaint(page, "#/t/t-bench"); // warm-up (code, fonts, caches)
    const firstPaintMs = await firstPaint(page, 5);

    await loadEverything(page);
    const loaded = await page.locator("[data-testid=timeline-list]").getAttribute("data-turns");
    const s = await scrollThrough(page, 4000, 240);
    const total = s.frames.reduce((a, b) => a + b, 0);
    const scroll = {
      fps: s.frames.length / (total / 1000),
      frames: s.frames.length,
      p95FrameMs: pct(s.frames, 0.95),
      maxFrameMs: Math.max(...s.frames),
      px: Math.round(s.px),
    };
    console.error(`(scrolled ${scroll.px} px through ${loaded} turns)`);

    // Stream into the task on screen (and into others at the same time, for ~1 000
    // deltas/s in total), then type in its composer.
    const client = await TestClient.connect(server.base, server.token);
    const extra: { id: string; t0: number }[] = [];
    for (let k = 0; k < EXTRA_STREAMS; k++) {
      const r = await client.request("tasks.create", {
        message: "stream in the background",
        options: { model: { providerId: "mock", modelId: "stream" } },
      });
      extra.push({ id: r.task.id, t0: Date.now() });
    }
    await page.click("[data-testid=new-task], [data-testid=header-new-task] >> visible=true");
    await page.click("[data-testid=model-select]");
    await page.click(`[data-testid=model-option][data-value="mock/stream"]`);
    const input = page.locator("[data-testid=composer-input]");
    await input.fill("stream please");
    await input.press("Enter");
    await page.locator("[data-testid=turn-status]").first().waitFor();
    await page.waitForFunction(() =>
      (document.querySelector("[data-testid=turn]")?.textContent ?? "").includes("lorem ipsum")
    );
    const len0 = await page.evaluate(() =>
      document.querySelector("[data-testid=turn]")?.textContent?.length ?? 0
    );
    const tA = Date.now();
    const lat = await inputLatency(page, 60);
    const len1 = await page.evaluate(() =>
      document.querySelector("[data-testid=turn]")?.textContent?.length ?? 0
    );
    let deltasPerSec = (len1 - len0) / 2 / ((Date.now() - tA) / 1000);
    for (const x of extra) {
      const snap = await client.request("task.subscribe", { id: x.id });
      const chars = snap.entries.filter((e: { role: string }) => e.role === "assistant")
        .flatMap((e: { parts: { text?: string }[] }) => e.parts)
        .reduce((n: number, p: { text?: string }) => n + (p.text?.length ?? 0), 0);
      deltasPerSec += chars / 2 / ((Date.now() - x.t0) / 1000);
      await client.request("task.stop", { id: x.id });
    }
    await client.close();
    const input_ = {
      medianMs: median(lat),
      p95Ms: pct(lat, 0.95),
      maxMs: Math.max(...lat),
      keys: lat.length,
      deltasPerSec: Math.round(deltasPerSec),
    };
    return { entries, firstPaintMs, scroll, input: input_ };
  } finally {
    await browser.close();
    await server.stop();
    await mock.close();
    await Deno.remove(home, { recursive: true });
  }
}

/** One line per budget, as `scripts/bench.ts` prints them. */
export function reportUi(r: UiBench): string[] {
  const fp = median(r.firstPaintMs);
  return [
    `open task with ${r.entries} entries → first paint: median ${fp.toFixed(0)} ms (runs ${
      r.firstPaintMs.map((x) => x.toFixed(0)).join(", ")
    }) (budget 300 ms) ${fp <= 300 ? "OK" : "OVER"}`,
    `scrolling through ${r.entries} entries: ${
      r.scroll.fps.toFixed(1)
    } fps over ${r.scroll.frames} frames, p95 frame ${r.scroll.p95FrameMs.toFixed(1)} ms, worst ${
      r.scroll.maxFrameMs.toFixed(0)
    } ms (budget ≥ 50 fps) ${r.scroll.fps >= 50 ? "OK" : "UNDER"}`,
    `composer input latency while streaming ~${r.input.deltasPerSec} deltas/s (${
      EXTRA_STREAMS + 1
    } streams, one on screen): median ${r.input.medianMs.toFixed(1)} ms, p95 ${
      r.input.p95Ms.toFixed(1)
    } ms, worst ${r.input.maxMs.toFixed(0)} ms over ${r.input.keys} keys (budget < 50 ms) ${
      r.input.p95Ms < 50 ? "OK" : "OVER"
    }`,
  ];
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--entries");
  const n = i >= 0 ? Number(Deno.args[i + 1]) : 10_000;
  const r = await benchUi(n);
  if (r) {
    if (Deno.args.includes("--json")) console.log(JSON.stringify(r));
    for (const line of reportUi(r)) console.log(line);
  }
  const first = await benchFirstLoad();
  if (first) { for (const line of reportFirstLoad(first)) console.log(line); }
}
