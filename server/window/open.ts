/**
 * Opens the UI for the local user with the backend `chooseWindowBackend` picks. The
 * window is a child process of its own (the native window, a browser in `--app=` mode,
 * or a command from `REINAGENT_WINDOW_CMD`): it can crash or close without touching
 * the server or its runs; `exited` says when it ended, for the server to decide what to
 * do. A native window that cannot open (no library, no display) says why, and the next
 * backend is tried.
 */
import { chooseWindowBackend, type WindowBackend } from "./backend.ts";
import { startWindowChild } from "./native/spawn.ts";
import type { ChildEvent } from "./native/protocol.ts";
import { openExternal } from "./open_external.ts";

export interface WindowExit {
  code: number;
  signal: Deno.Signal | null;
  /** How long the process lived. */
  afterMs: number;
}

export interface OpenResult {
  ok: boolean;
  how?: string;
  reason?: string;
  /** Resolves when the window's process exits (only when the process is the window). */
  exited?: Promise<WindowExit>;
  /** Closes the window (when the server stops). */
  close?: () => void;
  /** The window's process (when it is one of ours to watch). */
  pid?: number;
}

export async function openWindow(
  url: string,
  home: string,
  log: (line: string) => void = () => {},
): Promise<OpenResult> {
  const { chosen, reason, fallbacks, exhausted } = chooseWindowBackend(home);
  if (!chosen) return { ok: false, reason };
  for (const b of [chosen, ...fallbacks]) {
    if (!b.native) return await openProcess(b, url);
    const r = await openNative(b, url, home, log);
    if (r.ok) return r;
    log(`  window: ${b.label} could not open (${r.reason}); trying the next`);
  }
  return { ok: false, reason: exhausted };
}

/** The server's first window reports its paint since the start; later ones since asked. */
let firstPaint = true;

async function openNative(
  b: WindowBackend,
  url: string,
  home: string,
  log: (line: string) => void,
): Promise<OpenResult> {
  const onEvent = (e: ChildEvent) => {
    if (e.event === "note") log(`  window: ${e.text}`);
    if (e.event === "open-external") {
      const r = openExternal(e.url);
      if (!r.ok) log(`  window: could not open ${e.url} in the browser (${r.reason})`);
    }
    if (e.event === "painted") {
      // performance.now() counts from this process's start: the time to a usable window.
      log(
        firstPaint
          ? `  window: the app painted ${Math.round(performance.now())} ms after start`
          : `  window: the app painted ${Date.now() - started} ms after the window was asked for`,
      );
      firstPaint = false;
    }
  };
  const started = Date.now();
  const r = await startWindowChild({ ...b.native!, url, home }, onEvent);
  if (!r.ok) return { ok: false, reason: r.reason };
  const exited = r.exited.then((s) => {
    const last = s.code !== 0 && !s.signal ? r.lastWords() : "";
    if (last) log(`  window: its last words: ${last}`); // why it crashed, in GTK's words
    return { code: s.code, signal: s.signal, afterMs: Date.now() - started };
  });
  return { ok: true, how: `${b.label} — ${r.backend}`, exited, close: r.close, pid: r.pid };
}

async function openProcess(b: WindowBackend, url: string): Promise<OpenResult> {
  const [bin, ...args] = b.argv(url);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(bin, { args, stdin: "null", stdout: "null", stderr: "null" })
      .spawn();
  } catch (e) {
    return { ok: false, reason: `${bin} could not start: ${(e as Error).message}` };
  }
  const started = Date.now();
  const exited = child.status.then((s) => ({
    code: s.code,
    signal: s.signal,
    afterMs: Date.now() - started,
  }));
  const close = () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already closed */ }
  };
  if (b.tracksWindow) return { ok: true, how: b.label, exited, close, pid: child.pid };
  // A default-browser opener may stay until the browser it launched exits: wait briefly.
  const early = await Promise.race([
    exited,
    new Promise<null>((r) => setTimeout(r, 2000)),
  ]);
  if (early && early.code !== 0) return { ok: false, reason: `${bin} failed (exit ${early.code})` };
  if (!early) child.unref();
  return { ok: true, how: b.label };
}
