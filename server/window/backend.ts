/**
 * Which window backend to use here, and why the others are not: one choice for both
 * `openWindow` and `reinagent doctor`, so the two never disagree. In order:
 * `REINAGENT_WINDOW_CMD` (a command given by the user, or tests' fake window), a
 * Chromium-family browser in `--app=` mode with its own profile in the data dir, the
 * system's default browser.
 */
import { join } from "node:path";

export interface WindowBackend {
  /** What the terminal and doctor say. */
  label: string;
  /** The command line that opens `url`. */
  argv(url: string): string[];
  /** True when the process is the window: its exit means the window closed. */
  tracksWindow: boolean;
}

export interface BackendChoice {
  chosen: WindowBackend | null;
  /** Why there is no window (when `chosen` is null). */
  reason?: string;
  /** The backends before or after the chosen one, with why each is not used. */
  notUsed: { label: string; why: string }[];
}

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

export function chooseWindowBackend(home: string): BackendChoice {
  const notUsed: BackendChoice["notUsed"] = [];
  const custom = Deno.env.get("REINAGENT_WINDOW_CMD");
  if (custom !== undefined) {
    const cmd = parseWindowCommand(custom);
    if ("error" in cmd) return { chosen: null, reason: cmd.error, notUsed };
    return {
      chosen: {
        label: `REINAGENT_WINDOW_CMD (${cmd.join(" ")})`,
        argv: (url) => [...cmd, url], // the URL comes last
        tracksWindow: true,
      },
      notUsed: [{ label: "app window / default browser", why: "REINAGENT_WINDOW_CMD is set" }],
    };
  }
  if (!hasDisplay()) {
    return {
      chosen: null,
      reason: "no display (DISPLAY and WAYLAND_DISPLAY are unset): open the printed URL",
      notUsed,
    };
  }
  const tried = APP_BROWSERS[Deno.build.os] ?? [];
  const browser = tried.map(which).find((p) => p !== null);
  if (browser) {
    const profile = join(home, "window-profile");
    const root = runningAsRoot();
    return {
      chosen: {
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
      notUsed: [{
        label: "default browser",
        why: "an app window comes first (its closing can be seen; a browser tab's cannot)",
      }],
    };
  }
  notUsed.push({
    label: "app window",
    why: `no Chromium-family browser found (looked for ${tried.join(", ")})`,
  });
  const opener = Deno.build.os === "darwin"
    ? ["open"]
    : Deno.build.os === "windows"
    ? ["cmd", "/c", "start", ""]
    : ["xdg-open"];
  if (Deno.build.os === "linux" && !which(opener[0])) {
    return {
      chosen: null,
      reason: "no browser found (no Chromium-family browser, no xdg-open)",
      notUsed,
    };
  }
  return {
    chosen: {
      label: `default browser (${opener[0]})`,
      argv: (url) => [...opener, url],
      tracksWindow: false,
    },
    notUsed,
  };
}

/** One line for `reinagent doctor`: the backend and why the others are not used. */
export function describeBackend(home: string): string {
  const c = chooseWindowBackend(home);
  const head = c.chosen ? c.chosen.label : `none — ${c.reason}`;
  const rest = c.notUsed.map((n) => `${n.label}: ${n.why}`).join("; ");
  return rest ? `${head}; not used: ${rest}` : head;
}
