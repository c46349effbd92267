/**
 * The first load of the UI on a slow phone connection: headless Chromium with its
 * network emulated through the DevTools protocol (150 ms round trip, 1.6 Mbit/s down,
 * 750 kbit/s up, cache disabled) opens the app with a provider set up and waits for a
 * composer that takes input. It prints what was sent before that moment (scripts and
 * stylesheets, raw and as sent on the wire, i.e. gzipped) and the time from navigation
 * to a usable composer (median of the runs).
 *
 * Budgets: ≤ 100 KB as sent for the first screen, a usable composer in ≤ 1.5 s.
 *
 * Usage: deno task bench:first-load [--runs 3] [--json]
 */
import { chromium } from "playwright-core";
import { startTestServer } from "../tests/helpers/server.ts";
import { homeWithProvider } from "../tests/helpers/seed.ts";
import { CHROMIUM_ARGS, findChromium } from "../tests/e2e/browser.ts";

/** Chromium's "Slow 4G"-like profile the budget is stated for. */
export const MOBILE_PROFILE = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};

export interface FirstLoad {
  /** Scripts and stylesheets fetched before the composer was usable. */
  files: { url: string; raw: number; sent: number }[];
  raw: number;
  sent: number;
  usableMs: number[];
}

const KB = (n: number) => (n / 1024).toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchFirstLoad(runs = 3): Promise<FirstLoad | null> {
  const exe = findChromium();
  if (!exe) {
    console.log("bench:first-load skipped: no Chromium (set CHROMIUM_PATH)");
    return null;
  }
  const home = await homeWithProvider("http://127.0.0.1:9", ["m"]);
  const server = await startTestServer({ home });
  const browser = await chromium.launch({ executablePath: exe, args: CHROMIUM_ARGS });
  const usableMs: number[] = [];
  let files: FirstLoad["files"] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      // Stamps the moment the composer exists, is shown and takes input.
      await page.addInitScript(() => {
        const w = globalThis as unknown as { __usable?: number };
        const ready = () => {
          const el = document.querySelector<HTMLTextAreaElement>("[data-testid=composer-input]");
          return el && !el.disabled && el.offsetWidth > 0;
        };
        const mo = new MutationObserver(() => {
          if (w.__usable === undefined && ready()) {
            w.__usable = performance.now();
            mo.disconnect();
          }
        });
        mo.observe(document, { childList: true, subtree: true, attributes: true });
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await cdp.send("Network.emulateNetworkConditions", MOBILE_PROFILE);
      const byId = new Map<string, { url: string; type: string; raw: number; sent: number }>();
      cdp.on("Network.responseReceived", (e) => {
        byId.set(e.requestId, { url: e.response.url, type: e.type, raw: 0, sent: 0 });
      });
      cdp.on("Network.dataReceived", (e) => {
        const r = byId.get(e.requestId);
        if (r) r.raw += e.dataLength;
      });
      cdp.on("Network.loadingFinished", (e) => {
        const r = byId.get(e.requestId);
        if (r) r.sent = e.encodedDataLength;
      });
      await page.goto(server.url);
      await page.waitForFunction(() =>
        (globalThis as unknown as { __usable?: number }).__usable !== undefined
      );
      usableMs.push(
        await page.evaluate(() => (globalThis as unknown as { __usable: number }).__usable),
      );
      files = [...byId.values()]
        .filter((r) => r.type === "Script" || r.type === "Stylesheet" || r.type === "Document")
        .map((r) => ({ url: new URL(r.url).pathname, raw: r.raw, sent: r.sent }));
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    await Deno.remove(home, { recursive: true });
  }
  const raw = files.reduce((n, f) => n + f.raw, 0);
  const sent = files.reduce((n, f) => n + f.sent, 0);
  return { files, raw, sent, usableMs };
}

export function reportFirstLoad(r: FirstLoad): string[] {
  const t = median(r.usableMs);
  return [
    ...r.files.map((f) => `  ${f.url}: ${KB(f.raw)} KB raw, ${KB(f.sent)} KB sent`),
    `first load (page, scripts, styles before a usable composer): ${KB(r.raw)} KB raw, ${
      KB(r.sent)
    } KB sent (budget 100 KB sent) ${r.sent <= 100 * 1024 ? "OK" : "OVER"}`,
    `usable composer at 150 ms RTT / 1.6 Mbit/s: median ${t.toFixed(0)} ms (runs ${
      r.usableMs.map((x) => x.toFixed(0)).join(", ")
    }) (budget 1500 ms) ${t <= 1500 ? "OK" : "OVER"}`,
  ];
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--runs");
  const r = await benchFirstLoad(i >= 0 ? Number(Deno.args[i + 1]) : 3);
  if (r) {
    if (Deno.args.includes("--json")) console.log(JSON.stringify(r));
    for (const line of reportFirstLoad(r)) console.log(line);
  }
}
