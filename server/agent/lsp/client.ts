/**
 * A minimal Language Server Protocol client over a child's stdio: Content-Length framed
 * JSON-RPC requests, notifications, and the server's notifications to a handler. Every
 * request has a deadline, so a server that stops answering never holds a tool call up.
 */

type Json = Record<string, unknown>;

export class LspClient {
  private child: Deno.ChildProcess;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private nextId = 1;
  private waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private enc = new TextEncoder();
  private closed = false;
  /** Resolves when the server's process has ended. */
  readonly ended: Promise<void>;
  onNotification: (method: string, params: Json) => void = () => {};

  constructor(cmd: string[], opts: { cwd: string; env: Record<string, string> }) {
    this.child = new Deno.Command(cmd[0], {
      args: cmd.slice(1),
      cwd: opts.cwd,
      env: opts.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.writer = this.child.stdin.getWriter();
    this.ended = this.read().finally(() => {
      this.closed = true;
      for (const w of this.waiting.values()) w.reject(new Error("the language server ended"));
      this.waiting.clear();
    });
  }

  private async read(): Promise<void> {
    let buf = new Uint8Array(0);
    const dec = new TextDecoder();
    try {
      for await (const chunk of this.child.stdout) {
        const next = new Uint8Array(buf.length + chunk.length);
        next.set(buf);
        next.set(chunk, buf.length);
        buf = next;
        while (true) {
          const head = dec.decode(buf.subarray(0, Math.min(buf.length, 1024)));
          const end = head.indexOf("\r\n\r\n");
          if (end < 0) break;
          const len = Number(/Content-Length:\s*(\d+)/i.exec(head.slice(0, end))?.[1] ?? NaN);
          if (!Number.isFinite(len)) return; // not a language server: stop reading
          const start = new TextEncoder().encode(head.slice(0, end + 4)).length;
          if (buf.length < start + len) break;
          const body = dec.decode(buf.subarray(start, start + len));
          buf = buf.slice(start + len);
          this.dispatch(JSON.parse(body));
        }
      }
    } catch { /* the pipe closed */ }
  }

  private dispatch(msg: Json): void {
    if (typeof msg.id === "number" && ("result" in msg || "error" in msg)) {
      const w = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      if (msg.error) w?.reject(new Error(String((msg.error as Json).message ?? "error")));
      else w?.resolve(msg.result);
    } else if (typeof msg.method === "string") {
      // Requests from the server (configuration, progress tokens) get an empty answer.
      if (msg.id !== undefined) void this.write({ jsonrpc: "2.0", id: msg.id, result: null });
      else this.onNotification(msg.method, (msg.params ?? {}) as Json);
    }
  }

  private async write(msg: Json): Promise<void> {
    if (this.closed) throw new Error("the language server ended");
    const body = this.enc.encode(JSON.stringify(msg));
    await this.writer.write(this.enc.encode(`Content-Length: ${body.length}\r\n\r\n`));
    await this.writer.write(body);
  }

  async request(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    const id = this.nextId++;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answer = new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      await this.write({ jsonrpc: "2.0", id, method, params });
      return await answer;
    } finally {
      clearTimeout(timer);
    }
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.write({ jsonrpc: "2.0", method, params });
  }

  /** Ends the server: a polite shutdown when it answers quickly, else a kill. */
  async close(): Promise<void> {
    if (!this.closed) {
      await this.request("shutdown", null, 1000).catch(() => {});
      await this.notify("exit", null).catch(() => {});
    }
    await this.writer.close().catch(() => {});
    try {
      this.child.kill("SIGKILL");
    } catch { /* already gone */ }
    await this.ended;
    await this.child.status;
  }
}
