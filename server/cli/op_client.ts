/**
 * One interface to the op protocol, in-process or over the WebSocket of a running
 * instance. The headless CLI uses it so that `reinagent run` behaves the same either
 * way (and a run performed by a running instance shows live in its windows).
 */
import { mark } from "../../lib/trace.ts";
import { type EditorAskMsg, type EvtMsg, MCP_TOPIC } from "../../protocol/index.ts";
import { instancePath, tokenPath } from "../home.ts";
import type { ServerDeps } from "../ops/context.ts";
import type { HubClient } from "../sessions/hub.ts";
import { runOp } from "../ops/dispatch.ts";
import { CLI_CLIENT } from "../sessions/clients.ts";

export interface OpClient {
  // deno-lint-ignore no-explicit-any
  request<T = any>(op: string, args?: unknown): Promise<T>;
  onEvent(fn: (e: EvtMsg) => void): void;
  /** What the server asks of the editor this client speaks for (over a WebSocket only). */
  onEditorAsk?(fn: (m: EditorAskMsg) => void): void;
  close(): Promise<void>;
}

/** An error answered by the server, with its protocol code. */
export class OpClientError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/**
 * Ops run in this process against `deps` (no server). `exiting`: the process exits right
 * after `close` (a headless command), so the database is left to the OS instead of
 * closed. Closing checkpoints the WAL with two fsyncs (~5 ms of a run's exit); every
 * transaction is already committed to the WAL, which the next process to open the data
 * folder reads and folds in at its own checkpoint — the durability `synchronous=NORMAL`
 * gives while a server runs (a crash loses nothing; a power cut may lose the last
 * transactions, never the file's integrity). `settleMs`: how long side work a run started
 * (its task's title) may take to finish before `close` cancels it.
 */
export function localOpClient(
  deps: ServerDeps,
  opts: { exiting?: boolean; settleMs?: number } = {},
): OpClient {
  const listeners: ((e: EvtMsg) => void)[] = [];
  const client: HubClient = {
    id: `cli-${crypto.randomUUID()}`,
    topics: new Set(["tasks", MCP_TOPIC]),
    info: CLI_CLIENT,
    deliver: (events) => events.forEach((e) => listeners.forEach((fn) => fn(e))),
  };
  deps.hub.add(client);
  return {
    async request(op, args = {}) {
      const out = await runOp({ ...deps, client }, op, args);
      if (!out.ok) throw new OpClientError(out.error.code, out.error.message);
      // deno-lint-ignore no-explicit-any
      return out.result as any;
    },
    onEvent: (fn) => void listeners.push(fn),
    async close() {
      deps.hub.remove(client);
      await deps.runs?.settle(opts.settleMs ?? 0);
      await deps.runs?.stopAll();
      mark("close: runs stopped");
      await deps.mcp?.close(); // its stdio servers' process groups
      mark("close: mcp closed");
      deps.hub.close();
      if (!opts.exiting) deps.store.close();
      mark("close: store closed");
    },
  };
}

/** Ops over `/ws` of a running server. Resolves once the server said hello. */
export function remoteOpClient(base: string, token: string, timeoutMs = 5000): Promise<OpClient> {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws?token=${encodeURIComponent(token)}`);
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  const listeners: ((e: EvtMsg) => void)[] = [];
  const asks: ((m: EditorAskMsg) => void)[] = [];
  let nextId = 1;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error(`no answer from ${base} within ${timeoutMs} ms`));
    }, timeoutMs);
    ws.onerror = () => reject(new Error(`cannot connect to ${base}`));
    ws.onclose = () => {
      for (const p of pending.values()) {
        p.reject(new OpClientError("disconnected", "the server closed the connection"));
      }
      pending.clear();
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.t === "hello") {
        clearTimeout(timer);
        resolve({
          request(op, args = {}) {
            const id = nextId++;
            ws.send(JSON.stringify({ t: "req", id, op, args }));
            return new Promise((res, rej) => pending.set(id, { resolve: res, reject: rej }));
          },
          onEvent: (fn) => void listeners.push(fn),
          onEditorAsk: (fn) => void asks.push(fn),
          close() {
            if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
            const closed = new Promise<void>((r) => ws.addEventListener("close", () => r()));
            ws.close();
            return closed;
          },
        });
      } else if (msg.t === "res") {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.ok) p?.resolve(msg.result);
        else p?.reject(new OpClientError(msg.error.code, msg.error.message));
      } else if (msg.t === "evt") listeners.forEach((fn) => fn(msg));
      else if (msg.t === "editor") asks.forEach((fn) => fn(msg));
    };
  });
}

/** Connects to the running instance of this home, if one answers. */
export async function runningInstance(home: string): Promise<OpClient | null> {
  let info: { base?: string };
  let token: string;
  try {
    info = JSON.parse(Deno.readTextFileSync(instancePath(home)));
    token = (Deno.readTextFileSync(tokenPath(home))).trim();
  } catch {
    return null; // no instance file: nothing is running
  }
  if (!info.base) return null;
  try {
    return await remoteOpClient(info.base, token, 3000);
  } catch {
    return null; // stale instance file (crashed server)
  }
}
