/**
 * A real X server for desktop-window tests: Xvfb on a free display, screenshots of
 * the whole screen (ImageMagick's `import -window root`), the windows on it
 * (`xwininfo -root -tree`: title, class, size and position), a window manager's kind
 * of resize through libX11, and the memory of a process tree.
 */
import { findSystemLibrary } from "../../server/window/native/lib_paths.ts";
import { GTK_LIBS } from "../../server/window/native/gtk_ffi.ts";
import { which } from "../../server/window/backend.ts";

export const SCREENSHOT_DIR = new URL("../../test-output/screenshots/", import.meta.url);

/** What a desktop-window test needs here, or what is missing. */
export function desktopToolsMissing(): string[] {
  const missing: string[] = [];
  if (!findSystemLibrary(GTK_LIBS.webkit)) missing.push(`${GTK_LIBS.webkit} (libwebkit2gtk-4.1-0)`);
  for (
    const [bin, pkg] of [["Xvfb", "xvfb"], ["import", "imagemagick"], ["xwininfo", "x11-utils"]]
  ) {
    if (!which(bin)) missing.push(`${bin} (${pkg})`);
  }
  return missing;
}

export interface XDisplay {
  /** ":N" */
  name: string;
  close(): Promise<void>;
}

/** Xvfb on the first free display from a random start (never :99, xvfb-run's default). */
export async function startXvfb(width = 1600, height = 1000): Promise<XDisplay> {
  for (let tries = 0; tries < 20; tries++) {
    const n = 400 + Math.floor(Math.random() * 500);
    try {
      Deno.statSync(`/tmp/.X11-unix/X${n}`);
      continue; // taken
    } catch { /* free */ }
    const child = new Deno.Command("Xvfb", {
      args: [`:${n}`, "-screen", "0", `${width}x${height}x24`, "-nolisten", "tcp"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      try {
        Deno.statSync(`/tmp/.X11-unix/X${n}`);
        return {
          name: `:${n}`,
          async close() {
            try {
              child.kill("SIGTERM");
            } catch { /* ended */ }
            await child.status;
          },
        };
      } catch { /* not yet */ }
      if (await Promise.race([child.status.then(() => true), sleep(50).then(() => false)])) break;
    }
    try {
      child.kill("SIGKILL");
    } catch { /* ended */ }
    await child.status;
  }
  throw new Error("could not start Xvfb on a free display");
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run(bin: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(bin, { args, env, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`${bin} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** The whole X screen as test-output/screenshots/<name>.png; returns its path. */
export async function screenshotScreen(display: string, name: string): Promise<string> {
  await Deno.mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = new URL(`${name}.png`, SCREENSHOT_DIR).pathname;
  await run("import", ["-display", display, "-window", "root", path]);
  return path;
}

/** Mean brightness 0–1 of a region of a PNG (0 = all black: nothing drawn there). */
export async function meanBrightness(
  png: string,
  r: { x: number; y: number; width: number; height: number },
): Promise<number> {
  const v = await run("convert", [
    png,
    "-crop",
    `${r.width}x${r.height}+${r.x}+${r.y}`,
    "-colorspace",
    "Gray",
    "-format",
    "%[fx:mean]",
    "info:",
  ]);
  return Number(v.trim());
}

export interface XWindow {
  id: string;
  title: string;
  /** WM_CLASS instance and class. */
  wmClass: string[];
  width: number;
  height: number;
  x: number;
  y: number;
}

/** The named top-level windows on the display (xwininfo's tree). */
export async function listWindows(display: string): Promise<XWindow[]> {
  // A window that closes while the tree is read makes xwininfo fail ("Bad Window"): ask again.
  let text = "";
  for (let attempt = 1;; attempt++) {
    try {
      text = await run("xwininfo", ["-display", display, "-root", "-tree"]);
      break;
    } catch (e) {
      if (attempt >= 5 || !/Bad (Window|Drawable)/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const list: XWindow[] = [];
  const re = /^\s*(0x[0-9a-f]+) "([^"]*)": \(([^)]*)\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)/gm;
  for (const m of text.matchAll(re)) {
    list.push({
      id: m[1],
      title: m[2],
      wmClass: [...m[3].matchAll(/"([^"]*)"/g)].map((c) => c[1]),
      width: Number(m[4]),
      height: Number(m[5]),
      x: Number(m[6]),
      y: Number(m[7]),
    });
  }
  return list;
}

/** `xprop` of one property of a window. */
export async function windowProperty(display: string, id: string, prop: string) {
  return await run("xprop", ["-display", display, "-id", id, prop]);
}

/**
 * Xlib's default error handler ends the process (a window that closed meanwhile would end
 * the test runner): one that ignores errors, installed once, kept for the process.
 */
let quietErrors: { pointer: Deno.PointerObject } | null = null;
function ignoreXErrors(): void {
  if (quietErrors) return;
  const x11 = Deno.dlopen("libX11.so.6", {
    XSetErrorHandler: { parameters: ["function"], result: "pointer" },
  });
  const handler = new Deno.UnsafeCallback(
    { parameters: ["pointer", "pointer"], result: "i32" } as const,
    () => 0,
  );
  quietErrors = handler; // and the library stays open: Xlib keeps the handler's address
  x11.symbols.XSetErrorHandler(handler.pointer);
}

/** Moves and resizes a window as a window manager (or the user's drag) would. */
export function moveResizeWindow(
  display: string,
  id: string,
  g: { x: number; y: number; width: number; height: number },
): void {
  const x11 = Deno.dlopen("libX11.so.6", {
    XOpenDisplay: { parameters: ["buffer"], result: "pointer" },
    XMoveResizeWindow: {
      parameters: ["pointer", "u64", "i32", "i32", "u32", "u32"],
      result: "i32",
    },
    XSync: { parameters: ["pointer", "i32"], result: "i32" },
    XCloseDisplay: { parameters: ["pointer"], result: "i32" },
  });
  try {
    ignoreXErrors();
    const d = x11.symbols.XOpenDisplay(new TextEncoder().encode(display + "\0"));
    if (!d) throw new Error(`cannot open display ${display}`);
    x11.symbols.XMoveResizeWindow(d, BigInt(id), g.x, g.y, g.width, g.height);
    x11.symbols.XSync(d, 0);
    x11.symbols.XCloseDisplay(d);
  } finally {
    x11.close();
  }
}

/** A process and all its descendants (from /proc), with their command names. */
export function processTree(root: number): { pid: number; name: string; rssKb: number }[] {
  const parents = new Map<number, number[]>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(e.name)]);
    } catch { /* ended meanwhile */ }
  }
  const out: { pid: number; name: string; rssKb: number }[] = [];
  const visit = (pid: number) => {
    try {
      const status = Deno.readTextFileSync(`/proc/${pid}/status`);
      out.push({
        pid,
        name: status.match(/^Name:\s+(.*)$/m)?.[1] ?? "?",
        rssKb: Number(status.match(/^VmRSS:\s+(\d+)/m)?.[1] ?? 0),
      });
    } catch { /* ended */ }
    for (const c of parents.get(pid) ?? []) visit(c);
  };
  visit(root);
  return out;
}

/** The command line of a process, or "" when it ended. */
export function cmdline(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** A real mouse click at screen coordinates (XTest), as a user's. */
export function clickAt(display: string, x: number, y: number): void {
  const x11 = Deno.dlopen("libX11.so.6", {
    XOpenDisplay: { parameters: ["buffer"], result: "pointer" },
    XSync: { parameters: ["pointer", "i32"], result: "i32" },
    XCloseDisplay: { parameters: ["pointer"], result: "i32" },
  });
  const xtst = Deno.dlopen("libXtst.so.6", {
    XTestFakeMotionEvent: { parameters: ["pointer", "i32", "i32", "i32", "u64"], result: "i32" },
    XTestFakeButtonEvent: { parameters: ["pointer", "u32", "i32", "u64"], result: "i32" },
  });
  try {
    const d = x11.symbols.XOpenDisplay(new TextEncoder().encode(display + "\0"));
    if (!d) throw new Error(`cannot open display ${display}`);
    xtst.symbols.XTestFakeMotionEvent(d, -1, x, y, 0n);
    x11.symbols.XSync(d, 0);
    xtst.symbols.XTestFakeButtonEvent(d, 1, 1, 0n);
    xtst.symbols.XTestFakeButtonEvent(d, 1, 0, 50n);
    x11.symbols.XSync(d, 0);
    x11.symbols.XCloseDisplay(d);
  } finally {
    xtst.close();
    x11.close();
  }
}

/** Asks a window to close as a window manager's close button does (WM_DELETE_WINDOW). */
export function requestClose(display: string, id: string): void {
  const x11 = Deno.dlopen("libX11.so.6", {
    XOpenDisplay: { parameters: ["buffer"], result: "pointer" },
    XInternAtom: { parameters: ["pointer", "buffer", "i32"], result: "u64" },
    XSendEvent: { parameters: ["pointer", "u64", "i32", "i64", "buffer"], result: "i32" },
    XSync: { parameters: ["pointer", "i32"], result: "i32" },
    XCloseDisplay: { parameters: ["pointer"], result: "i32" },
  });
  try {
    const enc = (s: string) => new TextEncoder().encode(s + "\0");
    ignoreXErrors();
    const d = x11.symbols.XOpenDisplay(enc(display));
    if (!d) throw new Error(`cannot open display ${display}`);
    // XClientMessageEvent in an XEvent (192 bytes) on a 64-bit system.
    const ev = new ArrayBuffer(192);
    const v = new DataView(ev);
    v.setInt32(0, 33, true); // ClientMessage
    v.setBigUint64(32, BigInt(id), true); // window
    v.setBigUint64(40, x11.symbols.XInternAtom(d, enc("WM_PROTOCOLS"), 0), true);
    v.setInt32(48, 32, true); // format
    v.setBigUint64(56, x11.symbols.XInternAtom(d, enc("WM_DELETE_WINDOW"), 0), true);
    x11.symbols.XSendEvent(d, BigInt(id), 0, 0n, new Uint8Array(ev));
    x11.symbols.XSync(d, 0);
    x11.symbols.XCloseDisplay(d);
  } finally {
    x11.close();
  }
}

/** Types text as key presses (XTest): lowercase letters, digits, "/", "-", "." and "\n". */
export function typeText(display: string, text: string): void {
  if (!/^[a-z0-9/\-.\n]*$/.test(text)) throw new Error(`cannot type ${JSON.stringify(text)}`);
  const x11 = Deno.dlopen("libX11.so.6", {
    XOpenDisplay: { parameters: ["buffer"], result: "pointer" },
    XKeysymToKeycode: { parameters: ["pointer", "u64"], result: "u8" },
    XSync: { parameters: ["pointer", "i32"], result: "i32" },
    XCloseDisplay: { parameters: ["pointer"], result: "i32" },
  });
  const xtst = Deno.dlopen("libXtst.so.6", {
    XTestFakeKeyEvent: { parameters: ["pointer", "u32", "i32", "u64"], result: "i32" },
  });
  try {
    const d = x11.symbols.XOpenDisplay(new TextEncoder().encode(display + "\0"));
    if (!d) throw new Error(`cannot open display ${display}`);
    for (const ch of text) {
      const keysym = ch === "\n" ? 0xff0d : ch.charCodeAt(0); // XK_Return; ASCII keysyms
      const code = x11.symbols.XKeysymToKeycode(d, BigInt(keysym));
      xtst.symbols.XTestFakeKeyEvent(d, code, 1, 0n);
      xtst.symbols.XTestFakeKeyEvent(d, code, 0, 0n);
      x11.symbols.XSync(d, 0);
    }
    x11.symbols.XCloseDisplay(d);
  } finally {
    xtst.close();
    x11.close();
  }
}

/** Presses keys together and lets them go (XTest), e.g. `["Control_L", "v"]` for Ctrl+V. */
export function pressChord(display: string, keysyms: ("Control_L" | "Shift_L" | "v")[]): void {
  const codes = { Control_L: 0xffe3n, Shift_L: 0xffe1n, v: 0x76n };
  const x11 = Deno.dlopen("libX11.so.6", {
    XOpenDisplay: { parameters: ["buffer"], result: "pointer" },
    XKeysymToKeycode: { parameters: ["pointer", "u64"], result: "u8" },
    XSync: { parameters: ["pointer", "i32"], result: "i32" },
    XCloseDisplay: { parameters: ["pointer"], result: "i32" },
  });
  const xtst = Deno.dlopen("libXtst.so.6", {
    XTestFakeKeyEvent: { parameters: ["pointer", "u32", "i32", "u64"], result: "i32" },
  });
  try {
    const d = x11.symbols.XOpenDisplay(new TextEncoder().encode(display + "\0"));
    if (!d) throw new Error(`cannot open display ${display}`);
    const keys = keysyms.map((k) => x11.symbols.XKeysymToKeycode(d, codes[k]));
    for (const k of keys) xtst.symbols.XTestFakeKeyEvent(d, k, 1, 0n);
    for (const k of keys.toReversed()) xtst.symbols.XTestFakeKeyEvent(d, k, 0, 20n);
    x11.symbols.XSync(d, 0);
    x11.symbols.XCloseDisplay(d);
  } finally {
    xtst.close();
    x11.close();
  }
}

/**
 * A test that needs an X display: runs `fn` on a fresh Xvfb, or — when a tool in `missing`
 * is absent — fails under REINAGENT_REQUIRE_BROWSER=1 and otherwise skips loudly.
 */
export function desktopTest(
  name: string,
  fn: (d: XDisplay) => Promise<void>,
  missing: string[] = desktopToolsMissing(),
): void {
  Deno.test({
    name,
    fn: async () => {
      if (missing.length) {
        const why = `needs ${missing.join(", ")}`;
        if (Deno.env.get("REINAGENT_REQUIRE_BROWSER") === "1") throw new Error(why);
        console.warn(`\n!!! SKIPPED "${name}": ${why} !!!\n`);
        return;
      }
      const d = await startXvfb();
      try {
        await fn(d);
      } finally {
        await d.close(); // what runs on the display (xclip too) ends with it
      }
    },
  });
}
