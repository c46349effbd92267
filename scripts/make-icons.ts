/**
 * Draws the installable app's PNG icons (192 and 512 px, full-bleed so they also serve
 * as maskable icons: the mark sits inside the central safe zone) from the favicon's
 * mark with the system Chromium, and stores them base64-encoded in ui/icons/ (text
 * imports keep them in the module graph without unstable raw-byte imports).
 *
 *   deno run --allow-all scripts/make-icons.ts
 */
import { chromium } from "playwright-core";
import { findChromium } from "../tests/e2e/browser.ts";

const MARK = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
  <rect width="32" height="32" fill="#4f46e5" />
  <g transform="translate(16 16) scale(0.62) translate(-16 -16)">
    <path d="M10 23V9h7a4.5 4.5 0 0 1 0 9h-7m7 0 5 5" fill="none" stroke="#fff" stroke-width="2.6"
      stroke-linecap="round" stroke-linejoin="round" />
  </g>
</svg>`;

const browser = await chromium.launch({
  executablePath: findChromium() ?? undefined,
  args: ["--no-sandbox", "--headless"],
});
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<body style="margin:0">${MARK.replace("<svg", `<svg width="${size}" height="${size}"`)}`,
    );
    const png = await page.screenshot({ type: "png" });
    const out = new URL(`../ui/icons/icon-${size}.png.b64`, import.meta.url);
    await Deno.writeTextFile(
      out,
      btoa(Array.from(png, (b) => String.fromCharCode(b)).join("")) + "\n",
    );
    console.log(`wrote ${out.pathname} (${png.length} bytes)`);
    await page.close();
  }
} finally {
  await browser.close();
}
