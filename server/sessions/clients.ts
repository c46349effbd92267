/**
 * Who a connected client is, from its User-Agent: a phone, tablet or desktop browser
 * (which one, on which system) or the CLI — shown with what it did (e.g. who rewound
 * the code). A guess from the header, never used for security.
 *
 * @example
 * describeClient("Mozilla/5.0 (Linux; Android 14; Pixel 8) … Chrome/126.0 Mobile Safari/537.36");
 * // {kind: "phone", browser: "Chrome", os: "Android"}
 */
import type { ClientInfo } from "../../protocol/index.ts";

/** The CLI (in-process or over the WebSocket: Deno's User-Agent). */
export const CLI_CLIENT: ClientInfo = { kind: "cli", browser: "", os: "" };

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bCriOS\/|\bChrom(e|ium)\/|\bHeadlessChrome\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bAppleWebKit\//, "WebKit"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b|\biPod\b|\biPad\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

export function describeClient(ua: string | null | undefined): ClientInfo {
  const s = ua ?? "";
  if (/^Deno\//.test(s)) return CLI_CLIENT;
  const browser = BROWSERS.find(([re]) => re.test(s))?.[1] ?? "";
  const os = SYSTEMS.find(([re]) => re.test(s))?.[1] ?? "";
  if (!browser && !os) return { kind: "unknown", browser: "", os: "" };
  const kind = /\biPad\b|\bTablet\b/.test(s) || (os === "Android" && !/\bMobile\b/.test(s))
    ? "tablet"
    : /\bMobi|\biPhone\b|\biPod\b/.test(s)
    ? "phone"
    : "desktop";
  return { kind, browser, os };
}
