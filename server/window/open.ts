/**
 * Opens the UI for the local user with the backend `chooseWindowBackend` picks. The
 * window is a child process of its own (a browser in `--app=` mode, or a command from
 * `REINAGENT_WINDOW_CMD`): it can crash or close without touching the server or its
 * runs; `exited` says when it ended, for the server to decide what to do.
 */
import { chooseWindowBackend } from "./backend.ts";

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
}

export async function openWindow(url: string, home: string): Promise<OpenResult> {
  const { chosen, reason } = chooseWindowBackend(home);
  if (!chosen) return { ok: false, reason };
  const [bin, ...args] = chosen.argv(url);
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
  if (chosen.tracksWindow) return { ok: true, how: chosen.label, exited, close };
  // A default-browser opener may stay until the browser it launched exits: wait briefly.
  const early = await Promise.race([
    exited,
    new Promise<null>((r) => setTimeout(r, 2000)),
  ]);
  if (early && early.code !== 0) return { ok: false, reason: `${bin} failed (exit ${early.code})` };
  if (!early) child.unref();
  return { ok: true, how: chosen.label };
}
