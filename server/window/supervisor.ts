/**
 * Keeps count of the server's open windows and decides what their closing means. A
 * window that closes or crashes never stops a run: with runs active the server says so
 * and keeps going, then stops when they have ended and no window is open — unless it
 * was started with `--keep-running` (or headless), when only Ctrl+C stops it.
 */
import type { OpenResult, WindowExit } from "./open.ts";
import type { WindowReply } from "../instance/control.ts";

/**
 * A Chromium started on a profile that an already running Chromium uses passes the URL
 * to that one and exits at once with 0: that is a window opened, not one closed.
 */
const HANDED_TO_RUNNING_BROWSER_MS = 1500;

export interface SupervisorDeps {
  open(): Promise<OpenResult>;
  /** Runs in progress now (a run waiting for an approval counts). */
  activeRuns(): number;
  /** Stop the server when the last window closed and no run is active. */
  exitWhenClosed: boolean;
  url(): string;
  log(line: string): void;
  /** Stops the server (closes it and ends the process). */
  stop(): void;
  /** How often to look whether the runs have ended (ms). */
  pollMs?: number;
}

export class WindowSupervisor {
  private open = 0;
  private closers = new Set<() => void>();
  private waiting: ReturnType<typeof setInterval> | null = null;
  private stopping = false;

  constructor(private d: SupervisorDeps) {}

  get openWindows(): number {
    return this.open;
  }

  async openWindow(): Promise<WindowReply> {
    const r = await this.d.open();
    if (!r.ok) return { opened: false, reason: r.reason };
    if (r.exited) {
      this.open++;
      this.cancelWait();
      const close = r.close ?? (() => {});
      this.closers.add(close);
      r.exited.then((e) => {
        this.closers.delete(close);
        if (!this.stopping) this.closed(e);
      });
    }
    return { opened: true, how: r.how };
  }

  private closed(e: WindowExit): void {
    this.open--;
    if (e.code === 0 && e.afterMs < HANDED_TO_RUNNING_BROWSER_MS) {
      this.d.log("  window: passed to the browser already running on this profile");
      return; // its closing cannot be seen; the browser's own process is still counted
    }
    const how = e.signal
      ? `ended by ${e.signal}`
      : e.code === 0
      ? "closed"
      : `crashed (exit code ${e.code})`;
    if (this.open > 0) {
      this.d.log(`window ${how}; ${this.open} still open`);
      return;
    }
    if (!this.d.exitWhenClosed) {
      this.d.log(`window ${how}; the server keeps running at ${this.d.url()}`);
      return;
    }
    const runs = this.d.activeRuns();
    if (runs === 0) {
      this.d.log(`window ${how}; no task is running: stopping`);
      this.finish();
      return;
    }
    this.d.log(
      `window ${how}; ${runs} task${runs === 1 ? " is" : "s are"} still running: the server ` +
        `keeps going and stops when ${runs === 1 ? "it ends" : "they end"} ` +
        `(open ${this.d.url()} to watch; Ctrl+C stops now)`,
    );
    this.waiting = setInterval(() => {
      if (this.open > 0) return this.cancelWait();
      if (this.d.activeRuns() > 0) return;
      this.cancelWait();
      this.d.log("the last running task ended: stopping");
      this.finish();
    }, this.d.pollMs ?? 250);
  }

  /** The server stops (Ctrl+C, or its last task ended): its windows close with it. */
  closeAll(): void {
    this.stopping = true;
    this.cancelWait();
    for (const close of this.closers) close();
  }

  private cancelWait(): void {
    if (this.waiting !== null) clearInterval(this.waiting);
    this.waiting = null;
  }

  private finish(): void {
    if (this.stopping) return;
    this.closeAll();
    this.d.stop();
  }
}
