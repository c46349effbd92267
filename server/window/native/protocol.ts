/**
 * What the window's child process tells the server, one JSON object per line on its
 * stdout, and what the server sends it (one JSON line on its stdin: the URL carries the
 * token, so it never goes on a command line other users can read).
 */

import { externalUrlToOpen } from "./navigation.ts";

export type NativeKind = "webview" | "webkitgtk";

export interface ChildStart {
  kind: NativeKind;
  url: string;
  home: string;
  /** The libwebview file (kind "webview"). */
  lib?: string;
  /** Only check that the backend could open a window (for `reinagent doctor`). */
  probe?: boolean;
}

export type ChildEvent =
  /** The window is up and loading the URL: no fallback needed any more. */
  | { event: "ready"; backend: string }
  /** The backend cannot open a window here; the server tries the next one. */
  | { event: "failed"; reason: string }
  /** The page finished loading / the app drew its first frame (ms since the view was made). */
  | { event: "loaded"; ms: number }
  /** `pageMs`/`mountedMs`: the page's own clock (since its navigation started). */
  | { event: "painted"; ms: number; pageMs?: number; mountedMs?: number }
  /** `probe`: the backend could open a window. */
  | { event: "probed"; backend: string }
  /** A link to a page outside the app: the server opens it in the default browser. */
  | { event: "open-external"; url: string }
  /** Something for the server's terminal. */
  | { event: "note"; text: string };

/** Exit code of a child that could not open its window (the server falls back). */
export const EXIT_CANNOT_OPEN = 3;

/** A line from the child, or null (GTK or WebKit may print their own lines). */
export function parseChildEvent(line: string): ChildEvent | null {
  if (!line.startsWith("{") || line.length > 4000) return null;
  try {
    const e = JSON.parse(line);
    const str = (v: unknown) => typeof v === "string";
    const num = (v: unknown) => typeof v === "number" && Number.isFinite(v);
    switch (e?.event) {
      case "ready":
      case "probed":
        return str(e.backend) ? { event: e.event, backend: e.backend } : null;
      case "failed":
        return str(e.reason) ? { event: "failed", reason: e.reason } : null;
      case "loaded":
        return num(e.ms) ? { event: "loaded", ms: e.ms } : null;
      case "painted":
        return num(e.ms)
          ? {
            event: "painted",
            ms: e.ms,
            ...(num(e.pageMs) ? { pageMs: e.pageMs } : {}),
            ...(num(e.mountedMs) ? { mountedMs: e.mountedMs } : {}),
          }
          : null;
      case "open-external": {
        const url = externalUrlToOpen(e.url);
        return url ? { event: "open-external", url } : null;
      }
      case "note":
        return str(e.text) ? { event: "note", text: e.text } : null;
    }
  } catch { /* not ours */ }
  return null;
}

/** The start message, checked (it comes through a pipe, but from another program version perhaps). */
export function parseChildStart(text: string): ChildStart | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { error: "the start message is not JSON" };
  }
  const o = v as Record<string, unknown>;
  if (!o || typeof o !== "object") return { error: "the start message is not an object" };
  if (o.kind !== "webview" && o.kind !== "webkitgtk") return { error: "unknown window kind" };
  if (typeof o.url !== "string" || !/^https?:\/\//.test(o.url)) {
    return { error: "the URL must be http(s)" };
  }
  if (typeof o.home !== "string" || !o.home) return { error: "no data dir" };
  if (o.kind === "webview" && (typeof o.lib !== "string" || !o.lib)) {
    return { error: "no libwebview path" };
  }
  return {
    kind: o.kind,
    url: o.url,
    home: o.home,
    lib: typeof o.lib === "string" ? o.lib : undefined,
    probe: o.probe === true,
  };
}
