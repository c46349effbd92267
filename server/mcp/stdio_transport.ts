/**
 * The stdio transport for MCP servers, on `Deno.Command` rather than the SDK's Node
 * spawn: the child leads its own process group (`detached` = setsid), so stopping it
 * kills everything it started; it gets the environment commands get (no provider keys,
 * tokens or ReinAgent variables, plus the server's own `env`); its stderr's last lines
 * are kept for errors and the MCP page. Framing is the SDK's own (`ReadBuffer`,
 * `serializeMessage`), bounded by the SDK's buffer limit.
 */
import { Buffer } from "node:buffer";
import {
  ReadBuffer,
  serializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
} from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { signalGroup, terminateGroup } from "../../tools/exec/process.ts";

const TAIL_LINES = 200;
const TAIL_LINE_CHARS = 500;

/** The last lines of a stream, each cut to a readable length. */
export class LineTail {
  private lines: string[] = [];
  private partial = "";
  private decoder = new TextDecoder();

  push(chunk: Uint8Array): void {
    const text = this.partial + this.decoder.decode(chunk, { stream: true });
    const parts = text.split(/\r?\n/);
    this.partial = parts.pop()!.slice(-TAIL_LINE_CHARS * 4);
    for (const l of parts) this.add(l);
  }

  private add(line: string): void {
    if (!line.trim()) return;
    this.lines.push(line.length > TAIL_LINE_CHARS ? `${line.slice(0, TAIL_LINE_CHARS)}…` : line);
    if (this.lines.length > TAIL_LINES) this.lines.splice(0, this.lines.length - TAIL_LINES);
  }

  /** The last `n` lines (with the unfinished one). */
  last(n = TAIL_LINES): string[] {
    const all = this.partial.trim() ? [...this.lines, this.partial.slice(0, TAIL_LINE_CHARS)] : [
      ...this.lines,
    ];
    return all.slice(-n);
  }
}

export interface StdioOptions {
  command: string;
  args: string[];
  /** The whole environment of the child (already filtered). */
  env: Record<string, string>;
  cwd?: string;
}

export class DenoStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly stderr = new LineTail();
  /** How the child ended, once it has. */
  exit: Deno.CommandStatus | null = null;
  private child: Deno.ChildProcess | null = null;
  private writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  private buffer = new ReadBuffer();
  private closed = false;
  /** Why this side stopped the server (it broke the protocol's limits). */
  private refused: string | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(private opts: StdioOptions) {}

  /** Whether this side stopped the server for breaking the limits. */
  get stopped(): boolean {
    return this.refused !== null;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Spawns the child; throws when it cannot be started. Idempotent (the SDK calls it again). */
  start(): Promise<void> {
    if (this.child) {
      if (this.exit) return Promise.reject(new Error(this.exitText()));
      return Promise.resolve();
    }
    const { command, args, env, cwd } = this.opts;
    this.child = new Deno.Command(command, {
      args,
      env,
      clearEnv: true,
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: Deno.build.os !== "windows",
    }).spawn();
    this.writer = this.child.stdin.getWriter();
    const out = this.pump(this.child.stdout, (chunk) => this.onData(chunk));
    const err = this.pump(this.child.stderr, (chunk) => this.stderr.push(chunk));
    this.exited = this.child.status.then(async (st) => {
      this.exit = st;
      // What the server started lives on in its group: nothing of it may outlive it.
      if (Deno.build.os !== "windows") signalGroup(this.child!.pid, "SIGKILL");
      await Promise.allSettled([out, err]);
      this.finish();
    });
    return Promise.resolve();
  }

  /** "exited with code 1" / "was killed by SIGKILL" / why it was stopped. */
  exitText(): string {
    if (this.refused) return `was stopped: it ${this.refused}`;
    const st = this.exit;
    if (!st) return "is running";
    return st.signal ? `was killed by ${st.signal}` : `exited with code ${st.code}`;
  }

  private async pump(stream: ReadableStream<Uint8Array>, on: (c: Uint8Array) => void) {
    try {
      for await (const chunk of stream) on(chunk);
    } catch { /* the child went away */ }
  }

  private onData(chunk: Uint8Array): void {
    if (this.refused) return;
    try {
      this.buffer.append(Buffer.from(chunk));
    } catch (e) {
      // More than the SDK's limit without a line break: broken or hostile, it is stopped.
      this.refused = `sent more than ${
        STDIO_DEFAULT_MAX_BUFFER_SIZE / 1048576
      } MB without a message end`;
      this.onerror?.(e as Error);
      void this.close();
      return;
    }
    while (true) {
      let msg: JSONRPCMessage | null;
      try {
        msg = this.buffer.readMessage();
      } catch (e) {
        // A line that is no JSON-RPC message (a log on stdout): reported, the rest goes on.
        this.onerror?.(e as Error);
        continue;
      }
      if (!msg) break;
      this.onmessage?.(msg);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.writer || this.exit) throw new Error(`the server ${this.exitText()}`);
    await this.writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /** Stops the child's whole process group (TERM, then KILL) and waits for it. */
  async close(): Promise<void> {
    if (this.child && !this.exit) {
      this.writer?.close().catch(() => {});
      await terminateGroup(this.child.pid, 1500);
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, 3000))]);
    }
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
