/**
 * The window through a `libwebview` shared library: title "ReinAgent", the remembered
 * size, the server's page. `webview_run` blocks this (child) process until the window
 * closes; the C API cannot read the size back, so with this backend the size saved by
 * the WebKitGTK window is applied but not updated.
 */
import { cstr } from "./gtk_ffi.ts";
import { loadGeometry } from "./geometry.ts";
import { openWebview, WEBVIEW_HINT_NONE } from "./webview_ffi.ts";
import type { ChildEvent } from "./protocol.ts";

export interface WebviewStart {
  url: string;
  home: string;
  lib: string;
  emit(e: ChildEvent): void;
}

export function probeWebview(lib: string): { ok: true; versions: string } | {
  ok: false;
  reason: string;
} {
  const w = openWebview(lib);
  return "error" in w
    ? { ok: false, reason: w.error }
    : { ok: true, versions: `libwebview ${lib}` };
}

/** Runs the window; returns why it could not open (when it ran, the process exits). */
export async function runWebviewWindow(s: WebviewStart): Promise<string> {
  const w = openWebview(s.lib);
  if ("error" in w) return w.error;
  const g = (await loadGeometry(s.home)).geometry;
  const view = w.webview_create(0, null);
  if (!view) return `${s.lib}: webview_create returned no window (no display?)`;
  w.webview_set_title(view, cstr("ReinAgent"));
  w.webview_set_size(view, g.width, g.height, WEBVIEW_HINT_NONE);
  w.webview_navigate(view, cstr(s.url));
  s.emit({ event: "ready", backend: `libwebview ${s.lib}` });
  w.webview_run(view); // until the window closes
  w.webview_destroy(view);
  Deno.exit(0);
}
