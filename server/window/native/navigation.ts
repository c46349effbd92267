/**
 * Where a link in the native window goes: the app's own pages stay in the window; a web
 * page elsewhere (a provider's key page, a link in an answer) opens in the user's
 * browser, as an installed app does, instead of replacing the app with no way back.
 */

export type LinkTarget = "app" | "external" | "webkit";

const EXTERNAL_SCHEMES = new Set(["http:", "https:", "mailto:"]);
/** What the server will hand to the system's opener (a URL longer than this is not a link). */
export const MAX_EXTERNAL_URL = 4096;

/** `app`: same origin as the server; `external`: open in the browser; `webkit`: WebKit decides (about:, blob:, data: frames). */
export function linkTarget(target: string, appUrl: string): LinkTarget {
  let t: URL;
  try {
    t = new URL(target);
  } catch {
    return "webkit";
  }
  if (t.origin === new URL(appUrl).origin && (t.protocol === "http:" || t.protocol === "https:")) {
    return "app";
  }
  return EXTERNAL_SCHEMES.has(t.protocol) ? "external" : "webkit";
}

/** A URL the window asks the server to open in the browser, if it is one to open. */
export function externalUrlToOpen(url: unknown): string | null {
  if (typeof url !== "string" || url.length > MAX_EXTERNAL_URL) return null;
  try {
    const u = new URL(url);
    if (!EXTERNAL_SCHEMES.has(u.protocol)) return null;
    if (u.protocol !== "mailto:" && !u.hostname) return null;
    return u.href;
  } catch {
    return null;
  }
}
