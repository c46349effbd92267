/** A small protocol client for integration tests: requests, events, waiting. */
import type { EvtMsg, HelloMsg, ProtocolError } from "../../protocol/index.ts";

export class TestClient {
  hello!: HelloMsg;
  events: EvtMsg[] = [];
  private nextId = 1;
  private pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: unknown) => void }
  >();
  private waiters: (() => void)[] = [];
  closed: Promise<CloseEvent>;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((r) => ws.addEventListener("close", (e) => r(e as CloseEvent)));
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.t === "hello") this.hello = msg;
      else if (msg.t === "evt") this.events.push(msg);
      else if (msg.t === "res") {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.ok) p?.resolve(msg.result);
        else p?.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
      }
      for (const w of this.waiters.splice(0)) w();
    };
  }

  static async connect(base: string, token: string): Promise<TestClient> {
    const ws = new WebSocket(
      `${base.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`,
    );
    const c = new TestClient(ws);
    await c.until(() => c.hello !== undefined, "hello");
    return c;
  }

  // deno-lint-ignore no-explicit-any
  request<T = any>(op: string, args: unknown = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.ws.send(JSON.stringify({ t: "req", id, op, args }));
    });
  }

  /** Resolves with the error of a request expected to fail. */
  async failure(op: string, args: unknown = {}): Promise<ProtocolError> {
    try {
      await this.request(op, args);
    } catch (e) {
      return { code: (e as { code: ProtocolError["code"] }).code, message: (e as Error).message };
    }
    throw new Error(`${op} was expected to fail`);
  }

  /** Waits until `cond` holds (checked after every incoming message). */
  async until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!cond()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  close(): Promise<CloseEvent> {
    this.ws.close();
    return this.closed;
  }
}
