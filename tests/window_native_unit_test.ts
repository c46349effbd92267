/**
 * The native window's parts that need no display: the remembered geometry (validated,
 * a broken file never overwritten), the child's line protocol, the backend choice with
 * REINAGENT_WINDOW / REINAGENT_WEBVIEW_LIB, and the window process refusing a bad start
 * message (a real `main.ts __window`).
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { ROOT, RUN_FLAGS } from "./helpers/server.ts";
import {
  clampGeometry,
  DEFAULT_GEOMETRY,
  loadGeometry,
  onScreen,
  parseGeometry,
  saveGeometry,
} from "../server/window/native/geometry.ts";
import {
  EXIT_CANNOT_OPEN,
  parseChildEvent,
  parseChildStart,
} from "../server/window/native/protocol.ts";
import { parsePageMessage } from "../server/window/native/page_bridge.ts";
import { chooseWindowBackend } from "../server/window/backend.ts";
import { findSystemLibrary } from "../server/window/native/lib_paths.ts";
import { webviewCandidate, webviewFileName } from "../server/window/native/webview_ffi.ts";
import { startWindowChild } from "../server/window/native/spawn.ts";
import { externalUrlToOpen, linkTarget } from "../server/window/native/navigation.ts";
import { openExternal } from "../server/window/open_external.ts";

Deno.test("window geometry: whole numbers in range, x and y together, nothing else", () => {
  assertEquals(parseGeometry({ width: 900, height: 640, x: -20, y: 30 }), {
    width: 900,
    height: 640,
    x: -20,
    y: 30,
  });
  assertEquals(parseGeometry({ width: 900, height: 640, maximized: false }), {
    width: 900,
    height: 640,
  });
  const bad: [unknown, RegExp][] = [
    [null, /not a JSON object/],
    [[1280, 800], /not a JSON object/],
    [{ width: 100, height: 800 }, /width must be a whole number 320–16384/],
    [{ width: 1280.5, height: 800 }, /width/],
    [{ width: 1280, height: "800" }, /height/],
    [{ width: 1280, height: 800, x: 5 }, /x and y go together/],
    [{ width: 1280, height: 800, x: 1e9, y: 0 }, /x must be a whole number within/],
    [{ width: 1280, height: 800, maximized: "yes" }, /maximized must be true or false/],
    [{ width: 1280, height: 800, url: "file:///etc/passwd" }, /unknown field "url"/],
  ];
  for (const [v, re] of bad) {
    const r = parseGeometry(v);
    assert("problem" in r, `${JSON.stringify(v)} is refused`);
    assertMatch(r.problem, re);
  }
  // A window shrunk below the minimum (or dragged far off) is saved within range.
  assertEquals(clampGeometry({ width: 10, height: 20000, x: 99_999, y: -5 }), {
    width: 320,
    height: 16384,
    x: 32000,
    y: -5,
  });
});

Deno.test("window geometry: a place off the screen (a monitor gone) is not used", () => {
  const screen = { width: 1600, height: 1000 };
  assert(onScreen({ width: 900, height: 600, x: 40, y: 30 }, screen));
  assert(onScreen({ width: 900, height: 600, x: -700, y: 30 }, screen), "mostly left, grabbable");
  assert(onScreen({ width: 900, height: 600 }, screen), "no place saved");
  assert(onScreen({ width: 900, height: 600, x: 5000, y: 3000 }, { width: 0, height: 0 }));
  for (const [x, y] of [[5000, 30], [40, 3000], [-880, 30], [40, -200]]) {
    assert(!onScreen({ width: 900, height: 600, x, y }, screen), `${x},${y}`);
  }
});

Deno.test("window geometry: saved through a rename and read back; a broken or huge file is reported and kept", async () => {
  const home = await Deno.makeTempDir();
  assertEquals(await loadGeometry(home), { kind: "none", geometry: DEFAULT_GEOMETRY });
  await saveGeometry(home, { width: 1000, height: 700, x: 10, y: 20, maximized: true });
  assertEquals(await loadGeometry(home), {
    kind: "saved",
    geometry: { width: 1000, height: 700, x: 10, y: 20, maximized: true },
  });
  assertEquals((await Deno.stat(`${home}/window.json`)).mode! & 0o777, 0o600);
  assertEquals([...Deno.readDirSync(home)].map((e) => e.name), ["window.json"], "no temp left");

  const broken: [string, RegExp][] = [["{not json", /is not valid JSON/], ["[]", /not a JSON/]];
  for (const [text, re] of broken) {
    await Deno.writeTextFile(`${home}/window.json`, text);
    const r = await loadGeometry(home);
    assertEquals(r.kind, "invalid");
    assertEquals(r.geometry, DEFAULT_GEOMETRY);
    if (r.kind === "invalid") assertMatch(r.problem, re);
    assertEquals(await Deno.readTextFile(`${home}/window.json`), text, "left as it was");
  }
  await Deno.writeTextFile(`${home}/window.json`, " ".repeat(5000));
  const big = await loadGeometry(home);
  assert(big.kind === "invalid" && /larger than 4096 bytes/.test(big.problem));
  let refused = "";
  await saveGeometry(home, { width: 5, height: 5 }).catch((e) => (refused = e.message));
  assertMatch(refused, /not saving window geometry: width/);
});

Deno.test("window child protocol: only well-formed events and start messages are taken", () => {
  assertEquals(parseChildEvent('{"event":"ready","backend":"WebKitGTK 2.50"}'), {
    event: "ready",
    backend: "WebKitGTK 2.50",
  });
  assertEquals(parseChildEvent('{"event":"painted","ms":12,"pageMs":"x"}'), {
    event: "painted",
    ms: 12,
  });
  for (
    const line of [
      "Gtk-WARNING: cannot open display",
      '{"event":"ready"}',
      '{"event":"painted","ms":"soon"}',
      '{"event":"exec","cmd":"rm -rf /"}',
      "{" + " ".repeat(5000) + "}",
    ]
  ) assertEquals(parseChildEvent(line), null, line.slice(0, 40));

  assertEquals(
    parseChildStart('{"kind":"webkitgtk","url":"http://127.0.0.1:1/?token=t","home":"/h"}'),
    {
      kind: "webkitgtk",
      url: "http://127.0.0.1:1/?token=t",
      home: "/h",
      lib: undefined,
      probe: false,
    },
  );
  const refusals: [string, RegExp][] = [
    ["nope", /not JSON/],
    ['{"kind":"qt","url":"http://x/","home":"/h"}', /unknown window kind/],
    ['{"kind":"webkitgtk","url":"file:///etc/passwd","home":"/h"}', /must be http/],
    ['{"kind":"webkitgtk","url":"javascript:alert(1)","home":"/h"}', /must be http/],
    ['{"kind":"webview","url":"http://x/","home":"/h"}', /no libwebview path/],
  ];
  for (const [text, re] of refusals) {
    const r = parseChildStart(text);
    assert("error" in r, text);
    assertMatch(r.error, re);
  }
  // The page is not trusted: only its "painted" message, with numbers, is read.
  assertEquals(parsePageMessage('{"kind":"painted","mounted":10.4,"at":"x"}'), {
    kind: "painted",
    mountedMs: 10,
    pageMs: -1,
  });
  assertEquals(parsePageMessage('{"kind":"open","url":"https://evil"}'), null);
  assertEquals(parsePageMessage('{"kind":"pick-folder","id":3,"title":"Add"}'), {
    kind: "pick-folder",
    id: 3,
    title: "Add",
  });
  assertEquals(
    (parsePageMessage(JSON.stringify({ kind: "pick-folder", id: 1, title: "x".repeat(999) })) as {
      title: string;
    }).title.length,
    200,
    "a long title is cut",
  );
  for (const id of [0, -1, 1.5, "1", 2 ** 60]) {
    assertEquals(parsePageMessage(JSON.stringify({ kind: "pick-folder", id, title: "" })), null);
  }
});

/** Runs `fn` with these environment variables (restored after). */
function withEnv<T>(vars: Record<string, string | undefined>, fn: () => T): T {
  const old = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  const set = (k: string, v: string | undefined) =>
    v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  for (const [k, v] of Object.entries(vars)) set(k, v);
  try {
    return fn();
  } finally {
    for (const [k, v] of Object.entries(old)) set(k, v);
  }
}

Deno.test("window backend: native first (libwebview, then WebKitGTK when installed), the app window and browser as fallbacks; REINAGENT_WINDOW picks a kind", async () => {
  const home = await Deno.makeTempDir();
  const lib = `${home}/${webviewFileName()}`;
  await Deno.writeTextFile(lib, "not really a library");
  const base = { REINAGENT_WINDOW_CMD: undefined, DISPLAY: ":1234", REINAGENT_WINDOW: undefined };
  const webkitInstalled = Deno.build.os === "linux" &&
    findSystemLibrary("libwebkit2gtk-4.1.so.0") !== null;

  const withLib = withEnv({ ...base, REINAGENT_WEBVIEW_LIB: lib }, () => chooseWindowBackend(home));
  assertEquals(withLib.chosen?.native, { kind: "webview", lib });
  assertEquals(withLib.chosen?.label, `native window (libwebview ${lib})`);
  // When it cannot open after all, the others follow: the native ones, then browsers.
  const kinds = withLib.fallbacks.map((b) => b.native?.kind ?? "browser");
  assertEquals(kinds[0], webkitInstalled ? "webkitgtk" : "browser");
  assertEquals(kinds.slice(webkitInstalled ? 1 : 0).filter((k) => k !== "browser"), []);

  const missing = withEnv(
    { ...base, REINAGENT_WEBVIEW_LIB: `${home}/gone.so` },
    () => chooseWindowBackend(home),
  );
  assert(missing.chosen?.native?.kind !== "webview");
  assertEquals(missing.notUsed[0], {
    label: "libwebview",
    why: `REINAGENT_WEBVIEW_LIB=${home}/gone.so does not exist`,
  });
  assertEquals(webviewCandidate().explicit, Deno.env.get("REINAGENT_WEBVIEW_LIB") !== undefined);

  const appOnly = withEnv(
    { ...base, REINAGENT_WEBVIEW_LIB: lib, REINAGENT_WINDOW: "chromium" },
    () => chooseWindowBackend(home),
  );
  assert(!appOnly.chosen?.native, "no native window");
  assertEquals(appOnly.fallbacks, []);
  assert(
    appOnly.notUsed.some((n) => n.label === "native window (WebKitGTK)" && /excludes/.test(n.why)),
  );
  const nativeOnly = withEnv(
    { ...base, REINAGENT_WEBVIEW_LIB: lib, REINAGENT_WINDOW: "native" },
    () => chooseWindowBackend(home),
  );
  assertEquals(nativeOnly.chosen?.native?.kind, "webview");
  assert(nativeOnly.fallbacks.every((b) => b.native), "no browser after the native ones");
  assertEquals(nativeOnly.exhausted, "no native window could open");

  const typo = withEnv({ ...base, REINAGENT_WINDOW: "gtk" }, () => chooseWindowBackend(home));
  assertEquals(typo.chosen, null);
  assertMatch(typo.reason!, /REINAGENT_WINDOW must be one of native, webview, webkitgtk/);
  // REINAGENT_WINDOW_CMD still wins over everything (tests' stand-in windows use it).
  const custom = withEnv(
    { ...base, REINAGENT_WEBVIEW_LIB: lib, REINAGENT_WINDOW_CMD: "my-window" },
    () => chooseWindowBackend(home),
  );
  assertEquals(custom.chosen?.argv("http://u/"), ["my-window", "http://u/"]);
});

Deno.test("window process: a bad start message or a library that is not one ends it with the reason (exit 3), nothing opened", async () => {
  const bad = await new Deno.Command(Deno.execPath(), {
    args: [...RUN_FLAGS, `${ROOT}main.ts`, "__window"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const w = bad.stdin.getWriter();
  await w.write(new TextEncoder().encode('{"kind":"webkitgtk","url":"file:///etc","home":"/"}\n'));
  await w.close();
  const out = await bad.output();
  assertEquals(out.code, EXIT_CANNOT_OPEN);
  assertEquals(parseChildEvent(new TextDecoder().decode(out.stdout).trim()), {
    event: "failed",
    reason: "the URL must be http(s)",
  });

  const home = await Deno.makeTempDir();
  const lib = `${home}/libwebview.so`;
  await Deno.writeTextFile(lib, "#!/bin/sh\necho not a library\n");
  const r = await startWindowChild({ kind: "webview", lib, url: "http://127.0.0.1:9/", home });
  assert(!r.ok);
  assertMatch(r.reason, new RegExp(`^${lib}: .+`), "names the file and what dlopen said");
});

Deno.test("window links: the app's own pages stay, other sites go to the browser, other schemes are WebKit's; the server opens only http(s)/mailto, as one argument", async () => {
  const app = "http://127.0.0.1:4321/?token=t";
  assertEquals(linkTarget("http://127.0.0.1:4321/settings", app), "app");
  assertEquals(linkTarget("http://127.0.0.1:4322/", app), "external", "another port");
  assertEquals(linkTarget("http://localhost:4321/", app), "external", "another host name");
  assertEquals(linkTarget("https://platform.deepseek.com/api_keys", app), "external");
  assertEquals(linkTarget("mailto:someone@example.com", app), "external");
  for (
    const t of [
      "about:blank",
      "blob:http://127.0.0.1:4321/x",
      "data:text/html,hi",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "not a url",
    ]
  ) {
    assertEquals(linkTarget(t, app), "webkit", t);
  }
  assertEquals(externalUrlToOpen("https://example.com/a b"), "https://example.com/a%20b");
  for (
    const bad of [
      "file:///etc/passwd",
      "javascript:alert(1)",
      "https://x/" + "a".repeat(5000),
      42,
      "http://",
    ]
  ) {
    assertEquals(externalUrlToOpen(bad), null, String(bad).slice(0, 30));
  }
  // A child's event with a URL the server would not open is no event.
  assertEquals(parseChildEvent('{"event":"open-external","url":"file:///etc/passwd"}'), null);

  const dir = await Deno.makeTempDir();
  const opened = `${dir}/opened.txt`;
  await Deno.writeTextFile(
    `${dir}/xdg-open`,
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> ${opened}; done\n`,
    { mode: 0o755 },
  );
  const r = withEnv(
    { PATH: `${dir}:${Deno.env.get("PATH")}` },
    () => openExternal("https://example.com/keys?a=1&b=$(touch /tmp/x)"),
  );
  assertEquals(r, { ok: true });
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && !(await Deno.readTextFile(opened).catch(() => ""))) {
    await new Promise((res) => setTimeout(res, 50));
  }
  assertEquals(
    await Deno.readTextFile(opened),
    "https://example.com/keys?a=1&b=$(touch%20/tmp/x)\n",
    "one argument, no shell",
  );
  assertEquals(openExternal("file:///etc/passwd"), {
    ok: false,
    reason: "not an http(s) or mailto link",
  });
});
