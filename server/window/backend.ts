/**
 * Which window backend to use here, and why the others are not: one choice for both
 * `openWindow` and `reinagent doctor`, so the two never disagree. In order:
 * `REINAGENT_WINDOW_CMD` (a command given by the user, or tests' fake window), a native
 * window (a `libwebview` library, then the system's WebKitGTK on Linux; both run in a
 * child process of this program), a Chromium-family browser in `--app=` mode with its
 * own profile in the data dir, the system's default browser. `REINAGENT_WINDOW` picks
 * one kind (native, webview, webkitgtk, chromium, browser).
 */
import { join } from "../../lib/path.ts";
import type { NativeKind } from "./native/protocol.ts";
import { findSystemLibrary } from "./native/lib_paths.ts";
import { GTK_LIBS } from "./native/gtk_ffi.ts";
import { webviewCandidate } from "./native/webview_ffi.ts";

export interface WindowBackend {
  /** What the terminal and doctor say. */
  label: string;
  /** The command line that opens `url` (a browser or the user's command). */
  argv(url: string): string[];
  /** True when the process is the window: its exit means the window closed. */
  tracksWindow: boolean;
  /** A native window: started as this program's child, which says whether it opened. */
  native?: { kind: NativeKind; lib?: string };
}

export interface BackendChoice {
  chosen: WindowBackend | null;
  /** Why there is no window (when `chosen` is null). */
  reason?: string;
  /** The backends before or after the chosen one, with why each is not used. */
  notUsed: { label: string; why: string }[];
  /** Tried in order when the chosen one (a native window) cannot open after all. */
  fallbacks: WindowBackend[];
  /** What to say when the chosen one and every fallback failed to open. */
  exhausted?: string;
}

/** `REINAGENT_WINDOW`: which kinds of backend may be used. */
const WINDOW_KINDS = ["native", "webview", "webkitgtk", "chromium", "browser"] as const;
type WindowKind = (typeof WINDOW_KINDS)[number];

const APP_BROWSERS: Record<string, string[]> = {
  linux: [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "microsoft-edge",
    "brave-browser",
  ],
  darwin: [
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
  ],
  windows: [
    "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
    "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
  ],
};

export function which(name: string): string | null {
  if (name.includes("/") || name.includes("\\")) {
    try {
      return Deno.statSync(name).isFile ? name : null;
    } catch {
      return null;
    }
  }
  const sep = Deno.build.os === "windows" ? ";" : ":";
  for (const dir of (Deno.env.get("PATH") ?? "").split(sep)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* not in this dir */ }
  }
  return null;
}

/** `REINAGENT_WINDOW_CMD`: a JSON array of strings, or words split on spaces. */
export function parseWindowCommand(text: string): string[] | { error: string } {
  const t = text.trim();
  if (t.startsWith("[")) {
    try {
      const v = JSON.parse(t);
      if (Array.isArray(v) && v.length && v.every((x) => typeof x === "string" && x)) return v;
    } catch { /* reported below */ }
    return { error: "REINAGENT_WINDOW_CMD must be a JSON array of non-empty strings" };
  }
  const words = t.split(/\s+/).filter(Boolean);
  return words.length ? words : { error: "REINAGENT_WINDOW_CMD is empty" };
}

function hasDisplay(): boolean {
  if (Deno.build.os !== "linux") return true;
  return Boolean(Deno.env.get("DISPLAY") || Deno.env.get("WAYLAND_DISPLAY"));
}

/** Chromium refuses to start as root unless its sandbox is off (it exits at once). */
const runningAsRoot = () => Deno.build.os === "linux" && Deno.uid() === 0;

export const WEBKITGTK_LABEL = "native window (WebKitGTK)";

/** The native backends that look usable (their libraries exist), and why the others not. */
function nativeCandidates(allowed: (k: WindowKind) => boolean) {
  const found: WindowBackend[] = [];
  const notUsed: BackendChoice["notUsed"] = [];
  const native = (label: string, kind: NativeKind, lib?: string): WindowBackend => ({
    label,
    argv: () => [], // started by openWindow through the window's child process
    tracksWindow: true,
    native: { kind, lib },
  });
  const wv = webviewCandidate();
  const wvLabel = `native window (libwebview ${wv.path})`;
  if (!allowed("webview")) {
    if (wv.explicit) notUsed.push({ label: wvLabel, why: "REINAGENT_WINDOW excludes it" });
  } else if (exists(wv.path)) found.push(native(wvLabel, "webview", wv.path));
  else {
    notUsed.push({
      label: "libwebview",
      why: wv.explicit
        ? `REINAGENT_WEBVIEW_LIB=${wv.path} does not exist`
        : `none next to the binary (${wv.path}) and REINAGENT_WEBVIEW_LIB is unset`,
    });
  }
  if (!allowed("webkitgtk")) {
    notUsed.push({ label: WEBKITGTK_LABEL, why: "REINAGENT_WINDOW excludes it" });
  } else if (Deno.build.os !== "linux") {
    notUsed.push({ label: WEBKITGTK_LABEL, why: "only on Linux" });
  } else if (!findSystemLibrary(GTK_LIBS.webkit)) {
    notUsed.push({
      label: WEBKITGTK_LABEL,
      why: `${GTK_LIBS.webkit} not found (Debian/Ubuntu: apt install libwebkit2gtk-4.1-0)`,
    });
  } else found.push(native(WEBKITGTK_LABEL, "webkitgtk"));
  return { found, notUsed };
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function allowedKinds(): ((k: WindowKind) => boolean) | { error: string } {
  const v = Deno.env.get("REINAGENT_WINDOW")?.trim().toLowerCase();
  if (!v) return () => true;
  if (!(WINDOW_KINDS as readonly string[]).includes(v)) {
    return { error: `REINAGENT_WINDOW must be one of ${WINDOW_KINDS.join(", ")} (not "${v}")` };
  }
  return (k) => k === v || (v === "native" && (k === "webview" || k === "webkitgtk"));
}

export function chooseWindowBackend(home: string): BackendChoice {
  const notUsed: BackendChoice["notUsed"] = [];
  const none = (reason: string): BackendChoice => ({
    chosen: null,
    reason,
    notUsed,
    fallbacks: [],
  });
  const custom = Deno.env.get("REINAGENT_WINDOW_CMD");
  if (custom !== undefined) {
    const cmd = parseWindowCommand(custom);
    if ("error" in cmd) return none(cmd.error);
    return {
      chosen: {
        label: `REINAGENT_WINDOW_CMD (${cmd.join(" ")})`,
        argv: (url) => [...cmd, url], // the URL comes last
        tracksWindow: true,
      },
      notUsed: [{
        label: "app window / default browser / native window",
        why: "REINAGENT_WINDOW_CMD is set",
      }],
      fallbacks: [],
    };
  }
  if (!hasDisplay()) {
    return none("no display (DISPLAY and WAYLAND_DISPLAY are unset): open the printed URL");
  }
  const allowed = allowedKinds();
  if ("error" in allowed) return none(allowed.error);
  const natives = nativeCandidates(allowed);
  notUsed.push(...natives.notUsed);
  const list = [...natives.found];
  if (allowed("chromium")) {
    const app = appWindow(home);
    if ("backend" in app) list.push(app.backend);
    else notUsed.push({ label: "app window", why: app.why });
  } else notUsed.push({ label: "app window", why: "REINAGENT_WINDOW excludes it" });
  if (allowed("browser")) {
    const opener = defaultBrowser();
    if ("backend" in opener) list.push(opener.backend);
    else notUsed.push({ label: "default browser", why: opener.why });
  }
  const exhausted = allowed("chromium") || allowed("browser")
    ? "no browser found (no Chromium-family browser, no xdg-open)"
    : "no native window could open";
  if (!list.length) return none(exhausted);
  const [chosen, ...rest] = list;
  // Only a native window can fail to open and hand over; a browser is the last word.
  const fallbacks = chosen.native ? rest : [];
  for (const r of chosen.native ? [] : rest) notUsed.push(comesFirst(r));
  return { chosen, notUsed, fallbacks, exhausted };
}

/** Why a browser after the chosen backend is not used. */
const comesFirst = (b: WindowBackend) => ({
  label: b.label.replace(/ \(.*/, ""),
  why: "an app window comes first (its closing can be seen; a browser tab's cannot)",
});

function appWindow(home: string): { backend: WindowBackend } | { why: string } {
  const tried = APP_BROWSERS[Deno.build.os] ?? [];
  const browser = tried.map(which).find((p) => p !== null);
  if (!browser) {
    return { why: `no Chromium-family browser found (looked for ${tried.join(", ")})` };
  }
  const profile = join(home, "window-profile");
  const root = runningAsRoot();
  return {
    backend: {
      label: `app window (${browser} --app, own profile in ${profile}${
        root ? "; --no-sandbox: running as root" : ""
      })`,
      argv: (url) => [
        browser,
        `--user-data-dir=${profile}`,
        "--no-first-run",
        "--no-default-browser-check",
        "--window-size=1280,800",
        ...(root ? ["--no-sandbox"] : []),
        `--app=${url}`,
      ],
      tracksWindow: true,
    },
  };
}

export function defaultBrowser(): { backend: WindowBackend } | { why: string } {
  const opener = Deno.build.os === "darwin"
    ? ["open"]
    : Deno.build.os === "windows"
    ? ["cmd", "/c", "start", ""]
    : ["xdg-open"];
  if (Deno.build.os === "linux" && !which(opener[0])) return { why: "no xdg-open found" };
  return {
    backend: {
      label: `default browser (${opener[0]})`,
      argv: (url) => [...opener, url],
      tracksWindow: false,
    },
  };
}

/**
 * One line for `reinagent doctor`: the backend and why the others are not used. A
 * native backend is really tried (`probe`, in a child process: can it load its
 * libraries and open the display?), so the line says what a start would do.
 */
export async function describeBackend(
  home: string,
  probe: (b: WindowBackend) => Promise<{ ok: true; detail: string } | { ok: false; why: string }>,
): Promise<string> {
  const c = chooseWindowBackend(home);
  const notUsed = [...c.notUsed];
  let chosen = c.chosen;
  let detail = "";
  const queue = chosen?.native ? [chosen, ...c.fallbacks] : [];
  if (queue.length) {
    chosen = null;
    for (const [i, b] of queue.entries()) {
      if (!b.native) {
        chosen = b;
        for (const r of queue.slice(i + 1)) notUsed.push(comesFirst(r));
        break;
      }
      const r = await probe(b);
      if (r.ok) {
        chosen = b;
        detail = ` — ${r.detail}`;
        break;
      }
      notUsed.push({ label: b.label, why: r.why });
    }
  }
  const head = chosen ? chosen.label + detail : `none — ${c.reason ?? c.exhausted}`;
  const rest = notUsed.map((n) => `${n.label}: ${n.why}`).join("; ");
  return rest ? `${head}; not used: ${rest}` : head;
}
