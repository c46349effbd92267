/**
 * One terminal: a shell on a PTY, its bounded scrollback (for a reconnecting or second
 * client) and the connections viewing it. Output is batched into frames of at most
 * `TERMINAL_LIMITS.frameChars`; the master is not read again while a frame waits, a
 * viewer's socket is behind, or a viewer has not acknowledged (`terminal.ack`, sent once
 * its xterm has parsed the output) `TERMINAL_LIMITS.ackWindow` characters — so a flood
 * (`yes`) blocks the program, not the server or the page. A viewer that stays behind
 * longer than {@link LAG_MS} (a hidden tab) no longer holds the others back: it gets no
 * frames until it has caught up, then the whole screen again (`reset`).
 */
import { basename } from "../../lib/path.ts";
import { TERMINAL_LIMITS, type TerminalInfo } from "../../protocol/index.ts";
import {
  closeFd,
  openPty,
  readMaster,
  sessionLeaderArgs,
  setWindowSize,
  writeMaster,
} from "./pty.ts";
import { killSession, sessionProcesses } from "./processes.ts";

/** A connection showing the terminal (the WebSocket of one client). */
export interface TerminalViewer {
  readonly id: string;
  send(frame: string): void;
  /** Bytes queued on the socket and not yet sent. */
  buffered(): number;
}

const FLUSH_MS = 25;
/** A viewer this far behind pauses reading the PTY until it catches up. */
const VIEWER_BEHIND_BYTES = 256 * 1024;
/** A viewer with a full window this long is left behind (and resynced later). */
const LAG_MS = 1500;
/** Pending input beyond this is refused (the program does not read it). */
const MAX_PENDING_INPUT = 1024 * 1024;

export interface SessionOptions {
  id: string;
  shell: string;
  cwd: string;
  cols: number;
  rows: number;
  env: Record<string, string>;
  now: number;
  /** The list changed (exit). */
  changed: () => void;
}

export class TerminalSession {
  readonly info: TerminalInfo;
  readonly viewers = new Map<string, TerminalViewer>();
  /** Per viewer: characters sent and not yet acknowledged; since when its window is full. */
  private flow = new Map<string, { unacked: number; fullSince: number | null; behind: boolean }>();
  private master: number;
  private child: Deno.ChildProcess;
  private scrollback: string[] = [];
  private scrollbackChars = 0;
  private pending = "";
  private lastFrameChars = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private decoder = new TextDecoder();
  private encoder = new TextEncoder();
  private writes: Promise<void> = Promise.resolve();
  private inputQueued = 0;
  private closed = false;
  readonly ended: Promise<void>;

  constructor(private opts: SessionOptions) {
    const { master, slavePath } = openPty();
    this.master = master;
    try {
      setWindowSize(master, opts.cols, opts.rows);
      this.child = new Deno.Command("/bin/sh", {
        args: sessionLeaderArgs(slavePath, opts.shell, ["-i"]),
        cwd: opts.cwd,
        env: opts.env,
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
    } catch (e) {
      closeFd(master);
      throw e;
    }
    this.info = {
      id: opts.id,
      title: `${basename(opts.shell)} · ${basename(opts.cwd) || opts.cwd}`,
      shell: opts.shell,
      cwd: opts.cwd,
      tty: slavePath,
      pid: this.child.pid,
      cols: opts.cols,
      rows: opts.rows,
      createdAt: opts.now,
      exitCode: null,
    };
    this.child.status.then((s) => {
      this.info.exitCode = s.code;
      opts.changed();
    });
    this.ended = this.readLoop();
  }

  /** Reads the master until the slave side is gone (every process of the session ended). */
  private async readLoop(): Promise<void> {
    const buf = new Uint8Array(16 * 1024);
    for (;;) {
      await this.waitForRoom();
      const bytes = await readMaster(this.master, buf).catch(() => null);
      if (!bytes) break;
      this.output(this.decoder.decode(bytes, { stream: true }));
    }
    const code = await this.child.status.then((s) => s.code).catch(() => null);
    this.output(this.decoder.decode() + `\r\n\x1b[2m[process exited with code ${code}]\x1b[0m\r\n`);
    this.flush();
    closeFd(this.master);
    this.closed = true;
  }

  /** Back-pressure: wait while a frame is full or a viewer has not taken the last ones. */
  private async waitForRoom(): Promise<void> {
    while (this.pending.length >= TERMINAL_LIMITS.frameChars || this.viewerHoldsBack()) {
      await new Promise((r) => setTimeout(r, FLUSH_MS));
      if (this.pending.length >= TERMINAL_LIMITS.frameChars) this.flush();
    }
  }

  /** Whether a viewer (not left behind) has a full window or a full socket. */
  private viewerHoldsBack(): boolean {
    const now = Date.now();
    let holds = false;
    for (const v of this.viewers.values()) {
      const f = this.flow.get(v.id);
      if (!f || f.behind) continue;
      if (f.unacked < TERMINAL_LIMITS.ackWindow && v.buffered() <= VIEWER_BEHIND_BYTES) {
        f.fullSince = null;
        continue;
      }
      f.fullSince ??= now;
      if (now - f.fullSince > LAG_MS) f.behind = true; // stop waiting for it
      else holds = true;
    }
    return holds;
  }

  /** A viewer's xterm has parsed `chars` more characters. */
  ack(viewerId: string, chars: number): void {
    const f = this.flow.get(viewerId);
    const v = this.viewers.get(viewerId);
    if (!f || !v) return;
    f.unacked = Math.max(0, f.unacked - chars);
    if (f.behind && f.unacked === 0) {
      // Caught up with what it was sent: the screen it missed, whole.
      f.behind = false;
      f.fullSince = null;
      this.flush();
      const screen = this.scrollback.join("");
      f.unacked = screen.length;
      v.send(JSON.stringify({ t: "term", id: this.info.id, data: screen, reset: true }));
    }
  }

  private output(text: string): void {
    if (!text) return;
    this.scrollback.push(text);
    this.scrollbackChars += text.length;
    while (this.scrollbackChars > TERMINAL_LIMITS.scrollbackChars && this.scrollback.length > 1) {
      this.scrollbackChars -= this.scrollback.shift()!.length;
    }
    if (this.scrollbackChars > TERMINAL_LIMITS.scrollbackChars) {
      const only = this.scrollback[0].slice(-TERMINAL_LIMITS.scrollbackChars);
      this.scrollback = [only];
      this.scrollbackChars = only.length;
    }
    this.pending += text;
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Sends the waiting output to every viewer as one frame. */
  flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.pending) return;
    const frame = JSON.stringify({ t: "term", id: this.info.id, data: this.pending });
    this.lastFrameChars = this.pending.length;
    this.pending = "";
    for (const v of this.viewers.values()) {
      const f = this.flow.get(v.id);
      if (!f || f.behind) continue;
      f.unacked += this.lastFrameChars;
      v.send(frame);
    }
  }

  /** The kept output, to replay into a fresh view; `viewer` gets every frame after it. */
  attach(viewer: TerminalViewer): string {
    this.flush(); // what the others have not seen yet is part of the screen below
    this.viewers.set(viewer.id, viewer);
    const screen = this.scrollback.join("");
    this.flow.set(viewer.id, { unacked: screen.length, fullSince: null, behind: false });
    return screen;
  }

  detach(viewerId: string): void {
    this.viewers.delete(viewerId);
    this.flow.delete(viewerId);
  }

  input(data: string): void {
    if (this.closed || this.info.exitCode !== null) throw new Error("the shell has exited");
    const bytes = this.encoder.encode(data);
    if (this.inputQueued + bytes.length > MAX_PENDING_INPUT) {
      throw new Error("the terminal is not reading its input; wait or press Ctrl-C");
    }
    this.inputQueued += bytes.length;
    this.writes = this.writes
      .then(() => writeMaster(this.master, bytes))
      .catch(() => {})
      .finally(() => this.inputQueued -= bytes.length);
  }

  resize(cols: number, rows: number): void {
    if (this.closed) return;
    setWindowSize(this.master, cols, rows);
    this.info.cols = cols;
    this.info.rows = rows;
  }

  /** Commands running besides the shell itself (a close then asks first). */
  async running(): Promise<string[]> {
    const procs = await sessionProcesses(this.info.pid) ?? [];
    return procs.filter((p) => p.pid !== this.info.pid).map((p) => p.command);
  }

  /** Kills every process of the session and waits until the PTY is released. */
  async close(): Promise<void> {
    this.viewers.clear();
    this.flow.clear();
    await killSession(this.info.pid);
    try {
      this.child.kill("SIGKILL");
    } catch { /* already exited */ }
    // A daemon that left the session may still hold the tty open; do not wait forever.
    await Promise.race([this.ended, new Promise((r) => setTimeout(r, 2000))]);
  }
}
