/**
 * Opens the UI for the local user. Backends tried in order: a Chromium-family
 * browser in `--app=` mode with its own profile (a real app window whose exit we can
 * see), then the system's default browser. The native webview comes later.
 */
import { join } from "node:path";

export interface OpenResult {
  ok: boolean;
  how?: string;
  reason?: string;
  /** Resolves when the window's process exits (only for app-mode windows). */
  exited?: Promise<void>;
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

function which(name: string): string | null {
  if (name.includes("/") || name.includes("\\")) {
    try {
      return Deno.statSync(name).isFile ? name : null;
    } catch {
      return null;
    }
  }
  const sep = Deno.build.os === "windows" ? ";" : ":";
  for (const dir of (Deno.env.get("PATH") ?? "").split(sep)) {
    const p = join(dir, name);
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* not in this dir */ }
  }
  return null;
}

function hasDisplay(): boolean {
  if (Deno.build.os !== "linux") return true;
  return Boolean(Deno.env.get("DISPLAY") || Deno.env.get("WAYLAND_DISPLAY"));
}

/** Which window backend `openWindow` would use here (for `reinagent doctor`). */
export function windowBackend(): string {
  if (!hasDisplay()) return "none (no display: the URL is printed)";
  for (const candidate of APP_BROWSERS[Deno.build.os] ?? []) {
    const bin = which(candidate);
    if (bin) return `app window (${bin} --app)`;
  }
  return "default browser";
}

export async function openWindow(url: string, home: string): Promise<OpenResult> {
  if (!hasDisplay()) return { ok: false, reason: "no display (DISPLAY/WAYLAND_DISPLAY unset)" };
  for (const candidate of APP_BROWSERS[Deno.build.os] ?? []) {
    const bin = which(candidate);
    if (!bin) continue;
    const child = new Deno.Command(bin, {
      args: [
        `--app=${url}`,
        `--user-data-dir=${join(home, "window-profile")}`,
        "--no-first-run",
        "--window-size=1280,800",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    return { ok: true, how: `${bin} --app`, exited: child.status.then(() => {}) };
  }
  const opener = Deno.build.os === "darwin"
    ? ["open"]
    : Deno.build.os === "windows"
    ? ["cmd", "/c", "start", ""]
    : ["xdg-open"];
  if (!which(opener[0]) && Deno.build.os === "linux") {
    return { ok: false, reason: "no browser found" };
  }
  const out = await new Deno.Command(opener[0], {
    args: [...opener.slice(1), url],
    stdout: "null",
    stderr: "null",
  })
    .output();
  return out.success
    ? { ok: true, how: "default browser" }
    : { ok: false, reason: `${opener[0]} failed` };
}
