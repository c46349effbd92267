/**
 * The native desktop window with real processes on a real X server (Xvfb): `main.ts`
 * opens the WebKitGTK window in a child process (title, icon, size and position
 * remembered in the data dir), a bad libwebview falls through with its reason, killing
 * the window leaves the server and a running task alive, `REINAGENT_WINDOW=chromium`
 * gives the Chromium app window, and a stand-in libwebview (built here with cc) gets
 * webview's C API calls. Screenshots of the X screen go to test-output/screenshots/.
 * Without WebKitGTK or Xvfb these skip loudly, unless REINAGENT_REQUIRE_BROWSER=1.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ensureServer } from "../scripts/build-server.ts";
import { ROOT, runFlagsFor } from "./helpers/server.ts";
import { homeWithProvider } from "./helpers/seed.ts";
import { TestClient } from "./helpers/ws_client.ts";
import { startMockLlm } from "../scripts/mock-llm.ts";
import type { TaskSummary } from "../protocol/index.ts";
import {
  clickAt,
  cmdline,
  desktopTest,
  desktopToolsMissing,
  listWindows,
  meanBrightness,
  moveResizeWindow,
  processTree,
  requestClose,
  screenshotScreen,
  sleep,
  typeText,
  windowProperty,
  type XWindow,
} from "./helpers/xvfb.ts";
import { findChromium } from "./e2e/browser.ts";
import { which } from "../server/window/backend.ts";
import { startWindowChild } from "../server/window/native/spawn.ts";

const MISSING = desktopToolsMissing();

interface Main {
  child: Deno.ChildProcess;
  output(): string;
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  ended(): Promise<Deno.CommandStatus>;
  /** SIGTERM (as Ctrl+C would) and wait. */
  stop(): Promise<Deno.CommandStatus>;
}

/** `main.ts ARGS` on `display`, with the user's real window choice (no stand-in command). */
function startMain(
  args: string[],
  display: string,
  env: Record<string, string> = {},
  entry = `${ROOT}main.ts`,
): Main {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...runFlagsFor(entry), entry, ...args],
    cwd: Deno.makeTempDirSync({ prefix: "ra-cwd-" }),
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      NO_COLOR: "1",
      DENO_NO_PROMPT: "1",
      DISPLAY: display,
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  let ended = false;
  const dec = new TextDecoder();
  const pump = async (s: ReadableStream<Uint8Array>) => {
    for await (const c of s) out += dec.decode(c, { stream: true });
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  child.status.then(() => (ended = true));
  const m: Main = {
    child,
    output: () => out,
    async waitFor(re, ms = 45_000) {
      const deadline = Date.now() + ms;
      let found: RegExpMatchArray | null;
      while (!(found = out.match(re))) {
        if (ended || Date.now() > deadline) {
          throw new Error(`no ${re} in the output${ended ? " (process ended)" : ""}:\n${out}`);
        }
        await sleep(50);
      }
      return found;
    },
    async ended() {
      const s = await child.status;
      await Promise.race([pumps, sleep(2000)]);
      return s;
    },
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* ended */ }
      return await m.ended();
    },
  };
  return m;
}

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

const appWindow = async (display: string) =>
  (await listWindows(display)).find((w) => w.title === "ReinAgent" && w.width > 100);

type Geometry = Partial<Pick<XWindow, "width" | "height" | "x" | "y">>;

/**
 * The app's window once it has the geometry `want`: a window just mapped (no window
 * manager, a loaded machine) may first show GTK's 200×200 at 0,0. A timeout says what it
 * last had.
 */
async function windowWith(display: string, want: Geometry, what: string): Promise<XWindow> {
  let last: XWindow | undefined;
  const fits = (w: XWindow) =>
    (Object.keys(want) as (keyof Geometry)[]).every((k) => w[k] === want[k]);
  try {
    return await until(async () => {
      last = await appWindow(display);
      return last && fits(last) ? last : null;
    }, what);
  } catch (e) {
    const had = last ? `${last.width}×${last.height}+${last.x}+${last.y}` : "no window";
    throw new Error(`${(e as Error).message} at ${JSON.stringify(want)}; it last had ${had}`);
  }
}

/** The window's child process of a server (the one running the window's module). */
function windowChildOf(serverPid: number): number | undefined {
  return processTree(serverPid).find((p) =>
    p.pid !== serverPid && /window\/native\/child\.ts|__window/.test(cmdline(p.pid))
  )?.pid;
}

function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(Deno.readTextFileSync(`/proc/${pid}/status`));
  } catch {
    return false;
  }
}

async function geometryFile(home: string) {
  try {
    return JSON.parse(await Deno.readTextFile(`${home}/window.json`));
  } catch {
    return null;
  }
}

/** A screenshot, looked at by the test too: the window's area has the app's light page. */
async function shotOf(display: string, name: string, w: XWindow): Promise<string> {
  const path = await screenshotScreen(display, name);
  const inside = await meanBrightness(path, {
    x: Math.max(0, w.x),
    y: Math.max(0, w.y),
    width: w.width,
    height: w.height,
  });
  assert(inside > 0.5, `the window shows a page (mean brightness ${inside} in ${path})`);
  return path;
}

const metrics: Record<string, unknown> = {};

desktopTest(
  "window: the native WebKitGTK window opens the app (title, icon, size); a bad libwebview falls through with its reason; killing the window leaves the server and a running task alive; the size and place it was given are restored next time; closing it keeps them, stopping the server ends its processes",
  async (d) => {
    const mock = startMockLlm({ quiet: true });
    mock.register("slow", {
      // Held part-way until the test lets it end: still running when the window is killed.
      turns: [{
        text: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen",
        chunk: 4,
        hold: { gate: "slow" },
      }],
    });
    const home = await homeWithProvider(mock.base, ["slow"]);
    const badLib = `${home}/not-a-library.so`;
    await Deno.writeTextFile(badLib, "this is not an ELF file\n");
    let client: TestClient | null = null;
    const started = performance.now();
    const first = startMain(["--home", home], d.name, { REINAGENT_WEBVIEW_LIB: badLib });
    try {
      await first.waitFor(
        /window: native window \(libwebview \S+not-a-library\.so\) could not open \(.*not-a-library\.so: .+\); trying the next/,
      );
      await first.waitFor(/running at /);
      metrics.serverReadyWallMs = Math.round(performance.now() - started);
      const how = await first.waitFor(/window: native window \(WebKitGTK\) — WebKitGTK (\d+\.\d+)/);
      metrics.windowUpWallMs = Math.round(performance.now() - started);
      assert(Number(how[1]) >= 2.4, `WebKitGTK ${how[1]}`);
      const painted = await first.waitFor(/window: the app painted (\d+) ms after start/);
      metrics.firstPaintAfterStartMs = Number(painted[1]);
      metrics.firstPaintWallMs = Math.round(performance.now() - started);
      const win = await windowWith(
        d.name,
        { width: 1280, height: 800, x: 160, y: 100 },
        "the ReinAgent window",
      );
      assertEquals(win.wmClass, ["reinagent", "Reinagent"], "its WM_CLASS (docks group by it)");
      assertEquals([win.width, win.height], [1280, 800], "the default size");
      // Centred on the 1600×1000 screen the first time.
      assertEquals([win.x, win.y], [160, 100]);
      assertMatch(await windowProperty(d.name, win.id, "_NET_WM_ICON"), /Icon \(192 x 192\)/);
      assertMatch(await windowProperty(d.name, win.id, "_NET_WM_NAME"), /"ReinAgent"/);
      const shot = await shotOf(d.name, "window-native-webkitgtk", win);
      console.log(`  screenshot: ${shot}`);

      // Memory once idle: the server, the window's process and WebKit's helpers.
      await sleep(3000);
      const tree = processTree(first.child.pid);
      const kb = (re: RegExp) =>
        tree.filter((p) => re.test(p.name)).reduce((s, p) => s + p.rssKb, 0);
      // CPU while idle: the GLib pump's timer and WebKit's own (ticks of 10 ms over 5 s).
      const ticks = () =>
        processTree(first.child.pid).reduce((sum, p) => {
          try {
            const f = Deno.readTextFileSync(`/proc/${p.pid}/stat`).split(") ")[1].split(" ");
            return sum + Number(f[11]) + Number(f[12]);
          } catch {
            return sum;
          }
        }, 0);
      const t0 = ticks();
      await sleep(5000);
      metrics.idleCpuPercentAllProcesses = Math.round((ticks() - t0) / 5 * 10) / 10;
      metrics.idleRssMb = {
        server: Math.round((tree.find((p) => p.pid === first.child.pid)?.rssKb ?? 0) / 1024),
        windowProcess: Math.round(
          (tree.find((p) => p.pid === windowChildOf(first.child.pid))?.rssKb ?? 0) / 1024,
        ),
        webkitHelpers: Math.round(kb(/^WebKit/) / 1024),
        total: Math.round(tree.reduce((s, p) => s + p.rssKb, 0) / 1024),
        processes: tree.map((p) => `${p.name}:${Math.round(p.rssKb / 1024)}MB`),
      };

      // A user (or the window manager) moves and resizes it: that is saved in the data dir.
      moveResizeWindow(d.name, win.id, { x: 40, y: 30, width: 900, height: 640 });
      const saved = await until(async () => {
        const g = await geometryFile(home);
        return g?.width === 900 && g;
      }, "window.json with the new size");
      assertEquals(saved, { width: 900, height: 640, x: 40, y: 30 });

      // A task runs; the window crashes: the server and the task go on.
      const url = first.output().match(/running at (http:\/\/\S+)/)![1];
      client = await TestClient.connect(
        new URL(url).origin,
        new URL(url).searchParams.get("token")!,
      );
      const { task } = await client.request("tasks.create", {
        message: "go slowly",
        options: { model: { providerId: "mock", modelId: "slow" }, approval: "full" },
      });
      await until(async () =>
        ((await client!.request("tasks.list")).tasks as TaskSummary[])
          .find((t) => t.id === task.id)?.status === "running", "the task to run");
      const windowPid = windowChildOf(first.child.pid);
      assert(windowPid, "the window runs in a child process of the server");
      Deno.kill(windowPid, "SIGKILL");
      await first.waitFor(
        /window ended by SIGKILL; 1 task is still running: the server keeps going/,
      );
      assert(alive(first.child.pid), "the server lives");
      const t = ((await client.request("tasks.list")).tasks as TaskSummary[]).find((x) =>
        x.id === task.id
      );
      assertEquals(t?.status, "running", "the task goes on");
      await until(async () => !(await appWindow(d.name)), "the window to be gone");
      assert(alive(first.child.pid), "the server lives on while the task runs");
      mock.release("slow");
      const status = await Promise.race([
        first.ended(),
        sleep(30_000).then(() => {
          throw new Error("the server did not stop after its task ended");
        }),
      ]);
      assertEquals(status.code, 0);
      assertMatch(first.output(), /the last running task ended: stopping/);
      await client.close();
      client = null;
    } finally {
      await client?.close().catch(() => {});
      await first.stop();
    }

    // Next start: the window comes back at the size and place it had.
    const second = startMain(["--home", home, "--keep-running"], d.name);
    try {
      await second.waitFor(/window: native window \(WebKitGTK\)/);
      await second.waitFor(/window: the app painted/);
      const win = await windowWith(
        d.name,
        { width: 900, height: 640, x: 40, y: 30 },
        "the window again",
      );
      assertEquals([win.width, win.height, win.x, win.y], [900, 640, 40, 30]);
      await sleep(1000); // its task list loaded
      await shotOf(d.name, "window-native-restored", win);
      // The user closes it (the title bar's ×): it keeps where it was, the server stays
      // (--keep-running) and says so.
      moveResizeWindow(d.name, win.id, { x: 60, y: 50, width: 1000, height: 720 });
      requestClose(d.name, win.id);
      await second.waitFor(/window closed; the server keeps running at/);
      assertEquals(await geometryFile(home), { width: 1000, height: 720, x: 60, y: 50 });
      assert(alive(second.child.pid));
    } finally {
      await second.stop();
    }
    // The server's end closes its window, WebKit's helpers with it.
    const third = startMain(["--home", home], d.name);
    try {
      await third.waitFor(/window: the app painted/);
      const win = await windowWith(
        d.name,
        { width: 1000, height: 720, x: 60, y: 50 },
        "the window a third time",
      );
      assertEquals([win.width, win.height, win.x, win.y], [1000, 720, 60, 50]);
      const windowPid = windowChildOf(third.child.pid)!;
      const helpers = processTree(windowPid).filter((p) => p.pid !== windowPid).map((p) => p.pid);
      assert(helpers.length >= 1, "WebKit's helper processes");
      assertEquals((await third.stop()).code, 0);
      await until(async () => !(await appWindow(d.name)), "the window to close with the server");
      await until(() => ![windowPid, ...helpers].some(alive), "its processes to end");
    } finally {
      await third.stop();
    }
    await mock.close();
  },
);

desktopTest(
  "window: the bundled program (dist/server, what `deno task start` runs) opens the same native window from its own main.js",
  async (d) => {
    const out = await Deno.makeTempDir({ prefix: "ra-bundle-" });
    await ensureServer({ outDir: `${out}/server`, force: true });
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    const main = startMain(["--home", home, "--keep-running"], d.name, {}, `${out}/server/main.js`);
    try {
      await main.waitFor(/window: native window \(WebKitGTK\)/);
      await main.waitFor(/window: the app painted \d+ ms after start/);
      const win = await windowWith(d.name, { width: 1280, height: 800 }, "the window");
      assertEquals(win.title, "ReinAgent");
    } finally {
      await main.stop();
      await Deno.remove(out, { recursive: true });
    }
  },
);

desktopTest(
  "window: a window.json that is not valid is reported and left as it is; the window opens at the default size",
  async (d) => {
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    const broken = '{"width": 90000, "height": "tall"}\n';
    await Deno.writeTextFile(`${home}/window.json`, broken);
    const main = startMain(["--home", home, "--keep-running"], d.name);
    try {
      await main.waitFor(
        /window: \S+window\.json: width must be a whole number 320–16384: default size, and not saved over/,
      );
      const win = await windowWith(d.name, { width: 1280, height: 800 }, "the window");
      assertEquals([win.width, win.height], [1280, 800]);
      moveResizeWindow(d.name, win.id, { x: 10, y: 10, width: 700, height: 500 });
      await sleep(1500); // more than the window's save interval
      assertEquals(await Deno.readTextFile(`${home}/window.json`), broken, "not overwritten");
    } finally {
      await main.stop();
    }
  },
);

desktopTest(
  "window: a place saved on a screen that is gone is not used: the window opens centred, at its size",
  async (d) => {
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    await Deno.writeTextFile(
      `${home}/window.json`,
      JSON.stringify({ width: 900, height: 600, x: 5000, y: 3000 }),
    );
    const main = startMain(["--home", home, "--keep-running"], d.name);
    try {
      const win = await windowWith(
        d.name,
        { width: 900, height: 600, x: 350, y: 200 },
        "the window",
      );
      assertEquals([win.width, win.height, win.x, win.y], [900, 600, 350, 200]);
    } finally {
      await main.stop();
    }
  },
);

desktopTest(
  "window: REINAGENT_WINDOW=chromium gives the Chromium app window (native not used, said why); doctor names the backend and why the others are not",
  async (d) => {
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    const doctor = async (env: Record<string, string>) => {
      const p = startMain(["doctor", "--home", home], d.name, env);
      await p.ended();
      return p.output().match(/^.*window: .*$/m)?.[0] ?? p.output();
    };
    assertMatch(
      await doctor({}),
      /✓ window: native window \(WebKitGTK\) — WebKitGTK \d+\.\d+\.\d+, GTK 3\.\d+; not used: libwebview: none next to the binary/,
    );
    assertMatch(
      await doctor({ REINAGENT_WEBVIEW_LIB: "/nonexistent/libwebview.so" }),
      /not used: libwebview: REINAGENT_WEBVIEW_LIB=\/nonexistent\/libwebview\.so does not exist/,
    );
    assertMatch(
      await doctor({ REINAGENT_WINDOW: "sideways" }),
      /window: none — REINAGENT_WINDOW must be one of native, webview, webkitgtk, chromium, browser \(not "sideways"\)/,
    );
    // A display that cannot be opened: the native window says so and the app window is next.
    assertMatch(
      await doctor({ DISPLAY: ":9" + d.name.slice(1) }),
      /not used: .*native window \(WebKitGTK\): GTK cannot open the display/,
    );

    const chromium = findChromium();
    if (!chromium) {
      if (Deno.env.get("REINAGENT_REQUIRE_BROWSER") === "1") throw new Error("no Chromium found");
      console.warn("\n!!! SKIPPED the Chromium part: no Chromium binary found !!!\n");
      return;
    }
    assertMatch(
      await doctor({ REINAGENT_WINDOW: "chromium" }),
      /✓ window: app window \(\S*chrom\S* --app, .*not used: .*native window \(WebKitGTK\): REINAGENT_WINDOW excludes it/,
    );
    const main = startMain(["--home", home, "--keep-running"], d.name, {
      REINAGENT_WINDOW: "chromium",
    });
    try {
      await main.waitFor(/window: app window \(\S*chrom/);
      assert(!/native window \(WebKitGTK\) —/.test(main.output()), "no native window");
      // Chromium's window has the page's title once the app loaded.
      const win = await until(
        async () =>
          (await listWindows(d.name)).find((w) =>
            /chrom/i.test(w.wmClass.join(" ")) && w.width >= 600 && /ReinAgent/.test(w.title)
          ),
        "the Chromium app window",
        40_000,
      );
      await sleep(1500); // its first paint
      await shotOf(d.name, "window-chromium-fallback", win);
    } finally {
      await main.stop();
    }
  },
);

desktopTest(
  "window: a libwebview library (REINAGENT_WEBVIEW_LIB) comes first and gets webview's C API calls: create, title, size, navigate, run",
  async (d) => {
    const cc = which("cc") ?? which("gcc");
    if (!cc) {
      console.warn("\n!!! SKIPPED: no C compiler to build the stand-in libwebview !!!\n");
      return;
    }
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    const lib = `${home}/libwebview.so`;
    const built = await new Deno.Command(cc, {
      args: ["-shared", "-fPIC", "-o", lib, `${ROOT}tests/fixtures/fake_webview.c`],
      stderr: "piped",
    }).output();
    assert(built.success, new TextDecoder().decode(built.stderr));
    await Deno.writeTextFile(`${home}/window.json`, '{"width": 1000, "height": 700}');
    const log = `${home}/webview-calls.log`;
    const main = startMain(["--home", home, "--keep-running"], d.name, {
      REINAGENT_WEBVIEW_LIB: lib,
      FAKE_WEBVIEW_LOG: log,
    });
    try {
      const url = (await main.waitFor(/running at (http:\/\/\S+)/))[1];
      await main.waitFor(new RegExp(`window: native window \\(libwebview ${lib}\\) — libwebview`));
      const calls = await until(async () => {
        const text = await Deno.readTextFile(log).catch(() => "");
        return text.includes("run") && text.trim().split("\n");
      }, "the calls");
      assertEquals(calls, [
        "create 0 null",
        "title ReinAgent",
        "size 1000 700 0",
        `navigate ${url}`,
        "run",
      ]);
      assert(
        !cmdline(windowChildOf(main.child.pid)!).includes("token="),
        "no token on a command line",
      );
    } finally {
      await main.stop();
    }
  },
);

desktopTest(
  "window: in the native window a page may notify but not ask for the location; a link to another site goes to the browser, the app's own target=_blank link opens a window of its own",
  async (d) => {
    const reports: Record<string, string> = {};
    const page = `<!doctype html><title>app</title>
<a id="app" href="/popup" target="_blank" style="display:block;position:fixed;inset:0">open</a>
<script>
const report = (k, v) => fetch("/report?" + k + "=" + encodeURIComponent(v));
// As the app does it: on the user's click (WebKit refuses an unasked request).
document.getElementById("app").onclick = () =>
  Notification.requestPermission().then((p) => report("notifications", p));
navigator.geolocation.getCurrentPosition(() => report("location", "allowed"),
  (e) => report("location", "refused " + e.code));
setTimeout(() => { location.href = "https://example.com/keys?from=app"; }, 300);
</script>`;
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
      const u = new URL(req.url);
      if (u.pathname === "/report") {
        for (const [k, v] of u.searchParams) reports[k] = v;
        return new Response("ok");
      }
      if (u.pathname === "/popup") {
        return new Response("<script>fetch('/report?popup=loaded')</script>", {
          headers: { "content-type": "text/html" },
        });
      }
      return new Response(page, { headers: { "content-type": "text/html" } });
    });
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    const events: unknown[] = [];
    const oldDisplay = Deno.env.get("DISPLAY");
    Deno.env.set("DISPLAY", d.name);
    const r = await startWindowChild(
      { kind: "webkitgtk", url: `http://127.0.0.1:${server.addr.port}/`, home },
      (e) => events.push(e),
    );
    try {
      assert(r.ok, r.ok ? "" : r.reason);
      await until(() => reports.location, "the page's location report");
      assertMatch(reports.location, /^refused/, "any permission but notifications is refused");
      await until(
        () => events.some((e) => (e as { event: string }).event === "open-external"),
        "the link to another site",
      );
      assertEquals(
        events.find((e) => (e as { event: string }).event === "open-external"),
        { event: "open-external", url: "https://example.com/keys?from=app" },
      );
      const main = await until(() => appWindow(d.name), "the window");
      assertEquals(reports.popup, undefined);
      // A user's click on the app's own target=_blank link.
      clickAt(d.name, main.x + 200, main.y + 200);
      await until(() => reports.popup === "loaded", "the app's page in a new window");
      await until(() => reports.notifications, "the notification permission");
      assertEquals(reports.notifications, "granted", "system notifications are allowed");
      await until(
        async () => (await listWindows(d.name)).filter((w) => w.title === "ReinAgent").length >= 2,
        "a second ReinAgent window",
      );
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

desktopTest(
  "window: the native window's folder picker (GTK) answers the page with the folder the user typed, or null when closed",
  async (d) => {
    const picks: string[] = [];
    const page = `<!doctype html><div id="app" style="position:fixed;inset:0">pick</div><script>
document.getElementById("app").onclick = () => reinagentNative.pickFolder("Pick a test folder")
  .then((p) => fetch("/report?picked=" + encodeURIComponent(JSON.stringify(p))));
</script>`;
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
      const u = new URL(req.url);
      if (u.pathname === "/report") {
        picks.push(JSON.parse(u.searchParams.get("picked")!));
        return new Response("ok");
      }
      return new Response(page, { headers: { "content-type": "text/html" } });
    });
    const home = await Deno.makeTempDir({ prefix: "ra-home-" });
    const folder = await Deno.makeTempDir({ prefix: "ra-pick-" }); // lowercase: typed below
    const oldDisplay = Deno.env.get("DISPLAY");
    Deno.env.set("DISPLAY", d.name);
    let loaded = false;
    const r = await startWindowChild(
      { kind: "webkitgtk", url: `http://127.0.0.1:${server.addr.port}/`, home },
      (e) => void (e.event === "loaded" && (loaded = true)),
    );
    try {
      assert(r.ok, r.ok ? "" : r.reason);
      const main = await until(() => appWindow(d.name), "the window");
      await until(() => loaded, "the page to load");
      const dialog = async () =>
        (await listWindows(d.name)).find((w) => w.title === "Pick a test folder");
      clickAt(d.name, main.x + 300, main.y + 300);
      const first = await until(dialog, "the folder picker");
      requestClose(d.name, first.id);
      await until(() => picks.length === 1, "the cancelled pick");
      assertEquals(picks[0], null);

      clickAt(d.name, main.x + 300, main.y + 300);
      await until(dialog, "the folder picker again");
      await sleep(500);
      typeText(d.name, "/"); // opens the location field
      await sleep(1500);
      typeText(d.name, folder.slice(1));
      await sleep(1500);
      await screenshotScreen(d.name, "window-native-folder-picker");
      typeText(d.name, "\n");
      await until(() => picks.length === 2, "the pick");
      assertEquals(picks[1], folder);
      await until(async () => !(await dialog()), "the picker to close");
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

Deno.test({
  name: "window: start-up and memory numbers (written to test-output/window-native-metrics.json)",
  ignore: MISSING.length > 0,
  fn: async () => {
    if (!Object.keys(metrics).length) return; // the window test was filtered out
    console.log(`  native window: ${JSON.stringify(metrics)}`);
    await Deno.mkdir(new URL("../test-output/", import.meta.url), { recursive: true });
    await Deno.writeTextFile(
      new URL("../test-output/window-native-metrics.json", import.meta.url),
      JSON.stringify(metrics, null, 2) + "\n",
    );
  },
});
