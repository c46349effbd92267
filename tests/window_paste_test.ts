/**
 * Pasting a clipboard image in the native WebKitGTK window, with real processes on a
 * real X server (Xvfb): a PNG is put on the X clipboard (xclip), the user presses
 * Ctrl+V (XTest) in the composer, and the image becomes an uploaded attachment (WebKit
 * alone gives the page's paste event no image; the window hands it over). A page that
 * asks for the clipboard without a paste key is refused, once per key press, and a text
 * paste still goes into the text box. Screenshots go to test-output/screenshots/.
 * Without WebKitGTK, Xvfb or xclip these skip loudly, unless REINAGENT_REQUIRE_BROWSER=1.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import {
  clickAt,
  desktopTest,
  desktopToolsMissing,
  listWindows,
  pressChord,
  screenshotScreen,
  sleep,
  type XDisplay,
} from "./helpers/xvfb.ts";
import { which } from "../server/window/backend.ts";
import { startWindowChild } from "../server/window/native/spawn.ts";
import { parsePageMessage } from "../server/window/native/page_bridge.ts";
import { isPasteKey } from "../server/window/native/clipboard_image.ts";
import { pngOfReply } from "../ui/state/native_paste.js";
import { COMPOSER_LIMITS } from "../protocol/index.ts";

const MISSING = [...desktopToolsMissing(), ...(which("xclip") ? [] : ["xclip (xclip)"])];
/** A desktop test that also needs xclip (it owns the clipboard). */
const pasteTest = (name: string, fn: (d: XDisplay) => Promise<void>) =>
  desktopTest(name, fn, MISSING);

async function until<T>(
  f: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  what: string,
  ms = 20_000,
) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await f();
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A 64×48 PNG: blue with a yellow disc (ImageMagick), to recognise after the trip. */
async function testPng(dir: string): Promise<string> {
  const path = `${dir}/clip.png`;
  const out = await new Deno.Command("convert", {
    args: ["-size", "64x48", "xc:#3366cc", "-fill", "#ffcc00", "-draw", "circle 32,24 32,10", path],
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  return path;
}

/** A 2000×2000 PNG of noise: past the 10 MB image limit however it is encoded. */
async function noisePng(dir: string): Promise<string> {
  const path = `${dir}/noise.png`;
  const out = await new Deno.Command("convert", {
    args: ["-size", "2000x2000", "xc:", "+noise", "Random", "-depth", "8", path],
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  assert((await Deno.stat(path)).size > COMPOSER_LIMITS.imageBytes);
  return path;
}

/** Puts content on the X clipboard; xclip stays as its owner until the display ends. */
async function toClipboard(display: string, mime: string, file: string) {
  const out = await new Deno.Command("xclip", {
    args: ["-display", display, "-selection", "clipboard", "-t", mime, "-i", file],
    // Not piped: the owner xclip forks would hold the pipe open until the display ends.
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  assert(out.success, `xclip -t ${mime} failed`);
  await sleep(200);
}

/** "WIDTHxHEIGHT #RRGGBB" of a PNG's size and its centre pixel. */
async function describePng(path: string): Promise<string> {
  const out = await new Deno.Command("convert", {
    args: [path, "-format", "%wx%h #%[hex:p{32,24}]", "info:"],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim().slice(0, 17);
}

/** Share 0–1 of a screenshot's region in the test image's yellow. */
async function yellowShare(
  png: string,
  r: { x: number; y: number; width: number; height: number },
): Promise<number> {
  const out = await new Deno.Command("convert", {
    args: [
      png,
      ...["-crop", `${r.width}x${r.height}+${r.x}+${r.y}`, "-fuzz", "8%"],
      ...["-fill", "black", "+opaque", "#ffcc00", "-fill", "white", "-opaque", "#ffcc00"],
      ...["-colorspace", "Gray", "-format", "%[fx:mean]", "info:"],
    ],
    stdout: "piped",
  }).output();
  return Number(new TextDecoder().decode(out.stdout).trim());
}

const appWindow = async (display: string) =>
  (await listWindows(display)).find((w) => w.title === "ReinAgent" && w.width > 100);

pasteTest(
  "window paste: the page's request for the clipboard image is answered only after Ctrl+V (once), with the PNG; a text paste still goes into the text box",
  async (d) => {
    const reports: Record<string, string> = {};
    const page =
      `<!doctype html><textarea id="t" style="position:fixed;inset:0;width:100%;height:100%"></textarea><script>
const report = (k, v) => fetch("/report?" + k, { method: "POST", body: JSON.stringify(v) });
// The bridge is injected at the document's end: after this script.
addEventListener("load", () => reinagentNative.clipboardImage().then((r) => report("unasked", r)));
const t = document.getElementById("t");
let pastes = 0;
t.addEventListener("input", () => report("text", t.value));
t.addEventListener("paste", async (e) => {
  const d = e.clipboardData;
  report("event" + (pastes + 1), { types: [...d.types], files: d.files.length });
  if (d.getData("text/plain")) return;
  e.preventDefault(); // as the composer does: WebKit would work long on a large image for nothing
  const first = await reinagentNative.clipboardImage();
  const second = await reinagentNative.clipboardImage();
  pastes++;
  report("image" + pastes, first);
  report("again" + pastes, second);
});
</script>`;
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
      const u = new URL(req.url);
      if (u.pathname === "/report") {
        reports[u.search.slice(1)] = await req.text();
        return new Response("ok");
      }
      return new Response(page, { headers: { "content-type": "text/html" } });
    });
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    const oldDisplay = Deno.env.get("DISPLAY");
    Deno.env.set("DISPLAY", d.name);
    let loaded = false;
    const r = await startWindowChild(
      { kind: "webkitgtk", url: `http://127.0.0.1:${server.addr.port}/`, home },
      (e) => {
        if (e.event === "loaded") loaded = true;
      },
    );
    try {
      assert(r.ok, r.ok ? "" : r.reason);
      const win = await until(() => appWindow(d.name), "the window");
      await until(() => loaded, "the page to load");
      await until(() => reports.unasked, "the unasked request's answer");
      assertEquals(JSON.parse(reports.unasked), { error: "not-now" }, "no paste key: refused");

      await toClipboard(d.name, "image/png", await testPng(home));
      clickAt(d.name, win.x + 200, win.y + 200);
      await sleep(300);
      pressChord(d.name, ["Control_L", "v"]);
      await until(() => reports.again1, "the answers after Ctrl+V");
      // WebKitGTK's own paste event has no image: why the window hands it over.
      assertEquals(JSON.parse(reports.event1), { types: [], files: 0 });
      const image = JSON.parse(reports.image1);
      assert(typeof image?.png === "string", `a PNG: ${reports.image1.slice(0, 200)}`);
      const got = `${home}/got.png`;
      await Deno.writeFile(got, Uint8Array.from(atob(image.png), (c) => c.charCodeAt(0)));
      assertEquals(await describePng(got), "64x48 #FFCC00", "the clipboard's image");
      assertEquals(JSON.parse(reports.again1), { error: "not-now" }, "one read per key press");

      // An image whose PNG is past the composer's limit does not cross (noise: ~12 MB).
      await toClipboard(d.name, "image/png", await noisePng(home));
      pressChord(d.name, ["Control_L", "v"]);
      await until(() => reports.image2, "the answer for the large image");
      assertEquals(JSON.parse(reports.image2), { error: "too-large" });

      await Deno.writeTextFile(`${home}/clip.txt`, "plain words");
      await toClipboard(d.name, "UTF8_STRING", `${home}/clip.txt`);
      pressChord(d.name, ["Control_L", "v"]);
      await until(() => reports.text && JSON.parse(reports.text), "the pasted text");
      assertEquals(JSON.parse(reports.text), "plain words");
    } finally {
      if (oldDisplay === undefined) Deno.env.delete("DISPLAY");
      else Deno.env.set("DISPLAY", oldDisplay);
      if (r.ok) {
        r.close();
        await r.exited;
      }
      await server.shutdown();
    }
  },
);

pasteTest(
  "window paste: Ctrl+V of a clipboard image in the app's composer (native window) uploads it and shows its attachment chip",
  async (d) => {
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    const main = new Deno.Command(Deno.execPath(), {
      args: [...RUN_FLAGS, `${ROOT}main.ts`, "--home", home, "--keep-running"],
      cwd: await Deno.makeTempDir({ prefix: "ra-cwd-" }),
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: Deno.env.get("HOME") ?? "",
        NO_COLOR: "1",
        DENO_NO_PROMPT: "1",
        DISPLAY: d.name,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let out = "";
    const dec = new TextDecoder();
    const pump = async (s: ReadableStream<Uint8Array>) => {
      for await (const c of s) out += dec.decode(c, { stream: true });
    };
    const pumps = Promise.all([pump(main.stdout), pump(main.stderr)]);
    try {
      await until(() => /window: the app painted/.test(out), "the app's first paint", 45_000);
      const win = await until(() => appWindow(d.name), "the window");
      await sleep(1500); // its views loaded
      const composerArea = { x: win.x, y: win.y + win.height - 220, width: win.width, height: 220 };
      const before = await screenshotScreen(d.name, "window-paste-before");
      assertEquals(await yellowShare(before, composerArea), 0, "no yellow before the paste");
      await toClipboard(d.name, "image/png", await testPng(home));
      // The home view's composer: its text box, near the bottom of the window.
      clickAt(d.name, win.x + win.width / 2, win.y + win.height - 90);
      await sleep(300);
      pressChord(d.name, ["Control_L", "v"]);
      const meta = await until(async () => {
        try {
          for await (const e of Deno.readDir(`${home}/uploads`)) {
            const dir = `${home}/uploads/${e.name}`;
            const m = await Deno.readTextFile(`${dir}/meta.json`).catch(() => "");
            if (m) return { ...JSON.parse(m), dir };
          }
        } catch { /* no upload yet */ }
        return null;
      }, "the pasted image's upload");
      assertMatch(meta.name, /^pasted-image-\d{8}-\d{6}\.png$/);
      assertEquals([meta.mime, meta.kind], ["image/png", "image"]);
      assertEquals(await describePng(`${meta.dir}/data`), "64x48 #FFCC00");
      await sleep(1000); // the chip's thumbnail drawn
      const shot = await screenshotScreen(d.name, "window-paste-chip");
      console.log(`  screenshot: ${shot}`);
      // The chip's thumbnail (the upload as the server serves it) shows the yellow disc.
      assert(await yellowShare(shot, composerArea) > 0.001, `the image chip in ${shot}`);

      // One past the limit: the composer says so at once (the page is not held up),
      // nothing more is uploaded.
      await toClipboard(d.name, "image/png", await noisePng(home));
      pressChord(d.name, ["Control_L", "v"]);
      await sleep(4000);
      const tooLarge = await screenshotScreen(d.name, "window-paste-too-large");
      console.log(`  screenshot: ${tooLarge}`);
      assertEquals((await Array.fromAsync(Deno.readDir(`${home}/uploads`))).length, 1);
    } finally {
      try {
        main.kill("SIGTERM");
      } catch { /* ended */ }
      await main.status;
      await Promise.race([pumps, sleep(2000)]);
    }
  },
);

Deno.test("window paste: the page's clipboard-image message is checked; only Ctrl+V / Shift+Insert count as a paste key", () => {
  assertEquals(parsePageMessage('{"kind":"clipboard-image","id":3}'), {
    kind: "clipboard-image",
    id: 3,
  });
  for (
    const bad of [
      '{"kind":"clipboard-image"}',
      '{"kind":"clipboard-image","id":0}',
      '{"kind":"clipboard-image","id":"1"}',
    ]
  ) {
    assertEquals(parsePageMessage(bad), null, bad);
  }
  const CTRL = 1 << 2, SHIFT = 1;
  assert(isPasteKey(CTRL, 0x76) && isPasteKey(CTRL | SHIFT, 0x56) && isPasteKey(SHIFT, 0xff63));
  assert(!isPasteKey(0, 0x76) && !isPasteKey(CTRL, 0x63) && !isPasteKey(0, 0xff63));
});

Deno.test("window paste: the page takes only a PNG within the image limit from the window's answer", () => {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3];
  const b64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));
  assertEquals([...(pngOfReply({ png: b64(png) }) as Uint8Array)], png);
  assertEquals(pngOfReply({ png: b64([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]) }), null, "a JPEG");
  assertEquals(pngOfReply({ png: "%%% not base64" }), null);
  assertEquals(pngOfReply({ png: "A".repeat(COMPOSER_LIMITS.imageBytes * 2) }), null, "too long");
  assertEquals(pngOfReply({ error: "too-large" }), "too-large");
  assertEquals(pngOfReply({ error: "not-now" }), null);
  assertEquals(pngOfReply(null), null);
});
