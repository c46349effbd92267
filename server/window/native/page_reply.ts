/**
 * The window's answer to a page's request (folder picker, clipboard image): a call of
 * the bridge's `window.__reinagentNativeReply(id, value)` in the page.
 */
import { cstr, type GtkLibs } from "./gtk_ffi.ts";

export function replyToPage(
  l: GtkLibs,
  view: Deno.PointerValue,
  id: number,
  value: string | Record<string, string | number> | null,
): void {
  // JSON is a JavaScript literal: the value cannot break out of the call.
  const script = `window.__reinagentNativeReply?.(${id}, ${JSON.stringify(value)})`;
  l.webkit.webkit_web_view_evaluate_javascript(
    view,
    cstr(script),
    -1n,
    null,
    null,
    null,
    null,
    null,
  );
}
