/**
 * The `libwebview` C API (github.com/webview/webview, the library webview_deno wraps):
 * WKWebView on macOS, WebView2 on Windows, WebKitGTK on Linux behind the same six calls.
 * Newer versions return an error code where older ones return void; the result is not
 * read, so both work.
 */
import { join } from "../../../lib/path.ts";

const webviewSymbols = {
  webview_create: { parameters: ["i32", "pointer"], result: "pointer" },
  webview_set_title: { parameters: ["pointer", "buffer"], result: "void" },
  webview_set_size: { parameters: ["pointer", "i32", "i32", "i32"], result: "void" },
  webview_navigate: { parameters: ["pointer", "buffer"], result: "void" },
  webview_run: { parameters: ["pointer"], result: "void" },
  webview_destroy: { parameters: ["pointer"], result: "void" },
} as const;

export type WebviewLib = Deno.DynamicLibrary<typeof webviewSymbols>["symbols"];

/** `WEBVIEW_HINT_NONE`: the user may resize the window. */
export const WEBVIEW_HINT_NONE = 0;

/** The library's file name on this OS. */
export function webviewFileName(os: typeof Deno.build.os = Deno.build.os): string {
  return os === "windows" ? "webview.dll" : os === "darwin" ? "libwebview.dylib" : "libwebview.so";
}

/**
 * Where to look for libwebview: `REINAGENT_WEBVIEW_LIB`, else next to the running
 * binary. `explicit` says the user named it (then its absence is worth saying).
 */
export function webviewCandidate(): { path: string; explicit: boolean } {
  const env = Deno.env.get("REINAGENT_WEBVIEW_LIB");
  if (env !== undefined && env.trim()) return { path: env.trim(), explicit: true };
  const dir = Deno.execPath().replace(/[\\/][^\\/]*$/, "");
  return { path: join(dir, webviewFileName()), explicit: false };
}

/** Opens the library, or says why it cannot be used (missing file, not a library, no symbol). */
export function openWebview(path: string): WebviewLib | { error: string } {
  try {
    return Deno.dlopen(path, webviewSymbols).symbols;
  } catch (e) {
    return { error: `${path}: ${(e as Error).message}` };
  }
}
