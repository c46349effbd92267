/**
 * Opens a link from the native window in the user's default browser (xdg-open, open,
 * start): the window asked for it, so the URL is checked again here (http, https or
 * mailto only, bounded) and passed as one argument, never through a shell.
 */
import { defaultBrowser } from "./backend.ts";
import { externalUrlToOpen } from "./native/navigation.ts";

export function openExternal(url: string): { ok: true } | { ok: false; reason: string } {
  const checked = externalUrlToOpen(url);
  if (!checked) return { ok: false, reason: "not an http(s) or mailto link" };
  const opener = defaultBrowser();
  if (!("backend" in opener)) return { ok: false, reason: opener.why };
  const [bin, ...args] = opener.backend.argv(checked);
  try {
    const child = new Deno.Command(bin, { args, stdin: "null", stdout: "null", stderr: "null" })
      .spawn();
    child.status.catch(() => {}); // reaped; its exit code says nothing about the browser
    child.unref();
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: `${bin} could not start: ${(e as Error).message}` };
  }
}
