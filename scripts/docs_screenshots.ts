/**
 * The README's two pictures, made the way a new user first sees the app: a fresh data
 * folder with a small workspace, the built-in Demo model asked to look around, shown in
 * headless Chromium at a desktop and at a phone size. Writes docs/images/desktop.png and
 * docs/images/phone.png.
 *
 * Usage: deno task build-ui && deno run -A scripts/docs_screenshots.ts
 */
import { launchBrowser } from "../tests/e2e/browser.ts";
import { startTestServer } from "../tests/helpers/server.ts";

const OUT = new URL("../docs/images/", import.meta.url).pathname;
const tid = (id: string) => `[data-testid=${id}]`;

const home = await Deno.makeTempDir({ prefix: "ra-shots-" });
await Deno.mkdir(`${home}/DefaultProject/src`, { recursive: true });
await Deno.writeTextFile(
  `${home}/DefaultProject/README.md`,
  "# Weather CLI\n\nPrints tomorrow's forecast for a city.\n",
);
await Deno.writeTextFile(
  `${home}/DefaultProject/src/main.ts`,
  'const city = Deno.args[0] ?? "Berlin";\nconsole.log(`Forecast for ${city}: sunny`);\n',
);

const browser = await launchBrowser();
if (!browser) Deno.exit(1);
const server = await startTestServer({ home });
try {
  await Deno.mkdir(OUT, { recursive: true });
  const desktop = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
    colorScheme: "light",
  });
  const page = await desktop.newPage();
  await page.goto(server.url);
  await page.waitForSelector(tid("empty-state"));
  const input = page.locator(tid("composer-input"));
  await input.fill("Show me around this project");
  await input.press("Enter");
  await page.locator(`${tid("turn")} ${tid("turn-status")}[data-state=done]`).last()
    .waitFor({ timeout: 30_000 });
  await page.locator(`${tid("turn")} ${tid("turn-status")} button`).last().click();
  await page.screenshot({ path: `${OUT}desktop.png` });

  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "en-US",
    colorScheme: "light",
  });
  const p = await phone.newPage();
  await p.goto(server.url);
  // The phone starts on its task home; the task opens its conversation.
  await p.locator(tid("home-row")).first().click();
  await p.locator(`${tid("turn")} ${tid("turn-status")}[data-state=done]`).last().waitFor();
  await p.locator(`${tid("turn")} ${tid("turn-status")} button`).last().click();
  await p.screenshot({ path: `${OUT}phone.png` });
  console.log(`wrote ${OUT}desktop.png and ${OUT}phone.png`);
} finally {
  await browser.close();
  await server.stop();
  await Deno.remove(home, { recursive: true });
}
